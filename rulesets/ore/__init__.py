"""Star O.R.E. (One-Roll Engine): the sheet, point-buy creation, the Force and hit locations.

Source: seeds/001_2d19305c3127dd9e.txt; digest: rules/ore.md. Pure Python, no Django.

Sheet shape (a JSON-serialisable dict; derived values such as pools are never stored):

    info             {name, player, gender, career, age, height, weight, eyes, hair, skin,
                      appearance, motivations: str}
    species          species slug (data.SPECIES), "human" by default
    character_points creation budget in CP (the creation_budget setting fills it in)
    phase            "creation" | "play";  creation_spent: CP spent when creation ended, or None
    xp_awards        [{amount: int, note: str}]   experience earned in play
    stats            {body, coordination, sense, brains, command, cool: normal dice}
    skills           [{id, skill (catalog slug or "" if custom), name, specialty, stat,
                       dice, free (2 for the two starting languages, else 0)}]
    powers           {force_sense, energy_manipulation, physical_control, mental_influence:
                      {dice, hard, wiggle: int, approved: bool}}
    stunts           {stunt slug: {dice: int, approved: bool}}   (normal dice only)
    willpower        {bought, extra: int, adjustment: int}  current = base + extra + adjustment
    dark_side        {base, current: int}
    abilities        [{ability: slug, target: stat slug | skill id | "", level: int}]
    armor            [{from: slug | "", name, ar, coordination, move, special,
                       covers: [location slugs], worn: bool}]         (at most 2 rows)
    weapons          [{from: slug | "", name, damage, penetration, initiative, special}] (≤10)
    wounds           {location slug: ["" | "shock" | "killing", ...]}  one entry per box
    lightsaber_form  "" or a form slug ("i".."vii"); everyone trained knows Form I

Trait keys for apply_edit (raw is what a form submits):

    info.<field>                      text
    species                           slug or name ("wookiee", "Twi'lek")
    character_points                  whole number ≥ 0
    phase                             "play" (freezes creation spend) or "creation"
    xp.award  "3|note"                xp.<n>.remove
    stat.<stat>                       "3" or "3d"
    skill.add "Blaster" | "Lore [Jedi lore]" | "Name|stat"
    skill.<id>  dice                  skill.<id>.stat  skill.<id>.specialty  skill.<id>.remove
    power.<power>  power.<power>.hard  power.<power>.wiggle  power.<power>.approved (yes/no)
    stunt.<stunt>  dice (0 removes)   stunt.<stunt>.approved
    willpower.bought  willpower.extra  willpower.current
    dsp.base  dsp.current
    ability.add "slug|target"         ability.<n>.level  ability.<n>.remove
    armor.add "slug or name"          armor.<n>.name|ar|coordination|move|special|covers|worn|remove
    weapon.add "slug or name"         weapon.<n>.name|damage|penetration|initiative|special|remove
    wound.<location>.<box>  "" or "cycle" (empty → / → X → empty), or empty|shock|killing
    wound.<location>.clear
    lightsaber_form                   "" or "iii" / "Form III"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.ore.demo import demo_sheet
from rulesets.ore.edits import apply_edit
from rulesets.ore.rules import (
    advance_cost,
    bacta_hours,
    capped_pool,
    check,
    cost_items,
    derived,
    next_costs,
    points_spent,
)
from rulesets.ore.settings import SETTINGS, resolved
from rulesets.ore.sheet import blank_sheet as _blank_sheet_with_budget
from rulesets.ore.sheet import validate_sheet

KEY = "ore"
NAME = "Star O.R.E."
SUMMARY = (
    "One-Roll Engine: stats and skills in dice, hard and wiggle dice, point-buy, the Force "
    "with stunts, and hit locations."
)


def blank_sheet(settings: Mapping[str, Any]) -> dict:
    """Build a new human with the free starting package and the campaign's budget."""
    return _blank_sheet_with_budget(resolved(settings)["creation_budget"])


__all__ = [
    "KEY",
    "NAME",
    "SETTINGS",
    "SUMMARY",
    "advance_cost",
    "apply_edit",
    "bacta_hours",
    "blank_sheet",
    "capped_pool",
    "check",
    "cost_items",
    "demo_sheet",
    "derived",
    "next_costs",
    "points_spent",
    "validate_sheet",
]
