"""What the roll pages and the logs show: built here so views and template tags share it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import timezone

from rulesets.core.parsing import YES, ascii_number
from rulesets.core.rolls import Odds, Rollable, RollOption
from rulesets.registry import dice_ready, get_ruleset
from sheets.campaigns.models import Campaign, Role
from sheets.characters.models import Character
from sheets.permissions import CharacterAccess, User, campaign_role
from sheets.rolls.charts import chart_for
from sheets.rolls.hits import (
    HIT_SYSTEMS,
    MARK,
    HitRefused,
    hit_options,
    hit_targets,
    plan_hit,
    readable_roll,
    roll_hits,
    scene_targets,
)
from sheets.rolls.models import RollEntry
from sheets.rolls.services import (
    CAMPAIGN,
    MOST_SEEN,
    POLL_OVERLAP,
    POWER_SOAK,
    SECRET,
    WHOLE_ROLL,
    RollRefused,
    RollSetup,
    character_settings,
    pool_text,
    roll_odds,
    roll_setup,
    rollables_of,
    scene_counts,
    sheet_log,
    table_log,
)

# Form fields that do not travel to the page drawn after a roll (the modifiers and the
# secret flag do, so the form comes back as it was).
_DROPPED = {"csrfmiddlewaretoken", CAMPAIGN, "rolled"}


@dataclass(frozen=True)
class RollField:
    """One modifier as the form draws it: the option, what the input shows, its message."""

    option: RollOption
    value: str
    checked: bool
    error: str

    @property
    def dom_id(self) -> str:
        return "roll-" + "".join(c if c.isalnum() else "-" for c in self.option.key)


@dataclass(frozen=True)
class RollLog:
    """A log as a page shows it: its newest entries and where to poll for newer ones.

    A poll sends the last id shown (`after`) and the ids shown that a poll may bring again
    (`seen`: written within POLL_OVERLAP), so an entry committed after a newer one is
    still brought, and nothing is brought twice.
    """

    title: str
    url: str
    entries: list[RollEntry]
    gm: bool = False
    empty: str = "No rolls yet."
    after: int = 0
    seen: frozenset[int] = frozenset()

    @property
    def last_id(self) -> int:
        # An entry committed late has an id below `after`: the mark never moves back.
        return max([self.after, *(entry.pk for entry in self.entries)])

    @property
    def seen_text(self) -> str:
        return ",".join(str(pk) for pk in sorted(self.seen))


def parse_seen(raw: str) -> frozenset[int]:
    """The ids a page says it shows ("12,15,16"); anything unreadable is left out."""
    ids = (ascii_number(part.strip()) for part in str(raw).split(",")[:MOST_SEEN])
    return frozenset(pk for pk in ids if pk is not None)


def _seen_now(entries: list[RollEntry]) -> frozenset[int]:
    since = timezone.now() - POLL_OVERLAP
    return frozenset(entry.pk for entry in entries if entry.created_at >= since)


@dataclass(frozen=True)
class Reading:
    label: str
    value: str
    source: str


@dataclass
class RollMenu:
    """The rollables of a sheet under their headings, in the sheet's order."""

    groups: list[tuple[str, list[Rollable]]] = field(default_factory=list)

    @classmethod
    def of(cls, rollables: tuple[Rollable, ...]) -> RollMenu:
        menu = cls()
        for rollable in rollables:
            if menu.groups and menu.groups[-1][0] == rollable.group:
                menu.groups[-1][1].append(rollable)
            else:
                menu.groups.append((rollable.group, [rollable]))
        return menu


def table_roll_log(
    campaign: Campaign,
    role: Role | None,
    entries: list[RollEntry],
    *,
    after: int = 0,
    seen: frozenset[int] | None = None,
) -> RollLog:
    """The table's log; `seen` is what a poll's page shows now, with `entries` added."""
    return RollLog(
        title="The table's rolls",
        url=reverse("campaign_roll_log", args=[campaign.pk]),
        entries=entries,
        gm=role is Role.GM,
        empty="No rolls at this table yet.",
        after=after,
        seen=_seen_now(entries) if seen is None else seen,
    )


def sheet_roll_log(
    character: Character,
    entries: list[RollEntry],
    *,
    after: int = 0,
    seen: frozenset[int] | None = None,
) -> RollLog:
    return RollLog(
        title="Recent rolls",
        url=reverse("character_roll_log", args=[character.pk]),
        entries=entries,
        empty="No rolls yet. This character is at no table, so its rolls show here only.",
        after=after,
        seen=_seen_now(entries) if seen is None else seen,
    )


def log_for_character(user: User, character: Character, access: CharacterAccess) -> RollLog:
    """The log a sheet shows: its table's (the secret rolls for its GMs), else its own."""
    if character.campaign_id is not None:
        campaign = character.campaign
        role = campaign_role(user, campaign)
        if role is not None:
            return table_roll_log(campaign, role, list(table_log(user, campaign, role=role)))
    return sheet_roll_log(character, list(sheet_log(character, access)))


def readings_in_force(character: Character, settings: Mapping[str, Any]) -> list[Reading]:
    """The dice readings the roll is made under, for the small line under the odds."""
    ruleset = get_ruleset(character.system)
    keys = set(getattr(ruleset, "DICE_READINGS", ()))
    return [
        Reading(setting.label, setting.label_for(settings[setting.key]), setting.source)
        for setting in ruleset.SETTINGS
        if setting.key in keys
    ]


def readings_url(character: Character) -> str:
    if character.campaign_id is not None:
        return reverse("campaign_detail", args=[character.campaign_id]) + "#house-rules"
    return reverse("character_sheet", args=[character.pk]) + "#section-readings"


def _fields(setup: RollSetup, raw: Mapping[str, str], errors: Mapping[str, str]) -> list:
    return _option_fields(setup.definitions, raw, errors)


def _option_fields(
    definitions: tuple[RollOption, ...], raw: Mapping[str, str], errors: Mapping[str, str]
) -> list[RollField]:
    fields = []
    for option in definitions:
        text = raw.get(option.key)
        if text is None:
            shown = "yes" if option.default is True else str(option.default)
        else:
            shown = str(text)
        checked = shown.strip().lower() in YES if option.kind == "flag" else False
        fields.append(RollField(option, shown, checked, errors.get(option.key, "")))
    return fields


def kept_query(raw: Mapping[str, str]) -> dict[str, str]:
    """The modifiers a roll was made with, for the page drawn after it."""
    return {key: str(raw.get(key)) for key in raw if key not in _DROPPED}


def page_context(
    user: User,
    character: Character,
    access: CharacterAccess,
    key: str,
    raw: Mapping[str, str],
    *,
    errors: Mapping[str, str] | None = None,
    rolled: int | None = None,
    spent: int | None = None,
    between_raw: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Everything the roll page draws: the menu, the form, the odds, the result, the log,
    and the spends between rolls."""
    errors = dict(errors or {})
    setup: RollSetup | None = None
    odds: Odds | None = None
    settings = character_settings(character)
    rollables = rollables_of(character, settings)
    if key:
        try:
            setup = roll_setup(character, key, settings=settings, rollables=rollables)
        except RollRefused as refused:
            errors |= refused.errors
    if setup is not None:
        try:
            odds = roll_odds(setup, raw)[1]
        except RollRefused as refused:
            for name, message in refused.errors.items():
                errors.setdefault(name, message)
    entry = None
    targets: list[Character] = []
    scenes: list = []
    if rolled is not None:
        entry = RollEntry.objects.filter(pk=rolled, character=character, author=user).first()
        if entry is not None and roll_hits(entry) and not entry.hits.exists():
            targets = list(hit_targets(user, entry))
            scenes = scene_targets(user, entry)  # a minion in a scene (sheets/scenes)
    return {
        "soak_most": _soak_most(character, entry),
        "soak_error": errors.get(POWER_SOAK, ""),
        "character": character,
        "access": access,
        "ready": dice_ready(character.system),
        "menu": RollMenu.of(rollables),
        "setup": setup,
        "pool": pool_text(setup.rollable.dice) if setup else "",
        "fields": _fields(setup, raw, errors) if setup else [],
        "odds": odds,
        "chart": chart_for(odds) if odds else None,
        "errors": errors,
        "roll_error": errors.get(WHOLE_ROLL, ""),
        "campaign_error": errors.get(CAMPAIGN, ""),
        "secret_error": errors.get(SECRET, ""),
        "can_secret": access.gm,
        "secret_checked": str(raw.get(SECRET, "")).strip().lower() in YES,
        "entry": entry,
        "hit_targets": targets,
        "scene_targets": scenes,
        "log": log_for_character(user, character, access),
        "readings": readings_in_force(character, settings),
        "readings_url": readings_url(character),
        "between": between_context(user, character, settings, errors, spent, between_raw or {}),
    }


def between_context(
    user: User,
    character: Character,
    settings: Mapping[str, Any],
    errors: Mapping[str, str],
    spent: int | None,
    raw: Mapping[str, str],
) -> dict[str, Any] | None:
    """The spends between rolls (SWd10, 000:L86-106, L176): the sheet's pools, the scene's
    counts said beside each form, each form's refusal, and the spend just made. None for a
    system that spends nothing between rolls."""
    ruleset = get_ruleset(character.system)
    pools_of = getattr(ruleset, "between_pools", None)
    if pools_of is None or not dice_ready(character.system):
        return None
    from rulesets.swd10 import spends  # the one system with spends between rolls

    counts = scene_counts(character)
    entry = None
    if spent is not None:
        entry = RollEntry.objects.filter(
            pk=spent, character=character, author=user, kind=RollEntry.Kind.SPEND
        ).first()
    action = str(raw.get("spend", "") or "")
    return {
        "pools": pools_of(character.sheet, settings),
        "scene": counts.scene,
        "scene_help": spends.scene_help(counts.scene_state),
        "round_help": spends.destiny_help(counts.round),
        "power_help": spends.power_round_help(counts.round),
        "power_paid": counts.round is not None and counts.round.power_paid,
        "scene_spends": spends.SCENE_SPENDS,
        "round_spends": spends.ELSEWHERE_SPENDS,
        "errors": {key: errors[key] for key in errors if key in _BETWEEN_KEYS},
        "action": action,
        "note": str(raw.get("note", "") or "")[: spends.NOTE_LIMIT],
        "entry": entry,
        "open": entry is not None or bool(set(errors) & _BETWEEN_KEYS),
    }


_BETWEEN_KEYS = frozenset(
    {
        "between",
        "destiny_willpower",
        "destiny_outstanding",
        "destiny_intercept",
        "destiny_flaw",
        "destiny_death",
        "power_round",
        "full_rest",
    }
)


def _soak_most(character: Character, entry: RollEntry | None) -> int:
    """The most current Power a soak just rolled offers as its second step (SWd10,
    000:L106), 0 for none."""
    offer = getattr(get_ruleset(character.system), "power_soak_offer", None)
    if entry is None or offer is None or entry.kind != RollEntry.Kind.ROLL:
        return 0
    return offer(entry.facts or {}, int(character.sheet.get("power_current", 0) or 0))


def hit_context(
    user: User,
    character: Character,
    access: CharacterAccess,
    raw: Mapping[str, str],
    *,
    errors: Mapping[str, str] | None = None,
    marked: int | None = None,
) -> dict[str, Any]:
    """The hit page: the roll it comes from (if any), the fields, and what it would mark on
    this sheet as it is now."""
    errors = dict(errors or {})
    supported = character.system in HIT_SYSTEMS
    roll = None
    roll_text = str(raw.get("roll", "") or "").strip()
    if roll_text:
        roll_id = ascii_number(roll_text)
        try:
            if roll_id is None:
                raise HitRefused({MARK: "No roll of that number in a log you can read."})
            roll = readable_roll(user, roll_id)
        except HitRefused as refused:
            errors.update(refused.errors)
    done = None
    if roll is not None:
        done = roll.hits.select_related("character").first()
    definitions = hit_options(character.system, from_roll=roll is not None) if supported else ()
    plan = None
    if supported and (roll is not None or not roll_text):
        try:
            plan = plan_hit(character, raw, roll)
        except HitRefused as refused:
            for name, message in refused.errors.items():
                errors.setdefault(name, message)
    entry = None
    if marked is not None:
        entry = RollEntry.objects.filter(
            pk=marked, character=character, author=user, kind=RollEntry.Kind.HIT
        ).first()
    return {
        "character": character,
        "access": access,
        "supported": supported,
        "roll": roll,
        "done": done,
        "fields": _option_fields(definitions, raw, errors),
        "damage_text": str(raw.get("damage", "width") or "")[:60]
        if character.system == "ore" and roll is None
        else None,
        "damage_error": errors.get("damage", "") if character.system == "ore" else "",
        "plan": plan,
        "errors": errors,
        "mark_error": errors.get(MARK, ""),
        "entry": entry,
    }
