"""1o3d10 sheet rules: settings, health states, edits, checks, derived values and costs.

Source: seeds/004_8cbd6e5c00de6f21.txt (cited as L<n>); digest: rules/1o3d10.md (§n). The
sheet's shape is documented in the package docstring (rulesets/o3d10/__init__.py).
"""

from __future__ import annotations

import copy
import math
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesets.core import (
    Cost,
    InvalidEdit,
    InvalidSheet,
    Pool,
    Report,
    Setting,
    resolve_settings,
)
from rulesets.o3d10 import data, dice
from rulesets.o3d10.data import HealthState

KEY = "o3d10"

# The sign the rulebooks print in cost lines; spelled by code point to keep lint quiet.
TIMES = "\u00d7"
_HOUSE = "House rule: the seed gives no such number; this is the digest's proposal (§3)."

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "stat_min",
        "Lowest stat (house rule)",
        1,
        "digest §3 stat_min",
        _HOUSE,
        minimum=0,
        maximum=5,
    ),
    Setting(
        "stat_max",
        "Highest stat (house rule)",
        10,
        "digest §3 stat_max; the Force tables bracket stats up to >10 (L201-L205)",
        _HOUSE,
        minimum=5,
        maximum=data.HARD_STAT_MAX,
    ),
    Setting(
        "stat_creation_max",
        "Highest stat at creation (house rule)",
        8,
        "digest §3 stat_max",
        _HOUSE,
        minimum=1,
        maximum=data.HARD_STAT_MAX,
    ),
    Setting(
        "creation_stat_points",
        "Stat points at creation (house rule)",
        24,
        "digest §3 creation_stat_points",
        _HOUSE,
        minimum=4,
        maximum=80,
    ),
    Setting(
        "skill_max",
        "Highest skill rank (house rule)",
        10,
        "digest §3 skill_min/max",
        _HOUSE,
        minimum=1,
        maximum=data.HARD_SKILL_MAX,
    ),
    Setting(
        "skill_creation_max",
        "Highest skill rank at creation (house rule)",
        6,
        "digest §3 skill_min/max",
        _HOUSE,
        minimum=0,
        maximum=data.HARD_SKILL_MAX,
    ),
    Setting(
        "creation_skill_points",
        "Skill points at creation (house rule)",
        20,
        "digest §3 creation_skill_points",
        _HOUSE,
        minimum=0,
        maximum=200,
    ),
    Setting(
        "xp_per_stat_rank",
        "XP per point of the new stat value (house rule)",
        2,
        "digest §3 xp_cost",
        _HOUSE + " Raising a stat to n costs n times this.",
        minimum=1,
        maximum=10,
    ),
    Setting(
        "xp_per_skill_rank",
        "XP per point of the new skill rank (house rule)",
        1,
        "digest §3 xp_cost",
        _HOUSE + " Raising a skill to n costs n times this.",
        minimum=1,
        maximum=10,
    ),
    Setting(
        "hp_base",
        "Maximum HP: fixed part (house rule)",
        10,
        "digest §3 hp_formula",
        _HOUSE + " Maximum HP = this + Strength x the per-Strength part.",
        minimum=0,
        maximum=100,
    ),
    Setting(
        "hp_per_strength",
        "Maximum HP: per point of Strength (house rule)",
        2,
        "digest §3 hp_formula",
        _HOUSE,
        minimum=0,
        maximum=10,
    ),
    Setting(
        "defense_base",
        "Defense: fixed part added to Dexterity (house rule)",
        10,
        "digest §3 defense_formula",
        _HOUSE,
        minimum=0,
        maximum=30,
    ),
    Setting(
        "force_needs_sensitivity",
        "Force skills need the GM's Force-sensitive mark (house rule)",
        True,
        "digest §3 force_sensitive; L149 (schools taught in the Academies)",
        _HOUSE,
    ),
    Setting(
        "luck_per_day",
        "Midichlorian Luck uses per in-game day",
        1,
        "L17",
        "The seed gives one a day; a GM may change it.",
        minimum=1,
        maximum=5,
    ),
    Setting(
        "explode_mode",
        "What an exploding 10 adds",
        "max_of_3d10",
        "L9; digest §2.1 reading B",
        "The seed's wording allows two readings.",
        choices=(
            ("max_of_3d10", "Roll 3d10 once more and add the highest (literal)"),
            ("open_d10", "Add 1d10, rolling again on every 10 (open-ended)"),
        ),
    ),
    Setting(
        "crit_fail_when_wounded",
        "Critical fail while wounded",
        "literal",
        "L13, L41; digest §2.3",
        "While wounded the lowest die is the target die; which die is 'the next one up'?",
        choices=(
            ("literal", "Lowest die 1 and the middle die below 5 (16.3%)"),
            ("distinct", "Lowest die 1 and the next different value below 5 (14.5%)"),
            ("middle_only", "Test the middle die as when unhurt (1.0%)"),
        ),
    ),
    Setting(
        "crit_fail_auto_fails",
        "A critical fail fails whatever the total",
        True,
        "L13; digest §2.1 proposal",
        "The seed names the fumble without saying what it does.",
    ),
    Setting(
        "force_roll_keep",
        "Which die 1a3d10 (the Force rolls) keeps",
        "middle",
        "L153, L168, L196, L219, L246; digest §2.5",
        "The seed never defines 1a3d10; most likely it is 1o3d10.",
        choices=(("middle", "The middle die, like 1o3d10"), ("highest", "The highest die")),
    ),
    Setting(
        "luck_ten_explodes",
        "A 10 made by Midichlorian Luck explodes",
        False,
        "L9, L17; digest §2.1 proposal",
        "By default a Luck 10 was not rolled, so it does not explode.",
    ),
    Setting(
        "reaction_points_at_15",
        "Reaction points for an initiative total of exactly 15",
        3,
        "L100-L101; digest §1.6 proposal",
        "The seed puts 15 in both the 2-point and the 3-point row.",
        choices=((3, "3 points (10-14 give 2)"), (2, "2 points (10-15 give 2)")),
    ),
    Setting(
        "initiative_pool",
        "Initiative roll (house rule)",
        "dexterity_reflexes",
        "L21, L97; digest §3 initiative_formula",
        _HOUSE + " The seed uses an initiative total without saying what is rolled.",
        choices=(
            ("dexterity_reflexes", "Dexterity + Reflexes + 1o3d10"),
            ("perception_reflexes", "Perception + Reflexes + 1o3d10"),
            ("dexterity", "Dexterity + 1o3d10"),
        ),
    ),
    Setting(
        "initiative_fail",
        "What counts as a failed initiative roll",
        "critical_fail",
        "L23; digest §1.6 proposal",
        "The initiative roll has no difficulty, so 'fail' needs a reading.",
        choices=(
            ("critical_fail", "A critical fail"),
            ("gm", "The GM decides (the sheet never marks it)"),
        ),
    ),
)
SETTING_BY_KEY = {setting.key: setting for setting in SETTINGS}
HOUSE_RULE_SETTINGS = frozenset(s.key for s in SETTINGS if s.help.startswith("House rule"))


def resolve(settings: Mapping[str, Any] | None) -> dict:
    """Fill any setting the campaign did not choose with its declared default."""
    return resolve_settings(SETTINGS, settings)


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
_SLUG = re.compile(r"[^a-z0-9]+")
_DAMAGE = re.compile(r"^\s*(\d{1,2})\s*[dD]\s*(\d{1,3})\s*(?:([+-])\s*(\d{1,3}))?\s*$")
_RESERVED_SKILL_SLUGS = frozenset({"add", "remove"})
_TRUE = {"1", "true", "on", "yes", "y"}
_FALSE = {"0", "false", "off", "no", "n", ""}


def slugify(name: str) -> str:
    return _SLUG.sub("_", name.strip().lower()).strip("_")


def normal_damage(text: str) -> str:
    """Read a damage code like 1d8 or 2d6+1 into its normal spelling, or raise ValueError."""
    match = _DAMAGE.match(text or "")
    if match is None:
        raise ValueError(f"“{text}” is not a damage code; write it like 1d8 or 2d6+1.")
    count, sides = int(match[1]), int(match[2])
    if not 1 <= count <= 20 or not 2 <= sides <= 100:
        raise ValueError(f"“{text}” needs 1 to 20 dice of 2 to 100 sides.")
    modifier = int(match[4] or 0) * (-1 if match[3] == "-" else 1)
    suffix = f"{modifier:+d}" if modifier else ""
    return f"{count}d{sides}{suffix}"


def blank_sheet(settings: Mapping[str, Any] | None = None) -> dict:
    """Make a new character in the creation stage, every stat at the lowest value."""
    settings = resolve(settings)
    stats = {stat.slug: settings["stat_min"] for stat in data.STATS}
    return {
        "system": KEY,
        "stage": "creation",
        "info": {slug: "" for slug, _label, _limit in data.INFO_FIELDS},
        "stats": stats,
        "skills": {skill.slug: 0 for skill in data.SKILLS},
        "custom_skills": [],
        "base": None,
        "force_sensitive": False,
        "hp": max_hp(stats["strength"], settings),
        "stabilised": False,
        "defense_bonus": 0,
        "luck": {"day": 1, "last_used_day": None, "uses_that_day": 0},
        "xp_earned": 0,
        "weapons": [],
        "armor": [],
    }


def _custom(sheet: Mapping[str, Any], slug: str) -> dict | None:
    for row in sheet["custom_skills"]:
        if row["slug"] == slug:
            return row
    return None


def _skill_values(sheet: Mapping[str, Any]) -> dict[str, int]:
    values = dict(sheet["skills"])
    for row in sheet["custom_skills"]:
        values[row["slug"]] = row["rank"]
    return values


def _skill_label(sheet: Mapping[str, Any], slug: str) -> str:
    if slug in data.SKILL_BY_SLUG:
        return data.SKILL_BY_SLUG[slug].label
    row = _custom(sheet, slug)
    return row["name"] if row else slug


def _base_value(sheet: Mapping[str, Any], group: str, slug: str) -> int:
    """Give the value a trait had when creation ended (0 for a skill added later)."""
    base = sheet.get("base") or {}
    return base.get(group, {}).get(slug, 0)


def _creation_values(sheet: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """Give the stats and skills paid from the creation budget."""
    if sheet["stage"] == "creation":
        return dict(sheet["stats"]), _skill_values(sheet)
    base = sheet["base"]
    return dict(base["stats"]), dict(base["skills"])


def _luck_used_today(luck: Mapping[str, Any]) -> int:
    return luck["uses_that_day"] if luck["last_used_day"] == luck["day"] else 0


def _force_locked(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    return settings["force_needs_sensitivity"] and not sheet["force_sensitive"]


# --- Costs -------------------------------------------------------------------------------
def _trait_group(sheet: Mapping[str, Any], trait: str) -> tuple[str, str, str, int]:
    """Split a raisable trait key into (group, slug, label, current value)."""
    group, _, slug = trait.partition(".")
    if group == "stat" and slug in data.STAT_BY_SLUG:
        return "stats", slug, data.STAT_BY_SLUG[slug].label, sheet["stats"][slug]
    if group == "skill":
        values = _skill_values(sheet)
        if slug in values:
            return "skills", slug, _skill_label(sheet, slug), values[slug]
    raise InvalidEdit(trait, f"“{trait}” is not a stat or skill that can be raised.")


def _limits(sheet: Mapping[str, Any], group: str, settings: Mapping[str, Any]) -> tuple[int, int]:
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
    settings = resolve(settings)
    group, slug, label, current = _trait_group(sheet, trait)
    low, high = _limits(sheet, group, settings)
    creating = sheet["stage"] == "creation"
    unit = ("stat points" if group == "stats" else "skill points") if creating else "XP"
    if new_value > high:
        stage_word = "at creation" if creating else "in this campaign"
        raise InvalidEdit(trait, f"{label} cannot go above {high} {stage_word}.")
    if new_value < current:
        floor = low if creating else max(low, _base_value(sheet, group, slug))
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
    settings = resolve(settings)
    costs: dict[str, Cost] = {}
    locked = _force_locked(sheet, settings)
    _low, stat_high = _limits(sheet, "stats", settings)
    for stat in data.STATS:
        value = sheet["stats"][stat.slug]
        if value < stat_high:
            costs[f"stat.{stat.slug}"] = _step_cost(sheet, "stats", stat.label, value + 1, settings)
    _low, skill_high = _limits(sheet, "skills", settings)
    for slug, value in _skill_values(sheet).items():
        skill = data.SKILL_BY_SLUG.get(slug)
        if value >= skill_high or (locked and skill is not None and skill.force):
            continue
        costs[f"skill.{slug}"] = _step_cost(
            sheet, "skills", _skill_label(sheet, slug), value + 1, settings
        )
    return costs


def xp_spent(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None) -> int:
    """Sum the XP paid for every rank above the values frozen when creation ended."""
    if sheet["stage"] == "creation":
        return 0
    settings = resolve(settings)
    total = 0
    for slug, value in sheet["stats"].items():
        base = _base_value(sheet, "stats", slug)
        total += settings["xp_per_stat_rank"] * sum(range(base + 1, value + 1))
    for slug, value in _skill_values(sheet).items():
        base = _base_value(sheet, "skills", slug)
        total += settings["xp_per_skill_rank"] * sum(range(base + 1, value + 1))
    return total


# --- Check -------------------------------------------------------------------------------
def check(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None) -> Report:
    """Report every budget and every broken rule of the sheet, all at once."""
    settings = resolve(settings)
    report = Report()
    creating = sheet["stage"] == "creation"
    stage_word = "at creation" if creating else "when creation ended"
    stats, skills = _creation_values(sheet)

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

    locked = _force_locked(sheet, settings)
    for slug, value in _skill_values(sheet).items():
        trait, label = f"skill.{slug}", _skill_label(sheet, slug)
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
    used = _luck_used_today(sheet["luck"])
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
    settings = resolve(settings)
    values = {**sheet["stats"], **_skill_values(sheet)}
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
    settings = resolve(settings)
    stats = sheet["stats"]
    skills = _skill_values(sheet)
    strength, hp = stats["strength"], sheet["hp"]
    state = health_state(hp, strength)
    hurt = state is not data.NORMAL
    label = {stat.slug: stat.label for stat in data.STATS}

    def part(slug: str) -> tuple[str, int]:
        if slug in label:
            return label[slug], stats[slug]
        return _skill_label(sheet, slug), skills[slug]

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
        "melee": pool("melee", "Melee attack", ["strength", "melee_weapons"], "L55"),
        "ranged": pool("ranged", "Ranged attack", ["dexterity", "ranged_weapons"], "L63"),
        "dodge": pool("dodge", "Dodge", ["dexterity", "dodge"], "L116-L118", dc=data.DODGE_DC),
        "deflect": pool(
            "deflect", "Deflect/Block", ["perception", "reflexes"], "L126-L128", dc=data.DEFLECT_DC
        ),
        "redirect": pool("redirect", "Redirect a deflected shot", ["dexterity"], "L132"),
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
    force_available = not _force_locked(sheet, settings)
    force_pools = {
        "force_jump": pool("force_jump", "Force Jump", ["force_jump"], "L153", force=True),
        "physical_school": pool(
            "physical_school", "Physical School", ["physical_school"], "L168", force=True
        ),
        "alteration_school": pool(
            "alteration_school", "Alteration School", ["alteration_school"], "L196", force=True
        ),
        "organic_school": pool(
            "organic_school", "Organic School", ["organic_school"], "L219", force=True
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
            row["slug"], row["name"], [s for s in (row["stat"], row["slug"]) if s], "custom skill"
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
    used_today = min(_luck_used_today(luck), settings["luck_per_day"])
    earned, spent = sheet["xp_earned"], xp_spent(sheet, settings)
    at_15 = settings["reaction_points_at_15"]
    return {
        "health": _health(hp, strength, state, sheet, settings, pools["stabilise"]),
        "hp_max": max_hp(strength, settings),
        "defense": defense,
        "absorption": absorption,
        "pools": pools,
        "force_available": force_available,
        "force_pools": force_pools,
        "custom_pools": custom_pools,
        "ranged_chances": ranged_chances,
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


# --- Edits -------------------------------------------------------------------------------
def _int(trait: str, raw: Any, what: str) -> int:
    text = str(raw).strip()
    if not re.fullmatch(r"[+-]?\d{1,7}", text):
        raise InvalidEdit(trait, f"{what} must be a whole number; “{raw}” is not one.")
    return int(text)


def _bool(trait: str, raw: Any, what: str) -> bool:
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InvalidEdit(trait, f"{what} must be yes or no; “{raw}” is neither.")


def _text(trait: str, raw: Any, what: str, limit: int) -> str:
    text = str(raw).strip()
    if len(text) > limit:
        raise InvalidEdit(trait, f"{what} is {len(text)} characters long; the limit is {limit}.")
    return text


def _index(trait: str, raw: Any, rows: list, what: str) -> int:
    index = _int(trait, raw, f"The {what} number")
    if not 0 <= index < len(rows):
        raise InvalidEdit(trait, f"There is no {what} number {index}.")
    return index


def apply_edit(
    sheet: Mapping[str, Any], trait: str, raw: Any, settings: Mapping[str, Any] | None
) -> dict:
    """Return a new sheet with one trait changed, or raise InvalidEdit saying why not."""
    settings = resolve(settings)
    new = copy.deepcopy(dict(sheet))
    group, _, rest = trait.partition(".")
    handler = _EDITS.get(group)
    if handler is None or not rest:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")
    handler(new, trait, rest, raw, settings)
    return new


def _edit_info(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    for slug, label, limit in data.INFO_FIELDS:
        if rest == slug:
            sheet["info"][slug] = _text(trait, raw, label, limit)
            return
    raise InvalidEdit(trait, f"“{trait}” is not a field of a 1o3d10 sheet.")


def _edit_stat(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    stat = data.STAT_BY_SLUG.get(rest)
    if stat is None:
        raise InvalidEdit(
            trait,
            f"“{rest}” is not a stat; the stats are Strength, Dexterity, "
            "Intelligence and Perception.",
        )
    value = _int(trait, raw, stat.label)
    _check_range(sheet, trait, "stats", stat.slug, stat.label, value, settings)
    old_max = max_hp(sheet["stats"]["strength"], settings)
    sheet["stats"][stat.slug] = value
    # A character still being built starts play unhurt, so HP follows a Strength change.
    if sheet["stage"] == "creation" and sheet["hp"] == old_max:
        sheet["hp"] = max_hp(sheet["stats"]["strength"], settings)


def _check_range(
    sheet: Mapping[str, Any],
    trait: str,
    group: str,
    slug: str,
    label: str,
    value: int,
    settings: Mapping[str, Any],
) -> None:
    low, high = _limits(sheet, group, settings)
    if value > high:
        where = "at creation" if sheet["stage"] == "creation" else "in this campaign"
        raise InvalidEdit(trait, f"{label} cannot be {value}; the highest {where} is {high}.")
    if value < low:
        raise InvalidEdit(trait, f"{label} cannot be {value}; the lowest is {low}.")
    if sheet["stage"] == "play":
        floor = _base_value(sheet, group, slug)
        if value < floor:
            raise InvalidEdit(
                trait, f"{label} cannot drop to {value}, below its creation value {floor}."
            )


def _edit_skill(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest == "add":
        _add_custom_skill(sheet, trait, raw)
        return
    if rest == "remove":
        slug = str(raw).strip()
        if _custom(sheet, slug) is None:
            raise InvalidEdit(trait, f"“{slug}” is not a custom skill of this character.")
        sheet["custom_skills"] = [row for row in sheet["custom_skills"] if row["slug"] != slug]
        if sheet.get("base"):
            sheet["base"]["skills"].pop(slug, None)
        return
    slug, _, field = rest.partition(".")
    row = _custom(sheet, slug)
    if field == "stat" and row is not None:
        row["stat"] = _stat_or_none(trait, raw)
        return
    if field:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")
    skill = data.SKILL_BY_SLUG.get(slug)
    if skill is None and row is None:
        raise InvalidEdit(trait, f"“{slug}” is not a skill of this character.")
    label = skill.label if skill else row["name"]
    value = _int(trait, raw, label)
    _check_range(sheet, trait, "skills", slug, label, value, settings)
    if skill is not None:
        if skill.force and value > 0 and _force_locked(sheet, settings):
            raise InvalidEdit(
                trait,
                f"{label} is a Force skill; the GM must mark the character Force-sensitive first.",
            )
        sheet["skills"][slug] = value
    else:
        row["rank"] = value


def _stat_or_none(trait: str, raw: Any) -> str:
    text = str(raw).strip().lower()
    if text in ("", "none"):
        return ""
    if text not in data.STAT_BY_SLUG:
        raise InvalidEdit(
            trait,
            f"“{raw}” is not a stat; use strength, dexterity, intelligence, "
            "perception or leave it empty.",
        )
    return text


def _add_custom_skill(sheet: dict, trait: str, raw: Any) -> None:
    name, _, stat = str(raw).partition("|")
    name = _text(trait, name, "The skill name", data.MAX_TEXT)
    slug = slugify(name)
    if not slug:
        raise InvalidEdit(trait, "Give the new skill a name, like “Pilot|dexterity”.")
    if slug in data.SKILL_BY_SLUG or slug in _RESERVED_SKILL_SLUGS or _custom(sheet, slug):
        raise InvalidEdit(trait, f"The character already has a skill called “{name}”.")
    if len(sheet["custom_skills"]) >= data.MAX_CUSTOM_SKILLS:
        raise InvalidEdit(trait, f"A sheet holds at most {data.MAX_CUSTOM_SKILLS} custom skills.")
    sheet["custom_skills"].append(
        {"slug": slug, "name": name, "stat": _stat_or_none(trait, stat), "rank": 0}
    )


def _edit_force(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest != "sensitive":
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")
    sheet["force_sensitive"] = _bool(trait, raw, "Force-sensitive")


def _set_hp(sheet: dict, trait: str, value: int) -> None:
    if not data.HARD_HP_MIN <= value <= data.HARD_HP_MAX:
        raise InvalidEdit(
            trait, f"HP {value} is out of range ({data.HARD_HP_MIN} to {data.HARD_HP_MAX})."
        )
    sheet["hp"] = value
    # Stabilising only means something while unconscious; waking up or dying clears it.
    if health_state(value, sheet["stats"]["strength"]) is not data.UNCONSCIOUS:
        sheet["stabilised"] = False


def _edit_hp(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    limit = max_hp(sheet["stats"]["strength"], settings)
    if rest == "current":
        value = _int(trait, raw, "HP")
        if value > limit:
            raise InvalidEdit(trait, f"HP cannot be {value}; the maximum is {limit}.")
        _set_hp(sheet, trait, value)
    elif rest == "damage":
        amount = _int(trait, raw, "Damage")
        if amount < 0:
            raise InvalidEdit(trait, "Damage cannot be negative; use healing instead.")
        _set_hp(sheet, trait, sheet["hp"] - amount)
    elif rest == "heal":
        amount = _int(trait, raw, "Healing")
        if amount < 0:
            raise InvalidEdit(trait, "Healing cannot be negative; use damage instead.")
        _set_hp(sheet, trait, min(limit, sheet["hp"] + amount))
    elif rest == "bleed":
        roll_value = _int(trait, raw, "The bleeding d10")
        if not 1 <= roll_value <= data.DIE_SIDES:
            raise InvalidEdit(trait, f"A d10 shows 1 to 10, not {roll_value}.")
        state = health_state(sheet["hp"], sheet["stats"]["strength"])
        if state is not data.UNCONSCIOUS or sheet["stabilised"]:
            raise InvalidEdit(trait, "Only an unconscious, unstabilised character rolls to bleed.")
        _set_hp(sheet, trait, bleed(sheet["hp"], roll_value))
    elif rest == "stabilised":
        value = _bool(trait, raw, "Stabilised")
        state = health_state(sheet["hp"], sheet["stats"]["strength"])
        if value and state is not data.UNCONSCIOUS:
            raise InvalidEdit(trait, "Only an unconscious character can be stabilised.")
        sheet["stabilised"] = value
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")


def _edit_defense(
    sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]
) -> None:
    if rest != "bonus":
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")
    value = _int(trait, raw, "The Defense bonus")
    if not -20 <= value <= 30:
        raise InvalidEdit(trait, f"The Defense bonus must be between -20 and 30, not {value}.")
    sheet["defense_bonus"] = value


def _edit_luck(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    luck = sheet["luck"]
    if rest == "use":
        used = _luck_used_today(luck)
        if used >= settings["luck_per_day"]:
            raise InvalidEdit(
                trait,
                f"No Midichlorian Luck left today: it was already used on day {luck['day']}; "
                f"it comes back on day {luck['day'] + 1}.",
            )
        luck["last_used_day"], luck["uses_that_day"] = luck["day"], used + 1
    elif rest == "new_day":
        if luck["day"] >= data.HARD_DAY_MAX:
            raise InvalidEdit(trait, f"The day counter stops at {data.HARD_DAY_MAX}.")
        luck["day"] += 1
    elif rest == "day":
        day = _int(trait, raw, "The in-game day")
        last = luck["last_used_day"] or 1
        if not last <= day <= data.HARD_DAY_MAX:
            raise InvalidEdit(
                trait,
                f"The in-game day must be between {last} (the last Luck use) and "
                f"{data.HARD_DAY_MAX}.",
            )
        luck["day"] = day
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")


def _edit_xp(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest != "earned":
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")
    value = _int(trait, raw, "Experience earned")
    if not 0 <= value <= 100_000:
        raise InvalidEdit(trait, f"Experience earned must be between 0 and 100000, not {value}.")
    sheet["xp_earned"] = value


def _edit_sheet(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest != "finish_creation":
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")
    if sheet["stage"] != "creation":
        raise InvalidEdit(trait, "Creation is already finished for this character.")
    errors = check(sheet, settings).errors
    if errors:
        reasons = " ".join(error.message for error in errors[:3])
        raise InvalidEdit(trait, f"Creation cannot end while the sheet breaks a rule: {reasons}")
    sheet["stage"] = "play"
    sheet["base"] = {"stats": dict(sheet["stats"]), "skills": _skill_values(sheet)}


def _edit_weapon(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    rows = sheet["weapons"]
    if rest == "add":
        if len(rows) >= data.MAX_ROWS:
            raise InvalidEdit(trait, f"A sheet holds at most {data.MAX_ROWS} weapons.")
        rows.append(_weapon_from(trait, raw))
        return
    if rest == "remove":
        del rows[_index(trait, raw, rows, "weapon")]
        return
    number, _, field = rest.partition(".")
    row = rows[_index(trait, number, rows, "weapon")]
    if field == "name":
        row["name"] = _text(trait, raw, "The weapon name", data.MAX_TEXT) or row["name"]
    elif field == "kind":
        row["kind"] = _weapon_kind(trait, raw)
    elif field == "damage":
        try:
            row["damage"] = normal_damage(str(raw))
        except ValueError as error:
            raise InvalidEdit(trait, str(error)) from None
    elif field == "notes":
        row["notes"] = _text(trait, raw, "The weapon notes", data.MAX_TEXT)
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")


def _weapon_kind(trait: str, raw: Any) -> str:
    kind = str(raw).strip().lower()
    if kind not in data.WEAPON_KINDS:
        raise InvalidEdit(trait, f"A weapon is melee or ranged, not “{raw}”.")
    return kind


def _weapon_from(trait: str, raw: Any) -> dict:
    text = str(raw).strip()
    template = data.WEAPON_BY_SLUG.get(text)
    if template is not None:
        return {
            "name": template.label,
            "kind": template.kind,
            "damage": template.damage,
            "notes": "",
        }
    parts = [part.strip() for part in text.split("|")]
    if len(parts) != 3 or not parts[0]:
        known = ", ".join(data.WEAPON_BY_SLUG)
        raise InvalidEdit(
            trait,
            f"Add a weapon as “name|melee or ranged|damage” (like "
            f"“Vibroblade|melee|1d8”) or pick one of: {known}.",
        )
    name = _text(trait, parts[0], "The weapon name", data.MAX_TEXT)
    try:
        damage = normal_damage(parts[2])
    except ValueError as error:
        raise InvalidEdit(trait, str(error)) from None
    return {"name": name, "kind": _weapon_kind(trait, parts[1]), "damage": damage, "notes": ""}


def _edit_armor(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    rows = sheet["armor"]
    if rest == "add":
        if len(rows) >= data.MAX_ROWS:
            raise InvalidEdit(trait, f"A sheet holds at most {data.MAX_ROWS} armor pieces.")
        rows.append(_armor_from(trait, raw))
        return
    if rest == "remove":
        del rows[_index(trait, raw, rows, "armor")]
        return
    number, _, field = rest.partition(".")
    row = rows[_index(trait, number, rows, "armor")]
    if field == "name":
        row["name"] = _text(trait, raw, "The armor name", data.MAX_TEXT) or row["name"]
    elif field == "absorption":
        row["absorption"] = _absorption(trait, raw)
    elif field == "worn":
        row["worn"] = _bool(trait, raw, "Worn")
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")


def _absorption(trait: str, raw: Any) -> int:
    value = _int(trait, raw, "Absorption")
    if not 0 <= value <= data.MAX_ABSORPTION:
        raise InvalidEdit(
            trait, f"Absorption must be between 0 and {data.MAX_ABSORPTION}, not {value}."
        )
    return value


def _armor_from(trait: str, raw: Any) -> dict:
    text = str(raw).strip()
    template = data.ARMOR_BY_SLUG.get(text)
    if template is not None:
        return {"name": template.label, "absorption": template.absorption, "worn": True}
    name, sep, absorption = (part.strip() for part in text.partition("|"))
    if not sep or not name:
        known = ", ".join(data.ARMOR_BY_SLUG)
        raise InvalidEdit(
            trait, f"Add armor as “name|absorption” (like “Flight suit|1”) or pick one of: {known}."
        )
    return {
        "name": _text(trait, name, "The armor name", data.MAX_TEXT),
        "absorption": _absorption(trait, absorption),
        "worn": True,
    }


_EDITS = {
    "info": _edit_info,
    "stat": _edit_stat,
    "skill": _edit_skill,
    "force": _edit_force,
    "hp": _edit_hp,
    "defense": _edit_defense,
    "luck": _edit_luck,
    "xp": _edit_xp,
    "sheet": _edit_sheet,
    "weapon": _edit_weapon,
    "armor": _edit_armor,
}


# --- Import ------------------------------------------------------------------------------
_TOP_KEYS = frozenset(blank_sheet(None))


def validate_sheet(data_in: Any) -> dict:
    """Return the normal form of an imported sheet, or raise InvalidSheet saying what is wrong."""
    if not isinstance(data_in, Mapping):
        raise InvalidSheet("A 1o3d10 sheet must be a JSON object.")
    unknown = sorted(set(data_in) - _TOP_KEYS)
    if unknown:
        raise InvalidSheet(f"Unknown sheet keys: {', '.join(map(str, unknown))}.")
    if data_in.get("system", KEY) != KEY:
        raise InvalidSheet(f"This sheet belongs to “{data_in['system']}”, not 1o3d10.")
    # Missing sections take the blank sheet's values, so an older export still imports.
    sheet = blank_sheet(None)
    stage = data_in.get("stage", "creation")
    if stage not in ("creation", "play"):
        raise InvalidSheet(f"stage must be “creation” or “play”, not {stage!r}.")
    sheet["stage"] = stage
    sheet["info"] = _fields(
        "info",
        data_in.get("info", sheet["info"]),
        {slug: limit for slug, _label, limit in data.INFO_FIELDS},
    )
    sheet["stats"] = _numbers(
        "stats", data_in.get("stats", sheet["stats"]), data.STAT_BY_SLUG, 0, data.HARD_STAT_MAX
    )
    sheet["skills"] = _numbers(
        "skills", data_in.get("skills", sheet["skills"]), data.SKILL_BY_SLUG, 0, data.HARD_SKILL_MAX
    )
    sheet["custom_skills"] = _custom_rows(data_in.get("custom_skills", []))
    sheet["base"] = _base(data_in.get("base"), stage, sheet)
    sheet["force_sensitive"] = _flag("force_sensitive", data_in.get("force_sensitive", False))
    sheet["hp"] = _whole("hp", data_in.get("hp", sheet["hp"]), data.HARD_HP_MIN, data.HARD_HP_MAX)
    sheet["stabilised"] = _flag("stabilised", data_in.get("stabilised", False))
    sheet["defense_bonus"] = _whole("defense_bonus", data_in.get("defense_bonus", 0), -20, 30)
    sheet["luck"] = _luck(data_in.get("luck", sheet["luck"]))
    sheet["xp_earned"] = _whole("xp_earned", data_in.get("xp_earned", 0), 0, 100_000)
    sheet["weapons"] = _weapon_rows(data_in.get("weapons", []))
    sheet["armor"] = _armor_rows(data_in.get("armor", []))
    return sheet


def _whole(where: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidSheet(f"{where} must be a whole number, not {value!r}.")
    if not low <= value <= high:
        raise InvalidSheet(f"{where} is {value}; it must be between {low} and {high}.")
    return value


def _flag(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidSheet(f"{where} must be true or false, not {value!r}.")
    return value


def _string(where: str, value: Any, limit: int) -> str:
    if not isinstance(value, str):
        raise InvalidSheet(f"{where} must be text, not {value!r}.")
    if len(value) > limit:
        raise InvalidSheet(f"{where} is {len(value)} characters long; the limit is {limit}.")
    return value


def _object(where: str, value: Any, keys: Iterable[str], *, required: bool = True) -> Mapping:
    if not isinstance(value, Mapping):
        raise InvalidSheet(f"{where} must be an object, not {value!r}.")
    expected = set(keys)
    unknown = sorted(set(value) - expected)
    if unknown:
        raise InvalidSheet(f"{where} has unknown keys: {', '.join(map(str, unknown))}.")
    missing = sorted(expected - set(value))
    if required and missing:
        raise InvalidSheet(f"{where} is missing: {', '.join(missing)}.")
    return value


def _fields(where: str, value: Any, limits: Mapping[str, int]) -> dict:
    obj = _object(where, value, limits, required=False)
    return {
        slug: _string(f"{where}.{slug}", obj.get(slug, ""), limit) for slug, limit in limits.items()
    }


def _numbers(where: str, value: Any, keys: Iterable[str], low: int, high: int) -> dict:
    obj = _object(where, value, keys)
    return {slug: _whole(f"{where}.{slug}", obj[slug], low, high) for slug in keys}


def _custom_rows(value: Any) -> list[dict]:
    if not isinstance(value, list) or len(value) > data.MAX_CUSTOM_SKILLS:
        raise InvalidSheet(
            f"custom_skills must be a list of at most {data.MAX_CUSTOM_SKILLS} skills."
        )
    rows, seen = [], set()
    for number, row in enumerate(value):
        where = f"custom_skills[{number}]"
        obj = _object(where, row, ("slug", "name", "stat", "rank"))
        name = _string(f"{where}.name", obj["name"], data.MAX_TEXT)
        slug = _string(f"{where}.slug", obj["slug"], data.MAX_TEXT)
        if not slug or slug != slugify(name):
            raise InvalidSheet(f"{where}.slug must be “{slugify(name)}” for the name “{name}”.")
        if slug in data.SKILL_BY_SLUG or slug in _RESERVED_SKILL_SLUGS or slug in seen:
            raise InvalidSheet(f"{where}: the skill name “{name}” is already taken.")
        seen.add(slug)
        stat = _string(f"{where}.stat", obj["stat"], 20)
        if stat and stat not in data.STAT_BY_SLUG:
            raise InvalidSheet(f"{where}.stat must be a stat slug or empty, not {stat!r}.")
        rank = _whole(f"{where}.rank", obj["rank"], 0, data.HARD_SKILL_MAX)
        rows.append({"slug": slug, "name": name, "stat": stat, "rank": rank})
    return rows


def _base(value: Any, stage: str, sheet: Mapping[str, Any]) -> dict | None:
    if stage == "creation":
        if value is not None:
            raise InvalidSheet("base must be null while the character is in creation.")
        return None
    obj = _object("base", value, ("stats", "skills"))
    stats = _numbers("base.stats", obj["stats"], data.STAT_BY_SLUG, 0, data.HARD_STAT_MAX)
    known = set(_skill_values(sheet))
    skills = _object("base.skills", obj["skills"], known, required=False)
    missing = sorted(set(data.SKILL_BY_SLUG) - set(skills))
    if missing:
        raise InvalidSheet(f"base.skills is missing: {', '.join(missing)}.")
    return {
        "stats": stats,
        "skills": {
            slug: _whole(f"base.skills.{slug}", rank, 0, data.HARD_SKILL_MAX)
            for slug, rank in skills.items()
        },
    }


def _luck(value: Any) -> dict:
    obj = _object("luck", value, ("day", "last_used_day", "uses_that_day"))
    day = _whole("luck.day", obj["day"], 1, data.HARD_DAY_MAX)
    last = obj["last_used_day"]
    if last is not None:
        last = _whole("luck.last_used_day", last, 1, day)
    uses = _whole("luck.uses_that_day", obj["uses_that_day"], 0, 100)
    if last is None and uses:
        raise InvalidSheet("luck.uses_that_day must be 0 when Luck was never used.")
    return {"day": day, "last_used_day": last, "uses_that_day": uses}


def _weapon_rows(value: Any) -> list[dict]:
    if not isinstance(value, list) or len(value) > data.MAX_ROWS:
        raise InvalidSheet(f"weapons must be a list of at most {data.MAX_ROWS} rows.")
    rows = []
    for number, row in enumerate(value):
        where = f"weapons[{number}]"
        obj = _object(where, row, ("name", "kind", "damage", "notes"))
        kind = obj["kind"]
        if kind not in data.WEAPON_KINDS:
            raise InvalidSheet(f"{where}.kind must be melee or ranged, not {kind!r}.")
        try:
            damage = normal_damage(_string(f"{where}.damage", obj["damage"], 20))
        except ValueError as error:
            raise InvalidSheet(f"{where}.damage: {error}") from None
        rows.append(
            {
                "name": _string(f"{where}.name", obj["name"], data.MAX_TEXT),
                "kind": kind,
                "damage": damage,
                "notes": _string(f"{where}.notes", obj["notes"], data.MAX_TEXT),
            }
        )
    return rows


def _armor_rows(value: Any) -> list[dict]:
    if not isinstance(value, list) or len(value) > data.MAX_ROWS:
        raise InvalidSheet(f"armor must be a list of at most {data.MAX_ROWS} rows.")
    rows = []
    for number, row in enumerate(value):
        where = f"armor[{number}]"
        obj = _object(where, row, ("name", "absorption", "worn"))
        rows.append(
            {
                "name": _string(f"{where}.name", obj["name"], data.MAX_TEXT),
                "absorption": _whole(
                    f"{where}.absorption", obj["absorption"], 0, data.MAX_ABSORPTION
                ),
                "worn": _flag(f"{where}.worn", obj["worn"]),
            }
        )
    return rows


# --- Demo --------------------------------------------------------------------------------
def demo_sheet() -> dict:
    """Build Kira Vant, a Force-sensitive scout in play: legal under the default settings."""
    sheet = blank_sheet(None)
    edits = [
        ("info.player", "Demo player"),
        ("info.species", "Human"),
        ("info.notes", "Academy dropout who still practises the Physical School."),
        ("force.sensitive", "yes"),
        ("stat.strength", "6"),
        ("stat.dexterity", "7"),
        ("stat.intelligence", "5"),
        ("stat.perception", "6"),
        ("skill.melee_weapons", "3"),
        ("skill.ranged_weapons", "4"),
        ("skill.dodge", "4"),
        ("skill.reflexes", "3"),
        ("skill.medicine", "2"),
        ("skill.add", "Pilot|dexterity"),
        ("skill.pilot", "2"),
        ("skill.physical_school", "2"),
        ("weapon.add", "blaster_pistol"),
        ("weapon.add", "Vibroknife|melee|1d6+1"),
        ("armor.add", "light"),
        ("sheet.finish_creation", ""),
        ("xp.earned", "12"),
        ("skill.dodge", "5"),
        ("skill.physical_school", "3"),
        ("skill.force_jump", "1"),
        ("hp.damage", "19"),
        ("luck.new_day", ""),
        ("luck.use", ""),
    ]
    for trait, raw in edits:
        sheet = apply_edit(sheet, trait, raw, None)
    return sheet
