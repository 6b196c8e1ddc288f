"""Rolls from a sheet: the modifiers a player sets, the exact odds, the roll, the table's log.

The dice themselves are the rulesets' (`rollables`, `roll_options`, `odds`, `roll` and
`DICE_READINGS` of each system's package, see rulesets/core/rolls.py); this module only
loads the sheet through the permission selector, stores what was rolled and decides who
reads it. A roll is a write: one transaction, the character's row locked, so a Luck point
and the roll that spends it are stored together or not at all.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from rulesets.core import resolve_settings
from rulesets.core.diecode import DieCode
from rulesets.core.parsing import WHOLE_NUMBER, YES
from rulesets.core.rolls import (
    InvalidRoll,
    Odds,
    Rollable,
    RollOption,
    dice_readings,
    parse_roll_options,
)
from rulesets.registry import dice_ready, get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import engine_sheet
from sheets.campaigns.models import Campaign, Role
from sheets.characters.models import Character
from sheets.characters.services import EditRefused, StaleVersion, character_apply_edits
from sheets.live.bus import roll_logged
from sheets.npcs.handover import NpcRefused, first_gm, pass_to_gm
from sheets.permissions import (
    CharacterAccess,
    Need,
    campaign_role,
    character_for,
    hidden_npc_characters,
)
from sheets.rolls.dice import dice_random
from sheets.rolls.hits import roll_facts
from sheets.rolls.models import RollEntry
from sheets.scenes.models import Scene
from sheets.scenes.state import running_scene_of

User = AbstractBaseUser | AnonymousUser

# How many entries a log shows at first, and the most one poll brings back.
LOG_LENGTH = 50

# Where a refusal that belongs to no single modifier is shown: beside the Roll button.
WHOLE_ROLL = "roll"
SECRET = "secret"
CAMPAIGN = "campaign"


class RollRefused(Exception):
    """A roll that cannot be made; `errors` maps each field at fault to its message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = dict(errors)


@dataclass(frozen=True)
class RollSetup:
    """One rollable of one sheet, with the modifiers it takes and the readings in force."""

    character: Character
    rollable: Rollable
    definitions: tuple[RollOption, ...]
    readings: dict[str, Any]
    settings: dict[str, Any]
    # The scene of its table the character is in, whose round a roll is made in (SWd10's
    # once-a-round Destiny point, 000:L81), or None.
    scene: Scene | None = None


def character_settings(character: Character) -> dict[str, Any]:
    return resolve_settings(get_ruleset(character.system).SETTINGS, character.readings_in_force)


def rollables_of(character: Character, settings: Mapping[str, Any] | None = None) -> tuple:
    """Everything this sheet can roll; nothing while the system's dice are not there.

    Read from the sheet as its engine sees it, with the ledger's figures laid over: a WEG
    roll offers the Character Points the ledger holds.
    """
    if not dice_ready(character.system):
        return ()
    resolved = character_settings(character) if settings is None else settings
    sheet = engine_sheet(character)
    return tuple(get_ruleset(character.system).rollables(sheet, resolved))


def roll_setup(
    character: Character,
    key: str,
    *,
    settings: Mapping[str, Any] | None = None,
    rollables: tuple[Rollable, ...] | None = None,
) -> RollSetup:
    """The rollable named `key` on this sheet, or RollRefused when the sheet has none.

    A page that has the settings and rollables already passes them, so the sheet is read
    once per request.
    """
    settings = character_settings(character) if settings is None else dict(settings)
    if rollables is None:
        rollables = rollables_of(character, settings)
    for rollable in rollables:
        if rollable.key == key:
            ruleset = get_ruleset(character.system)
            scene, rollable = _in_round(character, rollable)
            return RollSetup(
                character=character,
                rollable=rollable,
                definitions=tuple(ruleset.roll_options(rollable, settings)),
                readings=dice_readings(settings, ruleset.DICE_READINGS),
                settings=settings,
                scene=scene,
            )
    raise RollRefused({WHOLE_ROLL: "This sheet has nothing of that name to roll."})


def running_scene(character: Character) -> Scene | None:
    """The running scene of its table the character is in (sheets/scenes/state)."""
    return running_scene_of(character)


def _in_round(character: Character, rollable: Rollable) -> tuple[Scene | None, Rollable]:
    """The rollable as rolled in its scene's round, for a system whose spends count rounds
    (`round_state`, `at_round`): what was spent in that round is read from the rolls logged
    in it. Unchanged outside a scene."""
    ruleset = get_ruleset(character.system)
    state_of = getattr(ruleset, "round_state", None)
    scene = running_scene(character) if state_of is not None else None
    if scene is None:
        return None, rollable
    logged = RollEntry.objects.filter(
        character=character, facts__scene_id=scene.pk, facts__scene_round=scene.round
    ).values_list("facts", flat=True)
    return scene, ruleset.at_round(rollable, state_of(scene.name, scene.round, list(logged)))


def _scene_facts(setup: RollSetup) -> dict[str, int]:
    """The scene and round a roll was made in, for the next roll's count of that round."""
    if setup.scene is None:
        return {}
    return {"scene_id": setup.scene.pk, "scene_round": setup.scene.round}


def _unpaid(setup: RollSetup, raw: Mapping[str, str]) -> None:
    """Refuse a spend the form asks for and the sheet no longer offers (its last Willpower
    or Force Point went since the page was drawn): rolling without it would surprise."""
    spends = getattr(get_ruleset(setup.character.system), "ROLL_SPENDS", {})
    offered = {option.key for option in setup.definitions}
    for key, message in spends.items():
        text = str(raw.get(key, "") or "").strip().lower()
        # A number as the options read one (ASCII, at most nine digits): the options refuse
        # any other with a message, and int() of thousands of digits raises.
        asked = text in YES or (WHOLE_NUMBER.fullmatch(text) is not None and int(text) > 0)
        if asked and key not in offered:
            raise RollRefused({WHOLE_ROLL: message})


def roll_odds(setup: RollSetup, raw: Mapping[str, str]) -> tuple[dict[str, Any], Odds]:
    """Read the modifiers a form sent and answer the exact odds, or RollRefused."""
    _unpaid(setup, raw)
    try:
        chosen = parse_roll_options(setup.definitions, raw)
        options = chosen | setup.readings
        odds = get_ruleset(setup.character.system).odds(setup.rollable, options)
    except InvalidRoll as refused:
        raise RollRefused({_field(setup, refused.option): refused.message}) from None
    return chosen, odds


def _field(setup: RollSetup, option: str) -> str:
    """The form field a refusal is shown beside: the option's own, else the Roll button."""
    return option if any(d.key == option for d in setup.definitions) else WHOLE_ROLL


def modifiers_text(definitions: tuple[RollOption, ...], chosen: Mapping[str, Any]) -> str:
    """The modifiers of a roll in a line ("Difficulty 7, Willpower spent"), for the log."""
    parts = []
    for option in definitions:
        value = chosen.get(option.key, option.default)
        if option.kind == "flag":
            if value:
                parts.append(option.label)
        elif option.kind == "choice":
            label = dict(option.choices).get(value, str(value))
            parts.append(f"{option.label}: {label}")
        elif value != option.default or option.key == "difficulty" or value:
            parts.append(f"{option.label} {value}")
    return ", ".join(parts)


def pool_text(dice: Any) -> str:
    """A die code as the table writes it ("4D+2"); other systems' pools read better in the
    odds' own question ("2d: at least one set"), so they print nothing here."""
    return str(dice)[:120] if isinstance(dice, DieCode) else ""


def _sheet_edits(setup: RollSetup, options: Mapping[str, Any], result: Any) -> dict[str, str]:
    """What a roll marks on the sheet (a Midichlorian Luck point, Willpower or a Force
    Point spent), by trait key."""
    edits = getattr(get_ruleset(setup.character.system), "roll_edits", None)
    if edits is None:
        return {}
    return dict(edits(setup.rollable, options, result))


def _ledger_spend(setup: RollSetup, options: Mapping[str, Any]) -> int:
    """What a roll takes from the ledger's balance (WEG Character Points spent on it)."""
    spend = getattr(get_ruleset(setup.character.system), "roll_ledger_spend", None)
    return int(spend(setup.rollable, options)) if spend is not None else 0


def _spend(
    user: AbstractBaseUser,
    character: Character,
    access: CharacterAccess,
    setup: RollSetup,
    options: Mapping[str, Any],
    result: Any,
) -> None:
    """Write what the roll spends, in the roll's transaction: points on the ledger (one
    entry), marks on the sheet through the edit service. Refused: RollRefused, no roll."""
    points = _ledger_spend(setup, options)
    if points:
        if not access.owner:
            raise RollRefused(
                {WHOLE_ROLL: "Not rolled: only the character's player spends its points."}
            )
        try:
            ledger.spend_in_play(
                character,
                user,
                amount=points,
                trait=f"roll.{setup.rollable.key}"[:200],
                label=f"Roll: {setup.rollable.label}"[:200],
            )
        except ledger.LedgerRefused as refused:
            field = refused.field if refused.field in options else WHOLE_ROLL
            raise RollRefused({field: f"Not rolled: {refused.message}"}) from None
    edits = _sheet_edits(setup, options, result)
    if not edits:
        return
    # What the rules themselves write as a roll's outcome (a Path's lost grade), whoever
    # may roll the sheet: a player's roll at a table marks what only the GM sets by hand.
    ruled = frozenset(getattr(get_ruleset(character.system), "ROLL_RULED", ()))
    try:
        character_apply_edits(
            user=user,
            character_id=character.pk,
            edits=edits,
            expected_version=character.version,
            ruled=ruled,
        )
    except EditRefused as refused:
        # The roll would mark the sheet (Luck spent) and that mark is refused: no roll.
        reason = " ".join(refused.errors.values())
        raise RollRefused({WHOLE_ROLL: f"Not rolled: {reason}"}) from None
    except StaleVersion as stale:
        raise RollRefused({WHOLE_ROLL: str(stale)}) from None


def _check_table(user: User, character: Character, drawn_campaign: int | None) -> None:
    """A roll goes to the log of the table the page was drawn for, by someone at it."""
    if drawn_campaign != character.campaign_id:
        message = (
            "This character has left that table since this page was drawn; reload it."
            if character.campaign_id is None
            else "This character now plays at another table; reload the page before rolling."
        )
        raise RollRefused({CAMPAIGN: message})
    if character.campaign_id is not None and campaign_role(user, character.campaign) is None:
        raise RollRefused({CAMPAIGN: "You are not at this character's table any more."})


def roll_make(
    *,
    user: AbstractBaseUser,
    character_id: int,
    rollable_key: str,
    raw: Mapping[str, str],
    secret: bool = False,
    drawn_campaign: int | None,
    rng: random.Random | None = None,
) -> RollEntry:
    """Roll one rollable of a sheet its owner or its table's GM may roll, and log it.

    `drawn_campaign` is the table the roll page showed (None for none): a roll never lands
    in another table's log. Refusals (RollRefused, or 404/403 from the selector) store
    nothing; a roll that marks the sheet (Luck) writes it through character_apply_edits,
    in the same transaction, and points spent (WEG Character Points) as a ledger entry.
    """
    with transaction.atomic():
        character, access = character_for(user, character_id, Need.EDIT, for_update=True)
        _check_table(user, character, drawn_campaign)
        if secret and not access.gm:
            raise RollRefused({SECRET: "Only a GM of this character's table rolls in secret."})
        setup = roll_setup(character, rollable_key)
        chosen, odds = roll_odds(setup, raw)
        options = chosen | setup.readings
        ruleset = get_ruleset(character.system)
        try:
            result = ruleset.roll(setup.rollable, options, rng or dice_random())
        except InvalidRoll as refused:
            raise RollRefused({_field(setup, refused.option): refused.message}) from None
        _spend(user, character, access, setup, options, result)
        roll_logged(character.campaign_id, character.pk)  # to the log's open pages, on commit
        entry = RollEntry.objects.create(
            campaign_id=character.campaign_id,
            character=character,
            author=user,
            secret=secret,
            system=character.system,
            rollable_key=setup.rollable.key[:120],
            rollable_label=setup.rollable.label[:200],
            pool=pool_text(setup.rollable.dice),
            options=chosen,
            modifiers=modifiers_text(setup.definitions, chosen)[:400],
            dice=list(result.dice),
            kept=result.kept[:200],
            outcome=result.outcome[:40],
            summary=result.summary[:300],
            details=list(result.details),
            total=result.total,
            success=result.success,
            odds=f"{odds.success.numerator}/{odds.success.denominator}",
            odds_percent=odds.percent,
            question=odds.question[:200],
            facts=roll_facts(character.system, setup.rollable, result) | _scene_facts(setup),
        )
        if entry.facts.get("consumed") is True:
            _consumed(user, character, access, entry)
        return entry


def _consumed(user, character: Character, access: CharacterAccess, entry: RollEntry) -> None:
    """A WEG 1E call on the Dark Side whose GM's die consumed the character (003:1708):
    at a table it passes to the GM as an NPC (003:1710), to the GM who rolled it or else the
    table's longest-serving GM; outside a table nothing changes hands."""
    if character.campaign_id is None:
        return
    gm = user if access.gm else first_gm(character.campaign)
    if gm is None:
        return  # a table without a GM has no one to take it; the log says consumed
    # The roll's own marks (the call counted, its points) were written through the edit
    # service on another copy of the row, which this transaction still holds locked.
    character.refresh_from_db()
    try:
        pass_to_gm(character=character, gm=gm, why="a call on the Dark Side", rolled=entry)
    except NpcRefused as refused:
        raise RollRefused({WHOLE_ROLL: " ".join(refused.errors.values())}) from None


POWER_SOAK = "power_soak"


def roll_power_soak(
    *,
    user: AbstractBaseUser,
    character_id: int,
    roll_id: int,
    raw: Mapping[str, str],
    drawn_campaign: int | None,
) -> RollEntry:
    """The second step of a logged soak (SWd10's current Power after Stamina, 000:L106):
    points spent on the levels its result left, written on the sheet through the edit
    service and in the log as an entry of its own, the soak marked as followed. Refused
    (RollRefused): nothing stored."""
    with transaction.atomic():
        character, _access = character_for(user, character_id, Need.EDIT, for_update=True)
        _check_table(user, character, drawn_campaign)
        step = getattr(get_ruleset(character.system), "power_soak", None)
        soak = (
            RollEntry.objects.select_for_update()
            .filter(pk=roll_id, character=character, kind=RollEntry.Kind.ROLL)
            .first()
        )
        if step is None or soak is None:
            raise RollRefused({POWER_SOAK: "No soak of this character's to follow."})
        current = int(character.sheet.get("power_current", 0) or 0)
        try:
            points, edits, line = step(soak.facts or {}, current, raw.get(POWER_SOAK))
        except InvalidRoll as refused:
            raise RollRefused({POWER_SOAK: refused.message}) from None
        try:
            character_apply_edits(
                user=user,
                character_id=character.pk,
                edits=edits,
                expected_version=character.version,
            )
        except EditRefused as refused:
            raise RollRefused({POWER_SOAK: " ".join(refused.errors.values())}) from None
        except StaleVersion as stale:
            raise RollRefused({POWER_SOAK: str(stale)}) from None
        soak.facts = (soak.facts or {}) | {"power_soaked": points}
        soak.details = [*soak.details, line]
        soak.save(update_fields=["facts", "details"])
        roll_logged(soak.campaign_id, character.pk)
        return RollEntry.objects.create(
            campaign_id=soak.campaign_id,
            character=character,
            author=user,
            secret=soak.secret,
            system=character.system,
            rollable_key=soak.rollable_key,
            rollable_label=f"{soak.rollable_label}: current Power after it"[:200],
            options={POWER_SOAK: points},
            modifiers=f"Current Power spent: {points}",
            kept=f"{points} level(s) soaked",
            outcome="soaked",
            summary=line[:1].upper() + line[1:300],
            details=[f"follows the soak of {timezone.localtime(soak.created_at):%H:%M:%S}"],
            total=points,
            success=True,
            odds="1/1",
            odds_percent="",
            facts={"follows_soak": soak.pk},
        )


# Spends between rolls ---------------------------------------------------------------------

# The form field a between-rolls refusal names when it names none of its own.
BETWEEN = "between"


@dataclass(frozen=True)
class SceneCounts:
    """The scene a character is in and what was spent in it and in its round, as the
    system's spends count them (SWd10: `round_state`, `scene_state`), or none."""

    scene: Scene | None
    round: Any = None
    scene_state: Any = None


def scene_counts(character: Character) -> SceneCounts:
    """What the character spent in its running scene and round (the log's facts)."""
    ruleset = get_ruleset(character.system)
    state_of = getattr(ruleset, "scene_state", None)
    scene = running_scene(character) if state_of is not None else None
    if scene is None:
        return SceneCounts(None)
    logged = list(
        RollEntry.objects.filter(character=character, facts__scene_id=scene.pk).values_list(
            "facts", flat=True
        )
    )
    in_round = [facts for facts in logged if facts.get("scene_round") == scene.round]
    return SceneCounts(
        scene,
        ruleset.round_state(scene.name, scene.round, in_round),
        state_of(scene.name, logged),
    )


def spend_between(
    *,
    user: AbstractBaseUser,
    character_id: int,
    action: str,
    raw: Mapping[str, str],
    drawn_campaign: int | None,
) -> RollEntry:
    """A spend between rolls (SWd10's Destiny once a scene or on a use no roll carries,
    current Power at a round's start, a full rest, 000:L86-106, L176), by whoever may roll
    the sheet: written on the sheet through the edit service and logged as a line of its
    own, in one transaction; counted in the character's running scene and round. Refused
    (RollRefused, keyed by the action): nothing stored."""
    with transaction.atomic():
        character, _access = character_for(user, character_id, Need.EDIT, for_update=True)
        _check_table(user, character, drawn_campaign)
        ruleset = get_ruleset(character.system)
        between = getattr(ruleset, "between_rolls", None)
        if between is None:
            raise RollRefused({BETWEEN: "This system spends nothing between rolls."})
        counts = scene_counts(character)
        try:
            spent = between(
                engine_sheet(character),
                character_settings(character),
                action,
                counts.round,
                counts.scene_state,
                raw,
            )
        except InvalidRoll as refused:
            raise RollRefused({refused.option: refused.message}) from None
        try:
            # What the rule writes, whoever may roll the sheet: at a table the GM spending a
            # player's point, or the player a figure the GM otherwise sets.
            character_apply_edits(
                user=user,
                character_id=character.pk,
                edits=spent.edits,
                expected_version=character.version,
                ruled=frozenset(spent.edits),
            )
        except EditRefused as refused:
            raise RollRefused({action: " ".join(refused.errors.values())}) from None
        except StaleVersion as stale:
            raise RollRefused({action: str(stale)}) from None
        facts = dict(spent.facts)
        if counts.scene is not None:
            facts |= {"scene_id": counts.scene.pk, "scene_round": counts.scene.round}
        roll_logged(character.campaign_id, character.pk)
        return RollEntry.objects.create(
            kind=RollEntry.Kind.SPEND,
            campaign_id=character.campaign_id,
            character=character,
            author=user,
            system=character.system,
            rollable_key=action[:120],
            rollable_label=spent.label[:200],
            options={},
            modifiers="",
            kept="",
            outcome="spent",
            summary=(spent.line[:1].upper() + spent.line[1:])[:300],
            details=list(spent.details),
            total=None,
            success=True,
            odds="1/1",
            odds_percent="",
            facts=facts,
        )


# Reading the logs ------------------------------------------------------------------------

# A poll asks again for every entry written this long ago or less. Ids are handed out when
# a row is inserted and become visible when its transaction commits, so with two app
# servers entry 10 can appear after entry 11 was shown: "newer than the last id shown"
# alone would skip it. A roll's transaction lasts milliseconds; 30 s leaves room for a
# slow commit and for the app servers' clocks to differ (created_at is set by the server
# that inserts the row).
POLL_OVERLAP = timedelta(seconds=30)
# The most ids a page says it has seen within the overlap (a table rolls far fewer).
MOST_SEEN = 200


def _since(entries: QuerySet[RollEntry], after: int, seen: frozenset[int] | None):
    """The entries a log has not shown: newer than `after` when first drawn; when polling
    (`seen` given), also any written within POLL_OVERLAP that is not among `seen`."""
    if seen is None:
        return entries.filter(pk__gt=after)
    recent = Q(created_at__gte=timezone.now() - POLL_OVERLAP)
    return entries.filter(Q(pk__gt=after) | recent).exclude(pk__in=seen)


def table_log(
    user: User,
    campaign: Campaign,
    *,
    after: int = 0,
    seen: frozenset[int] | None = None,
    role: Role | None = None,
) -> QuerySet[RollEntry]:
    """The table's rolls `user` may read, newest first: a secret roll only for its GMs.

    The caller has loaded `campaign` through campaign_for (so `user` is at the table).
    """
    return _for_log(_since(_table_entries(user, campaign, role), after, seen))


def _table_entries(user: User, campaign: Campaign, role: Role | None) -> QuerySet[RollEntry]:
    role = role if role is not None else campaign_role(user, campaign)
    entries = RollEntry.objects.filter(campaign=campaign)
    if role is not Role.GM:
        entries = entries.filter(secret=False)
        # A hidden NPC's rolls are the GMs' until they reveal it (sheets/permissions.py).
        entries = entries.exclude(character__in=hidden_npc_characters(campaign))
    return entries


def table_entries(user: User, campaign: Campaign, role: Role | None = None):
    """The table's rolls `user` may read, neither ordered nor cut: the HTTP API (sheets/api)
    pages through them by id, under the same rule as the log's page."""
    return _table_entries(user, campaign, role)


def sheet_log(
    character: Character,
    access: CharacterAccess,
    *,
    after: int = 0,
    seen: frozenset[int] | None = None,
):
    """The rolls a character outside any table made, for whoever may see its sheet."""
    return _for_log(_since(_sheet_entries(character, access), after, seen))


def _sheet_entries(character: Character, access: CharacterAccess) -> QuerySet[RollEntry]:
    if not access.view:
        return RollEntry.objects.none()
    return RollEntry.objects.filter(Q(character=character) & Q(campaign__isnull=True))


def recent_ids(entries: QuerySet[RollEntry]) -> frozenset[int]:
    """The ids among `entries` a next poll could bring again: those within the overlap."""
    since = timezone.now() - POLL_OVERLAP
    return frozenset(entries.filter(created_at__gte=since).values_list("pk", flat=True)[:MOST_SEEN])


def table_recent_ids(user: User, campaign: Campaign, role: Role | None) -> frozenset[int]:
    return recent_ids(_table_entries(user, campaign, role))


def sheet_recent_ids(character: Character, access: CharacterAccess) -> frozenset[int]:
    return recent_ids(_sheet_entries(character, access))


def _for_log(entries: QuerySet[RollEntry]) -> QuerySet[RollEntry]:
    return entries.select_related("author", "character").order_by("-pk")[:LOG_LENGTH]
