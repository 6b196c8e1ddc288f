"""The Star O.R.E. sheet page: the seed's sheet (L1090-L1159) in its order, then what the
rules need that the printed sheet lacks: hit locations, species and bought abilities.

Every field is one of the engine's rows. This module only names the sections and gathers
what a few section bodies print beside their rows (experience, Willpower, hit locations,
maneuvers, lightsaber forms, species) and the catalogs behind the "add" rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from rulesets.core import TraitRow
from rulesets.ore.data import (
    ABILITIES,
    ARMOR_ROWS,
    ARMORS,
    POWERS,
    ROLL_CAP,
    SKILLS,
    STATS,
    STUNTS,
    WEAPON_ROWS,
    WEAPONS,
)
from rulesets.ore.rules import ARMOR_FIELDS, WEAPON_FIELDS, ability_cost
from sheets.characters.layouts.base import Layout, Narrowed, Part, Section, trait_dom_id
from sheets.characters.models import Character
from sheets.characters.state import SheetState
from sheets.characters.templatetags.ore_sheet import location_row

# Catalog names offered by the "add" rows: they never change while the server runs.
SKILL_CATALOG = tuple(s.label + (" [ ]" if s.takes_specialty else "") for s in SKILLS)
ARMOR_CATALOG = tuple(a.label for a in ARMORS)
WEAPON_CATALOG = tuple(w.label for w in WEAPONS)
STAT_CHOICES = tuple((s.slug, s.label) for s in STATS)
GEAR_HEADERS = {"armor": ARMOR_FIELDS, "weapon": WEAPON_FIELDS}
STUNT_KEYS = {
    power.slug: tuple(f"stunt.{s.slug}." for s in STUNTS if s.power == power.slug)
    for power in POWERS
}
POWER_OF_STUNT = {stunt.slug: stunt.power for stunt in STUNTS}


class OreLayout(Layout):
    sections = (
        Section("identity", "Character"),
        Section(
            "points",
            "Character points and experience",
            body="rulesets/ore/_points.html",
            adds="rulesets/ore/_points_add.html",
            adds_by_gm=True,
            prefixes=("xp",),
            uses_extra=("ore_experience",),
        ),
        Section("stats", "Stats"),
        Section(
            "secondary",
            "Dark Side Points and Willpower",
            body="rulesets/ore/_secondary.html",
            prefixes=("willpower", "dsp"),
            uses_extra=("ore_willpower",),
        ),
        Section(
            "skills",
            "Skills",
            body="rulesets/ore/_skills.html",
            adds="rulesets/ore/_skills_add.html",
            prefixes=("skill",),
            uses_extra=("ore_fixed_skills",),
        ),
        # One section per Force power, so that buying a stunt redraws its power alone.
        *(
            Section(
                power.slug,
                power.label,
                body="rulesets/ore/_force.html",
                prefixes=(f"power.{power.slug}.", *STUNT_KEYS[power.slug]),
                uses_extra=("ore_force_locked",),
            )
            for power in POWERS
        ),
        Section(
            "gear",
            "Armor and weapons",
            body="rulesets/ore/_gear.html",
            adds="rulesets/ore/_gear_add.html",
            prefixes=("armor", "weapon"),
            uses_extra=("ore_gear",),
        ),
        Section(
            "maneuvers",
            "Combat maneuvers and lightsaber forms",
            body="rulesets/ore/_maneuvers.html",
            uses_extra=("ore_maneuvers", "ore_forms"),
        ),
        Section(
            "wounds",
            "Hit locations",
            body="rulesets/ore/_wounds.html",
            prefixes=("wound",),
            uses_extra=("ore_locations", "ore_limb_penalty"),
        ),
        Section(
            "species",
            "Species and abilities",
            # The add row sits in the body: what it offers follows the abilities and skills.
            body="rulesets/ore/_species.html",
            prefixes=("ability",),
            uses_extra=("ore_species", "ore_ability_choices"),
        ),
    )

    def section_for(self, row: TraitRow) -> str:
        if row.section != "force":
            return row.section
        kind, slug = row.key.split(".")[:2]
        return slug if kind == "power" else POWER_OF_STUNT[slug]

    def extra(self, state: SheetState, character: Character) -> dict:
        derived = state.derived
        return {
            "ore_experience": derived["experience"],
            "ore_willpower": {**derived["willpower"], "dark_side": derived["dark_side"]},
            # Free starting languages stay on the sheet: no remove button for them.
            "ore_fixed_skills": frozenset(row["key"] for row in derived["skills"] if row["free"]),
            "ore_force_locked": next((r.locked for r in state.rows if r.section == "force"), ""),
            "ore_first_power": POWERS[0].slug,
            "ore_gear": _gear(state.rows),
            "ore_locations": _locations(state),
            "ore_limb_penalty": derived["limb_penalty"],
            "ore_maneuvers": _maneuvers(derived["maneuvers"]),
            "ore_forms": derived["lightsaber_forms"],
            "ore_species": derived["species"],
            "ore_skill_catalog": SKILL_CATALOG,
            "ore_stat_choices": STAT_CHOICES,
            "ore_armor_catalog": ARMOR_CATALOG,
            "ore_weapon_catalog": WEAPON_CATALOG,
            "ore_ability_choices": _ability_choices(state.sheet, state.settings),
        }

    def print_extra(self, state: SheetState, character: Character) -> dict:
        return {"ore_print": PrintSheet(state)}

    def narrowed(self, old: Part, new: Part, before: dict, after: dict) -> Narrowed | None:
        """A wound box marked or cleared sends its location's row, not the table of every
        location: when nothing else the wound table prints moved (its rows, messages,
        refusals, the limb penalty), the locations whose boxes or state moved."""
        if new.section.key != "wounds" or not _same_frame(old, new, before, after):
            return None
        was, now = before["ore_locations"], after["ore_locations"]
        if [loc["slug"] for loc in was] != [loc["slug"] for loc in now]:
            return None
        may_mark = after["can_edit_player"]
        return Narrowed(
            pieces=tuple(
                location_row(location, may_mark, oob=True)
                for location, earlier in zip(now, was, strict=True)
                if location != earlier
            )
        )


LAYOUT = OreLayout()


def _gear(rows: list[TraitRow]) -> dict[str, dict]:
    """Armor and weapon rows as table rows: each item's slice of the section's fields."""
    gear = [row for row in rows if row.section == "gear"]
    tables: dict[str, dict] = {kind: {"headers": [], "items": []} for kind in GEAR_HEADERS}
    for index, row in enumerate(gear):
        kind, number, field = row.key.split(".")
        table = tables[kind]
        items = table["items"]
        if not items or items[-1]["key"] != f"{kind}.{number}":
            items.append({"key": f"{kind}.{number}", "start": index, "end": index})
        items[-1]["end"] = index + 1
        if len(items) == 1:
            table["headers"].append(GEAR_HEADERS[kind].get(field, field))
    for table in tables.values():
        for item in table["items"]:
            item["slice"] = f"{item['start']}:{item['end']}"
    return tables


def _same_frame(old: Part, new: Part, before: dict, after: dict) -> bool:
    """Whether the wound table prints the same around its locations before and after."""
    return (
        old.signature == new.signature
        and old.errors == new.errors
        and old.violations == new.violations
        and not any(f.error for f in old.fields + new.fields)
        and before["ore_limb_penalty"] == after["ore_limb_penalty"]
        and before["can_edit_player"] == after["can_edit_player"]
        and [f.row.choices for f in old.fields[:1]] == [f.row.choices for f in new.fields[:1]]
    )


def _locations(state: SheetState) -> list[dict]:
    """The hit locations as the engine derives them, each box with its row's words."""
    rows = {row.key: row for row in state.rows if row.section == "wounds"}
    locations = []
    for location in state.derived["hit_locations"]:
        boxes = []
        for key in location["box_keys"]:
            row = rows[key]
            values = [value for value, _label in row.choices]
            labels = dict(row.choices)
            following = values[(values.index(row.value) + 1) % len(values)]
            boxes.append(
                {
                    "key": key,
                    "dom_id": trait_dom_id(key),
                    "label": row.label,
                    "state": row.value,
                    "mark": row.shown,
                    "state_label": labels[row.value],
                    "next_label": labels[following],
                }
            )
        locations.append({**location, "box_rows": boxes, "clear": f"{location['key']}.clear"})
    return locations


def _maneuvers(maneuvers: list[dict]) -> dict:
    on_sheet = [m for m in maneuvers if m["on_sheet"]]
    half = (len(on_sheet) + 1) // 2
    return {
        "columns": [on_sheet[:half], on_sheet[half:]],
        "others": [m for m in maneuvers if not m["on_sheet"]],
    }


def _ability_choices(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[tuple]:
    """Every ability the sheet can still buy, each with its target, as "slug|target"."""
    taken = {(row["ability"], row["target"]) for row in sheet["abilities"]}
    choices = []
    for ability in ABILITIES:
        price = ability_cost({"ability": ability.slug, "level": 1}, settings)
        if ability.target == "stat":
            targets = list(STAT_CHOICES)
        elif ability.target == "skill":
            targets = [(row["id"], row["name"]) for row in sheet["skills"]]
        else:
            targets = [("", "")]
        for target, target_label in targets:
            if (ability.slug, target) in taken:
                continue
            label = f"{ability.label}: {target_label}" if target_label else ability.label
            choices.append((f"{ability.slug}|{target}", f"{label} — {price} per level"))
    return choices


# The stat beside each printed skill, short enough to keep the cell on one line where the
# name allows; Coordination and Cool would both begin "Coo".
STAT_SHORT = {
    "body": "Bod",
    "coordination": "Crd",
    "sense": "Sen",
    "brains": "Brn",
    "command": "Cmd",
    "cool": "Cool",
}


def _padded(rows: list, slots: int) -> list:
    return list(rows) + [None] * (slots - len(rows))


class PrintSheet:
    """Arrange the derived sheet in the printed sheet's fixed grid (L1090-L1159)."""

    roll_cap = ROLL_CAP

    def __init__(self, state: SheetState) -> None:
        self.state = state
        self.derived = state.derived

    @cached_property
    def force_lines(self) -> list[dict]:
        """Powers and their stunts as the lines of the FORCE POWERS/STUNTS columns."""
        lines = []
        for power in self.derived["powers"]:
            if power["pool"]["total"] or power["stunts"]:
                lines.append({"label": power["label"], "text": power["text"], "stunt": False})
            for stunt in power["stunts"]:
                lines.append(
                    {
                        "label": stunt["label"],
                        "text": stunt["text"],
                        "stunt": True,
                        "tag": stunt["side"],
                    }
                )
        return lines

    @cached_property
    def rows(self) -> list[dict]:
        """Two skill and two Force columns side by side, at least ten lines deep."""
        skills = [
            skill | {"stat_short": STAT_SHORT[skill["stat"]]} for skill in self.derived["skills"]
        ]
        force = self.force_lines
        depth = max(10, (len(skills) + 1) // 2, (len(force) + 1) // 2)
        skill_cells, force_cells = _padded(skills, 2 * depth), _padded(force, 2 * depth)
        return [
            {
                "skills": (skill_cells[n], skill_cells[depth + n]),
                "force": (force_cells[n], force_cells[depth + n]),
            }
            for n in range(depth)
        ]

    @cached_property
    def any_capped(self) -> bool:
        return any(row["pool"]["capped"] for row in self.derived["skills"])

    @cached_property
    def unapproved(self) -> list[str]:
        powers = self.derived["powers"]
        return [
            p["label"]
            for p in powers
            if p["needs_permission"] and p["pool"]["total"] and not p["approved"]
        ] + [s["label"] for p in powers for s in p["stunts"] if not s["approved"]]

    @cached_property
    def armor(self) -> list:
        return _padded(self.derived["armor"], ARMOR_ROWS)

    @cached_property
    def weapons(self) -> list:
        return _padded(self.derived["weapons"], WEAPON_ROWS)

    @cached_property
    def maneuver_rows(self) -> list[tuple]:
        left, right = _maneuvers(self.derived["maneuvers"])["columns"]
        return list(zip(left, _padded(right, len(left)), strict=True))

    @cached_property
    def abilities(self) -> list[dict]:
        rows = {row.key: row for row in self.state.rows if row.section == "species"}
        return [
            {
                "label": rows[f"ability.{n}.level"].label,
                "level": ability["level"],
                "cost": ability_cost(ability, self.state.settings),
            }
            for n, ability in enumerate(self.state.sheet["abilities"])
        ]
