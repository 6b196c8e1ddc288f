"""Star O.R.E. combat from a hit: damage by width, armor less Penetration at the location the
height names, and the wound boxes to mark on the target's sheet.

Source: seeds/001_2d19305c3127dd9e.txt: width makes the damage (L163) and each weapon adds
to it (L403-L444); the height picks the hit location (L161, L203, L221-L228); Armor Rating
takes points off (L232), Penetration takes points off the Armor Rating and never adds
damage (L280); normal damage marks X, Shock marks /, and Shock on a location already full
of Shock turns a / into an X (L207, L213, L219). Digest §1.4 proposal: damage applied =
max(0, damage - max(0, AR - Penetration)).

The result names the sheet edits as {trait key: raw value} with the sheet's own wound keys
("wound.torso.2": "killing"), so the web layer applies them through the edit service like
any other edit. Pure Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core.rolls import InvalidRoll, Rollable, RollResult
from rulesets.ore import rules
from rulesets.ore.data import (
    BOX_EMPTY,
    BOX_KILLING,
    BOX_SHOCK,
    HIT_LOCATIONS,
    LOCATION_BY_HEIGHT,
    LOCATION_BY_SLUG,
)

MOST_WIDTH = 10  # a set never holds more than the 10 dice rolled (L70)
MOST_PENETRATION = 50
MOST_EXTRA_DAMAGE = 20
SOURCE = "L161-L163, L207-L228, L232, L280"
# Wound boxes: the player marks their own, and the table's GM marks a hit on any sheet at
# the table (sheets/permissions.py reads this).
TABLE_EDITS: tuple[str, ...] = ("wound.*",)

# The damage column as the weapon table writes it: "width", "width+2", "width+1 in Shock",
# "width in Shock to each location" (stun grenade), "... to torso each rd." (gas grenade).
_DAMAGE = re.compile(
    r"\s*width\s*(?:(?P<sign>[+-])\s*(?P<bonus>[0-9]{1,2}))?"
    r"(?P<shock>\s*\bin\s+shock)?(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class Damage:
    points: int
    shock: bool
    locations: tuple[str, ...] | None  # None: the location the height names


def weapon_damage(text: str, width: int) -> Damage:
    """Read a weapon's damage column for a hit of this width, or InvalidRoll."""
    written = str(text).strip()
    if written.lower() in {"none", "-", "—", ""}:
        return Damage(0, False, None)  # a net (L421) does no damage
    match = _DAMAGE.fullmatch(written)
    if not match:
        raise InvalidRoll(
            "damage",
            f"Damage “{written[:40]}” is not written as width, width+N or width in Shock.",
        )
    bonus = int(match["bonus"] or 0) * (-1 if match["sign"] == "-" else 1)
    rest = match["rest"].lower()
    locations = None
    if "each location" in rest:
        locations = tuple(location.slug for location in HIT_LOCATIONS)  # L443
    elif "torso" in rest:
        locations = ("torso",)  # L444
    return Damage(max(0, width + bonus), bool(match["shock"]), locations)


def mark_boxes(boxes: list[str], points: int, *, shock: bool) -> tuple[list[str], int]:
    """Mark `points` of damage on one location's boxes; say how many found no box.

    Each point takes an empty box first (X for normal damage, / for Shock). With no empty
    box left, a point turns a / into an X (L219 for Shock; normal damage likewise, as an X
    outranks a /). Points beyond a location full of X are lost (the seed stops there).
    """
    marked = list(boxes)
    lost = 0
    for _ in range(points):
        if BOX_EMPTY in marked:
            marked[marked.index(BOX_EMPTY)] = BOX_SHOCK if shock else BOX_KILLING
        elif BOX_SHOCK in marked:
            marked[marked.index(BOX_SHOCK)] = BOX_KILLING
        else:
            lost += 1
    return marked, lost


@dataclass(frozen=True)
class LocationHit:
    slug: str
    label: str
    armor: int  # the location's Armor Rating
    armor_left: int  # after Penetration
    applied: int  # points that reach the boxes
    before: tuple[str, ...]
    after: tuple[str, ...]
    lost: int


@dataclass(frozen=True)
class Hit:
    width: int
    height: int
    damage: int  # before armor
    shock: bool
    penetration: int
    locations: tuple[LocationHit, ...]
    # The sheet edits to apply to the target, {trait key: raw value}.
    edits: dict[str, str]
    summary: str
    source: str = SOURCE


def _number(value: Any, name: str, label: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRoll(name, f"{label}: expected a whole number.")
    if not low <= value <= high:
        raise InvalidRoll(name, f"{label}: from {low} to {high}, not {value}.")
    return value


def resolve_hit(
    sheet: Mapping[str, Any],
    *,
    width: int,
    height: int,
    damage: str = "width",
    penetration: int = 0,
    stun: bool = False,
    extra_damage: int = 0,
) -> Hit:
    """Apply one hit of `width` x `height` with a weapon's damage and Penetration to the
    target `sheet` (a Star O.R.E. sheet): which boxes to mark, as sheet edits.

    `stun` is a weapon set on stun (all Shock, L294); `extra_damage` adds points the
    attacker brings (a Power attack's +2, L378; a Wookiee's massive +1, L814).
    """
    width = _number(width, "width", "Width", 1, MOST_WIDTH)
    height = _number(height, "height", "Height", 1, 10)
    penetration = _number(penetration, "penetration", "Penetration", 0, MOST_PENETRATION)
    extra_damage = _number(extra_damage, "extra_damage", "Extra damage", 0, MOST_EXTRA_DAMAGE)
    read = weapon_damage(damage, width)
    points = read.points + extra_damage if read.points or extra_damage else 0
    shock = read.shock or stun
    slugs = read.locations or (LOCATION_BY_HEIGHT[height].slug,)
    ratings = rules.armor_by_location(sheet)
    edits: dict[str, str] = {}
    hits = []
    for slug in slugs:
        armor_left = max(0, ratings[slug] - penetration)
        applied = max(0, points - armor_left)
        before = list(sheet["wounds"][slug])
        after, lost = mark_boxes(before, applied, shock=shock)
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            if old != new:
                edits[f"wound.{slug}.{index}"] = new
        hits.append(
            LocationHit(
                slug,
                LOCATION_BY_SLUG[slug].label,
                ratings[slug],
                armor_left,
                applied,
                tuple(before),
                tuple(after),
                lost,
            )
        )
    kind = "Shock" if shock else "normal damage"
    parts = []
    for hit in hits:
        armor = f"AR {hit.armor}" + (f" − Pen {penetration}" if penetration and hit.armor else "")
        line = f"{hit.label}: {points} {kind}, {armor} → {hit.applied} marked"
        if hit.lost:
            line += f" ({hit.lost} with no box left)"
        parts.append(line)
    return Hit(
        width,
        height,
        points,
        shock,
        penetration,
        tuple(hits),
        edits,
        f"{width}x{height}: " + "; ".join(parts),
    )


def resolve_attack(
    sheet: Mapping[str, Any],
    attack: Rollable,
    result: RollResult,
    *,
    stun: bool = False,
    extra_damage: int = 0,
) -> Hit:
    """The hit a weapon attack roll (a `weapon.<n>` rollable of `dice.rollables`) makes on
    the target `sheet`: its set's width and height, the weapon's damage and Penetration."""
    facts = dict(result.facts)
    if not result.success or "width" not in facts:
        raise InvalidRoll("roll", "The attack missed: no set, so no damage.")
    return resolve_hit(
        sheet,
        width=facts["width"],
        height=facts["height"],
        damage=attack.fact("damage", "width"),
        penetration=attack.fact("penetration", 0),
        stun=stun,
        extra_damage=extra_damage,
    )
