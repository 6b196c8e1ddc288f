"""The Star O.R.E. compendium: the kinds of entry a GM adds, and the seed's catalogs as
entries (seed 001).

An entry's fields are what a sheet holds of it: a weapon's damage, penetration and
initiative are the sheet's `weapons` row, an armor's AR, Coordination penalty, move and
cover its `armor` row, a species' cost and stat maxima what `SPECIES` says of one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from rulesets.core.compendium import (
    BuiltinEntry,
    EntryBase,
    EntryKind,
    EntryPart,
    InvalidEntry,
    TextItem,
    builtin,
    checkbox,
    choice,
    find_kind,
    find_refs,
    group,
    line,
    lines,
    normal_builtins,
    number,
    text_lines,
)
from rulesets.ore.data import (
    ALL_LOCATIONS,
    ARMOR_COORDINATION_MAXIMUM,
    ARMORS,
    FORCE_TECHNIQUES,
    GEAR_NUMBER_MAXIMUM,
    HIT_LOCATIONS,
    POWERS,
    ROW_TEXT_LENGTH,
    SPECIAL_TEXT_LENGTH,
    SPECIES,
    STATS,
    WEAPONS,
)

SEED = "001"
MOST_SPECIES_COST = 100
MOST_STAT_BONUS = 5
MOST_AREA = 10
MOST_SPRAY = 10
# The weapon table's own headings (L404-L440), in its order.
WEAPON_CATEGORIES = tuple(
    (category, category.capitalize()) for category in dict.fromkeys(w.category for w in WEAPONS)
)
SIDES = (("", "Either"), ("LS", "Light Side"), ("DS", "Dark Side"))
POWER_CHOICES = tuple((p.slug, p.label) for p in POWERS)


def _stat_bonuses() -> type[EntryPart]:
    annotations = {s.slug: number(s.label, -MOST_STAT_BONUS, MOST_STAT_BONUS) for s in STATS}
    return type(
        "StatBonuses",
        (EntryPart,),
        {"__annotations__": annotations, **dict.fromkeys(annotations, 0)},
    )


def _covers() -> type[EntryPart]:
    annotations = {h.slug: checkbox(h.label) for h in HIT_LOCATIONS}
    return type(
        "Covers", (EntryPart,), {"__annotations__": annotations, **dict.fromkeys(annotations, True)}
    )


StatBonuses = _stat_bonuses()
Covers = _covers()


class Species(EntryBase):
    cost: number("Cost (points)", 0, MOST_SPECIES_COST) = 0  # type: ignore[valid-type]
    stat_max_bonus: Annotated[StatBonuses, group("Stat maximum bonus")] = StatBonuses()
    natural_ar: number("Natural AR", 0, GEAR_NUMBER_MAXIMUM) = 0  # type: ignore[valid-type]
    extra_wound_boxes: number("Extra wound boxes", 0, 5) = 0  # type: ignore[valid-type]
    abilities: lines("Abilities", TextItem(), text_lines("Low-light vision")) = []  # type: ignore[valid-type]


class Weapon(EntryBase):
    category: choice("Category", WEAPON_CATEGORIES) = "pistol"  # type: ignore[valid-type]
    damage: line("Damage", ROW_TEXT_LENGTH, required=True, help="e.g. width+1, width in Shock") = (
        "width"  # type: ignore[valid-type]
    )
    penetration: number("Penetration", 0, GEAR_NUMBER_MAXIMUM) = 0  # type: ignore[valid-type]
    area: number("Area", 0, MOST_AREA) = 0  # type: ignore[valid-type]
    spray: number("Spray", 0, MOST_SPRAY) = 0  # type: ignore[valid-type]
    initiative: number("Initiative", 0, GEAR_NUMBER_MAXIMUM) = 0  # type: ignore[valid-type]
    special: line("Special", SPECIAL_TEXT_LENGTH, help="e.g. Daze, Burn") = ""  # type: ignore[valid-type]


class Armor(EntryBase):
    ar: number("AR", 0, GEAR_NUMBER_MAXIMUM) = 1  # type: ignore[valid-type]
    coordination_penalty: number("Coordination penalty", 0, ARMOR_COORDINATION_MAXIMUM) = 0  # type: ignore[valid-type]
    move: number("Move (m)", 0, GEAR_NUMBER_MAXIMUM) = 10  # type: ignore[valid-type]
    covers: Annotated[Covers, group("Covers")] = Covers()

    def faults(self) -> dict[str, str]:
        if not any(getattr(self.covers, slug) for slug in ALL_LOCATIONS):
            return {f"covers.{ALL_LOCATIONS[0]}": "Armor covers at least one hit location."}
        return {}


class Power(EntryBase):
    pass


class Stunt(EntryBase):
    power: choice("Power", POWER_CHOICES) = POWERS[0].slug  # type: ignore[valid-type]
    side: choice("Side", SIDES) = ""  # type: ignore[valid-type]


class NpcTemplate(EntryBase):
    notes: lines("Traits", TextItem(), text_lines("Body 3d, Athletics 2d")) = []  # type: ignore[valid-type]


COMPENDIUM_KINDS: tuple[EntryKind, ...] = (
    EntryKind("species", "Species", "Species", Species),
    EntryKind("weapon", "Weapon", "Weapons", Weapon),
    EntryKind("armor", "Armor", "Armor", Armor),
    EntryKind("power", "Force power", "Force powers", Power),
    EntryKind("stunt", "Stunt", "Stunts", Stunt),
    EntryKind("npc_template", "NPC template", "NPC templates", NpcTemplate),
)


def _rating(word: str, special: str) -> int:
    """The number after "Area" or "Spray" in a weapon's special column, or 0."""
    match = re.search(rf"\b{word} (\d+)", special)
    return int(match[1]) if match else 0


def _source(text: str) -> str:
    return f"{SEED}:{text.split(' ')[0]}"


_CATALOG: tuple[BuiltinEntry, ...] = (
    *(
        builtin(
            "species",
            s.label,
            _source(s.source),
            cost=s.cost,
            stat_max_bonus={st.slug: s.stat_max_bonus.get(st.slug, 0) for st in STATS},
            natural_ar=s.natural_ar,
            extra_wound_boxes=s.extra_wound_boxes,
            abilities=list(s.abilities),
        )
        for s in SPECIES
    ),
    *(
        builtin(
            "weapon",
            w.label,
            _source(w.source),
            category=w.category,
            damage=w.damage,
            penetration=w.penetration,
            initiative=w.initiative,
            area=_rating("Area", w.special),
            spray=_rating("Spray", w.special),
            special=w.special,
        )
        for w in WEAPONS
    ),
    *(
        builtin(
            "armor",
            a.label,
            _source(a.source),
            ar=a.ar,
            coordination_penalty=a.coordination_penalty,
            move=a.move,
            covers={slug: slug in a.covers for slug in ALL_LOCATIONS},
        )
        for a in ARMORS
    ),
    *(builtin("power", p.label, _source(p.source)) for p in POWERS),
    *(
        builtin("stunt", t.label, _source(t.source), power=t.power, side=t.side)
        for t in FORCE_TECHNIQUES
        if t.stunt
    ),
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
