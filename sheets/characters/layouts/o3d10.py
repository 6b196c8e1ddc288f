"""The 1o3d10 sheet: header, stats, skills, health, defense and Luck, rolls, gear, tables.

The seed prints no character sheet, so the layout is our own: one page that reads top to
bottom the way a player uses it at the table (who, what they can do, how hurt they are,
what they roll), with the creation budgets and house rules beside it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import rulesets.o3d10 as o3d10
from rulesets.core import Cost, Setting, Violation, resolve_settings
from rulesets.o3d10 import data
from rulesets.o3d10.rules import _HOUSE as _HOUSE_HELP
from rulesets.o3d10.rules import HOUSE_RULE_SETTINGS, TIMES, actions_from_initiative
from sheets.characters.layouts.common import HasTraitId
from sheets.characters.models import Character

# Every section an edit may have to redraw, in page order.
SECTIONS = ("header", "stats", "skills", "health", "combat", "gear", "readings")

# Which sections show values a trait group feeds; the budget, status and rolls panels are
# redrawn after every edit because nearly every change moves them.
_SECTIONS_OF: dict[str, tuple[str, ...]] = {
    "character": ("header",),
    "info": ("header",),
    "xp": ("header",),
    "force": ("header", "skills"),
    # Strength moves the health thresholds and maximum HP, Dexterity the Defense, and every
    # stat the skill totals and weapon attack bonuses.
    "stat": ("stats", "skills", "health", "combat", "gear"),
    "skill": ("skills", "gear"),
    "hp": ("health",),
    "defense": ("combat",),
    "luck": ("combat",),
    "weapon": ("gear",),
    "armor": ("gear", "combat"),
    # Finishing creation changes every limit and price; a reading may change anything.
    "sheet": SECTIONS,
    "setting": SECTIONS,
}

STAGE_LABELS = {"creation": "Creation", "play": "In play"}


@dataclass
class Field(HasTraitId):
    """One typed value: a text or number input posting a single trait."""

    trait: str
    label: str
    value: str | int
    error: str = ""


@dataclass
class TraitRow(HasTraitId):
    """A stat or skill: value, steppers, the next point's price and the pool it feeds."""

    trait: str
    label: str
    value: int
    maximum: int
    shown: str | int
    next_cost: Cost | None
    error: str
    violations: list[Violation]
    stat_label: str = ""
    stat_slug: str = ""
    total: int | None = None
    roll: str = "1o3d10"
    locked: bool = False
    custom: bool = False
    slug: str = ""
    stat_error: str = ""

    @property
    def cost_text(self) -> str:
        """Give the next point's price in words: "1 stat point", "3 skill points", "14 XP"."""
        if self.next_cost is None:
            return ""
        amount, unit = self.next_cost.amount, self.next_cost.unit
        if amount == 1 and unit.endswith("points"):
            unit = unit.removesuffix("s")
        return f"{amount} {unit}"

    @property
    def short_cost(self) -> str:
        """Give the next point's price in a narrow column: "4 XP" or "1 pt"."""
        if self.next_cost is None:
            return "locked" if self.locked else "top"
        unit = "XP" if self.next_cost.unit == "XP" else "pt"
        return f"{self.next_cost.amount} {unit}"

    @property
    def lower(self) -> int:
        return self.value - 1

    @property
    def higher(self) -> int:
        return self.value + 1


@dataclass
class Reading:
    setting: Setting
    value: object
    error: str
    house_rule: bool

    @property
    def help(self) -> str:
        # The house-rule heading already says what the shared opening sentence says.
        if self.house_rule:
            return self.setting.help.removeprefix(_HOUSE_HELP).strip()
        return self.setting.help

    @property
    def kind(self) -> str:
        if self.setting.choices:
            return "choice"
        if isinstance(self.setting.default, bool):
            return "flag"
        return "number"


@dataclass
class GearRow:
    index: int
    fields: dict[str, Field] = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    attack_bonus: int | None = None

    @property
    def dom_id(self) -> str:
        return f"{self.values['group']}-row-{self.index}"


class _Errors:
    """Hand out refusal messages by trait and remember which ones found a place."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = errors
        self.shown: set[str] = set()

    def __call__(self, trait: str) -> str:
        self.shown.add(trait)
        return self.errors.get(trait, "")

    def stray(self) -> list[str]:
        return [message for trait, message in self.errors.items() if trait not in self.shown]


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
    """Turn a cell range such as "2-3" or "16 and more" into metres (1.5 m a cell)."""
    low, _, rest = cells.partition("-")
    low = low.split()[0]
    first = float(low) * data.METRES_PER_CELL
    if rest:
        return f"{first:g}-{float(rest) * data.METRES_PER_CELL:g} m"
    if "more" in cells:
        return f"{first:g} m and more"
    return f"{first:g} m"


def _reference(derived: Mapping) -> dict:
    """Lay out the seed's tables for reading at the table (and for the roller to come)."""
    ranged_labels = _ranges([low for low, _dc in data.RANGED_DC_BY_CELLS])
    ranged = [
        {
            "cells": label,
            "metres": _metres(label),
            "dc": row["dc"],
            "chance": _percent(row["chance"]),
        }
        for label, row in zip(ranged_labels, derived["ranged_chances"], strict=True)
    ]
    hit_locations = [
        {
            "roll": spot.roll,
            "label": spot.label,
            "effect": (
                f"+{spot.extra_damage_dice} damage"
                if spot.extra_damage_dice
                else (f"+{spot.damage_bonus} damage" if spot.damage_bonus else "no change")
            ),
        }
        for spot in data.HIT_LOCATIONS
    ]
    step = data.INITIATIVE_PER_EXTRA_ACTION
    actions = [{"totals": f"below {2 * step}", "actions": actions_from_initiative(0)}] + [
        {
            "totals": f"{n * step}-{n * step + step - 1}",
            "actions": actions_from_initiative(n * step),
        }
        for n in (2, 3, 4)
    ]
    actions.append({"totals": "and so on", "actions": "+1 per 10"})
    deflect_labels = [label for _s, label, _low, _dc in data.DEFLECT_REDIRECT_DC]
    return {
        "ranged": ranged,
        "ranged_modifiers": [
            (label, "no line of fire" if value is None else f"+{value}")
            for _slug, label, value in data.RANGED_TARGET_MODIFIERS
        ],
        "hit_locations": hit_locations,
        "actions": actions,
        "reaction_points": derived["reaction_points_table"],
        "reaction_costs": data.REACTIONS,
        "deflect": list(
            zip(deflect_labels, [dc for *_r, dc in data.DEFLECT_REDIRECT_DC], strict=True)
        ),
        "force_jump": [
            {"cells": label, "dc": dc}
            for label, (_low, dc) in zip(
                _ranges([low for low, _dc in data.FORCE_JUMP_DC_BY_CELLS], "-15"),
                data.FORCE_JUMP_DC_BY_CELLS,
                strict=True,
            )
        ],
        "healing": data.HEALING,
    }


def _span(low: int, high: int, *, descending: bool = False) -> str:
    """Spell the HP values from `low` to `high`: "0 to 5", "0", or "none" when empty."""
    if high < low:
        return "none"
    if low == high:
        return str(low)
    return f"{high} to {low}" if descending else f"{low} to {high}"


def _health_bands(health: Mapping) -> list[dict]:
    """Give the four states with the HP each covers for this Strength, the current one marked."""
    strength = health["wounded_below"]
    dead_below = health["dead_below"]
    spans = {
        "normal": f"{strength} and more",
        "wounded": _span(0, strength - 1),
        "unconscious": _span(dead_below, -1, descending=True),
        "dead": f"below {dead_below}",
    }
    return [
        {
            "slug": state.slug,
            "label": state.label,
            "span": spans[state.slug],
            "current": state.slug == health["state"],
        }
        for state in data.HEALTH_STATES
    ]


def sheet_context(
    character: Character,
    *,
    errors: Mapping[str, str],
    submitted: Mapping[str, str],
    only: Collection[str] | None = None,
) -> dict:
    """Lay out the whole sheet; the engine answers in well under a millisecond, so an htmx
    edit builds everything and `edit_fragments` picks what to send."""
    settings = resolve_settings(o3d10.SETTINGS, character.rule_settings)
    sheet = character.sheet
    report = o3d10.check(sheet, settings)
    derived = o3d10.derived(sheet, settings)
    costs = o3d10.next_costs(sheet, settings)
    error = _Errors(errors)
    creating = sheet["stage"] == "creation"

    def typed(trait: str, current: str | int) -> str | int:
        return submitted.get(trait, current) if trait in errors else current

    def text_field(trait: str, label: str, value: str | int) -> Field:
        return Field(trait, label, typed(trait, value), error(trait))

    header = {
        "name": text_field("character.name", "Name", character.name),
        "player": text_field("info.player", "Player", sheet["info"]["player"]),
        "species": text_field("info.species", "Species", sheet["info"]["species"]),
        "notes": text_field("info.notes", "Notes", sheet["info"]["notes"]),
        "xp": text_field("xp.earned", "Experience earned", sheet["xp_earned"]),
    }
    header_errors = {
        "force": error("force.sensitive"),
        "finish": error("sheet.finish_creation"),
    }

    stat_high = min(
        settings["stat_creation_max"] if creating else settings["stat_max"], settings["stat_max"]
    )
    skill_high = min(
        settings["skill_creation_max"] if creating else settings["skill_max"],
        settings["skill_max"],
    )

    stats = []
    for stat in data.STATS:
        trait, value = f"stat.{stat.slug}", sheet["stats"][stat.slug]
        stats.append(
            TraitRow(
                trait=trait,
                label=stat.label,
                value=value,
                maximum=stat_high,
                shown=typed(trait, value),
                next_cost=costs.get(trait),
                error=error(trait),
                violations=report.for_trait(trait),
                stat_label=stat.abbreviation,
            )
        )

    stat_values = sheet["stats"]
    stat_labels = {stat.slug: stat.label for stat in data.STATS}
    locked = not derived["force_available"]

    def skill_row(slug: str, label: str, value: int, stat_slug: str, **extra) -> TraitRow:
        trait = f"skill.{slug}"
        return TraitRow(
            trait=trait,
            label=label,
            value=value,
            maximum=skill_high,
            shown=typed(trait, value),
            next_cost=costs.get(trait),
            error=error(trait),
            violations=report.for_trait(trait),
            stat_label=stat_labels.get(stat_slug, ""),
            stat_slug=stat_slug,
            total=value + (stat_values[stat_slug] if stat_slug else 0),
            slug=slug,
            **extra,
        )

    skills, force_skills = [], []
    for skill in data.SKILLS:
        value = sheet["skills"][skill.slug]
        if skill.force:
            force_skills.append(
                skill_row(skill.slug, skill.label, value, "", roll="1a3d10", locked=locked)
            )
        else:
            skills.append(skill_row(skill.slug, skill.label, value, skill.stat or ""))
    custom_skills = [
        skill_row(
            row["slug"],
            row["name"],
            row["rank"],
            row["stat"],
            custom=True,
            stat_error=error(f"skill.{row['slug']}.stat"),
        )
        for row in sheet["custom_skills"]
    ]
    skill_errors = {"add": error("skill.add"), "remove": error("skill.remove")}
    new_skill = typed("skill.add", "")

    health = derived["health"]
    hp_field = text_field("hp.current", "Current HP", sheet["hp"])
    health_errors = {
        verb: error(f"hp.{verb}") for verb in ("damage", "heal", "bleed", "stabilised")
    }
    health_typed = {verb: typed(f"hp.{verb}", "") for verb in ("damage", "heal", "bleed")}

    combat = {
        "defense_bonus": text_field("defense.bonus", "Defense bonus", sheet["defense_bonus"]),
        "luck_day": text_field("luck.day", "In-game day", sheet["luck"]["day"]),
        "luck_use_error": error("luck.use"),
        "new_day_error": error("luck.new_day"),
    }

    weapons = []
    for index, row in enumerate(sheet["weapons"]):
        prefix = f"weapon.{index}"
        gear = GearRow(index, values=dict(row, group="weapon"))
        gear.fields = {
            key: text_field(f"{prefix}.{key}", label, row[key])
            for key, label in (
                ("name", "Weapon"),
                ("kind", "Kind"),
                ("damage", "Damage"),
                ("notes", "Notes"),
            )
        }
        gear.attack_bonus = derived["weapons"][index]["attack_bonus"]
        weapons.append(gear)
    armor = []
    for index, row in enumerate(sheet["armor"]):
        prefix = f"armor.{index}"
        gear = GearRow(index, values=dict(row, group="armor"))
        gear.fields = {
            "name": text_field(f"{prefix}.name", "Armor", row["name"]),
            "absorption": text_field(f"{prefix}.absorption", "Absorption", row["absorption"]),
        }
        gear.values["worn_error"] = error(f"{prefix}.worn")
        armor.append(gear)
    gear_errors = {
        group: [m for m in (error(f"{group}.add"), error(f"{group}.remove")) if m]
        for group in ("weapon", "armor")
    }
    gear_typed = {
        "weapon": typed("weapon.add", ""),
        "armor": typed("armor.add", ""),
    }

    pools = derived["pools"]
    rolls = [
        pools[key]
        for key in ("melee", "ranged", "dodge", "deflect", "stabilise", "redirect", "initiative")
    ]
    force_rolls = list(derived["force_pools"].values())
    custom_rolls = list(derived["custom_pools"].values())
    for pool in rolls + force_rolls + custom_rolls:
        pool["chance_text"] = _percent(pool["chance"])

    readings = [
        Reading(
            setting,
            settings[setting.key],
            error(f"setting.{setting.key}"),
            setting.key in HOUSE_RULE_SETTINGS,
        )
        for setting in o3d10.SETTINGS
    ]

    return {
        "character": character,
        "sheet": sheet,
        "settings": settings,
        "report": report,
        "derived": derived,
        "errors": errors,
        "creating": creating,
        "stage_label": STAGE_LABELS[sheet["stage"]],
        "header": header,
        "header_top": [header["name"], header["player"], header["species"]],
        "header_errors": header_errors,
        "stats": stats,
        "skills": skills,
        "force_skills": force_skills,
        "custom_skills": custom_skills,
        "skill_errors": skill_errors,
        "new_skill": new_skill,
        "stat_choices": [("", "no stat")] + [(s.slug, s.label) for s in data.STATS],
        "force_locked": locked,
        "health": health,
        "health_bands": _health_bands(health),
        "hp_field": hp_field,
        "health_errors": health_errors,
        "health_typed": health_typed,
        "stabilise": pools["stabilise"],
        "combat": combat,
        "luck": derived["luck"],
        "weapons": weapons,
        "armor": armor,
        "gear_errors": gear_errors,
        "gear_typed": gear_typed,
        "weapon_catalog": data.WEAPONS,
        "armor_catalog": data.ARMORS,
        "weapon_kinds": list(data.WEAPON_KINDS),
        "rolls": rolls,
        "force_rolls": force_rolls,
        "custom_rolls": custom_rolls,
        "reference": _reference(derived),
        "movement": derived["movement"],
        "house_readings": [r for r in readings if r.house_rule],
        "other_readings": [r for r in readings if not r.house_rule],
        "times": TIMES,
        "explode_label": o3d10.rules.SETTING_BY_KEY["explode_mode"]
        .label_for(settings["explode_mode"])
        .lower(),
        "force_keep_label": o3d10.rules.SETTING_BY_KEY["force_roll_keep"]
        .label_for(settings["force_roll_keep"])
        .lower(),
        # The print layout pads its tables with empty ruled rows to write in by hand.
        "luck_marks": [n < derived["luck"]["used_today"] for n in range(settings["luck_per_day"])],
        "blank_skill_rows": range(
            max(0, 12 - len(skills) - len(force_skills) - len(custom_skills))
        ),
        "blank_weapon_rows": range(max(0, 4 - len(weapons))),
        "blank_armor_rows": range(max(0, 2 - len(armor))),
        # Refusals with no field of their own (an unknown trait) are shown above the sheet.
        "stray_errors": error.stray(),
    }


def sections_for(edits: Collection[str]) -> set[str]:
    """Name the sheet sections whose values the edited traits can change."""
    sections: set[str] = set()
    for trait in edits:
        sections.update(_SECTIONS_OF.get(trait.partition(".")[0], ()))
    return sections


def edit_fragments(context: dict, edits: Mapping[str, str]) -> dict:
    """Pick the sections an edit touched, for out-of-band swaps.

    Whole sections, not rows: a Strength change moves the health state, maximum HP, the
    skill totals and the weapon bonuses together, and a removed row renumbers the rest.
    """
    return {"edited_sections": sections_for(edits), "renamed": "character.name" in edits}
