"""The SWd10 compendium: the kinds of entry a GM adds, and the seed's catalogs as entries.

An entry's fields are what a sheet holds of it: a weapon's difficulty, rate and damage are
the sheet's `weapons` row; an armor's or a shield's rating its `armor` row (seed 000).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.core.compendium import (
    BuiltinEntry,
    EntryBase,
    EntryKind,
    InvalidEntry,
    TextItem,
    choice,
    find_kind,
    find_refs,
    line,
    lines,
    normal_builtins,
    number,
    text_lines,
)
from rulesets.swd10.data import (
    DEFAULT_WEAPON_DIFFICULTY,
    MERITS,
    RATE_LIMIT,
    WEAPON_DAMAGE_RANGE,
    WEAPON_DIFFICULTY_RANGE,
)

SEED = "000"
MOST_CLIP = 999
MOST_MERIT_POINTS = 7
ARMOR_KINDS = (("armor", "Armor"), ("shield", "Shield"))  # L185
MERIT_KINDS = (("merit", "Merit"), ("flaw", "Flaw"))
MERIT_CATEGORIES = tuple(
    (c, c) for c in ("Physical", "Mental", "Social", "Force", "Race", "Droid", "Aptitudes")
)
SPECIES_KINDS = (("species", "Species"), ("archetype", "Archetype"))


class Weapon(EntryBase):
    difficulty: number("Difficulty", *WEAPON_DIFFICULTY_RANGE) = DEFAULT_WEAPON_DIFFICULTY  # type: ignore[valid-type]
    rate: line("Rate", RATE_LIMIT, help="shots a turn as the books write it, e.g. 3") = ""  # type: ignore[valid-type]
    damage: number("Damage", *WEAPON_DAMAGE_RANGE) = 0  # type: ignore[valid-type]
    clip: number("Clip", 0, MOST_CLIP, optional=True) = None  # type: ignore[valid-type]


class Armor(EntryBase):
    kind: choice("Kind", ARMOR_KINDS) = "armor"  # type: ignore[valid-type]
    rating: number("Rating", 1, 10) = 1  # type: ignore[valid-type]
    penalty: number("Dexterity penalty (dice)", 0, 5) = 0  # type: ignore[valid-type]


class Merit(EntryBase):
    kind: choice("Merit or flaw", MERIT_KINDS) = "merit"  # type: ignore[valid-type]
    category: choice("Category", MERIT_CATEGORIES) = "Physical"  # type: ignore[valid-type]
    lowest: number("Lowest points", 1, MOST_MERIT_POINTS) = 1  # type: ignore[valid-type]
    highest: number("Highest points", 1, MOST_MERIT_POINTS) = 1  # type: ignore[valid-type]

    def faults(self) -> dict[str, str]:
        if self.lowest > self.highest:
            return {"lowest": f"Lowest points {self.lowest} is above the highest {self.highest}."}
        return {}


class Species(EntryBase):
    kind: choice("Species or archetype", SPECIES_KINDS) = "species"  # type: ignore[valid-type]
    merits: lines(  # type: ignore[valid-type]
        "Merits and flaws it brings", TextItem(), text_lines("Natural Weapons 2")
    ) = []


class NpcTemplate(EntryBase):
    notes: lines("Traits", TextItem(), text_lines("Dexterity 3, Firearms 2")) = []  # type: ignore[valid-type]


COMPENDIUM_KINDS: tuple[EntryKind, ...] = (
    EntryKind("weapon", "Weapon", "Weapons", Weapon),
    EntryKind("armor", "Armor or shield", "Armor and shields", Armor),
    EntryKind("merit", "Merit or flaw", "Merits and flaws", Merit),
    EntryKind("species", "Species or archetype", "Species and archetypes", Species),
    EntryKind("npc_template", "NPC template", "NPC templates", NpcTemplate),
)

_CATALOG: tuple[BuiltinEntry, ...] = tuple(
    BuiltinEntry(
        kind="merit",
        slug=merit.slug,
        data={
            "name": merit.name,
            "kind": merit.kind.value,
            "category": merit.category.value,
            "lowest": min(merit.values),
            "highest": max(merit.values),
        },
        source=f"{SEED}:{merit.source}",
    )
    for merit in MERITS
)
BUILTIN: tuple[BuiltinEntry, ...] = normal_builtins(COMPENDIUM_KINDS, _CATALOG)


def builtin_entries() -> tuple[BuiltinEntry, ...]:
    """The seed's catalogs as read-only entries, each with its seed line."""
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
