"""Star O.R.E. initiative for the scene tracker (001:L163, L276).

A roll's width says who acts first and its height breaks a tie of widths (L163, with
Luke's 2x5 before the Gamorrean's 2x4); a weapon's initiative bonus adds to the width for
this alone (L276). A roll with no set acts after every set. The tracker rolls the
participant's Coordination dice with the table's dice; the GM types the set of the action
actually declared ("3x7", with any weapon bonus already added to the width, or "none").
Ties left after width and height: a d10 roll-off.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rulesets.core.dice import roll
from rulesets.core.initiative import InvalidInitiative, Score
from rulesets.core.npcs import Condition
from rulesets.ore.data import BOX_EMPTY, BOX_KILLING, BOX_MARKS, LOCATION_BY_SLUG

SOURCE = "001:L163, L276"
TIES = "Wider set first, then taller (001:L163), then a d10 roll-off."
TYPED_HELP = "The set as width x height, e.g. 3x7 (a weapon's bonus added to the width), or none."
MOST_DICE = 10  # a pool past ten dice is cut to ten (the seed's cap on a roll)
NO_SET = Score(0, "no set", second=0)
_SET = re.compile(r"^\s*(\d{1,2})\s*[x×*]\s*(\d{1,2})\s*$", re.IGNORECASE)


def best_set(dice: list[int]) -> tuple[int, int] | None:
    """The widest set among the dice, the tallest of equal widths (L163); None if none."""
    sets = [(count, face) for face, count in Counter(dice).items() if count >= 2]
    return max(sets) if sets else None


def roll_score(pool: int, rng: random.Random, bonus: int = 0) -> Score:
    found = best_set(roll(max(0, min(pool, MOST_DICE)), 10, rng))
    rolloff = rng.randint(1, 10)
    if found is None:
        return Score(0, "no set", rolloff=rolloff)
    width, height = found
    return Score(width + bonus, f"{width + bonus}x{height}", second=height, rolloff=rolloff)


def ties(sheet: Mapping[str, Any]) -> tuple[int, ...]:
    return ()


def initiative(sheet: Mapping[str, Any], settings: Mapping[str, Any], rng: random.Random) -> Score:
    return roll_score(int(sheet["stats"]["coordination"]), rng)


def typed(text: str) -> Score:
    clean = str(text).strip()
    if clean.lower() in {"none", "no set", "0"}:
        return Score(0, "no set", typed=True)
    match = _SET.match(clean)
    if match is None:
        raise InvalidInitiative(f"Set: “{clean[:20]}” is no set; type width x height, e.g. 3x7.")
    width, height = int(match[1]), int(match[2])
    if not 2 <= width <= 15 or not 1 <= height <= 10:
        raise InvalidInitiative("Set: a width of 2 to 15 and a height of 1 to 10.")
    return Score(width, f"{width}x{height}", second=height, typed=True)


def standing(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Condition:
    """The marked wound boxes by location (Shock /, Killing X); a head filled, or a torso
    filled with Killing, is out of the fight (L207-L213)."""
    wounds = sheet.get("wounds", {})
    parts, marks, total, down = [], 0, 0, False
    for slug, boxes in wounds.items():
        location = LOCATION_BY_SLUG.get(slug)
        if location is None:
            continue
        marked = [b for b in boxes if b != BOX_EMPTY]
        total += len(boxes)
        marks += len(marked)
        if marked:
            parts.append(f"{location.label} {''.join(BOX_MARKS[b] for b in marked)}")
        full = len(marked) == len(boxes) and boxes
        if (slug == "head" and full) or (slug == "torso" and all(b == BOX_KILLING for b in boxes)):
            down = True
    label = ("Out: " if down else "Hit: ") + ", ".join(parts) if parts else "Unhurt"
    return Condition(label, "", down, marks, total, "001:L207-L213")
