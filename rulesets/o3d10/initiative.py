"""1o3d10 initiative for the scene tracker (004:L21-23).

The roll is the system's own (rules.roll_initiative: 1o3d10 plus the pool the table's
initiative_pool reading names). A total below 20 gives one action, each ten more one more
(L21); a failed roll loses the first turn and acts last (L23). Higher totals act first; a
tie goes to the higher Dexterity (the seed says nothing of ties), then a d10 roll-off.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rulesets.core.initiative import InvalidInitiative, Score, whole
from rulesets.core.npcs import Condition
from rulesets.o3d10 import npcs, rules

SOURCE = "004:L21-23"
TIES = "Higher Dexterity (the seed names no tie-break; the tracker's choice), then a d10 roll-off."
TYPED_HELP = "The initiative total, or “fail” for a failed roll (acts last)."


def ties(sheet: Mapping[str, Any]) -> tuple[int, ...]:
    stats = sheet["stats"]
    return (int(stats["dexterity"]),)


def initiative(sheet: Mapping[str, Any], settings: Mapping[str, Any], rng: random.Random) -> Score:
    rolled = rules.roll_initiative(sheet, rng, settings)
    total = rolled.total
    text = f"{total}, failed: acts last" if rolled.lost_first_turn else str(total)
    return Score(
        total,
        text,
        last=rolled.lost_first_turn,
        actions=rolled.actions,
        rolloff=rng.randint(1, 10),
    )


def typed(text: str) -> Score:
    clean = str(text).strip()
    if clean.lower() in {"fail", "failed"}:
        return Score(0, "failed: acts last", last=True, typed=True)
    try:
        value = whole(clean, "Initiative total", high=200)
    except InvalidInitiative:
        raise InvalidInitiative(
            f"Initiative total: “{clean[:20]}” is not a whole number (or type “fail”)."
        ) from None
    return Score(value, str(value), actions=rules.actions_from_initiative(value), typed=True)


def standing(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Condition:
    """The HP lost off the sheet's maximum, as a minion's are read (L39-L45)."""
    top = npcs._max_hp(sheet, settings)
    return npcs.condition(sheet, settings, {"hp_lost": max(0, top - int(sheet["hp"]))})
