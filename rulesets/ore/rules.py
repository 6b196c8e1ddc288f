"""Star O.R.E. rules as pure functions: costs, limits, dice pools, check, derived values,
and the rows and status the web layer prints."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core import Cost, InvalidEdit, Report, resolve_settings
from rulesets.core.budget import Pool
from rulesets.core.rows import RowKind, Setter, Status, TraitRow
from rulesets.core.stage import STAGE_CHOICES, STAGE_TRAIT, stage_of
from rulesets.ore.data import (
    ABILITY_BY_SLUG,
    ABILITY_MAXIMUM_LEVEL,
    ARMOR_BY_SLUG,
    ARMOR_COORDINATION_MAXIMUM,
    BASIC_FORM,
    BOX_EMPTY,
    BOX_KILLING,
    BOX_MARKS,
    BOX_SHOCK,
    CUSTOM_SPECIES,
    DESTROYED_EFFECT,
    DISABLED_EFFECT,
    DROID_LIMB_NOTE,
    EXTRA_CURRENT_WILLPOWER_COST,
    FORCE_TECHNIQUES,
    FORM_BY_SLUG,
    GEAR_NUMBER_MAXIMUM,
    HIT_LOCATIONS,
    HUMAN_STAT_MAXIMUM,
    INFO_FIELDS,
    ITHORIAN_SKILL_READINGS,
    LIGHTSABER_FORMS,
    LOCATION_BY_SLUG,
    MANEUVERS,
    MAX_POINTS,
    POWER_BY_SLUG,
    POWER_DIE_COST,
    POWER_HARD_DIE_COST,
    POWER_MAXIMUM_DICE,
    POWERS,
    ROLL_CAP,
    ROW_TEXT_LENGTH,
    SETTINGS,
    SIDE_LABELS,
    SKILL_BY_SLUG,
    SKILL_DIE_COST,
    SKILL_MAXIMUM,
    SKILL_MINIMUM,
    SKILL_NAME_LENGTH,
    SPECIAL_TEXT_LENGTH,
    SPECIES,
    SPECIES_BY_SLUG,
    STARTING_LANGUAGE_DICE,
    STAT_BY_SLUG,
    STAT_DIE_COST,
    STAT_MINIMUM,
    STATS,
    STUNT_BY_SLUG,
    STUNT_DIE_COST,
    STUNT_MAXIMUM_DICE,
    STUNTS,
    TEXT_MAX_LENGTH,
    WEAPON_BY_SLUG,
    WILLPOWER_BOUGHT_MAXIMUM,
    WILLPOWER_POINT_COST,
    Species,
)

# --- Rows of the stored sheet -----------------------------------------------------------------


def skill_id(name: str) -> str:
    """Turn a skill's written name into its stable key: "Lore [Jedi lore]" -> "lore_jedi_lore"."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def skill_name(label: str, specialty: str) -> str:
    return f"{label} [{specialty}]" if specialty else label


def new_skill(catalog_slug: str, specialty: str = "", dice: int = 0, free: int = 0) -> dict:
    """Build a sheet row for a catalog skill."""
    skill = SKILL_BY_SLUG[catalog_slug]
    name = skill_name(skill.label, specialty)
    return {
        "id": skill_id(name),
        "skill": catalog_slug,
        "name": name,
        "specialty": specialty,
        "stat": skill.stat,
        "dice": dice,
        "free": free,
    }


def starting_skills() -> list[dict]:
    """The two free languages every character starts with (L762)."""
    return [
        new_skill("language", "native", STARTING_LANGUAGE_DICE, STARTING_LANGUAGE_DICE),
        new_skill("language", "Basic", STARTING_LANGUAGE_DICE, STARTING_LANGUAGE_DICE),
    ]


def wound_box_count(sheet: Mapping[str, Any], location_boxes: int) -> int:
    """Boxes on one location: the table's count, +1 per level of massive (L814, L850)."""
    species = species_of(sheet)
    massive = sum(row["level"] for row in sheet["abilities"] if row["ability"] == "massive")
    return location_boxes + species.extra_wound_boxes + massive


def fit_wounds(sheet: dict) -> None:
    """Resize every location's boxes to the species' count, keeping the marks that still fit."""
    wounds = sheet.setdefault("wounds", {})
    for location in HIT_LOCATIONS:
        count = wound_box_count(sheet, location.boxes)
        boxes = list(wounds.get(location.slug, []))[:count]
        wounds[location.slug] = boxes + [""] * (count - len(boxes))


# --- Dice pools ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DicePool:
    """Dice to roll after the 10-dice cap, remembering how many there were before it."""

    normal: int
    hard: int = 0
    wiggle: int = 0
    uncapped: int = 0

    @property
    def total(self) -> int:
        return self.normal + self.hard + self.wiggle

    @property
    def capped(self) -> bool:
        return self.uncapped > self.total

    @property
    def text(self) -> str:
        return dice_text(self.normal, self.hard, self.wiggle)

    def as_dict(self) -> dict[str, Any]:
        note = ""
        if self.capped:
            note = f"{self.uncapped} dice, capped at {ROLL_CAP}: never roll more than 10"
        return {
            "normal": self.normal,
            "hard": self.hard,
            "wiggle": self.wiggle,
            "total": self.total,
            "uncapped": self.uncapped,
            "capped": self.capped,
            "text": self.text,
            "note": note,
        }


def dice_text(normal: int, hard: int = 0, wiggle: int = 0) -> str:
    """Write dice the way the seed does: 3d, 3d+1hd, 2d+1hd+1wd, 1wd."""
    parts = [f"{normal}d"] if normal or not (hard or wiggle) else []
    if hard:
        parts.append(f"{hard}hd")
    if wiggle:
        parts.append(f"{wiggle}wd")
    return "+".join(parts)


def capped_pool(normal: int, hard: int = 0, wiggle: int = 0) -> DicePool:
    """Cap a pool at 10 dice, trimming hard dice, then normal, then wiggle (L109; digest §5)."""
    uncapped = normal + hard + wiggle
    excess = max(0, uncapped - ROLL_CAP)
    for_hard = min(hard, excess)
    hard, excess = hard - for_hard, excess - for_hard
    for_normal = min(normal, excess)
    normal, excess = normal - for_normal, excess - for_normal
    wiggle -= min(wiggle, excess)
    return DicePool(normal, hard, wiggle, uncapped)


# --- Reading the sheet ----------------------------------------------------------------------


def species_of(sheet: Mapping[str, Any]) -> Species:
    """The catalog species, or the sheet's own copy of one picked from the compendium."""
    if sheet["species"] == CUSTOM_SPECIES:
        own = sheet["custom_species"]
        return Species(
            CUSTOM_SPECIES,
            own["name"] or "Own species",
            own["cost"],
            "the sheet's own species",
            stat_max_bonus=dict(own["stat_max_bonus"]),
            natural_ar=own["natural_ar"],
            extra_wound_boxes=own["extra_wound_boxes"],
            droid=own["droid"],
            abilities=tuple(own["abilities"]),
        )
    return SPECIES_BY_SLUG[sheet["species"]]


def is_droid(sheet: Mapping[str, Any]) -> bool:
    return species_of(sheet).droid


def ability_levels(sheet: Mapping[str, Any], ability: str, target: str = "") -> int:
    return sum(
        row["level"]
        for row in sheet["abilities"]
        if row["ability"] == ability and row["target"] == target
    )


def stat_extra_dice(sheet: Mapping[str, Any], stat: str) -> tuple[int, int]:
    """Hard and wiggle dice a stat holds through bought abilities."""
    return (
        ability_levels(sheet, "stat_hard_die", stat),
        ability_levels(sheet, "stat_wiggle_die", stat),
    )


def species_skill_dice(
    sheet: Mapping[str, Any], settings: Mapping[str, Any]
) -> dict[str, tuple[str, int]]:
    """The free skill hard dice the species brings, {skill: (specialty, dice)}.

    An Ithorian's die goes to the skill the ithorian_skill_die reading names: the seed's
    skill is not in the list (L802).
    """
    species = species_of(sheet)
    if species.slug != "ithorian":
        return species.skill_hard_dice
    settings = resolve_settings(SETTINGS, settings)
    skill, specialty, _label = ITHORIAN_SKILL_READINGS[settings["ithorian_skill_die"]]
    [(_skill, (_specialty, dice))] = species.skill_hard_dice.items()
    return {skill: (specialty, dice)}


def skill_extra_dice(
    sheet: Mapping[str, Any], row: Mapping[str, Any], settings: Mapping[str, Any]
) -> tuple[int, int]:
    """Hard and wiggle dice a skill holds through abilities or its species."""
    hard = ability_levels(sheet, "skill_hard_die", row["id"])
    wiggle = ability_levels(sheet, "skill_wiggle_die", row["id"])
    granted = species_skill_dice(sheet, settings).get(row["skill"])
    if granted and row["specialty"].strip().lower() == granted[0]:
        hard += granted[1]
    return hard, wiggle


def stat_maximum(sheet: Mapping[str, Any], stat: str, settings: Mapping[str, Any]) -> int:
    """Highest total dice a stat may hold: 5d in humans, moved by species and abilities."""
    base = settings["house_stat_cap"] or HUMAN_STAT_MAXIMUM
    bonus = species_of(sheet).stat_max_bonus.get(stat, 0)
    if bonus < 0 and settings["species_stat_penalty"] == "ignored":
        bonus = 0
    return max(STAT_MINIMUM, base + bonus + ability_levels(sheet, "higher_stat_maximum", stat))


def stat_maximum_reason(sheet: Mapping[str, Any], stat: str, settings: Mapping[str, Any]) -> str:
    species = species_of(sheet)
    parts = [f"{settings['house_stat_cap'] or HUMAN_STAT_MAXIMUM}d base"]
    bonus = species.stat_max_bonus.get(stat, 0)
    if bonus > 0 or (bonus < 0 and settings["species_stat_penalty"] != "ignored"):
        parts.append(f"{bonus:+d}d {species.label}")
    higher = ability_levels(sheet, "higher_stat_maximum", stat)
    if higher:
        parts.append(f"+{higher}d higher maximum")
    return ", ".join(parts)


def stat_total(sheet: Mapping[str, Any], stat: str) -> int:
    hard, wiggle = stat_extra_dice(sheet, stat)
    return sheet["stats"][stat] + hard + wiggle


def base_willpower(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int | None:
    """Command + Cool dice (hard and wiggle dice count 1 each) + bought points; droids: None."""
    if is_droid(sheet):
        return None
    if settings["willpower_basis"] == "starting":
        from_stats = 2 * STAT_MINIMUM
    else:
        from_stats = stat_total(sheet, "command") + stat_total(sheet, "cool")
    return from_stats + sheet["willpower"]["bought"]


def current_willpower(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int | None:
    base = base_willpower(sheet, settings)
    if base is None:
        return None
    willpower = sheet["willpower"]
    return base + willpower["extra"] + willpower["adjustment"]


def skill_row(sheet: Mapping[str, Any], skill_id: str) -> dict | None:
    for row in sheet["skills"]:
        if row["id"] == skill_id:
            return row
    return None


def power_free_dice(sheet: Mapping[str, Any], power: str) -> int:
    # Droids get no Force Sense, so they have no free die either.
    return 0 if is_droid(sheet) else POWER_BY_SLUG[power].free_dice


# --- Costs -----------------------------------------------------------


@dataclass(frozen=True)
class CostItem:
    trait: str
    label: str
    amount: int
    explanation: str


def wiggle_die_cost(settings: Mapping[str, Any]) -> int:
    return settings["force_wiggle_cost"]


def species_cost(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    species = species_of(sheet)
    # The setting reads the seed's droid (digest §2.5); a compendium species has its own cost.
    catalog_droid = species.droid and species.slug != CUSTOM_SPECIES
    return settings["droid_species_cost"] if catalog_droid else species.cost


def ability_cost(row: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    ability = ABILITY_BY_SLUG[row["ability"]]
    per_level = ability.cost_per_level
    if settings["ability_die_price"] == "surcharge" and ability.slug.endswith(
        ("_hard_die", "_wiggle_die")
    ):
        per_level += STAT_DIE_COST if ability.target == "stat" else SKILL_DIE_COST
    return per_level * row["level"]


def cost_items(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[CostItem]:
    """Every purchase on the sheet with its price; their sum is the points spent."""
    settings = resolve_settings(SETTINGS, settings)
    species = species_of(sheet)
    items = [CostItem("species", species.label, species_cost(sheet, settings), "species")]
    for stat in STATS:
        bought = max(0, sheet["stats"][stat.slug] - STAT_MINIMUM)
        items.append(
            CostItem(
                f"stat.{stat.slug}",
                stat.label,
                bought * STAT_DIE_COST,
                f"{bought}d above the free 1d x {STAT_DIE_COST}",
            )
        )
    for row in sheet["skills"]:
        bought = max(0, row["dice"] - row["free"])
        free = f" above the free {row['free']}d" if row["free"] else ""
        items.append(
            CostItem(
                f"skill.{row['id']}",
                row["name"],
                bought * SKILL_DIE_COST,
                f"{bought}d{free} x {SKILL_DIE_COST}",
            )
        )
    willpower = sheet["willpower"]
    items.append(
        CostItem(
            "willpower.bought",
            "Willpower points",
            willpower["bought"] * WILLPOWER_POINT_COST,
            f"{willpower['bought']} x {WILLPOWER_POINT_COST}",
        )
    )
    items.append(
        CostItem(
            "willpower.extra",
            "Extra current Willpower",
            willpower["extra"] * EXTRA_CURRENT_WILLPOWER_COST,
            f"{willpower['extra']} x {EXTRA_CURRENT_WILLPOWER_COST}",
        )
    )
    wiggle_cost = wiggle_die_cost(settings)
    for power in POWERS:
        row = sheet["powers"][power.slug]
        bought = max(0, row["dice"] - power_free_dice(sheet, power.slug))
        amount = (
            bought * POWER_DIE_COST
            + row["hard"] * POWER_HARD_DIE_COST
            + row["wiggle"] * wiggle_cost
        )
        items.append(
            CostItem(
                f"power.{power.slug}",
                power.label,
                amount,
                f"{bought}d x {POWER_DIE_COST} + {row['hard']}hd x {POWER_HARD_DIE_COST} + "
                f"{row['wiggle']}wd x {wiggle_cost}",
            )
        )
    for slug, row in sheet["stunts"].items():
        items.append(
            CostItem(
                f"stunt.{slug}",
                STUNT_BY_SLUG[slug].label,
                row["dice"] * STUNT_DIE_COST,
                f"{row['dice']}d x {STUNT_DIE_COST}",
            )
        )
    for index, row in enumerate(sheet["abilities"]):
        ability = ABILITY_BY_SLUG[row["ability"]]
        target = f" ({row['target']})" if row["target"] else ""
        items.append(
            CostItem(
                f"ability.{index}",
                ability.label + target,
                ability_cost(row, settings),
                f"level {row['level']}",
            )
        )
    return items


def points_spent(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    return sum(item.amount for item in cost_items(sheet, settings))


def xp_awarded(sheet: Mapping[str, Any]) -> int:
    return sum(award["amount"] for award in sheet["xp_awards"])


def experience(sheet: Mapping[str, Any], spent: int) -> dict[str, int]:
    """XP total and unspent; unspent creation points carry over as XP."""
    budget = sheet["character_points"]
    awarded = xp_awarded(sheet)
    creation_spent = sheet["creation_spent"]
    carried = budget - (spent if creation_spent is None else creation_spent)
    return {
        "awarded": awarded,
        "carried_over": max(0, carried),
        "total": awarded + max(0, carried),
        "unspent": budget + awarded - spent,
    }


# --- Single-step prices for advance_cost and next_costs --------------------------------------


@dataclass(frozen=True)
class Raisable:
    """A trait bought in steps: its current value, its range, and the price of each step."""

    trait: str
    label: str
    current: int
    minimum: int
    maximum: int
    suffix: str  # "d", "hd", "wd" or "" for points
    step_price: Callable[[int], tuple[int, str]]  # price of going from v to v + 1, and why

    def show(self, value: int) -> str:
        return f"{value}{self.suffix}" if self.suffix else str(value)


def _flat(price: int, why: str, free_below: int = 0, free_why: str = "") -> Callable:
    def step(value: int) -> tuple[int, str]:
        if value < free_below:
            return 0, free_why
        return price, why

    return step


def raisables(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, Raisable]:
    """Every trait that can be bought die by die or point by point, keyed by trait key."""
    settings = resolve_settings(SETTINGS, settings)
    found: dict[str, Raisable] = {}
    for stat in STATS:
        hard, wiggle = stat_extra_dice(sheet, stat.slug)
        found[f"stat.{stat.slug}"] = Raisable(
            f"stat.{stat.slug}",
            stat.label,
            sheet["stats"][stat.slug],
            STAT_MINIMUM,
            stat_maximum(sheet, stat.slug, settings) - hard - wiggle,
            "d",
            _flat(STAT_DIE_COST, f"{STAT_DIE_COST} {{unit}} per die"),
        )
    for row in sheet["skills"]:
        hard, wiggle = skill_extra_dice(sheet, row, settings)
        found[f"skill.{row['id']}"] = Raisable(
            f"skill.{row['id']}",
            row["name"],
            row["dice"],
            SKILL_MINIMUM,
            SKILL_MAXIMUM - hard - wiggle,
            "d",
            _flat(
                SKILL_DIE_COST,
                f"{SKILL_DIE_COST} {{unit}} per die",
                row["free"],
                f"the first {row['free']}d are free",
            ),
        )
    droid = is_droid(sheet)
    wiggle_cost = wiggle_die_cost(settings)
    for power in POWERS:
        if droid:
            break  # droids have no Force Sense and so no Force powers (L766; digest proposal)
        row = sheet["powers"][power.slug]
        room = POWER_MAXIMUM_DICE - row["dice"] - row["hard"] - row["wiggle"]
        free = power.free_dice
        for part, suffix, price, trait in (
            ("dice", "d", POWER_DIE_COST, f"power.{power.slug}"),
            ("hard", "hd", POWER_HARD_DIE_COST, f"power.{power.slug}.hard"),
            ("wiggle", "wd", wiggle_cost, f"power.{power.slug}.wiggle"),
        ):
            free_here = free if part == "dice" else 0
            found[trait] = Raisable(
                trait,
                power.label,
                row[part],
                free_here,
                row[part] + room,
                suffix,
                _flat(
                    price,
                    f"{price} {{unit}} per {_die_word(suffix)}",
                    free_here,
                    f"the first {free_here}d is free",
                ),
            )
    for stunt in STUNTS:
        if droid:
            break
        current = sheet["stunts"].get(stunt.slug, {}).get("dice", 0)
        found[f"stunt.{stunt.slug}"] = Raisable(
            f"stunt.{stunt.slug}",
            stunt.label,
            current,
            0,
            STUNT_MAXIMUM_DICE,
            "d",
            _flat(STUNT_DIE_COST, f"{STUNT_DIE_COST} {{unit}} per die"),
        )
    if not droid:
        willpower = sheet["willpower"]
        found["willpower.bought"] = Raisable(
            "willpower.bought",
            "Willpower points bought",
            willpower["bought"],
            0,
            WILLPOWER_BOUGHT_MAXIMUM,
            "",
            _flat(WILLPOWER_POINT_COST, f"{WILLPOWER_POINT_COST} {{unit}} per point"),
        )
        found["willpower.extra"] = Raisable(
            "willpower.extra",
            "Extra current Willpower",
            willpower["extra"],
            0,
            WILLPOWER_BOUGHT_MAXIMUM,
            "",
            _flat(
                EXTRA_CURRENT_WILLPOWER_COST,
                f"{EXTRA_CURRENT_WILLPOWER_COST} {{unit}} per point",
            ),
        )
    for index, row in enumerate(sheet["abilities"]):
        ability = ABILITY_BY_SLUG[row["ability"]]
        per_level = ability_cost({**row, "level": 1}, settings)
        found[f"ability.{index}.level"] = Raisable(
            f"ability.{index}.level",
            ability.label,
            row["level"],
            1,
            ABILITY_MAXIMUM_LEVEL,
            "",
            _flat(per_level, f"{per_level} {{unit}} per level"),
        )
    return found


def _die_word(suffix: str) -> str:
    return {"d": "die", "hd": "hard die", "wd": "wiggle die"}[suffix]


def cost_unit(sheet: Mapping[str, Any]) -> str:
    # Same price list in play as at creation; only the name of the points changes.
    return "CP" if stage_of(sheet) == "creation" else "XP"


def advance_cost(
    sheet: Mapping[str, Any], trait: str, new_value: int, settings: Mapping[str, Any]
) -> Cost:
    """Price raising one trait to `new_value`, step by step, with a readable sum."""
    raisable = raisables(sheet, settings).get(trait)
    if raisable is None:
        raise InvalidEdit(trait, f"“{trait}” is not a trait that can be bought.")
    if new_value > raisable.maximum:
        raise InvalidEdit(
            trait,
            f"{raisable.label} can go up to {raisable.show(raisable.maximum)}, "
            f"not {raisable.show(new_value)}.",
        )
    if new_value < raisable.current:
        raise InvalidEdit(
            trait,
            f"{raisable.label} is {raisable.show(raisable.current)}; a raise cannot lower it "
            f"to {raisable.show(new_value)}.",
        )
    return _priced(raisable, new_value, cost_unit(sheet))


def _priced(raisable: Raisable, new_value: int, unit: str) -> Cost:
    steps = []
    for value in range(raisable.current, new_value):
        amount, why = raisable.step_price(value)
        why = why.format(unit=unit)
        steps.append(
            Cost(
                amount,
                unit,
                f"{raisable.label} {raisable.show(value)} → {raisable.show(value + 1)}: "
                f"{why} = {amount} {unit}",
            )
        )
    label = f"{raisable.label} {raisable.show(raisable.current)} → {raisable.show(new_value)}"
    return Cost.total(steps, unit=unit, label=label)


def next_costs(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, Cost]:
    """Price the next step of every trait that can still go up: one pass over the sheet
    (raisables once), not one per trait, so a sheet of hundreds of skills stays linear."""
    return _next_costs(raisables(sheet, settings), cost_unit(sheet))


def _next_costs(found: Mapping[str, Raisable], unit: str) -> dict[str, Cost]:
    return {
        trait: _priced(raisable, raisable.current + 1, unit)
        for trait, raisable in found.items()
        if raisable.current < raisable.maximum
    }


# --- Wounds ---------------------------------------------------------------------


def _location_kind(slug: str, limb: bool) -> str:
    return "limb" if limb else slug


def location_status(
    boxes: list[str], kind: str, droid: bool, settings: Mapping[str, Any]
) -> tuple[str, str]:
    """Name a location's state ("unhurt", "hurt", "disabled", "destroyed") and explain it."""
    shock = boxes.count(BOX_SHOCK)
    killing = boxes.count(BOX_KILLING)
    count = len(boxes)
    if killing == count or (
        shock + killing == count and killing and settings["full_mixed_location"] == "destroyed"
    ):
        effect = DESTROYED_EFFECT[kind]
        if droid and kind == "limb":
            effect = f"destroyed: unusable, but {DROID_LIMB_NOTE}"
        return "destroyed", f"Every box holds damage: {effect}."
    if shock + killing == count:
        return "disabled", (
            f"Every box is filled with Shock: {DISABLED_EFFECT[kind]}. "
            "More Shock here turns each / into an X."
        )
    if shock or killing:
        return "hurt", f"{shock} Shock and {killing} normal damage of {count} boxes."
    return "unhurt", f"{count} empty boxes."


def armor_by_location(sheet: Mapping[str, Any]) -> dict[str, int]:
    """AR per location: natural AR plus the best worn armor covering it (L232; digest §1.5)."""
    natural = species_of(sheet).natural_ar + ability_levels(sheet, "armor")
    ratings = {}
    for location in HIT_LOCATIONS:
        worn = [
            row["ar"] for row in sheet["armor"] if row["worn"] and location.slug in row["covers"]
        ]
        ratings[location.slug] = natural + max(worn, default=0)
    return ratings


def hit_locations(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[dict[str, Any]]:
    droid = is_droid(sheet)
    ratings = armor_by_location(sheet)
    rows = []
    for location in HIT_LOCATIONS:
        boxes = sheet["wounds"][location.slug]
        status, explanation = location_status(
            boxes, _location_kind(location.slug, location.limb), droid, settings
        )
        heights = location.heights
        rows.append(
            {
                "key": f"wound.{location.slug}",
                "slug": location.slug,
                "label": location.label,
                "heights": f"{heights[0]}-{heights[-1]}" if len(heights) > 1 else str(heights[0]),
                "boxes": list(boxes),
                "marks": [BOX_MARKS[state] for state in boxes],
                # Box keys count from 0, like every row index in a trait key.
                "box_keys": [f"wound.{location.slug}.{n}" for n in range(len(boxes))],
                "status": status,
                "explanation": explanation,
                "ar": ratings[location.slug],
                "limb": location.limb,
                "source": location.source,
            }
        )
    return rows


def next_box_state(state: str) -> str:
    """Cycle a wound box: empty → Shock (/) → normal damage (X) → empty."""
    return {BOX_EMPTY: BOX_SHOCK, BOX_SHOCK: BOX_KILLING, BOX_KILLING: BOX_EMPTY}[state]


def bacta_hours(width: int, settings: Mapping[str, Any]) -> int:
    """Hours a bacta tank takes, read as the bacta_time setting says."""
    settings = resolve_settings(SETTINGS, settings)
    hours = 5 - width if settings["bacta_time"] == "5_minus_width" else width - 5
    return max(0, hours)


# --- check -----------------------------------------------------------------------------------


def _side_note(stunt_label: str, side: str, base_dsp: int) -> str:
    if side == "DS" and base_dsp < 1:
        return (
            f"{stunt_label} is a Dark Side stunt: usable only with at least 1 base Dark Side "
            f"Point, and you have {base_dsp}."
        )
    if side == "LS" and base_dsp > 0:
        return (
            f"{stunt_label} is a Light Side stunt: it cannot be used while you hold any base "
            f"Dark Side Points, and you have {base_dsp}."
        )
    return ""


def _stunt_usable_note(slug: str, base_dsp: int) -> str:
    stunt = STUNT_BY_SLUG[slug]
    if stunt.needs_no_dsp and base_dsp > 0:
        return f"{stunt.label} works only with no Dark Side Points, and you have {base_dsp}."
    return _side_note(stunt.label, stunt.side, base_dsp)


def check(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Report:
    """Report the points budget and every broken rule on the sheet, all at once."""
    settings = resolve_settings(SETTINGS, settings)
    report = Report()
    _check_budget(sheet, settings, report)
    _check_stats(sheet, settings, report)
    _check_skills(sheet, settings, report)
    _check_force(sheet, settings, report)
    _check_secondary(sheet, settings, report)
    form = sheet["lightsaber_form"]
    if form and not any(row["skill"] == "lightsaber" and row["dice"] for row in sheet["skills"]):
        report.warn(
            "form_without_lightsaber",
            "lightsaber_form",
            f"{FORM_BY_SLUG[form].label} is a lightsaber form, but the sheet has no Lightsaber "
            "skill dice.",
            "L1074",
        )
    return report


# Budget messages belong to the whole pool, so a sheet shows them with the budget.
POINTS_TRAIT = "pool.points"


def _check_budget(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report) -> None:
    spent = points_spent(sheet, settings)
    budget = sheet["character_points"]
    awarded = xp_awarded(sheet)
    creating = stage_of(sheet) == "creation"
    report.add_pool(
        Pool(
            "points",
            "Character points" if creating else "Character points and experience",
            budget + awarded,
            spent,
            unit=cost_unit(sheet),
            source="L768, L772, L826",
        )
    )
    left = budget + awarded - spent
    if left < 0 and creating:
        report.error(
            "over_budget",
            POINTS_TRAIT,
            f"Purchases cost {spent} CP; the budget is {budget + awarded} CP: over budget by "
            f"{-left}.",
            "L772",
        )
    elif left < 0:
        since = spent - sheet["creation_spent"]
        unspent = budget + awarded - sheet["creation_spent"]
        report.error(
            "insufficient_xp",
            POINTS_TRAIT,
            f"Purchases since creation cost {since} XP, but only {unspent} XP were available: "
            f"{-left} XP short.",
            "L826",
        )
    elif left > 0 and creating:
        report.warn(
            "points_unspent",
            POINTS_TRAIT,
            f"{left} CP still to spend; whatever is left carries over as unspent experience.",
            "L768",
        )


def _check_stats(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report) -> None:
    for stat in STATS:
        total = stat_total(sheet, stat.slug)
        maximum = stat_maximum(sheet, stat.slug, settings)
        key = f"stat.{stat.slug}"
        if sheet["stats"][stat.slug] < STAT_MINIMUM:
            report.error(
                "stat_below_minimum",
                key,
                f"{stat.label} is {sheet['stats'][stat.slug]}d; every stat is at least 1d.",
                "L760",
            )
        if total > maximum:
            report.error(
                "stat_above_maximum",
                key,
                f"{stat.label} is {total}d; the maximum is {maximum}d "
                f"({stat_maximum_reason(sheet, stat.slug, settings)}).",
                "L640, L792",
            )


def _check_skills(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report) -> None:
    for row in sheet["skills"]:
        hard, wiggle = skill_extra_dice(sheet, row, settings)
        key = f"skill.{row['id']}"
        if row["dice"] + hard + wiggle > SKILL_MAXIMUM:
            report.error(
                "skill_above_maximum",
                key,
                f"{row['name']} is {dice_text(row['dice'], hard, wiggle)}; a skill holds at most "
                f"{SKILL_MAXIMUM}d.",
                "L62",
            )
        pool = capped_pool(
            sheet["stats"][row["stat"]] + row["dice"], *_sum_extra(sheet, row, settings)
        )
        if pool.capped:
            report.warn(
                "pool_capped",
                key,
                f"{row['name']} adds up to {pool.uncapped} dice with "
                f"{STAT_BY_SLUG[row['stat']].label}; only {ROLL_CAP} are ever rolled.",
                "L70",
            )


def _sum_extra(
    sheet: Mapping[str, Any], row: Mapping[str, Any], settings: Mapping[str, Any]
) -> tuple[int, int]:
    stat_hard, stat_wiggle = stat_extra_dice(sheet, row["stat"])
    skill_hard, skill_wiggle = skill_extra_dice(sheet, row, settings)
    return stat_hard + skill_hard, stat_wiggle + skill_wiggle


def _check_force(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report) -> None:
    droid = is_droid(sheet)
    base_dsp = sheet["dark_side"]["base"]
    for power in POWERS:
        row = sheet["powers"][power.slug]
        key = f"power.{power.slug}"
        total = row["dice"] + row["hard"] + row["wiggle"]
        if droid and total:
            report.error(
                "droid_force",
                key,
                f"Droids have no Force Sense and no Force powers; {power.label} is "
                f"{dice_text(row['dice'], row['hard'], row['wiggle'])}.",
                "L764-L766",
            )
            continue
        if not droid and row["dice"] < power.free_dice:
            report.error(
                "force_sense_minimum",
                key,
                f"{power.label} is {row['dice']}d; every living being has at least "
                f"{power.free_dice}d.",
                "L766",
            )
        if total > POWER_MAXIMUM_DICE:
            report.error(
                "power_above_maximum",
                key,
                f"{power.label} holds {total} dice; a power holds at most {POWER_MAXIMUM_DICE} "
                "counting hard and wiggle dice.",
                "L876",
            )
        if total and power.needs_permission and not row["approved"]:
            report.warn(
                "gm_permission",
                key,
                f"{power.label} needs the GM's permission.",
                "L774",
            )
    for slug, row in sheet["stunts"].items():
        stunt = STUNT_BY_SLUG[slug]
        key = f"stunt.{slug}"
        power = POWER_BY_SLUG[stunt.power]
        parent = sheet["powers"][stunt.power]
        if droid:
            report.error(
                "droid_force",
                key,
                f"Droids have no Force Sense and no Force stunts; {stunt.label} is {row['dice']}d.",
                "L764-L766",
            )
            continue
        if not row["approved"]:
            report.warn("gm_permission", key, f"{stunt.label} needs the GM's permission.", "L774")
        parent_total = parent["dice"] + parent["hard"] + parent["wiggle"]
        if not parent_total:
            report.warn(
                "stunt_without_power",
                key,
                f"{stunt.label} adds to {power.label}, which has no dice yet.",
                "L882",
            )
        pool = capped_pool(parent["dice"] + row["dice"], parent["hard"], parent["wiggle"])
        if pool.capped:
            report.warn(
                "pool_capped",
                key,
                f"{stunt.label} with {power.label} adds up to {pool.uncapped} dice; only "
                f"{ROLL_CAP} are ever rolled.",
                "L70",
            )
        note = _stunt_usable_note(slug, base_dsp)
        if note:
            report.warn("side_unusable", key, note, "L926-L928")


def _check_secondary(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report) -> None:
    dark_side = sheet["dark_side"]
    willpower = sheet["willpower"]
    if is_droid(sheet):
        if willpower["bought"] or willpower["extra"]:
            report.error(
                "droid_willpower",
                "willpower.bought",
                "Droids have no Willpower, so none can be bought.",
                "L764",
            )
        if dark_side["base"] or dark_side["current"]:
            report.error(
                "droid_dark_side",
                "dsp.base",
                "Droids have no Willpower, so they hold no Dark Side Points.",
                "L904",
            )
        return
    base = base_willpower(sheet, settings) or 0
    current = current_willpower(sheet, settings) or 0
    if current < 0:
        report.error(
            "willpower_negative",
            "willpower.current",
            f"Current Willpower is {current}; it cannot go below 0.",
            "L922",
        )
    for part in ("base", "current"):
        if dark_side[part] > base:
            report.error(
                "dark_side_above_willpower",
                f"dsp.{part}",
                f"{part.capitalize()} Dark Side Points are {dark_side[part]}; they can build up "
                f"only to base Willpower, {base}.",
                "L904",
            )


# --- derived ---------------------------------------------------------------------------------


def derived(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, Any]:
    """Compute everything the sheet shows but never stores."""
    settings = resolve_settings(SETTINGS, settings)
    species = species_of(sheet)
    droid = species.droid
    items = cost_items(sheet, settings)
    spent = sum(item.amount for item in items)
    base_dsp = sheet["dark_side"]["base"]
    return {
        "species": {
            "slug": species.slug,
            "label": species.label,
            "cost": species_cost(sheet, settings),
            "abilities": _species_ability_lines(sheet, species, settings)
            + _species_bonus_lines(species, settings),
            "droid": droid,
            "source": species.source,
        },
        "points": {
            "budget": sheet["character_points"],
            "allowed": sheet["character_points"] + xp_awarded(sheet),
            "spent": spent,
            "left": sheet["character_points"] + xp_awarded(sheet) - spent,
            "unit": cost_unit(sheet),
            "items": [item.__dict__ for item in items if item.amount],
        },
        "experience": experience(sheet, spent),
        "stats": _derived_stats(sheet, settings),
        "skills": _derived_skills(sheet, settings),
        "powers": _derived_powers(sheet, base_dsp),
        "willpower": {
            "applies": not droid,
            "base": base_willpower(sheet, settings),
            "current": current_willpower(sheet, settings),
        },
        "dark_side": dict(sheet["dark_side"]),
        "hit_locations": (locations := hit_locations(sheet, settings)),
        "limb_penalty": -sum(
            1 for row in locations if row["limb"] and row["status"] == "destroyed"
        ),
        "armor": _derived_armor(sheet),
        "armor_by_location": armor_by_location(sheet),
        "weapons": [
            {**row, "key": f"weapon.{n}", "source": _weapon_source(row)}
            for n, row in enumerate(sheet["weapons"])
        ],
        "maneuvers": [
            {
                "slug": maneuver.slug,
                "label": maneuver.label,
                "penalty": settings["feint_penalty"]
                if maneuver.slug == "feint"
                else maneuver.penalty,
                "on_sheet": maneuver.on_sheet,
                "source": maneuver.source,
            }
            for maneuver in MANEUVERS
        ],
        "lightsaber_forms": _derived_forms(sheet),
    }


def _species_ability_lines(
    sheet: Mapping[str, Any], species: Species, settings: Mapping[str, Any]
) -> list[str]:
    """The species' printed abilities, an Ithorian's die named after the reading in force."""
    if species.slug != "ithorian":
        return list(species.abilities)
    _skill, _specialty, label = ITHORIAN_SKILL_READINGS[settings["ithorian_skill_die"]]
    [(_s, (_sp, dice))] = species_skill_dice(sheet, settings).items()
    return [f"{label} +{dice}hd"]


def _species_bonus_lines(species: Species, settings: Mapping[str, Any]) -> list[str]:
    lines = []
    for stat, bonus in species.stat_max_bonus.items():
        label = STAT_BY_SLUG[stat].label
        if bonus > 0:
            lines.append(f"+{bonus}d {label} maximum (dice still bought)")
        elif settings["species_stat_penalty"] != "ignored":
            lines.append(f"{bonus}d {label} maximum")
    return lines


def _derived_stats(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[dict]:
    rows = []
    for stat in STATS:
        hard, wiggle = stat_extra_dice(sheet, stat.slug)
        pool = capped_pool(sheet["stats"][stat.slug], hard, wiggle)
        rows.append(
            {
                "key": f"stat.{stat.slug}",
                "slug": stat.slug,
                "label": stat.label,
                "dice": sheet["stats"][stat.slug],
                "hard": hard,
                "wiggle": wiggle,
                "text": dice_text(sheet["stats"][stat.slug], hard, wiggle),
                "maximum": stat_maximum(sheet, stat.slug, settings),
                "maximum_reason": stat_maximum_reason(sheet, stat.slug, settings),
                "pool": pool.as_dict(),
            }
        )
    return rows


def _derived_skills(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[dict]:
    rows = []
    for row in sheet["skills"]:
        hard, wiggle = skill_extra_dice(sheet, row, settings)
        pool_hard, pool_wiggle = _sum_extra(sheet, row, settings)
        pool = capped_pool(sheet["stats"][row["stat"]] + row["dice"], pool_hard, pool_wiggle)
        catalog = SKILL_BY_SLUG.get(row["skill"])
        rows.append(
            {
                "key": f"skill.{row['id']}",
                "id": row["id"],
                "name": row["name"],
                "stat": row["stat"],
                "stat_label": STAT_BY_SLUG[row["stat"]].label,
                "dice": row["dice"],
                "hard": hard,
                "wiggle": wiggle,
                "text": dice_text(row["dice"], hard, wiggle),
                "free": row["free"],
                "custom": catalog is None,
                "needs_dice_to_try": bool(catalog and catalog.needs_dice_to_try),
                "pool": pool.as_dict(),
                "source": catalog.source if catalog else "L662",
            }
        )
    return rows


def _derived_powers(sheet: Mapping[str, Any], base_dsp: int) -> list[dict]:
    rows = []
    for power in POWERS:
        row = sheet["powers"][power.slug]
        power_pool = capped_pool(row["dice"], row["hard"], row["wiggle"])
        stunts = []
        for slug, stunt_row in sheet["stunts"].items():
            stunt = STUNT_BY_SLUG[slug]
            if stunt.power != power.slug:
                continue
            note = _stunt_usable_note(slug, base_dsp)
            stunts.append(
                {
                    "key": f"stunt.{slug}",
                    "slug": slug,
                    "label": stunt.label,
                    "dice": stunt_row["dice"],
                    "text": dice_text(stunt_row["dice"]),
                    "pool": capped_pool(
                        row["dice"] + stunt_row["dice"], row["hard"], row["wiggle"]
                    ).as_dict(),
                    "side": stunt.side,
                    "side_label": SIDE_LABELS.get(stunt.side, ""),
                    "usable": not note,
                    "usable_note": note,
                    "needs_permission": True,
                    "approved": stunt_row["approved"],
                    "willpower": stunt.willpower,
                    "source": stunt.source,
                }
            )
        rows.append(
            {
                "key": f"power.{power.slug}",
                "slug": power.slug,
                "label": power.label,
                "dice": row["dice"],
                "hard": row["hard"],
                "wiggle": row["wiggle"],
                "text": dice_text(row["dice"], row["hard"], row["wiggle"]),
                "pool": power_pool.as_dict(),
                "needs_permission": power.needs_permission,
                "approved": row["approved"],
                "core": [
                    {"label": t.label, "willpower": t.willpower, "source": t.source}
                    for t in FORCE_TECHNIQUES
                    if t.power == power.slug and not t.stunt
                ],
                "stunts": sorted(stunts, key=lambda s: s["label"]),
                "source": power.source,
            }
        )
    return rows


def _derived_armor(sheet: Mapping[str, Any]) -> list[dict]:
    rows = []
    coordination = sheet["stats"]["coordination"]
    for n, row in enumerate(sheet["armor"]):
        rows.append(
            {
                **row,
                "key": f"armor.{n}",
                # The armor penalty never takes Coordination below 1d.
                "coordination_in_armor": max(STAT_MINIMUM, coordination - row["coordination"]),
                "source": ARMOR_BY_SLUG[row["from"]].source if row["from"] else "",
            }
        )
    return rows


def _weapon_source(row: Mapping[str, Any]) -> str:
    return WEAPON_BY_SLUG[row["from"]].source if row["from"] else ""


def _derived_forms(sheet: Mapping[str, Any]) -> list[dict]:
    specialty = sheet["lightsaber_form"]
    trained = specialty or any(
        row["skill"] == "lightsaber" and row["dice"] for row in sheet["skills"]
    )
    if not trained:
        return []
    return [
        {
            "slug": form.slug,
            "label": form.label,
            "exemplars": form.exemplars,
            "favored_move": form.favored_move,
            "specialty": form.slug == specialty,
            "source": form.source,
        }
        for form in LIGHTSABER_FORMS
        if form.slug in (BASIC_FORM, specialty)
    ]


# --- status, labels and rows for the web layer ------------------------------------------------


def status(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Status:
    """Summarise the sheet for a GM's list: stage, legal, errors, warnings, points left."""
    report = check(sheet, settings)
    pool = report.pool("points")
    return Status.from_report(report, stage=stage_of(sheet), unspent=pool.left, unit=pool.unit)


INFO_LABELS = {key: label for key, label, _source in INFO_FIELDS}
ARMOR_FIELDS = {
    "name": "Armor",
    "ar": "AR",
    "coordination": "Coordination penalty",
    "move": "Move (m)",
    "special": "Special",
    "covers": "Covers",
    "worn": "Worn",
    "remove": "Remove",
}
WEAPON_FIELDS = {
    "name": "Weapon",
    "damage": "Damage",
    "penetration": "Penetration",
    "initiative": "Initiative",
    "special": "Special",
    "remove": "Remove",
}
WILLPOWER_LABELS = {
    "bought": "Willpower points bought",
    "extra": "Extra current Willpower",
    "current": "Current Willpower",
}
DARK_SIDE_LABELS = {"base": "Base Dark Side Points", "current": "Current Dark Side Points"}
PLAIN_LABELS = {
    "species": "Species",
    "character_points": "Character points",
    STAGE_TRAIT: "Stage",
    "lightsaber_form": "Lightsaber form specialty",
    "xp.award": "Award experience",
    "xp.add": "Award experience",
    "skill.add": "Add a skill",
    "ability.add": "Add an ability",
    "armor.add": "Add armor",
    "weapon.add": "Add a weapon",
}
BOX_CHOICES = (("empty", "empty"), ("shock", "Shock (/)"), ("killing", "normal damage (X)"))
_INDEX = re.compile(r"[0-9]{1,6}")


def trait_label(trait: str) -> str:
    """Return the player-facing name of any trait key apply_edit takes; an unknown key
    is returned as it is."""
    if trait in PLAIN_LABELS:
        return PLAIN_LABELS[trait]
    head, _dot, rest = str(trait).partition(".")
    parts = rest.split(".") if rest else []
    label = _LABELLERS.get(head, _no_label)(parts)
    return label or trait


def _no_label(parts: list[str]) -> str:
    return ""


def _numbered(parts: list[str], noun: str, fields: Mapping[str, str]) -> str:
    if len(parts) != 2 or not _INDEX.fullmatch(parts[0]) or parts[1] not in fields:
        return ""
    return f"{noun} {int(parts[0]) + 1}: {fields[parts[1]]}"


def _skill_label(parts: list[str]) -> str:
    if not parts or not parts[0]:
        return ""
    catalog = SKILL_BY_SLUG.get(parts[0])
    name = catalog.label if catalog else parts[0].replace("_", " ").capitalize()
    suffix = {(): "", ("stat",): ": stat", ("specialty",): ": specialty"}.get(tuple(parts[1:]))
    if parts[1:] == ["remove"]:
        return f"Remove {name}"
    return "" if suffix is None else name + suffix


def _force_label(parts: list[str], catalog: Mapping[str, Any]) -> str:
    if not parts or parts[0] not in catalog:
        return ""
    name = catalog[parts[0]].label
    suffix = {
        (): "",
        ("hard",): " hard dice",
        ("wiggle",): " wiggle dice",
        ("approved",): ": the GM's permission",
    }.get(tuple(parts[1:]))
    return "" if suffix is None else name + suffix


def _wound_label(parts: list[str]) -> str:
    if len(parts) != 2 or parts[0] not in LOCATION_BY_SLUG:
        return ""
    location = LOCATION_BY_SLUG[parts[0]].label
    if parts[1] == "clear":
        return f"Clear the {location}"
    return f"{location} box {int(parts[1]) + 1}" if _INDEX.fullmatch(parts[1]) else ""


_LABELLERS: dict[str, Callable[[list[str]], str]] = {
    "info": lambda parts: INFO_LABELS.get(parts[0], "") if len(parts) == 1 else "",
    "stat": lambda parts: (
        STAT_BY_SLUG[parts[0]].label if len(parts) == 1 and parts[0] in STAT_BY_SLUG else ""
    ),
    "skill": _skill_label,
    "power": lambda parts: _force_label(parts, POWER_BY_SLUG),
    "stunt": lambda parts: _force_label(parts, STUNT_BY_SLUG),
    "willpower": lambda parts: WILLPOWER_LABELS.get(parts[0], "") if len(parts) == 1 else "",
    "dsp": lambda parts: DARK_SIDE_LABELS.get(parts[0], "") if len(parts) == 1 else "",
    "xp": lambda parts: _numbered(
        parts, "Experience award", {"amount": "XP", "note": "note", "remove": "remove"}
    ),
    "ability": lambda parts: _numbered(parts, "Ability", {"level": "level", "remove": "remove"}),
    "armor": lambda parts: _numbered(parts, "Armor", ARMOR_FIELDS),
    "weapon": lambda parts: _numbered(parts, "Weapon", WEAPON_FIELDS),
    "wound": _wound_label,
}


class _Rows:
    """Collect the rows of one sheet, pricing and ranging numeric ones from `raisables`."""

    def __init__(self, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
        self.ranges = raisables(sheet, settings)
        self.costs = _next_costs(self.ranges, cost_unit(sheet))
        self.rows: list[TraitRow] = []

    def add(self, key: str, label: str, section: str, value: Any, kind: RowKind, **extra) -> None:
        shown = extra.pop("shown", "" if value is None else str(value))
        self.rows.append(TraitRow(key, label, section, value, shown, kind, **extra))

    def bought(
        self, key: str, label: str, section: str, *, shown: str, kind: RowKind, **extra
    ) -> None:
        """A trait bought in steps: its range and next price are what advance_cost uses."""
        raisable = self.ranges[key]
        locked = extra.pop("locked", "")
        if not locked and raisable.maximum < raisable.minimum:
            locked = "Its hard and wiggle dice already fill every die it can hold."
        self.add(
            key,
            label,
            section,
            raisable.current,
            kind,
            shown=shown,
            minimum=raisable.minimum,
            maximum=raisable.maximum,
            next_cost=self.costs.get(key),
            locked=locked,
            **extra,
        )


def trait_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[TraitRow]:
    """Return one row per trait of the sheet, in the order the sheet prints them."""
    settings = resolve_settings(SETTINGS, settings)
    rows = _Rows(sheet, settings)
    _identity_rows(sheet, settings, rows)
    _stat_rows(sheet, settings, rows)
    _skill_rows(sheet, settings, rows)
    _secondary_rows(sheet, settings, rows)
    _force_rows(sheet, rows)
    _gear_rows(sheet, rows)
    _wound_rows(sheet, rows)
    _points_rows(sheet, settings, rows)
    return rows.rows


def _identity_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any], rows: _Rows) -> None:
    for key, label, source in INFO_FIELDS:
        rows.add(
            f"info.{key}",
            label,
            "identity",
            sheet["info"][key],
            RowKind.TEXT,
            maximum=TEXT_MAX_LENGTH,
            source=source,
        )
    species = species_of(sheet)
    rows.add(
        "species",
        "Species",
        "identity",
        species.slug,
        RowKind.CHOICE,
        shown=species.label,
        choices=tuple(
            (s.slug, f"{s.label} ({species_cost({'species': s.slug}, settings)} CP)")
            for s in SPECIES
        ),
        source=species.source,
    )


def _stat_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any], rows: _Rows) -> None:
    for stat in STATS:
        hard, wiggle = stat_extra_dice(sheet, stat.slug)
        maximum = stat_maximum(sheet, stat.slug, settings)
        # Stats and skills are a few dice each, drawn as dots like the seed's sheet boxes.
        rows.bought(
            f"stat.{stat.slug}",
            stat.label,
            "stats",
            shown=dice_text(sheet["stats"][stat.slug], hard, wiggle),
            kind=RowKind.DOTS,
            source=stat.source,
            note=f"At most {maximum}d: {stat_maximum_reason(sheet, stat.slug, settings)}.",
        )


def _skill_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any], rows: _Rows) -> None:
    stats = tuple((stat.slug, stat.label) for stat in STATS)
    for row in sheet["skills"]:
        key = f"skill.{row['id']}"
        catalog = SKILL_BY_SLUG.get(row["skill"])
        source = catalog.source if catalog else "L662"
        hard, wiggle = skill_extra_dice(sheet, row, settings)
        pool = capped_pool(
            sheet["stats"][row["stat"]] + row["dice"], *_sum_extra(sheet, row, settings)
        )
        notes = [f"Rolls {pool.text} with {STAT_BY_SLUG[row['stat']].label}."]
        if row["free"]:
            notes.append(f"The first {row['free']}d are free.")
        if catalog and catalog.needs_dice_to_try:
            notes.append("It cannot even be tried without dice.")
        rows.bought(
            key,
            row["name"],
            "skills",
            shown=dice_text(row["dice"], hard, wiggle),
            kind=RowKind.DOTS,
            group=row["name"],
            source=source,
            note=" ".join(notes),
        )
        rows.add(
            f"{key}.stat",
            f"{row['name']}: stat",
            "skills",
            row["stat"],
            RowKind.CHOICE,
            shown=STAT_BY_SLUG[row["stat"]].label,
            choices=stats,
            group=row["name"],
            source="L658",
        )
        if catalog and catalog.takes_specialty:
            rows.add(
                f"{key}.specialty",
                f"{row['name']}: specialty",
                "skills",
                row["specialty"],
                RowKind.TEXT,
                maximum=SKILL_NAME_LENGTH,
                group=row["name"],
                source=source,
            )


def _secondary_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any], rows: _Rows) -> None:
    droid = is_droid(sheet)
    no_willpower = "Droids have no Willpower." if droid else ""
    willpower = sheet["willpower"]
    for part, source in (("bought", "L782"), ("extra", "L784")):
        key = f"willpower.{part}"
        if droid:
            rows.add(
                key,
                WILLPOWER_LABELS[part],
                "secondary",
                willpower[part],
                RowKind.NUMBER,
                group="Willpower",
                locked=no_willpower,
                source="L764",
            )
        else:
            rows.bought(
                key,
                WILLPOWER_LABELS[part],
                "secondary",
                shown=str(willpower[part]),
                kind=RowKind.NUMBER,
                group="Willpower",
                source=source,
            )
    current = current_willpower(sheet, settings)
    rows.add(
        "willpower.current",
        WILLPOWER_LABELS["current"],
        "secondary",
        current,
        RowKind.NUMBER,
        shown="" if current is None else str(current),
        minimum=0,
        maximum=MAX_POINTS,
        group="Willpower",
        locked=no_willpower,
        source="L922",
        note="" if droid else f"Base Willpower is {base_willpower(sheet, settings)}.",
    )
    for part in ("base", "current"):
        rows.add(
            f"dsp.{part}",
            DARK_SIDE_LABELS[part],
            "secondary",
            sheet["dark_side"][part],
            RowKind.NUMBER,
            minimum=0,
            maximum=MAX_POINTS,
            group="Dark Side Points",
            locked="Droids have no Willpower, so no Dark Side Points." if droid else "",
            source="L904",
        )


def _force_rows(sheet: Mapping[str, Any], rows: _Rows) -> None:
    droid = is_droid(sheet)
    no_force = "Droids have no Force Sense and cannot learn the Force." if droid else ""
    base_dsp = sheet["dark_side"]["base"]
    for power in POWERS:
        row = sheet["powers"][power.slug]
        pool = capped_pool(row["dice"], row["hard"], row["wiggle"])
        core = "; ".join(
            t.label + (f" (Willpower {t.willpower})" if t.willpower else "")
            for t in FORCE_TECHNIQUES
            if t.power == power.slug and not t.stunt
        )
        power_note = (
            f"Pool {pool.text}: {pool.total} of {POWER_MAXIMUM_DICE} dice. Comes with {core}."
        )
        for part, suffix, label in (
            ("dice", "", power.label),
            ("hard", ".hard", f"{power.label} hard dice"),
            ("wiggle", ".wiggle", f"{power.label} wiggle dice"),
        ):
            key = f"power.{power.slug}{suffix}"
            shown = dice_text(row[part]) if part == "dice" else str(row[part])
            note = power_note if part == "dice" else ""
            if droid:
                rows.add(
                    key,
                    label,
                    "force",
                    row[part],
                    RowKind.DICE,
                    shown=shown,
                    group=power.label,
                    locked=no_force,
                    source="L766",
                )
            else:
                rows.bought(
                    key,
                    label,
                    "force",
                    shown=shown,
                    kind=RowKind.DICE,
                    group=power.label,
                    source=power.source,
                    note=note,
                )
        if power.needs_permission:
            rows.add(
                f"power.{power.slug}.approved",
                f"{power.label}: the GM's permission",
                "force",
                row["approved"],
                RowKind.FLAG,
                shown="yes" if row["approved"] else "no",
                group=power.label,
                setter=Setter.GM,
                source="L774",
                note="Every Force power but Force Sense needs the GM's permission.",
            )
        for stunt in STUNTS:
            if stunt.power != power.slug:
                continue
            key = f"stunt.{stunt.slug}"
            owned = sheet["stunts"].get(stunt.slug)
            dice = owned["dice"] if owned else 0
            usable = _stunt_usable_note(stunt.slug, base_dsp)
            rolls = ""
            if dice:
                rolled = capped_pool(row["dice"] + dice, row["hard"], row["wiggle"])
                rolls = f"Rolls {rolled.text}."
            willpower = f"Willpower {stunt.willpower}." if stunt.willpower else ""
            side = f"{SIDE_LABELS[stunt.side]} stunt." if stunt.side else ""
            note = " ".join(part for part in (side, rolls, willpower, usable) if part)
            if droid:
                rows.add(
                    key,
                    stunt.label,
                    "force",
                    dice,
                    RowKind.DICE,
                    shown=dice_text(dice),
                    group=power.label,
                    locked=no_force,
                    source="L766",
                )
            else:
                rows.bought(
                    key,
                    stunt.label,
                    "force",
                    shown=dice_text(dice),
                    kind=RowKind.DICE,
                    group=power.label,
                    source=stunt.source,
                    note=note,
                )
            if owned:
                rows.add(
                    f"{key}.approved",
                    f"{stunt.label}: the GM's permission",
                    "force",
                    owned["approved"],
                    RowKind.FLAG,
                    shown="yes" if owned["approved"] else "no",
                    group=power.label,
                    setter=Setter.GM,
                    source="L774",
                    note="Every Force stunt needs the GM's permission.",
                )
    form = sheet["lightsaber_form"]
    rows.add(
        "lightsaber_form",
        "Lightsaber form specialty",
        "maneuvers",
        form,
        RowKind.CHOICE,
        shown=FORM_BY_SLUG[form].label if form else "None chosen (Form I only)",
        choices=(
            ("", "None chosen (Form I only)"),
            *(
                (f.slug, f"{f.label} ({f.exemplars}) — favored move: {f.favored_move}")
                for f in LIGHTSABER_FORMS
            ),
        ),
        source="L1074",
        note="Every Jedi knows Form I; one more form may be a specialty.",
    )


def _gear_rows(sheet: Mapping[str, Any], rows: _Rows) -> None:
    for n, row in enumerate(sheet["abilities"]):
        ability = ABILITY_BY_SLUG[row["ability"]]
        target = row["target"]
        if ability.target == "stat":
            target = STAT_BY_SLUG[target].label
        elif ability.target == "skill":
            target = next((r["name"] for r in sheet["skills"] if r["id"] == target), target)
        rows.bought(
            f"ability.{n}.level",
            f"{ability.label}: {target}" if target else ability.label,
            "species",
            shown=str(row["level"]),
            kind=RowKind.NUMBER,
            group="Abilities",
            source=ability.source,
        )
    for n, row in enumerate(sheet["armor"]):
        # Numbered, not named: renaming an item must not relabel (and so redraw) the
        # fields beside it while the player types in them.
        key, group = f"armor.{n}", f"Armor {n + 1}"
        source = ARMOR_BY_SLUG[row["from"]].source if row["from"] else "L386"
        for field, kind, low, high in (
            ("name", RowKind.TEXT, None, ROW_TEXT_LENGTH),
            ("ar", RowKind.NUMBER, 0, GEAR_NUMBER_MAXIMUM),
            ("coordination", RowKind.NUMBER, 0, ARMOR_COORDINATION_MAXIMUM),
            ("move", RowKind.NUMBER, 0, GEAR_NUMBER_MAXIMUM),
            ("special", RowKind.TEXT, None, SPECIAL_TEXT_LENGTH),
            ("covers", RowKind.TEXT, None, None),
            ("worn", RowKind.FLAG, None, None),
        ):
            value = row[field]
            shown = str(value)
            if field == "covers":
                # A text row holds what apply_edit reads back: "all" or location names.
                value = shown = _covers_text(value)
            if field == "worn":
                shown = "yes" if value else "no"
            rows.add(
                f"{key}.{field}",
                f"{group}: {ARMOR_FIELDS[field]}",
                "gear",
                value,
                kind,
                shown=shown,
                minimum=low,
                maximum=high,
                group=group,
                source=source,
            )
    for n, row in enumerate(sheet["weapons"]):
        key, group = f"weapon.{n}", f"Weapon {n + 1}"
        source = WEAPON_BY_SLUG[row["from"]].source if row["from"] else "L401"
        for field, kind, low, high in (
            ("name", RowKind.TEXT, None, ROW_TEXT_LENGTH),
            ("damage", RowKind.TEXT, None, ROW_TEXT_LENGTH),
            ("penetration", RowKind.NUMBER, 0, GEAR_NUMBER_MAXIMUM),
            ("initiative", RowKind.NUMBER, 0, GEAR_NUMBER_MAXIMUM),
            ("special", RowKind.TEXT, None, SPECIAL_TEXT_LENGTH),
        ):
            rows.add(
                f"{key}.{field}",
                f"{group}: {WEAPON_FIELDS[field]}",
                "gear",
                row[field],
                kind,
                minimum=low,
                maximum=high,
                group=group,
                source=source,
            )


def _covers_text(covers: list[str]) -> str:
    if len(covers) == len(HIT_LOCATIONS):
        return "all"
    return ", ".join(LOCATION_BY_SLUG[slug].label for slug in covers)


def _wound_rows(sheet: Mapping[str, Any], rows: _Rows) -> None:
    states = {BOX_EMPTY: "empty", BOX_SHOCK: "shock", BOX_KILLING: "killing"}
    for location in HIT_LOCATIONS:
        for n, state in enumerate(sheet["wounds"][location.slug]):
            rows.add(
                f"wound.{location.slug}.{n}",
                f"{location.label} box {n + 1}",
                "wounds",
                states[state],
                RowKind.CHOICE,
                shown=BOX_MARKS[state],
                choices=BOX_CHOICES,
                group=location.label,
                source=location.source,
            )


def _points_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any], rows: _Rows) -> None:
    rows.add(
        "character_points",
        "Character points",
        "points",
        sheet["character_points"],
        RowKind.NUMBER,
        minimum=0,
        maximum=MAX_POINTS,
        setter=Setter.GM,
        source="L772",
        note="The creation budget: 100 to 200 for beginners, 400 or more for masters.",
    )
    stage = stage_of(sheet)
    spent = points_spent(sheet, settings)
    allowed = sheet["character_points"] + xp_awarded(sheet)
    locked = ""
    if stage == "creation" and spent > allowed:
        locked = f"Creation cannot finish over budget: {spent} CP spent of {allowed} CP."
    rows.add(
        STAGE_TRAIT,
        "Stage",
        "points",
        stage.value,
        RowKind.CHOICE,
        shown=dict(STAGE_CHOICES)[stage.value],
        choices=STAGE_CHOICES,
        locked=locked,
        source="L826",
        note="In play, purchases cost experience at the same prices.",
    )
    for n, award in enumerate(sheet["xp_awards"]):
        group = f"Experience award {n + 1}"
        rows.add(
            f"xp.{n}.amount",
            f"{group}: XP",
            "points",
            award["amount"],
            RowKind.NUMBER,
            minimum=1,
            maximum=MAX_POINTS,
            group=group,
            setter=Setter.GM,
            source="L826",
            note="The GM decides how much experience to award.",
        )
        rows.add(
            f"xp.{n}.note",
            f"{group}: note",
            "points",
            award["note"],
            RowKind.TEXT,
            maximum=SPECIAL_TEXT_LENGTH,
            group=group,
            setter=Setter.GM,
            source="L828-L832",
        )
