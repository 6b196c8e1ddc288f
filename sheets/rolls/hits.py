"""Hits marked on a sheet: an attack roll's, or one entered by hand.

Star O.R.E.: a set's width x height with the weapon's damage and Penetration becomes wound
boxes on the target (rulesets/ore/combat.py, seed 001 L163, L228, L280). 1o3d10: the
damage an attack rolled comes off the target's HP (`hp.damage`). The edits go to the
TARGET's sheet through the edit service (one transaction, the target's row locked, its
version checked, one revision), and the hit joins the log as an entry of its own that
names the roll it came from.

Who may: whoever may edit the target (sheets/permissions.py: its player, or a GM of its
table; the wound boxes and HP damage are the systems' TABLE_EDITS, which a GM may mark on
a player's sheet). A roll marks one target, once; a roll made at one table never marks a
sheet at another.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, RollOption, RollResult, parse_roll_options
from rulesets.o3d10 import data as o3d10_data
from rulesets.ore import combat
from rulesets.ore import data as ore_data
from rulesets.weg_d6 import wounds as weg_wounds
from rulesets.weg_d6.data import WOUND_BY_SLUG
from sheets.campaigns.models import Role
from sheets.characters.models import Character
from sheets.characters.services import EditRefused, StaleVersion, character_apply_edits
from sheets.live.bus import roll_logged
from sheets.permissions import (
    Need,
    User,
    campaign_role,
    character_for,
    own_characters,
    visible_characters,
)
from sheets.rolls.models import RollEntry

# Where a refusal that belongs to no single field is shown: beside the Mark button.
MARK = "mark"
HIT_SYSTEMS = frozenset({"ore", "o3d10", "weg_d6"})
MOST_O3D10_DAMAGE = 200  # far above any roll (4d10+ a few d6), low enough to catch a typo
MOST_WEG_ROLL = 999  # a damage or Strength roll's total; far above any code's
# The form's weapon choice that reads the damage and Penetration typed beside it.
AS_WRITTEN = ""


class HitRefused(Exception):
    """A hit that cannot be marked; `errors` maps each field at fault to its message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = dict(errors)


# What a roll leaves for a hit ---------------------------------------------------------------


def roll_facts(system: str, rollable: Rollable, result: RollResult) -> dict[str, Any]:
    """What the log keeps of a roll for a next step: the result's plain facts, and for an
    O.R.E. weapon attack the weapon's damage and Penetration as rolled (a later edit of
    the weapon does not change a hit already made)."""
    facts = {
        name: value
        for name, value in result.facts
        if isinstance(value, (int, str, bool)) and not isinstance(value, float)
    }
    if system == "ore" and rollable.key.startswith("weapon.") and "width" in facts:
        facts["damage"] = str(rollable.fact("damage", "width"))
        facts["penetration"] = int(rollable.fact("penetration", 0) or 0)
        facts["weapon"] = rollable.label
    return facts


def roll_hits(entry: RollEntry) -> bool:
    """Whether this logged roll is a hit a sheet can take."""
    if entry.kind != RollEntry.Kind.ROLL or not entry.success:
        return False
    facts = entry.facts or {}
    if entry.system == "ore":
        return {"width", "height", "damage"} <= facts.keys()
    if entry.system == "o3d10":
        return isinstance(facts.get("damage"), int)
    return False


def readable_roll(user: User, roll_id: int, *, for_update: bool = False) -> RollEntry:
    """A logged roll `user` may read (the table's members; a secret roll its GMs; a roll
    at no table the sheet's owner), or HitRefused."""
    rolls = RollEntry.objects.select_related("character", "campaign", "author")
    if for_update:
        rolls = rolls.select_for_update(of=("self",))
    entry = rolls.filter(pk=roll_id, kind=RollEntry.Kind.ROLL).first()
    missing = HitRefused({MARK: "No roll of that number in a log you can read."})
    if entry is None or not user.is_authenticated:
        raise missing
    if entry.campaign_id is not None:
        role = campaign_role(user, entry.campaign)
        if role is None or (entry.secret and role is not Role.GM):
            raise missing
    elif entry.character.owner_id != user.pk:
        raise missing
    return entry


def hit_targets(user: User, entry: RollEntry) -> QuerySet[Character]:
    """The sheets `user` may mark this roll's hit on: at its table, their own (a player)
    or every one (its GM); at no table, their own sheets at none, of the same system."""
    if entry.campaign_id is None:
        found = own_characters(user).filter(campaign__isnull=True)
    else:
        found = visible_characters(user).filter(campaign_id=entry.campaign_id)
    return found.filter(system=entry.system).order_by("name", "pk")


def scene_targets(user: User, entry: RollEntry) -> list[Any]:
    """The scenes of the roll's table where its GM may apply the hit to a participant (a
    minion has no sheet of its own: the tracker marks it, sheets/scenes); none for a player."""
    from sheets.scenes.models import Scene  # the scenes app reads this module: no cycle

    if entry.campaign_id is None or campaign_role(user, entry.campaign) is not Role.GM:
        return []
    running = Scene.objects.filter(campaign_id=entry.campaign_id, ended_at__isnull=True)
    return list(running.order_by("-pk")[:3])


# The form of a hit ----------------------------------------------------------------------------


def _ore_weapons() -> tuple[tuple[str, str], ...]:
    catalog = tuple(
        (w.slug, f"{w.label} ({w.damage}, Penetration {w.penetration})") for w in ore_data.WEAPONS
    )
    return ((AS_WRITTEN, "Damage and Penetration as written below"), *catalog)


def hit_options(system: str, *, from_roll: bool) -> tuple[RollOption, ...]:
    """The fields of a hit. From a roll the roll fixes width, height and the weapon (O.R.E.)
    or the damage (1o3d10): what is left is what the roll cannot know."""
    if system == "ore":
        rolled = (
            ()
            if from_roll
            else (
                RollOption("width", "Width", "number", 2, minimum=1, maximum=combat.MOST_WIDTH),
                RollOption(
                    "height",
                    "Height",
                    "number",
                    7,
                    minimum=1,
                    maximum=10,
                    source="L221-L228",
                    help="Names the location hit.",
                ),
                RollOption(
                    "weapon", "Weapon", "choice", AS_WRITTEN, choices=_ore_weapons(), source="L403"
                ),
                RollOption(
                    "penetration",
                    "Penetration",
                    "number",
                    0,
                    minimum=0,
                    maximum=combat.MOST_PENETRATION,
                    source="L280",
                    help="Takes points off the Armor Rating, never adds damage. Read when "
                    "no weapon is chosen above.",
                ),
            )
        )
        return (
            *rolled,
            RollOption(
                "stun", "Set on stun: all Shock", "flag", False, source="L294", help="Marks / only."
            ),
            RollOption(
                "extra_damage",
                "Extra damage",
                "number",
                0,
                minimum=0,
                maximum=combat.MOST_EXTRA_DAMAGE,
                source="L378, L814",
                help="A Power attack's +2, a Wookiee's +1.",
            ),
        )
    if system == "weg_d6":
        if from_roll:
            return ()
        return (
            RollOption(
                "damage", "Damage roll", "number", 0, minimum=0, maximum=MOST_WEG_ROLL,
                source="003:472",
            ),
            RollOption(
                "strength", "Strength roll", "number", 0, minimum=0, maximum=MOST_WEG_ROLL,
                source="003:472", help="The target's Strength roll against the damage.",
            ),
            RollOption(
                "stun", "Set for stun, or a stun weapon", "flag", False, source="003:426-436",
                help="Read on the stun column: 1 stun, 2 stuns or unconscious; no wound.",
            ),
        )  # fmt: skip
    if system == "o3d10":
        if from_roll:
            return ()
        locations = (
            ("", "Not said"),
            *((loc.label, loc.label) for loc in o3d10_data.HIT_LOCATIONS),
        )
        return (
            RollOption(
                "damage", "Damage", "number", 0, minimum=0, maximum=MOST_O3D10_DAMAGE, source="L59"
            ),
            RollOption("location", "Location", "choice", "", choices=locations, source="L80-L93"),
        )
    return ()


@dataclass(frozen=True)
class Boxes:
    """One location's wound boxes before and after the hit, for the preview."""

    label: str
    armor: str
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True)
class HitPlan:
    """The hit as it would land on the target now: the edits, and what the page shows."""

    target: Character
    roll: RollEntry | None
    chosen: dict[str, Any]
    edits: dict[str, str]
    summary: str
    label: str  # "Wounds" or "Damage", for the log
    boxes: tuple[Boxes, ...] = ()
    total: int | None = None
    facts: dict[str, Any] | None = None
    notes: tuple[str, ...] = ()  # lines under the summary (WEG stun totals)


def _ore_plan(target: Character, roll: RollEntry | None, chosen: Mapping[str, Any]) -> HitPlan:
    if roll is not None:
        facts = roll.facts
        width, height = facts["width"], facts["height"]
        damage, penetration = facts["damage"], int(facts.get("penetration", 0))
    else:
        width, height = chosen["width"], chosen["height"]
        weapon = ore_data.WEAPON_BY_SLUG.get(chosen["weapon"])
        if weapon is not None:
            damage, penetration = weapon.damage, weapon.penetration
        else:
            damage, penetration = chosen.get("damage_text") or "width", chosen["penetration"]
    hit = combat.resolve_hit(
        target.sheet,
        width=width,
        height=height,
        damage=damage,
        penetration=penetration,
        stun=chosen["stun"],
        extra_damage=chosen["extra_damage"],
    )
    boxes = tuple(
        Boxes(
            location.label,
            f"AR {location.armor}"
            + (f" − Pen {penetration} = {location.armor_left}" if penetration else ""),
            location.before,
            location.after,
        )
        for location in hit.locations
    )
    facts = {"width": width, "height": height, "damage": damage, "penetration": penetration}
    return HitPlan(
        target,
        roll,
        dict(chosen),
        dict(hit.edits),
        hit.summary,
        "Wounds marked",
        boxes,
        sum(location.applied for location in hit.locations),
        facts,
    )


def _o3d10_plan(target: Character, roll: RollEntry | None, chosen: Mapping[str, Any]) -> HitPlan:
    if roll is not None:
        points, location = int(roll.facts["damage"]), str(roll.facts.get("location", ""))
    else:
        points, location = chosen["damage"], chosen["location"]
    hp = int(target.sheet["hp"])
    where = f" to the {location.lower()}" if location else ""
    summary = f"{points} damage{where}: HP {hp} → {hp - points}"
    edits = {"hp.damage": str(points)} if points else {}
    facts = {"damage": points, "location": location}
    return HitPlan(target, roll, dict(chosen), edits, summary, "Damage taken", (), points, facts)


def scene_round(target: Character) -> tuple[int, int] | None:
    """The scene and round the target is in: its running scene (sheets/scenes/state), or
    None. A stun result is kept with it."""
    from sheets.scenes.state import running_scene_of  # the scenes app reads this module

    scene = running_scene_of(target)
    return None if scene is None else (scene.pk, scene.round)


def _weg_plan(target: Character, chosen: Mapping[str, Any]) -> HitPlan:
    """1E: the damage roll against the Strength roll on the damage summary (003:472), on the
    stun column for a stun weapon (003:430-436), written as the sheet's wound level and, for
    a stun result, kept among the sheet's stuns with the scene round it came in."""
    sheet = target.sheet
    if sheet["edition"] != "1e":
        raise HitRefused(
            {MARK: "R&E reads hits on the core book's chart, which the seeds do not print: "
             "set the wound level on the sheet (a stun weapon: worse than stunned is "
             "unconscious for 2D minutes, 002:561)."}
        )  # fmt: skip
    damage, strength, stun = chosen["damage"], chosen["strength"], chosen["stun"]
    hit = weg_wounds.hit_1e(damage, strength, stun=stun)
    now = scene_round(target)
    raw = f"{damage}|{strength}" + ("|stun" if stun else "")
    if now is not None:
        raw += f"|@{now[0]}.{now[1]}"
    settings = resolve_settings(weg.SETTINGS, target.readings_in_force)
    try:
        after_sheet = weg.apply_edit(sheet, "wound.hit", raw, settings)
    except InvalidEdit as refused:
        raise HitRefused({MARK: refused.message}) from None
    after = after_sheet["wound"]
    before_label = WOUND_BY_SLUG[sheet["wound"]].label
    words = weg_wounds.hit_words_1e(hit)
    column = "stun" if stun else "damage"
    summary = f"Damage {damage} against Strength {strength}, {column} column: {words}"
    summary += f" ({hit.source}); {before_label} → {WOUND_BY_SLUG[after].label}"
    details = []
    if hit.stuns or hit.unconscious:
        state = weg_wounds.stuns_now(after_sheet, now, settings)
        where = f"round {now[1]} of the scene" if now else "no scene: until marked over"
        until_over = (
            weg_wounds.KNOCKOUT_READING not in settings
            or settings[weg_wounds.KNOCKOUT_READING] == weg_wounds.UNTIL_OVER
        )
        live = [e for e in after_sheet["stuns"] if weg_wounds.in_effect(e, now, until_over)]
        total = sum(entry["stuns"] for entry in live)
        if total:
            details.append(
                f"{total} stun{'s' if total != 1 else ''} this round and last: "
                f"−{total}D to every code but Strength, this round and the next "
                f"(003:438-440); kept on the sheet, {where}"
            )
        if state.unconscious:
            details.append("Unconscious: stunned out, not wounded (003:436, 003:448)")
        elif state.immobile:
            details.append("Immobile: no Dexterity actions (003:442-446)")
    edits = {"wound.hit": raw} if after_sheet != sheet else {}
    facts = {"damage": damage, "strength": strength, "stun": stun, "result": words}
    return HitPlan(
        target, None, dict(chosen), edits, summary[:300], "Hit", (), None, facts, tuple(details)
    )


def plan_hit(target: Character, raw: Mapping[str, str], roll: RollEntry | None = None) -> HitPlan:
    """Read the form (and the roll) and work out the hit on `target` as its sheet is now:
    HitRefused names the field at fault."""
    if target.system not in HIT_SYSTEMS:
        raise HitRefused(
            {MARK: f"{target.get_system_display()} has no rule here that turns a hit into marks."}
        )
    if roll is not None:
        if not roll_hits(roll):
            raise HitRefused({MARK: "That roll made no hit to mark."})
        if roll.system != target.system or roll.campaign_id != target.campaign_id:
            raise HitRefused({MARK: f"That roll was made at another table than {target.name}'s."})
    definitions = hit_options(target.system, from_roll=roll is not None)
    try:
        chosen = parse_roll_options(definitions, raw)
        if target.system == "ore":
            if roll is None:
                # Free text beside the catalog: "width+2 in Shock"; read by the engine.
                chosen["damage_text"] = str(raw.get("damage", "") or "").strip()[:60]
            return _ore_plan(target, roll, chosen)
        if target.system == "weg_d6":
            return _weg_plan(target, chosen)
        return _o3d10_plan(target, roll, chosen)
    except InvalidRoll as refused:
        field = refused.option if refused.option in {d.key for d in definitions} else MARK
        if refused.option == "damage" and target.system == "ore":
            field = "damage"
        message = refused.message
        if refused.option == "weapon":
            message = "Weapon: choose one from the list."  # not the whole catalog again
        raise HitRefused({field: message}) from None


def hit_mark(
    *,
    user: AbstractBaseUser,
    target_id: int,
    raw: Mapping[str, str],
    expected_version: int,
    roll_id: int | None = None,
) -> RollEntry:
    """Mark a hit on the target sheet and log it, or refuse and store nothing.

    The target is loaded for editing through the permission selector (404 or 403 when
    `user` may not); the roll, when named, must be readable by `user`, made at the
    target's table and not marked before (its row is locked, so two clicks mark once).
    """
    with transaction.atomic():
        target, _access = character_for(user, target_id, Need.EDIT, for_update=True)
        roll = readable_roll(user, roll_id, for_update=True) if roll_id is not None else None
        if roll is not None:
            done = roll.hits.select_related("character").first()
            if done is not None:
                raise HitRefused({MARK: f"This hit was already marked on {done.character.name}."})
        plan = plan_hit(target, raw, roll)
        if plan.edits:
            try:
                character_apply_edits(
                    user=user,
                    character_id=target.pk,
                    edits=plan.edits,
                    expected_version=expected_version,
                )
            except EditRefused as refused:
                reason = " ".join(refused.errors.values())
                raise HitRefused({MARK: f"Not marked: {reason}"}) from None
            except StaleVersion as stale:
                raise HitRefused({MARK: str(stale)}) from None
        origin = f"{roll.rollable_label} by {roll.character.name}" if roll else "entered by hand"
        roll_logged(target.campaign_id, target.pk)  # to the log's open pages, on commit
        return RollEntry.objects.create(
            kind=RollEntry.Kind.HIT,
            follows=roll,
            campaign_id=target.campaign_id,
            character=target,
            author=user,
            # A hit from a secret roll tells what the roll was: it stays with the GMs.
            secret=roll.secret if roll else False,
            system=target.system,
            rollable_key="hit",
            rollable_label=f"{plan.label} on {target.name}"[:200],
            modifiers=origin[:400],
            outcome=plan.label.lower()[:40],
            summary=plan.summary[:300],
            details=[f"{b.label}: {''.join(_mark(x) for x in b.after)}" for b in plan.boxes]
            + list(plan.notes),
            total=plan.total,
            success=True,
            options={k: v for k, v in plan.chosen.items() if k != "damage_text"},
            odds="",
            odds_percent="",
            facts=plan.facts or {},
        )


def _mark(box: str) -> str:
    return {ore_data.BOX_KILLING: "X", ore_data.BOX_SHOCK: "/"}.get(box, "·")
