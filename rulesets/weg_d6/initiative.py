"""WEG d6 initiative for the scene tracker.

R&E (002:442-444): Perception is rolled, and characters act in Perception order, highest
to lowest. The tracker rolls each participant's Perception code (less its wound penalty,
003:1840) with the table's dice and orders by the total; a tie goes to the higher
Perception code (the order 002:444 names), then to the higher Dexterity (the code 1E's
declaration order reads, 003:360), then a d10 roll-off. Side-against-side initiative
(002:442: one roll per side, the winner chooses) is the GM's to apply by typing totals.
The plain total is rolled: the Wild Die (002:424) changes a total's spread, not who
rolled higher on average, and a GM who wants it rolls on the sheet and types the total.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rulesets.core.dice import roll
from rulesets.core.initiative import Score, whole
from rulesets.core.npcs import Condition
from rulesets.weg_d6 import npcs
from rulesets.weg_d6.data import WOUND_BY_SLUG

SOURCE = "002:442-444"
TIES = "Higher Perception, then higher Dexterity (002:444, 003:360), then a d10 roll-off."
TYPED_HELP = "The Perception total rolled at the table."
PIPS_PER_DIE = 3


def perception_pips(sheet: Mapping[str, Any]) -> int:
    """The Perception code in pips, less the wound level's penalty (003:1840)."""
    level = WOUND_BY_SLUG.get(str(sheet.get("wound", "healthy")), WOUND_BY_SLUG["healthy"])
    return max(0, int(sheet["attributes"]["perception"]) + level.penalty)


def ties(sheet: Mapping[str, Any]) -> tuple[int, ...]:
    attributes = sheet["attributes"]
    return (int(attributes["perception"]), int(attributes["dexterity"]))


def roll_score(pips: int, rng: random.Random) -> Score:
    """Roll a code of `pips` (3 pips a die, the rest added) and keep its total."""
    dice, adds = divmod(max(0, pips), PIPS_PER_DIE)
    rolled = roll(dice, 6, rng)
    total = sum(rolled) + adds
    return Score(total, str(total), rolloff=rng.randint(1, 10))


def initiative(sheet: Mapping[str, Any], settings: Mapping[str, Any], rng: random.Random) -> Score:
    return roll_score(perception_pips(sheet), rng)


def typed(text: str) -> Score:
    value = whole(text, "Perception total")
    return Score(value, str(value), typed=True)


def standing(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Condition:
    """A character's wound level as a minion's is read (003:1840)."""
    return npcs.condition(sheet, settings, {"level": sheet.get("wound", "healthy")})


def hit_fields(sheet: Mapping[str, Any], settings: Mapping[str, Any]):
    """A hit on a character in the tracker asks what a minion's asks (003:1840)."""
    return npcs.hit_fields(sheet, settings)


def hit_edits(sheet: Mapping[str, Any], settings: Mapping[str, Any], raw) -> dict[str, str]:
    """The sheet edit a hit makes: the wound level climbs as a minion's does (002:557)."""
    wounds = npcs.hit(sheet, settings, {"level": sheet.get("wound", "healthy")}, raw)
    return {"wound": wounds["level"]}
