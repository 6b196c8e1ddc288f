"""SWd10 initiative for the scene tracker (000:L197-202).

Each participant first rolls its Light or Dark side, whichever is higher, at difficulty 4;
each success adds a die to the initiative pool, Dexterity + Wits (Dexterity + Charisma
with Force Intuition, L561), rolled at difficulty 4 (L199-200). The successes of that roll
are the initiative. Ties (L202): the higher Light/Dark side, then Dexterity, then Wits,
then a d10 roll-off. Whether a 1 cancels a success is the table's dice reading (the
dice_ones_cancel setting of rulesets/swd10/dice.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rulesets.core.dice import roll
from rulesets.core.initiative import Score, whole
from rulesets.core.npcs import Condition
from rulesets.swd10 import npcs
from rulesets.swd10.dice import INITIATIVE_DIFFICULTY, ONES_CANCEL

SOURCE = "000:L197-202"
TIES = "Higher Light/Dark side, then Dexterity, then Wits (000:L202), then a d10 roll-off."
TYPED_HELP = "Successes on the initiative roll."
SIDES = 10


def side(sheet: Mapping[str, Any]) -> int:
    return max(int(sheet.get("light_side", 0)), int(sheet.get("dark_side", 0)))  # L199


def pool(sheet: Mapping[str, Any]) -> int:
    attributes = sheet["attributes"]
    merits = {str(m.get("slug", m)) if isinstance(m, dict) else str(m) for m in sheet["merits"]}
    partner = "charisma" if "force_intuition" in merits else "wits"  # L561
    return int(attributes["dexterity"]) + int(attributes[partner])


def ties(sheet: Mapping[str, Any]) -> tuple[int, ...]:
    attributes = sheet["attributes"]
    return (side(sheet), int(attributes["dexterity"]), int(attributes["wits"]))  # L202


def successes(dice: list[int], *, ones_cancel: bool) -> int:
    hits = sum(1 for d in dice if d >= INITIATIVE_DIFFICULTY)
    if ones_cancel:
        hits -= sum(1 for d in dice if d == 1)
    return max(0, hits)


def roll_score(side_dice: int, pool_dice: int, rng: random.Random, *, ones_cancel: bool) -> Score:
    """The side roll's successes become extra dice of the initiative pool (L199-200)."""
    extra = successes(roll(side_dice, SIDES, rng), ones_cancel=ones_cancel)
    got = successes(roll(pool_dice + extra, SIDES, rng), ones_cancel=ones_cancel)
    word = "success" if got == 1 else "successes"
    return Score(got, f"{got} {word}", rolloff=rng.randint(1, SIDES))


def initiative(sheet: Mapping[str, Any], settings: Mapping[str, Any], rng: random.Random) -> Score:
    cancel = bool(settings.get(ONES_CANCEL, True))
    return roll_score(side(sheet), pool(sheet), rng, ones_cancel=cancel)


def typed(text: str) -> Score:
    value = whole(text, "Successes", high=40)
    word = "success" if value == 1 else "successes"
    return Score(value, f"{value} {word}", typed=True)


def standing(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Condition:
    """Marked health levels as a minion's are read (000:L98)."""
    return npcs.condition(sheet, settings, {"levels": int(sheet.get("health_marked", 0))})


def hit_fields(sheet: Mapping[str, Any], settings: Mapping[str, Any]):
    """A hit on a character in the tracker asks what a minion's asks (000:L98)."""
    return npcs.hit_fields(sheet, settings)


def hit_edits(sheet: Mapping[str, Any], settings: Mapping[str, Any], raw) -> dict[str, str]:
    """The sheet edit a hit makes: health levels marked after soak, to the track's end."""
    wounds = npcs.hit(sheet, settings, {"levels": int(sheet.get("health_marked", 0))}, raw)
    return {"health": str(wounds["levels"])}
