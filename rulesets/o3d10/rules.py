"""1o3d10 rules: health states, the tables a roller reads, costs, checks, derived values and
the rows a sheet prints.

Source: seeds/004_8cbd6e5c00de6f21.txt (cited as L<n>); digest: rules/1o3d10.md (§n). The
sheet's shape is declared once in rulesets/o3d10/sheet.py; edits live in edits.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesets.core import (
    Cost,
    InvalidEdit,
    Pool,
    Report,
    RowKind,
    Setter,
    Status,
    TraitRow,
    resolve_settings,
)
from rulesets.core.parsing import ROW_NUMBER
from rulesets.core.stage import STAGE_CHOICES, STAGE_TRAIT
from rulesets.o3d10 import data, dice
from rulesets.o3d10.data import SETTINGS, TIMES, HealthState

KEY = "o3d10"
# The in-game day moves on when the GM says so; Luck comes back with it.
GM_EDITS = ("luck.new_day",)


# --- Health ------------------------------------------------------------------------------
def health_state(hp: int, strength: int) -> HealthState:
    """Give the health state for current HP and Strength (L39-L45).

    HP equal to Strength is Normal (L39: "equal or higher"); 0 is Wounded because
    Unconscious starts under 0 (L43); exactly -3 x STR is still Unconscious because Dead
    is strictly less (L45).
    """
    if hp >= strength:
        return data.NORMAL
    if hp >= 0:
        return data.WOUNDED
    if hp >= -data.DEATH_MULTIPLIER * strength:
        return data.UNCONSCIOUS
    return data.DEAD


def bleed(hp: int, d10: int) -> int:
    """Apply one turn's bleeding roll of an unconscious character (L49-L51)."""
    if not 1 <= d10 <= data.DIE_SIDES:
        raise ValueError(f"a d10 shows 1 to 10, not {d10}")
    return hp if d10 >= data.BLEED_SAFE_FROM else hp - d10


def max_hp(strength: int, settings: Mapping[str, Any]) -> int:
    return settings["hp_base"] + settings["hp_per_strength"] * strength


# --- Tables a roller reads ---------------------------------------------------------------
def actions_from_initiative(total: int) -> int:
    """Count the actions an initiative total gives: 1 below 20, 2 for 20-29, ... (L21)."""
    return max(1, total // data.INITIATIVE_PER_EXTRA_ACTION)


def reaction_points(total: int, at_15: int = 3) -> int:
    """Give the reaction points an initiative total buys (L97-L102)."""
    if total == 15:
        return at_15
    points = data.REACTION_POINTS_BELOW_10
    for lowest, row_points in data.REACTION_POINTS:
        if total >= lowest:
            points = row_points
    return points


def cells_for_metres(metres: float) -> int:
    """Convert a distance in metres into whole cells of 1.5 m, rounding up (digest §4.1)."""
    if metres <= 0:
        raise ValueError("a distance must be more than 0 m")
    return math.ceil(metres / data.METRES_PER_CELL - 1e-9)


def _by_lowest(rows: Iterable[tuple[int, int]], value: int) -> int:
    found: int | None = None
    for lowest, result in rows:
        if value >= lowest:
            found = result
    if found is None:
        raise ValueError(f"{value} is below the first row of the table")
    return found


def ranged_dc(cells: int) -> int:
    """Give the ranged attack difficulty for a distance in cells (L67-L74)."""
    return _by_lowest(data.RANGED_DC_BY_CELLS, cells)


def hit_location(d10: int) -> data.HitLocation:
    """Read the hit-location d10 (L82-L93)."""
    if not 1 <= d10 <= data.DIE_SIDES:
        raise ValueError(f"a d10 shows 1 to 10, not {d10}")
    return data.HIT_LOCATIONS[d10 - 1]


def deflect_redirect_dc(cells: int) -> int:
    """Give the redirect difficulty for the chosen target's distance (L138-L143)."""
    return _by_lowest(((low, dc) for _s, _l, low, dc in data.DEFLECT_REDIRECT_DC), cells)


def force_jump_dc(cells: int, moving: str | None = None) -> int:
    """Give the Force Jump difficulty for a distance or height in cells (L156-L164)."""
    if cells > data.FORCE_JUMP_MAX_CELLS:
        raise ValueError(f"the Force Jump table stops at {data.FORCE_JUMP_MAX_CELLS} cells")
    dc = _by_lowest(data.FORCE_JUMP_DC_BY_CELLS, cells)
    return dc + (data.FORCE_JUMP_TARGET_MOVING[moving] if moving else 0)


class ImmuneTarget(ValueError):
    """A Force school cannot affect this target at all (L215, L236)."""


def band_modifier(bands: tuple[data.Band, ...], value: float) -> int:
    """Give the modifier of the last band `value` reaches."""
    found: int | None = None
    for band in bands:
        if value > band.low or (band.low_inclusive and value == band.low):
            found = band.modifier
    if found is None:
        raise ValueError(f"{value} is below the first band")
    return found


def physical_dc(*, weight_kg: float, speed_kmh: float, distance_m: float, organic: bool) -> int:
    """Give the Physical School difficulty: 12 plus one row per condition (L169-L186)."""
    return (
        data.PHYSICAL_BASE_DC
        + band_modifier(data.PHYSICAL_WEIGHT_KG, weight_kg)
        + band_modifier(data.PHYSICAL_SPEED_KMH, speed_kmh)
        + band_modifier(data.PHYSICAL_DISTANCE_M, distance_m)
        + (data.PHYSICAL_ORGANIC_TARGET if organic else 0)
    )


def alteration_dc(
    *, target_intelligence: int, trick: str, distance_m: float, machine: bool = False
) -> int:
    """Give the Alteration School difficulty: 10 plus conditions (L197-L215)."""
    if machine:
        raise ImmuneTarget("Droids and other machines are immune to the Alteration School.")
    return (
        data.ALTERATION_BASE_DC
        + band_modifier(data.ALTERATION_TARGET_INTELLIGENCE, target_intelligence)
        + data.ALTERATION_TRICK[trick]
        + band_modifier(data.ALTERATION_DISTANCE_M, distance_m)
    )


def organic_dc(
    *, distance_m: float, target_strength: int, maneuver: str, machine: bool = False
) -> int:
    """Give the Organic School difficulty: 12 plus conditions (L220-L236)."""
    if machine:
        raise ImmuneTarget("Droids and other machines are immune to the Organic School.")
    return (
        data.ORGANIC_BASE_DC
        + band_modifier(data.ORGANIC_DISTANCE_M, distance_m)
        + band_modifier(data.ORGANIC_TARGET_STRENGTH, target_strength)
        + data.ORGANIC_MANEUVER[maneuver]
    )


def combined_lift_total(totals: Iterable[int]) -> int:
    """Add the totals of several Physical School users, less 5 for each of them (L192)."""
    values = list(totals)
    return sum(values) - data.COMBINED_LIFT_PENALTY_PER_USER * len(values)


# --- Sheet basics -----------------------------------------------------------------------
def custom_skill(sheet: Mapping[str, Any], slug: str) -> dict | None:
    for row in sheet["custom_skills"]:
        if row["slug"] == slug:
            return row
    return None


def skill_values(sheet: Mapping[str, Any]) -> dict[str, int]:
    values = dict(sheet["skills"])
    for row in sheet["custom_skills"]:
        values[row["slug"]] = row["rank"]
    return values


def skill_label(sheet: Mapping[str, Any], slug: str) -> str:
    if slug in data.SKILL_BY_SLUG:
        return data.SKILL_BY_SLUG[slug].label
    row = custom_skill(sheet, slug)
    return row["name"] if row else slug


def base_value(sheet: Mapping[str, Any], group: str, slug: str) -> int:
    """Give the value a trait had when creation ended (0 for a skill added later)."""
    base = sheet.get("base") or {}
    return base.get(group, {}).get(slug, 0)


def creation_values(sheet: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """Give the stats and skills paid from the creation budget."""
    if sheet["stage"] == "creation":
        return dict(sheet["stats"]), skill_values(sheet)
    base = sheet["base"]
    return dict(base["stats"]), dict(base["skills"])


def luck_used_today(luck: Mapping[str, Any]) -> int:
    return luck["uses_that_day"] if luck["last_used_day"] == luck["day"] else 0


def force_locked(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    return settings["force_needs_sensitivity"] and not sheet["force_sensitive"]


# --- Costs -------------------------------------------------------------------------------
def _trait_group(sheet: Mapping[str, Any], trait: str) -> tuple[str, str, str, int]:
    """Split a raisable trait key into (group, slug, label, current value)."""
    group, _, slug = trait.partition(".")
    if group == "stat" and slug in data.STAT_BY_SLUG:
        return "stats", slug, data.STAT_BY_SLUG[slug].label, sheet["stats"][slug]
    if group == "skill":
        values = skill_values(sheet)
        if slug in values:
            return "skills", slug, skill_label(sheet, slug), values[slug]
    raise InvalidEdit(trait, f"“{trait}” is not a stat or skill that can be raised.")


def rank_limits(
    sheet: Mapping[str, Any], group: str, settings: Mapping[str, Any]
) -> tuple[int, int]:
    creating = sheet["stage"] == "creation"
    if group == "stats":
        top = settings["stat_creation_max"] if creating else settings["stat_max"]
        return settings["stat_min"], min(top, settings["stat_max"])
    top = settings["skill_creation_max"] if creating else settings["skill_max"]
    return 0, min(top, settings["skill_max"])


def _step_cost(
    sheet: Mapping[str, Any], group: str, label: str, new: int, settings: Mapping[str, Any]
) -> Cost:
    if sheet["stage"] == "creation":
        unit = "stat points" if group == "stats" else "skill points"
        return Cost(1, unit, f"{label} {new - 1} → {new}: 1 {unit[:-1]} per rank = 1 {unit[:-1]}")
    if group == "stats":
        per, word = settings["xp_per_stat_rank"], "value"
    else:
        per, word = settings["xp_per_skill_rank"], "rank"
    amount = new * per
    return Cost(
        amount, "XP", f"{label} {new - 1} → {new}: new {word} {new} {TIMES} {per} = {amount} XP"
    )


def advance_cost(
    sheet: Mapping[str, Any], trait: str, new_value: int, settings: Mapping[str, Any] | None
) -> Cost:
    """Price raising a stat or skill to `new_value`: creation points, or XP in play."""
    settings = resolve_settings(SETTINGS, settings)
    group, slug, label, current = _trait_group(sheet, trait)
    low, high = rank_limits(sheet, group, settings)
    creating = sheet["stage"] == "creation"
    unit = ("stat points" if group == "stats" else "skill points") if creating else "XP"
    if new_value > high:
        stage_word = "at creation" if creating else "in this campaign"
        raise InvalidEdit(trait, f"{label} cannot go above {high} {stage_word}.")
    if new_value < current:
        floor = low if creating else max(low, base_value(sheet, group, slug))
        if new_value < floor:
            raise InvalidEdit(trait, f"{label} cannot go below {floor}.")
        refund = "the points return to the pool" if creating else "the XP returns"
        return Cost(0, unit, f"{label} {current} → {new_value}: lowering is free; {refund}")
    steps = [
        _step_cost(sheet, group, label, value, settings)
        for value in range(current + 1, new_value + 1)
    ]
    return Cost.total(steps, unit=unit, label=f"{label} {current} → {new_value}")


def next_costs(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None) -> dict[str, Cost]:
    """Give the price of one more point for every stat and skill that can still go up."""
    settings = resolve_settings(SETTINGS, settings)
    costs: dict[str, Cost] = {}
    locked = force_locked(sheet, settings)
    _low, stat_high = rank_limits(sheet, "stats", settings)
    for stat in data.STATS:
        value = sheet["stats"][stat.slug]
        if value < stat_high:
            costs[f"stat.{stat.slug}"] = _step_cost(sheet, "stats", stat.label, value + 1, settings)
    _low, skill_high = rank_limits(sheet, "skills", settings)
    for slug, value in skill_values(sheet).items():
        skill = data.SKILL_BY_SLUG.get(slug)
        if value >= skill_high or (locked and skill is not None and skill.force):
            continue
        costs[f"skill.{slug}"] = _step_cost(
            sheet, "skills", skill_label(sheet, slug), value + 1, settings
        )
    return costs


def xp_spent(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None) -> int:
    """Sum the XP paid for every rank above the values frozen when creation ended."""
    if sheet["stage"] == "creation":
        return 0
    settings = resolve_settings(SETTINGS, settings)
    total = 0
    for slug, value in sheet["stats"].items():
        base = base_value(sheet, "stats", slug)
        total += settings["xp_per_stat_rank"] * sum(range(base + 1, value + 1))
    for slug, value in skill_values(sheet).items():
        base = base_value(sheet, "skills", slug)
        total += settings["xp_per_skill_rank"] * sum(range(base + 1, value + 1))
    return total


# --- Check -------------------------------------------------------------------------------
def check(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None) -> Report:
    """Report every budget and every broken rule of the sheet, all at once."""
    settings = resolve_settings(SETTINGS, settings)
    report = Report()
    creating = sheet["stage"] == "creation"
    stage_word = "at creation" if creating else "when creation ended"
    stats, skills = creation_values(sheet)

    _budget(
        report, "stats", "Stat points (creation)", stats, "creation_stat_points", settings, creating
    )
    _budget(
        report,
        "skills",
        "Skill points (creation)",
        skills,
        "creation_skill_points",
        settings,
        creating,
    )
    spent = xp_spent(sheet, settings)
    report.add_pool(Pool("xp", "Experience", sheet["xp_earned"], spent, "XP", "digest §3 xp_cost"))
    if spent > sheet["xp_earned"]:
        report.error(
            "xp_over",
            "xp.earned",
            f"Raises since creation cost {spent} XP, but only {sheet['xp_earned']} XP was earned.",
            "digest §3",
        )

    for stat in data.STATS:
        trait, value = f"stat.{stat.slug}", sheet["stats"][stat.slug]
        if value < settings["stat_min"]:
            report.error(
                "stat_below_min",
                trait,
                f"{stat.label} is {value}; the lowest is {settings['stat_min']}.",
            )
        if value > settings["stat_max"]:
            report.error(
                "stat_above_max",
                trait,
                f"{stat.label} is {value}; the highest is {settings['stat_max']}.",
            )
        if stats[stat.slug] > settings["stat_creation_max"]:
            report.error(
                "stat_above_creation_max",
                trait,
                f"{stat.label} is {stats[stat.slug]} {stage_word}; the creation maximum is "
                f"{settings['stat_creation_max']}.",
            )
        if not creating and value < stats[stat.slug]:
            report.error(
                "below_creation_value",
                trait,
                f"{stat.label} is {value}, below its creation value {stats[stat.slug]}.",
            )

    locked = force_locked(sheet, settings)
    for slug, value in skill_values(sheet).items():
        trait, label = f"skill.{slug}", skill_label(sheet, slug)
        if value > settings["skill_max"]:
            report.error(
                "skill_above_max",
                trait,
                f"{label} is {value}; the highest rank is {settings['skill_max']}.",
            )
        created = skills.get(slug, 0)
        if created > settings["skill_creation_max"]:
            report.error(
                "skill_above_creation_max",
                trait,
                f"{label} is {created} {stage_word}; the creation maximum is "
                f"{settings['skill_creation_max']}.",
            )
        if not creating and value < created:
            report.error(
                "below_creation_value",
                trait,
                f"{label} is {value}, below its creation value {created}.",
            )
        skill = data.SKILL_BY_SLUG.get(slug)
        if locked and skill is not None and skill.force and value > 0:
            report.error(
                "force_locked",
                trait,
                f"{label} is {value}, but only a character the GM marks Force-sensitive may "
                "learn Force skills.",
                "L149",
            )

    hp_limit = max_hp(sheet["stats"]["strength"], settings)
    if sheet["hp"] > hp_limit:
        report.warn(
            "hp_above_max",
            "hp.current",
            f"HP is {sheet['hp']}, above the maximum {hp_limit} "
            f"({settings['hp_base']} + {settings['hp_per_strength']} {TIMES} Strength).",
            "digest §3 hp_formula",
        )
    used = luck_used_today(sheet["luck"])
    if used > settings["luck_per_day"]:
        report.error(
            "luck_overused",
            "luck.use",
            f"Midichlorian Luck was used {used} times on day {sheet['luck']['day']}; "
            f"the limit is {settings['luck_per_day']} a day.",
            "L17",
        )
    return report


def _budget(
    report: Report,
    key: str,
    label: str,
    values: Mapping[str, int],
    setting_key: str,
    settings: Mapping[str, Any],
    creating: bool,
) -> None:
    allowed, spent = settings[setting_key], sum(values.values())
    report.add_pool(Pool(key, label, allowed, spent, "points", f"digest §3 {setting_key}"))
    noun = "stat" if key == "stats" else "skill"
    if spent > allowed:
        report.error(
            f"{noun}_points_over",
            None,
            f"The {noun}s use {spent} points at creation; the budget is {allowed} "
            f"({spent - allowed} too many).",
            f"digest §3 {setting_key}",
        )
    elif creating and spent < allowed:
        report.warn(
            f"{noun}_points_left",
            None,
            f"{allowed - spent} of {allowed} {noun} points are still to spend.",
            f"digest §3 {setting_key}",
        )


# --- Derived -----------------------------------------------------------------------------
def _pool(
    key: str,
    label: str,
    parts: list[tuple[str, int]],
    *,
    source: str,
    dc: int | None = None,
    against: str = "",
    force: bool = False,
    wounded: bool,
    settings: Mapping[str, Any],
) -> dict:
    bonus = sum(value for _name, value in parts)
    pool = {
        "key": key,
        "label": label,
        "parts": [{"label": name, "value": value} for name, value in parts],
        "bonus": bonus,
        "roll": "1a3d10" if force else "1o3d10",
        "formula": " + ".join(
            [*(f"{name} {value}" for name, value in parts), "1a3d10" if force else "1o3d10"]
        ),
        "dc": dc,
        # What the total is read against when no fixed difficulty applies.
        "against": f"DC {dc}" if dc is not None else against,
        "chance": None,
        "source": source,
    }
    if dc is not None:
        pool["chance"] = float(_chance(bonus, dc, force=force, wounded=wounded, settings=settings))
    return pool


def roll_options(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Give the keyword arguments the dice functions take under these settings."""
    return {
        "force_keep": settings["force_roll_keep"],
        "wounded_crit_fail": settings["crit_fail_when_wounded"],
        "explode_mode": settings["explode_mode"],
    }


def luck_options(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Give the keyword arguments `dice.use_luck` takes under these settings."""
    return {
        "explode_mode": settings["explode_mode"],
        "luck_ten_explodes": settings["luck_ten_explodes"],
    }


def _chance(
    bonus: int, dc: int, *, force: bool, wounded: bool, settings: Mapping[str, Any]
) -> Fraction:
    return dice.success_chance(
        bonus,
        dc,
        wounded=wounded,
        force=force,
        fumble_fails=settings["crit_fail_auto_fails"],
        **roll_options(settings),
    )


_INITIATIVE_SLUGS: dict[str, tuple[str, ...]] = {
    "dexterity_reflexes": ("dexterity", "reflexes"),
    "perception_reflexes": ("perception", "reflexes"),
    "dexterity": ("dexterity",),
}


@dataclass(frozen=True)
class Initiative:
    rolled: dice.ThreeDiceRoll
    bonus: int
    actions: int
    reaction_points: int
    lost_first_turn: bool

    @property
    def total(self) -> int:
        return self.bonus + self.rolled.result


def roll_initiative(
    sheet: Mapping[str, Any], rng: random.Random, settings: Mapping[str, Any] | None
) -> Initiative:
    """Roll the character's initiative and read actions and reaction points from it."""
    settings = resolve_settings(SETTINGS, settings)
    values = {**sheet["stats"], **skill_values(sheet)}
    bonus = sum(values[slug] for slug in _INITIATIVE_SLUGS[settings["initiative_pool"]])
    wounded = health_state(sheet["hp"], sheet["stats"]["strength"]) is not data.NORMAL
    rolled = dice.roll_1o3d10(rng, wounded=wounded, **roll_options(settings))
    total = bonus + rolled.result
    # L23: a failed roll loses the first turn; the seed gives the roll no difficulty.
    lost = settings["initiative_fail"] == "critical_fail" and rolled.critical_fail
    return Initiative(
        rolled=rolled,
        bonus=bonus,
        actions=actions_from_initiative(total),
        reaction_points=reaction_points(total, settings["reaction_points_at_15"]),
        lost_first_turn=lost,
    )


def derived(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None) -> dict:
    """Compute what the sheet shows but never stores: health, pools, odds, Defense, Luck."""
    settings = resolve_settings(SETTINGS, settings)
    stats = sheet["stats"]
    skills = skill_values(sheet)
    strength, hp = stats["strength"], sheet["hp"]
    state = health_state(hp, strength)
    hurt = state is not data.NORMAL
    label = {stat.slug: stat.label for stat in data.STATS}

    def part(slug: str) -> tuple[str, int]:
        if slug in label:
            return label[slug], stats[slug]
        return skill_label(sheet, slug), skills[slug]

    def pool(key: str, title: str, slugs: list[str], source: str, **kw: Any) -> dict:
        return _pool(
            key,
            title,
            [part(s) for s in slugs],
            source=source,
            wounded=hurt,
            settings=settings,
            **kw,
        )

    initiative_slugs = list(_INITIATIVE_SLUGS[settings["initiative_pool"]])
    pools = {
        "melee": pool(
            "melee",
            "Melee attack",
            ["strength", "melee_weapons"],
            "L55",
            against="the target's Defense",
        ),
        "ranged": pool(
            "ranged",
            "Ranged attack",
            ["dexterity", "ranged_weapons"],
            "L63",
            against="the range table",
        ),
        "dodge": pool("dodge", "Dodge", ["dexterity", "dodge"], "L116-L118", dc=data.DODGE_DC),
        "deflect": pool(
            "deflect", "Deflect/Block", ["perception", "reflexes"], "L126-L128", dc=data.DEFLECT_DC
        ),
        "redirect": pool(
            "redirect",
            "Redirect a deflected shot",
            ["dexterity"],
            "L132",
            against="the redirect table",
        ),
        "stabilise": pool(
            "stabilise",
            "Stabilise an ally",
            ["intelligence", "medicine"],
            "L51",
            dc=data.STABILISE_DC,
        ),
        "initiative": pool(
            "initiative", "Initiative", initiative_slugs, "digest §3 initiative_formula"
        ),
    }
    force_available = not force_locked(sheet, settings)
    force_pools = {
        "force_jump": pool(
            "force_jump",
            "Force Jump",
            ["force_jump"],
            "L153",
            force=True,
            against="the jump table",
        ),
        "physical_school": pool(
            "physical_school",
            "Physical School",
            ["physical_school"],
            "L168",
            force=True,
            against="its conditions",
        ),
        "alteration_school": pool(
            "alteration_school",
            "Alteration School",
            ["alteration_school"],
            "L196",
            force=True,
            against="its conditions",
        ),
        "organic_school": pool(
            "organic_school",
            "Organic School",
            ["organic_school"],
            "L219",
            force=True,
            against="its conditions",
        ),
        "force_healing": pool(
            "force_healing",
            "Force healing",
            ["organic_school"],
            "L246-L247",
            force=True,
            dc=data.FORCE_HEALING_DC,
        ),
    }
    custom_pools = {
        row["slug"]: pool(
            row["slug"],
            row["name"],
            [s for s in (row["stat"], row["slug"]) if s],
            "custom skill",
            against="the GM's difficulty",
        )
        for row in sheet["custom_skills"]
    }
    ranged_bonus = pools["ranged"]["bonus"]
    ranged_chances = [
        {
            "cells": lowest,
            "dc": dc,
            "chance": float(
                _chance(ranged_bonus, dc, force=False, wounded=hurt, settings=settings)
            ),
        }
        for lowest, dc in data.RANGED_DC_BY_CELLS
    ]

    defense = settings["defense_base"] + stats["dexterity"] + sheet["defense_bonus"]
    defense_formula = (
        f"{settings['defense_base']} + Dexterity {stats['dexterity']} "
        f"+ bonus {sheet['defense_bonus']}"
    )
    absorption = sum(row["absorption"] for row in sheet["armor"] if row["worn"])
    weapons = [
        {
            "index": index,
            "name": row["name"],
            "damage": row["damage"],
            "attack_bonus": pools["melee" if row["kind"] == "melee" else "ranged"]["bonus"],
            "pool": "melee" if row["kind"] == "melee" else "ranged",
        }
        for index, row in enumerate(sheet["weapons"])
    ]
    luck = sheet["luck"]
    used_today = min(luck_used_today(luck), settings["luck_per_day"])
    earned, spent = sheet["xp_earned"], xp_spent(sheet, settings)
    at_15 = settings["reaction_points_at_15"]
    return {
        "health": _health(hp, strength, state, sheet, settings, pools["stabilise"]),
        "hp_max": max_hp(strength, settings),
        "defense": defense,
        "defense_formula": defense_formula,
        "absorption": absorption,
        "pools": pools,
        "force_available": force_available,
        "force_pools": force_pools,
        "custom_pools": custom_pools,
        "ranged_chances": ranged_chances,
        # The target modifiers L78 names, with the GM's values (house rules).
        "ranged_modifiers": [
            (slug, label, value)
            for slug, (label, value) in dice.ranged_target_modifiers(settings).items()
        ],
        "weapons": weapons,
        "luck": {
            "day": luck["day"],
            "used_today": used_today,
            "left_today": settings["luck_per_day"] - used_today,
            "per_day": settings["luck_per_day"],
        },
        "xp": {"earned": earned, "spent": spent, "left": earned - spent},
        "movement": {
            "short_action_cells": data.SHORT_ACTION_CELLS,
            "long_action_cells": data.LONG_ACTION_CELLS,
            "max_cells_per_turn": data.MAX_CELLS_PER_TURN,
            "metres_per_cell": data.METRES_PER_CELL,
        },
        "reaction_points_table": [
            {"totals": "below 10", "points": 1},
            {"totals": "10-14" if at_15 == 3 else "10-15", "points": 2},
            {"totals": "15-25" if at_15 == 3 else "16-25", "points": 3},
            {"totals": "26 and more", "points": 4},
        ],
    }


def _health(
    hp: int,
    strength: int,
    state: HealthState,
    sheet: Mapping[str, Any],
    settings: Mapping[str, Any],
    stabilise: dict,
) -> dict:
    notes: list[str] = []
    if state is data.WOUNDED:
        notes.append("Wounded: the lowest of the three dice is the target die.")
    if state is data.UNCONSCIOUS:
        notes.append("Unconscious: cannot move, interact or use the Force.")
        if sheet["stabilised"]:
            notes.append("Stabilised: no more bleeding rolls; HP stays where it is.")
        else:
            notes.append(
                "Bleeding: roll 1d10 each turn; on 1-5 lose that many HP, on 6-10 nothing."
            )
            notes.append(
                f"An adjacent ally stabilises with Intelligence + Medicine + 1o3d10 against "
                f"{data.STABILISE_DC}."
            )
    death_line = -data.DEATH_MULTIPLIER * strength
    return {
        "state": state.slug,
        "label": state.label,
        "source": state.source,
        "hp": hp,
        "hp_max": max_hp(strength, settings),
        "wounded_below": strength,
        "unconscious_below": 0,
        "dead_below": death_line,
        "target_die": "middle" if state is data.NORMAL else "lowest",
        "can_act": state in (data.NORMAL, data.WOUNDED),
        "bleeding": state is data.UNCONSCIOUS and not sheet["stabilised"],
        "stabilised": sheet["stabilised"],
        "stabilise_dc": data.STABILISE_DC,
        "notes": notes,
    }


# --- Rows, labels and status -----------------------------------------------------------
SEED = "004"
_FORCE_LOCKED = "Only a character the GM marks Force-sensitive may learn Force skills."
_INFO_SOURCE = "house rule: the seed prints no character sheet"
STAT_CHOICES: tuple[tuple[str, str], ...] = (
    ("", "No stat"),
    *((stat.slug, stat.label) for stat in data.STATS),
)
WEAPON_KIND_CHOICES = (("melee", "Melee"), ("ranged", "Ranged"))
_ROW_FIELDS = {
    "weapon": ("name", "kind", "damage", "notes"),
    "armor": ("name", "absorption", "worn"),
}
_FIXED_LABELS = {
    "info.player": "Player",
    "info.species": "Species",
    "info.notes": "Notes",
    STAGE_TRAIT: "Stage",
    "force.sensitive": "Force-sensitive",
    "xp.earned": "Experience earned",
    "hp.current": "Current HP",
    "hp.damage": "Damage taken",
    "hp.heal": "Healing",
    "hp.bleed": "Bleeding d10",
    "hp.stabilised": "Stabilised",
    "defense.bonus": "Defense bonus",
    "luck.use": "Use Midichlorian Luck",
    "luck.new_day": "New in-game day",
    "luck.day": "In-game day",
    "skill.add": "New skill",
    "skill.remove": "Remove a skill",
    "weapon.add": "New weapon",
    "weapon.remove": "Remove a weapon",
    "armor.add": "New armor",
    "armor.remove": "Remove armor",
    **{f"stat.{stat.slug}": stat.label for stat in data.STATS},
    **{f"skill.{skill.slug}": skill.label for skill in data.SKILLS},
}
# What a layout calls one row of each list, in labels and messages.
ROW_NOUNS = {"weapon": "Weapon", "armor": "Armor"}


def seed_source(lines: str) -> str:
    """Name seed lines the way every source field does ("004:L149")."""
    return ", ".join(f"{SEED}:{part.strip()}" for part in lines.split(","))


def trait_label(trait: str) -> str:
    """Return the plain name of any trait key apply_edit takes (the key itself if unknown)."""
    if trait in _FIXED_LABELS:
        return _FIXED_LABELS[trait]
    group, _, rest = trait.partition(".")
    if group == "skill" and rest:
        slug, _, field = rest.partition(".")
        # A custom skill's name lives on the sheet; its slug is the name in lower case.
        name = slug.replace("_", " ").capitalize()
        if not field:
            return name
        if field == "stat":
            return f"{name}: stat"
    if group in ROW_NOUNS:
        number, _, field = rest.partition(".")
        if ROW_NUMBER.fullmatch(number) and field in _ROW_FIELDS[group]:
            return f"{ROW_NOUNS[group]} {int(number) + 1} {field}"
    return trait


def _yes_no(value: bool) -> str:
    return "Yes" if value else "No"


def _rank_row(
    sheet: Mapping[str, Any],
    settings: Mapping[str, Any],
    costs: Mapping[str, Cost],
    *,
    group: str,
    slug: str,
    label: str,
    section: str,
    subgroup: str,
    source: str,
    locked: str = "",
    note: str = "",
) -> TraitRow:
    """Build the row of a stat or skill with exactly the range apply_edit accepts now."""
    trait = f"{'stat' if group == 'stats' else 'skill'}.{slug}"
    value = sheet["stats"][slug] if group == "stats" else skill_values(sheet)[slug]
    low, high = rank_limits(sheet, group, settings)
    if sheet["stage"] != "creation":
        low = max(low, base_value(sheet, group, slug))
    if not locked and low > high:
        locked = "Its lowest allowed value is above the highest this campaign allows."
    return TraitRow(
        key=trait,
        label=label,
        section=section,
        group=subgroup,
        value=value,
        shown=str(value),
        kind=RowKind.NUMBER,
        minimum=low,
        maximum=high,
        next_cost=None if locked else costs.get(trait),
        locked=locked,
        source=source,
        note=note,
    )


def _header_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[TraitRow]:
    rows = [
        TraitRow(
            f"info.{slug}",
            label,
            "header",
            sheet["info"][slug],
            sheet["info"][slug],
            RowKind.TEXT,
            source=_INFO_SOURCE,
        )
        for slug, label, _limit in data.INFO_FIELDS
        if slug != "notes"
    ]
    stage = sheet["stage"]
    locked = ""
    if stage == "creation":
        errors = check(sheet, settings).errors
        if errors:
            locked = "Creation can end once the sheet breaks no rule."
    rows.append(
        TraitRow(
            STAGE_TRAIT,
            "Stage",
            "header",
            stage,
            dict(STAGE_CHOICES)[stage],
            RowKind.CHOICE,
            choices=STAGE_CHOICES,
            locked=locked,
            source="digest §3 creation budgets and XP",
            note="Ending creation freezes stats and skills; later raises cost XP.",
        )
    )
    rows.append(
        TraitRow(
            "force.sensitive",
            "Force-sensitive",
            "header",
            sheet["force_sensitive"],
            _yes_no(sheet["force_sensitive"]),
            RowKind.FLAG,
            setter=Setter.GM,
            source=f"{seed_source('L149')}; digest §3 force_sensitive",
            note="Set by the GM; it opens the Force skills.",
        )
    )
    rows.append(
        TraitRow(
            "xp.earned",
            "Experience earned",
            "header",
            sheet["xp_earned"],
            str(sheet["xp_earned"]),
            RowKind.NUMBER,
            minimum=0,
            maximum=data.HARD_XP_MAX,
            setter=Setter.GM,
            source="digest §3 xp_award",
            note="Awarded by the GM, usually 1 to 3 a session.",
        )
    )
    notes = sheet["info"]["notes"]
    rows.append(TraitRow("info.notes", "Notes", "header", notes, notes, RowKind.NOTES))
    return rows


def _skill_rows(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], costs: Mapping[str, Cost]
) -> list[TraitRow]:
    rows = []
    locked = _FORCE_LOCKED if force_locked(sheet, settings) else ""
    for skill in data.SKILLS:
        rows.append(
            _rank_row(
                sheet,
                settings,
                costs,
                group="skills",
                slug=skill.slug,
                label=skill.label,
                section="skills",
                subgroup="Force skills" if skill.force else "Skills",
                source=seed_source(skill.source),
                locked=locked if skill.force else "",
                note="Rolled on the skill alone, with 1a3d10." if skill.force else "",
            )
        )
    for row in sheet["custom_skills"]:
        rows.append(
            _rank_row(
                sheet,
                settings,
                costs,
                group="skills",
                slug=row["slug"],
                label=row["name"],
                section="skills",
                subgroup="Custom skills",
                source="digest §3 skills (custom skills)",
            )
        )
        rows.append(
            TraitRow(
                f"skill.{row['slug']}.stat",
                f"{row['name']}: stat",
                "skills",
                row["stat"],
                dict(STAT_CHOICES)[row["stat"]],
                RowKind.CHOICE,
                choices=STAT_CHOICES,
                group="Custom skills",
                source="digest §3 skills (custom skills)",
                note="The stat added to the skill when it is rolled.",
            )
        )
    return rows


def _health_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[TraitRow]:
    strength = sheet["stats"]["strength"]
    unconscious = health_state(sheet["hp"], strength) is data.UNCONSCIOUS
    return [
        TraitRow(
            "hp.current",
            "Current HP",
            "health",
            sheet["hp"],
            str(sheet["hp"]),
            RowKind.NUMBER,
            minimum=data.HARD_HP_MIN,
            maximum=max_hp(strength, settings),
            source=f"{seed_source('L37-L45')}; digest §3 hp_formula",
        ),
        TraitRow(
            "hp.stabilised",
            "Stabilised",
            "health",
            sheet["stabilised"],
            _yes_no(sheet["stabilised"]),
            RowKind.FLAG,
            locked="" if unconscious else "Only an unconscious character can be stabilised.",
            source=seed_source("L49-L51"),
            note="A stabilised character stops rolling to bleed.",
        ),
    ]


def _combat_rows(sheet: Mapping[str, Any]) -> list[TraitRow]:
    luck = sheet["luck"]
    return [
        TraitRow(
            "defense.bonus",
            "Defense bonus",
            "combat",
            sheet["defense_bonus"],
            str(sheet["defense_bonus"]),
            RowKind.NUMBER,
            minimum=data.DEFENSE_BONUS_MIN,
            maximum=data.DEFENSE_BONUS_MAX,
            source="digest §3 defense_formula",
            note="A shield, cover or the GM's adjustment.",
        ),
        TraitRow(
            "luck.day",
            "In-game day",
            "combat",
            luck["day"],
            str(luck["day"]),
            RowKind.NUMBER,
            minimum=luck["last_used_day"] or 1,
            maximum=data.HARD_DAY_MAX,
            setter=Setter.GM,
            source=f"{seed_source('L17')}; digest §3 luck_per_day",
            note="The GM starts each new in-game day; Midichlorian Luck comes back with it.",
        ),
    ]


def _gear_rows(sheet: Mapping[str, Any]) -> list[TraitRow]:
    rows = []
    source = "digest §3 weapon damage and absorption"
    for index, weapon in enumerate(sheet["weapons"]):
        prefix, group = f"weapon.{index}", f"Weapon {index + 1}"
        kind = dict(WEAPON_KIND_CHOICES)[weapon["kind"]]
        rows += [
            TraitRow(
                f"{prefix}.name",
                f"{group} name",
                "gear",
                weapon["name"],
                weapon["name"],
                RowKind.TEXT,
                group=group,
                source=source,
            ),
            TraitRow(
                f"{prefix}.kind",
                f"{group} kind",
                "gear",
                weapon["kind"],
                kind,
                RowKind.CHOICE,
                choices=WEAPON_KIND_CHOICES,
                group=group,
                source=source,
                note="Melee rolls with Strength + Melee Weapons, ranged with Dexterity + "
                "Ranged Weapons.",
            ),
            TraitRow(
                f"{prefix}.damage",
                f"{group} damage",
                "gear",
                weapon["damage"],
                weapon["damage"],
                RowKind.TEXT,
                group=group,
                source=source,
                note="Dice like 1d8 or 2d6+1.",
            ),
            TraitRow(
                f"{prefix}.notes",
                f"{group} notes",
                "gear",
                weapon["notes"],
                weapon["notes"],
                RowKind.TEXT,
                group=group,
                source=source,
            ),
        ]
    for index, armor in enumerate(sheet["armor"]):
        prefix, group = f"armor.{index}", f"Armor {index + 1}"
        rows += [
            TraitRow(
                f"{prefix}.name",
                f"{group} name",
                "gear",
                armor["name"],
                armor["name"],
                RowKind.TEXT,
                group=group,
                source=source,
            ),
            TraitRow(
                f"{prefix}.absorption",
                f"{group} absorption",
                "gear",
                armor["absorption"],
                str(armor["absorption"]),
                RowKind.NUMBER,
                minimum=0,
                maximum=data.MAX_ABSORPTION,
                group=group,
                source=source,
                note="Subtracted from each hit's damage.",
            ),
            TraitRow(
                f"{prefix}.worn",
                f"{group} worn",
                "gear",
                armor["worn"],
                _yes_no(armor["worn"]),
                RowKind.FLAG,
                group=group,
                source=source,
            ),
        ]
    return rows


def trait_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[TraitRow]:
    """Return one row per trait a player or GM sets, in the order the sheet prints them."""
    settings = resolve_settings(SETTINGS, settings)
    costs = next_costs(sheet, settings)
    stats = [
        _rank_row(
            sheet,
            settings,
            costs,
            group="stats",
            slug=stat.slug,
            label=stat.label,
            section="stats",
            subgroup="",
            source=f"{seed_source(stat.source)}; digest §3 stat_min/max",
        )
        for stat in data.STATS
    ]
    return [
        *_header_rows(sheet, settings),
        *stats,
        *_skill_rows(sheet, settings, costs),
        *_health_rows(sheet, settings),
        *_combat_rows(sheet),
        *_gear_rows(sheet),
    ]


def status(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Status:
    """Summarise the sheet for a GM's list: stage, legal, errors, warnings, XP unspent."""
    settings = resolve_settings(SETTINGS, settings)
    unspent = sheet["xp_earned"] - xp_spent(sheet, settings)
    return Status.from_report(
        check(sheet, settings), stage=sheet["stage"], unspent=unspent, unit="XP"
    )
