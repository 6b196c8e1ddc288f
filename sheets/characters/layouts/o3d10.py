"""The 1o3d10 sheet: who, health, stats, Defense and Luck, skills, rolls, gear, notes, tables.

The seed prints no character sheet, so the order is our own: the way a player reads it at
the table (who, how hurt, what they can do, what they roll). Rows come from the engine's
`trait_rows`; the derived panels (health state, Defense, Luck, pools and odds, attack
bonuses) reach their sections through `extra`, each under its own name, so an edit
redraws only the panels whose values it moved.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesets.core import Setting, TraitRow
from rulesets.o3d10 import data
from rulesets.o3d10.data import HOUSE_RULE_SETTINGS, SETTING_BY_KEY, ranged_mod_key
from rulesets.o3d10.rules import (
    STAT_CHOICES,
    WEAPON_KIND_CHOICES,
    actions_from_initiative,
    seed_source,
)
from sheets.characters.layouts.base import Layout, Section
from sheets.characters.models import Character
from sheets.characters.state import SheetState

# The print pads its skill, weapon and armor tables with empty ruled rows up to these
# counts, to write in by hand; the page holds no more at these sizes.
PRINT_SKILL_ROWS = 12
PRINT_WEAPON_ROWS = 4
PRINT_ARMOR_ROWS = 2
FORCE_SKILLS = frozenset(skill.slug for skill in data.SKILLS if skill.force)


def _percent(chance: float | None) -> str:
    if chance is None:
        return ""
    if 0 < chance < 0.001:
        return "<0.1%"
    return f"{chance * 100:.1f}%".replace(".0%", "%")


def _ranges(lowest: list[int], last_suffix: str = " and more") -> list[str]:
    """Spell table rows keyed by their lowest value: [1, 2, 4] -> 1, 2-3, 4 and more."""
    labels = []
    for number, low in enumerate(lowest):
        if number + 1 < len(lowest):
            high = lowest[number + 1] - 1
            labels.append(str(low) if high == low else f"{low}-{high}")
        else:
            labels.append(f"{low}{last_suffix}")
    return labels


def _metres(cells: str) -> str:
    """Turn a cell range such as "2-3" or "16 and more" into metres."""
    low, _, rest = cells.partition("-")
    first = float(low.split()[0]) * data.METRES_PER_CELL
    if rest:
        return f"{first:g}-{float(rest) * data.METRES_PER_CELL:g} m"
    if "more" in cells:
        return f"{first:g} m and more"
    return f"{first:g} m"


def _span(low: int, high: int, *, descending: bool = False) -> str:
    """Spell the HP values from `low` to `high`: "0 to 5", "0", or "none" when empty."""
    if high < low:
        return "none"
    if low == high:
        return str(low)
    return f"{high} to {low}" if descending else f"{low} to {high}"


def _health_bands(health: Mapping) -> list[dict]:
    """Give the four states with the HP each covers, from the engine's thresholds."""
    wounded_below = health["wounded_below"]
    unconscious_below = health["unconscious_below"]
    dead_below = health["dead_below"]
    spans = {
        "normal": f"{wounded_below} and more",
        "wounded": _span(unconscious_below, wounded_below - 1),
        "unconscious": _span(dead_below, unconscious_below - 1, descending=True),
        "dead": f"below {dead_below}",
    }
    return [
        {
            "slug": state.slug,
            "label": state.label,
            "span": spans[state.slug],
            "current": state.slug == health["state"],
            "effect": state.effect,
            "source": seed_source(state.source),
        }
        for state in data.HEALTH_STATES
    ]


def _hp_track(health: Mapping) -> list[dict]:
    """Give the HP boxes a player marks in pencil: one per HP from the maximum down to the
    last value before Dead, grouped by the state each value is in (the engine's thresholds).
    Boxes above current HP print crossed: that damage is already taken."""
    hp = health["hp"]
    tops = {
        "normal": health["hp_max"],
        "wounded": health["wounded_below"] - 1,
        "unconscious": health["unconscious_below"] - 1,
    }
    bottoms = {
        "normal": health["wounded_below"],
        "wounded": health["unconscious_below"],
        "unconscious": health["dead_below"],
    }
    groups = []
    for state in data.HEALTH_STATES:
        if state.slug in tops:
            # A maximum under a threshold leaves the better states without boxes.
            top = min(tops[state.slug], health["hp_max"])
            numbers = range(top, bottoms[state.slug] - 1, -1)
            boxes = [{"hp": str(n), "crossed": n > hp} for n in numbers]
        else:  # Dead: one box for every value below the last line
            boxes = [{"hp": f"<{health['dead_below']}", "crossed": False}]
        if boxes:
            current = state.slug == health["state"]
            groups.append({"label": state.label, "current": current, "boxes": boxes})
    return groups


def _with_chance(pool: dict) -> dict:
    source = pool["source"]
    if source.startswith("L"):
        source = seed_source(source)
    return pool | {"chance_text": _percent(pool["chance"]), "source": source}


def _reference(derived: Mapping) -> dict:
    """Lay out the seed's tables for reading at the table."""
    step = data.INITIATIVE_PER_EXTRA_ACTION
    actions = [{"totals": f"below {2 * step}", "actions": actions_from_initiative(0)}]
    for n in (2, 3, 4):
        low = n * step
        totals = f"{low}-{low + step - 1}"
        actions.append({"totals": totals, "actions": actions_from_initiative(low)})
    actions.append({"totals": "and so on", "actions": f"+1 per {step}"})
    return {
        "hit_locations": [
            {
                "roll": spot.roll,
                "label": spot.label,
                "effect": (
                    f"+{spot.extra_damage_dice} damage"
                    if spot.extra_damage_dice
                    else (f"+{spot.damage_bonus} damage" if spot.damage_bonus else "no change")
                ),
                "source": seed_source(spot.source),
            }
            for spot in data.HIT_LOCATIONS
        ],
        "actions": actions,
        "reaction_points": derived["reaction_points_table"],
        "reaction_costs": data.REACTIONS,
        "deflect": [(label, dc) for _slug, label, _low, dc in data.DEFLECT_REDIRECT_DC],
        "force_jump": [
            {"cells": label, "dc": dc}
            for label, (_low, dc) in zip(
                _ranges([low for low, _dc in data.FORCE_JUMP_DC_BY_CELLS], "-15"),
                data.FORCE_JUMP_DC_BY_CELLS,
                strict=True,
            )
        ],
        "healing": [
            {
                "label": way.label,
                "effect": way.effect,
                "action": way.action,
                "source": seed_source(way.source),
            }
            for way in data.HEALING
        ],
    }


RANGED_MOD_PREFIX = ranged_mod_key("")


def _rolls(derived: Mapping) -> dict:
    """Every pool with its odds, each weapon's attack, and the ranged difficulty by distance."""
    labels = _ranges([low for low, _dc in data.RANGED_DC_BY_CELLS])
    return {
        "rolls": [_with_chance(pool) for pool in derived["pools"].values()],
        "force_rolls": [_with_chance(pool) for pool in derived["force_pools"].values()],
        "custom_rolls": [_with_chance(pool) for pool in derived["custom_pools"].values()],
        "force_locked": not derived["force_available"],
        "weapons": [
            weapon | {"roll": derived["pools"][weapon["pool"]]["label"]}
            for weapon in derived["weapons"]
        ],
        "target_die": derived["health"]["target_die"],
        "health_label": derived["health"]["label"],
        "ranged": [
            {
                "cells": label,
                "metres": _metres(label),
                "dc": row["dc"],
                "chance": _percent(row["chance"]),
            }
            for label, row in zip(labels, derived["ranged_chances"], strict=True)
        ],
        "ranged_modifiers": [
            (label, "no line of fire" if value is None else f"+{value}")
            for _slug, label, value in derived["ranged_modifiers"]
        ],
    }


def _gear(sheet: Mapping) -> list[dict]:
    """Name each weapon and armor row group and the button that removes it."""
    weapons = [
        {"group": f"Weapon {index + 1}", "remove": f"weapon.remove={index}"}
        for index in range(len(sheet["weapons"]))
    ]
    armor = [
        {"group": f"Armor {index + 1}", "remove": f"armor.remove={index}"}
        for index in range(len(sheet["armor"]))
    ]
    return weapons + armor


class O3d10Layout(Layout):
    sections = (
        Section("header", "Character", body="rulesets/o3d10/_header.html"),
        Section(
            "health",
            "Health",
            body="rulesets/o3d10/_health.html",
            prefixes=("hp.damage", "hp.heal", "hp.bleed"),
            uses_extra=("o3d10_health",),
        ),
        Section("stats", "Stats"),
        Section(
            "combat",
            "Defense & Luck",
            body="rulesets/o3d10/_combat.html",
            prefixes=("luck.",),
            uses_extra=("o3d10_combat",),
        ),
        Section(
            "skills",
            "Skills",
            body="rulesets/o3d10/_skills.html",
            adds="rulesets/o3d10/_skills_add.html",
            prefixes=("skill.add", "skill.remove"),
        ),
        Section(
            "rolls",
            "Rolls",
            body="rulesets/o3d10/_rolls.html",
            uses_extra=("o3d10_rolls",),
        ),
        Section(
            "gear",
            "Weapons & armor",
            body="rulesets/o3d10/_gear.html",
            adds="rulesets/o3d10/_gear_add.html",
            prefixes=("weapon.", "armor."),
            uses_extra=("o3d10_gear",),
        ),
        # Notes is a multi-line box, which the shell's one-line text row would flatten:
        # redrawing the section whenever the notes change keeps it a box.
        Section("notes", "Notes", body="rulesets/o3d10/_notes.html", uses_extra=("o3d10_notes",)),
        Section(
            "tables",
            "Tables",
            body="rulesets/o3d10/_tables.html",
            uses_extra=("o3d10_reference",),
        ),
        Section(
            "status",
            "At a glance",
            body="rulesets/o3d10/_status.html",
            side=True,
            uses_extra=("o3d10_status",),
        ),
    )

    def section_for(self, row: TraitRow) -> str:
        return "notes" if row.key == "info.notes" else row.section

    def extra(self, state: SheetState, character: Character) -> dict:
        derived = state.derived
        health = derived["health"]
        luck = derived["luck"]
        return {
            "o3d10_health": {
                **health,
                "source": seed_source(health["source"]),
                "bands": _health_bands(health),
            },
            "o3d10_combat": {
                "defense": derived["defense"],
                "defense_formula": derived["defense_formula"],
                "absorption": derived["absorption"],
                "luck": luck,
                "movement": derived["movement"],
            },
            "o3d10_rolls": _rolls(derived),
            "o3d10_gear": _gear(state.sheet),
            "o3d10_notes": state.sheet["info"]["notes"],
            "o3d10_reference": _reference(derived),
            "o3d10_status": {
                "state": health["state"],
                "label": health["label"],
                "hp": health["hp"],
                "hp_max": health["hp_max"],
                "defense": derived["defense"],
                "absorption": derived["absorption"],
                "luck": luck,
            },
            "o3d10_stat_choices": STAT_CHOICES,
            "o3d10_weapon_kinds": WEAPON_KIND_CHOICES,
            "o3d10_weapon_catalog": data.WEAPONS,
            "o3d10_armor_catalog": data.ARMORS,
        }

    def print_extra(self, state: SheetState, character: Character) -> dict:
        rows = {row.key: row for row in state.rows}
        sheet, settings = state.sheet, state.settings
        stat_rows = [(stat, rows[f"stat.{stat.slug}"]) for stat in data.STATS]
        labels = {stat.slug: stat.label for stat in data.STATS}
        stat_of = {skill.slug: skill.stat or "" for skill in data.SKILLS}
        stat_of |= {custom["slug"]: custom["stat"] for custom in sheet["custom_skills"]}
        skills = [
            {
                "label": row.label,
                "force": row.key.removeprefix("skill.") in FORCE_SKILLS,
                "stat": labels.get(stat_of[row.key.removeprefix("skill.")], ""),
                "value": row.value,
                "cost": _short_cost(row),
            }
            for row in state.rows
            if row.section == "skills" and row.key.removeprefix("skill.") in stat_of
        ]
        luck = state.derived["luck"]
        printed = {
            "stats": [
                {
                    "label": stat.label,
                    "abbreviation": stat.abbreviation,
                    "value": row.value,
                    "cost": _short_cost(row),
                }
                for stat, row in stat_rows
            ],
            "skills": skills,
            "weapons": [
                row | {"attack_bonus": weapon["attack_bonus"]}
                for row, weapon in zip(sheet["weapons"], state.derived["weapons"], strict=True)
            ],
            "house_rules": [
                (setting.label.removesuffix(" (house rule)"), _reading(setting, settings[key]))
                for key, setting in SETTING_BY_KEY.items()
                if key in HOUSE_RULE_SETTINGS and not key.startswith(RANGED_MOD_PREFIX)
            ]
            # The target modifiers are eight readings of one table: one entry keeps the
            # page to one sheet of A4.
            + [
                (
                    "Ranged target modifiers",
                    ", ".join(
                        f"{label.lower()} {'no line of fire' if value is None else f'+{value}'}"
                        for _slug, label, value in state.derived["ranged_modifiers"]
                    ),
                )
            ],
            "dice": {
                "sides": data.DIE_SIDES,
                "critical_margin": data.CRITICAL_MARGIN,
                "crit_fail_next_below": data.CRIT_FAIL_NEXT_DIE_BELOW,
                "luck_face": data.LUCK_FACE,
            },
            "hp_track": _hp_track(state.derived["health"]),
            "luck_marks": [n < luck["used_today"] for n in range(luck["per_day"])],
            "blank_skill_rows": range(max(0, PRINT_SKILL_ROWS - len(skills))),
            "blank_weapon_rows": range(max(0, PRINT_WEAPON_ROWS - len(sheet["weapons"]))),
            "blank_armor_rows": range(max(0, PRINT_ARMOR_ROWS - len(sheet["armor"]))),
            "explode_label": SETTING_BY_KEY["explode_mode"]
            .label_for(settings["explode_mode"])
            .lower(),
            "force_keep_label": SETTING_BY_KEY["force_roll_keep"]
            .label_for(settings["force_roll_keep"])
            .lower(),
        }
        return {"o3d10_print": printed}


def _reading(setting: Setting, value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return setting.label_for(value)


def _short_cost(row: TraitRow) -> str:
    """Give the next point's price in a narrow printed column: "4 XP" or "1 pt"."""
    if row.next_cost is None:
        return "locked" if row.locked else "top"
    unit = "XP" if row.next_cost.unit == "XP" else "pt"
    return f"{row.next_cost.amount} {unit}"


LAYOUT = O3d10Layout()
