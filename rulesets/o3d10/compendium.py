"""The 1o3d10 compendium: the kinds of entry a GM adds, and the catalogs as entries.

An entry's fields are what a sheet holds of it: a weapon's kind and damage code are the
sheet's `weapons` row, an armor's absorption its `armor` row.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

from rulesets.core.compendium import (
    BuiltinEntry,
    EntryBase,
    EntryKind,
    EntryPart,
    Input,
    NamedNumber,
    Picker,
    apply_lines,
    builtin,
    choice,
    copies,
    group,
    lines,
    named_number_lines,
    normal_builtins,
    number,
    refuse_pick,
)
from rulesets.core.edits import InvalidEdit
from rulesets.o3d10.data import (
    ALTERATION_BASE_DC,
    ARMORS,
    FORCE_HEALING_DC,
    HARD_STAT_MAX,
    MAX_ABSORPTION,
    MAX_NOTES,
    MAX_ROWS,
    ORGANIC_BASE_DC,
    PHYSICAL_BASE_DC,
    SKILLS,
    STATS,
    WEAPON_KINDS,
    WEAPONS,
)
from rulesets.o3d10.edits import apply_edit, normal_damage
from rulesets.o3d10.sheet import validate_sheet

WEAPON_KIND_CHOICES = (("melee", "Melee"), ("ranged", "Ranged"))
SEED = "004"
# The Force skills a technique is rolled with (L151, L166, L194, L217).
SCHOOLS = tuple((skill.slug, skill.label) for skill in SKILLS if skill.force)
SKILL_BY_LABEL = {skill.label.casefold(): skill for skill in SKILLS}
# Each school's base difficulty before its conditions (L169, L197, L220).
BASE_DC = {
    "physical_school": PHYSICAL_BASE_DC,
    "alteration_school": ALTERATION_BASE_DC,
    "organic_school": ORGANIC_BASE_DC,
}
assert {value for value, _label in WEAPON_KIND_CHOICES} == set(WEAPON_KINDS)


def _damage(value: Any) -> Any:
    if type(value) is not str or len(value) > 20:
        raise PydanticCustomError("damage", "expected a damage code like 1d8 or 2d6+1")
    try:
        return normal_damage(value)
    except ValueError:
        raise PydanticCustomError("damage", "expected a damage code like 1d8 or 2d6+1") from None


Damage = Annotated[
    str,
    BeforeValidator(_damage),
    WithJsonSchema({"type": "string", "pattern": r"^\s*\d{1,2}\s*[dD]\s*\d{1,3}"}),
    Input("text", "Damage", help="a damage code such as 1d8 or 2d6+1", max_length=20),
]


class Weapon(EntryBase):
    kind: choice("Kind", WEAPON_KIND_CHOICES) = "ranged"  # type: ignore[valid-type]
    damage: Damage = "1d8"


class Armor(EntryBase):
    absorption: number("Absorption", 0, MAX_ABSORPTION) = 1  # type: ignore[valid-type]


class ForceTechnique(EntryBase):
    school: choice("School", SCHOOLS) = "physical_school"  # type: ignore[valid-type]
    dc: number("Base difficulty (DC)", 0, 60, optional=True) = None  # type: ignore[valid-type]


def _stats() -> type[EntryPart]:
    annotations = {s.slug: number(s.label, 0, HARD_STAT_MAX) for s in STATS}
    return type(
        "NpcStats", (EntryPart,), {"__annotations__": annotations, **dict.fromkeys(annotations, 3)}
    )


NpcStats = _stats()


class NpcTemplate(EntryBase):
    stats: Annotated[NpcStats, group("Stats")] = NpcStats()
    skills: lines(  # type: ignore[valid-type]
        "Skills",
        NamedNumber,
        named_number_lines("a skill and its rank a line, e.g. “Melee Weapons 3”"),
    ) = []


COMPENDIUM_KINDS: tuple[EntryKind, ...] = (
    EntryKind("weapon", "Weapon", "Weapons", Weapon),
    EntryKind("armor", "Armor", "Armor", Armor),
    EntryKind("force_technique", "Force technique", "Force techniques", ForceTechnique),
    EntryKind("npc_template", "NPC template", "NPC templates", NpcTemplate),
)

_CATALOG: tuple[BuiltinEntry, ...] = (
    *(builtin("weapon", w.label, w.source, kind=w.kind, damage=w.damage) for w in WEAPONS),
    *(builtin("armor", a.label, a.source, absorption=a.absorption) for a in ARMORS),
    # The schools and the Force Jump (L151-L219), and Force healing (Organic School vs 15).
    *(
        builtin(
            "force_technique",
            skill.label,
            f"{SEED}:{skill.source.split('-')[0]}",
            school=skill.slug,
            dc=BASE_DC.get(skill.slug),
        )
        for skill in SKILLS
        if skill.force
    ),
    builtin(
        "force_technique",
        "Force healing",
        f"{SEED}:L242",
        school="organic_school",
        dc=FORCE_HEALING_DC,
    ),
)
BUILTIN: tuple[BuiltinEntry, ...] = normal_builtins(COMPENDIUM_KINDS, _CATALOG)


def builtin_entries() -> tuple[BuiltinEntry, ...]:
    """The catalogs as read-only entries, each with its source."""
    return BUILTIN


# --- picking an entry onto a sheet ----------------------------------------------------------
# A weapon or armor adds a row as a typed one does (a weapon's damage code rolls with its
# attack; worn armor's absorption is the sheet's), a Force technique adds a line to the
# notes, an NPC template sets stats and skill ranks in creation.


def _pick_weapon(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["weapons"]) >= MAX_ROWS:
        raise refuse_pick(f"A sheet holds at most {MAX_ROWS} weapons.")
    sheet["weapons"].append(
        {
            "name": entry["name"],
            "kind": entry["kind"],
            "damage": entry["damage"],
            "notes": "",
            "compendium": mark,
        }
    )
    return sheet


def _pick_armor(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["armor"]) >= MAX_ROWS:
        raise refuse_pick(f"A sheet holds at most {MAX_ROWS} armor pieces.")
    # Worn, as armor added by hand is: its absorption counts at once.
    sheet["armor"].append(
        {"name": entry["name"], "absorption": entry["absorption"], "worn": True, "compendium": mark}
    )
    return sheet


def _pick_force_technique(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    info = sheet["info"]
    school = dict(SCHOOLS)[entry["school"]]
    said = f"{entry['name']} ({school}" + (f", DC {entry['dc']})" if entry["dc"] else ")")
    notes = "\n".join(part for part in (info["notes"].rstrip(), said) if part)
    if len(notes) > MAX_NOTES:
        raise refuse_pick(f"The notes would pass their {MAX_NOTES} characters.")
    refs = [*info.get("compendium", []), mark]
    if len(refs) > MAX_ROWS:
        raise refuse_pick(f"A sheet records at most {MAX_ROWS} picked Force techniques.")
    info["notes"] = notes
    info["compendium"] = refs
    return sheet


def _skill_rank(sheet: dict, item: Mapping[str, Any], settings: Mapping) -> dict:
    skill = SKILL_BY_LABEL.get(item["name"].casefold())
    if skill is None:
        raise InvalidEdit("skills", f"“{item['name']}” is not a skill of the seed.")
    return apply_edit(sheet, f"skill.{skill.slug}", str(item["number"]), settings)


def _pick_npc_template(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if sheet["stage"] != "creation":
        raise refuse_pick("An NPC template fills a sheet in creation; this sheet is in play.")
    for slug, value in entry["stats"].items():
        sheet = apply_edit(sheet, f"stat.{slug}", str(value), settings)
    return apply_lines(
        sheet, entry["skills"], "Skills", lambda s, item: _skill_rank(s, item, settings)
    )


PICKER = Picker(
    COMPENDIUM_KINDS,
    picks={
        "weapon": _pick_weapon,
        "armor": _pick_armor,
        "force_technique": _pick_force_technique,
        "npc_template": _pick_npc_template,
    },
    refresh={"weapon": copies("name", "kind", "damage"), "armor": copies("name", "absorption")},
    validate_sheet=validate_sheet,
)
pick_entry = PICKER.pick_entry
refresh_entry = PICKER.refresh_entry
entry_refs = PICKER.entry_refs
