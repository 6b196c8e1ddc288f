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
    Input,
    InvalidEntry,
    TextItem,
    builtin,
    choice,
    find_kind,
    find_refs,
    lines,
    normal_builtins,
    number,
    text_lines,
)
from rulesets.o3d10.data import ARMORS, MAX_ABSORPTION, WEAPON_KINDS, WEAPONS
from rulesets.o3d10.edits import normal_damage

WEAPON_KIND_CHOICES = (("melee", "Melee"), ("ranged", "Ranged"))
SCHOOLS = (
    ("physical_school", "Physical School"),
    ("alteration_school", "Alteration School"),
    ("organic_school", "Organic School"),
)
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
    dc: number("Difficulty (DC)", 0, 60, optional=True) = None  # type: ignore[valid-type]


class NpcTemplate(EntryBase):
    notes: lines("Traits", TextItem(), text_lines("Strength 4, Melee weapons 3")) = []  # type: ignore[valid-type]


COMPENDIUM_KINDS: tuple[EntryKind, ...] = (
    EntryKind("weapon", "Weapon", "Weapons", Weapon),
    EntryKind("armor", "Armor", "Armor", Armor),
    EntryKind("force_technique", "Force technique", "Force techniques", ForceTechnique),
    EntryKind("npc_template", "NPC template", "NPC templates", NpcTemplate),
)

_CATALOG: tuple[BuiltinEntry, ...] = (
    *(builtin("weapon", w.label, w.source, kind=w.kind, damage=w.damage) for w in WEAPONS),
    *(builtin("armor", a.label, a.source, absorption=a.absorption) for a in ARMORS),
)
BUILTIN: tuple[BuiltinEntry, ...] = normal_builtins(COMPENDIUM_KINDS, _CATALOG)


def builtin_entries() -> tuple[BuiltinEntry, ...]:
    """The catalogs as read-only entries, each with its source."""
    return BUILTIN


def entry_refs(sheet: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """The (kind, ref, version) of every compendium entry the sheet uses."""
    return find_refs(sheet)


def pick_entry(
    sheet: Mapping[str, Any],
    kind: str,
    ref: str,
    version: int,
    data: Mapping[str, Any],
    settings: Mapping[str, Any],
) -> dict:
    """Return a new sheet with the entry picked onto it, or raise InvalidEntry."""
    chosen = find_kind(COMPENDIUM_KINDS, kind)
    raise InvalidEntry({"kind": f"{chosen.plural} cannot be picked onto a sheet yet."})
