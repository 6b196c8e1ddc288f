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
    NamedNumber,
    Picker,
    TextItem,
    apply_lines,
    choice,
    copies,
    line,
    lines,
    named_number_lines,
    normal_builtins,
    number,
    refuse_pick,
    seed_entry,
    text_lines,
)
from rulesets.core.edits import InvalidEdit
from rulesets.swd10.armor import ARMOR, ARMOR_NAME_LIMIT, KINDS, MAX_ARMOR_ROWS, RATING_RANGE
from rulesets.swd10.data import (
    ABILITIES,
    ATTRIBUTES,
    DEFAULT_WEAPON_DIFFICULTY,
    MAX_WEAPONS,
    MERIT_BY_SLUG,
    MERITS,
    RATE_LIMIT,
    SEED_NAME_ALIASES,
    WEAPON_DAMAGE_RANGE,
    WEAPON_DIFFICULTY_RANGE,
    WEAPON_NAME_LIMIT,
)
from rulesets.swd10.edits import apply_edit
from rulesets.swd10.sheet import validate_sheet

SEED = "000"
MOST_CLIP = 999
MOST_MERIT_POINTS = 7
MOST_RATING = max(high for _low, high in RATING_RANGE.values())
MERIT_KINDS = (("merit", "Merit"), ("flaw", "Flaw"))
MERIT_CATEGORIES = tuple(
    (c, c) for c in ("Physical", "Mental", "Social", "Force", "Race", "Droid", "Aptitudes")
)
SPECIES_KINDS = (("species", "Species"), ("archetype", "Archetype"))


class Weapon(EntryBase):
    # The sheet's weapon names hold 60 characters.
    name: line("Name", WEAPON_NAME_LIMIT, required=True)  # type: ignore[valid-type]
    difficulty: number("Difficulty", *WEAPON_DIFFICULTY_RANGE) = DEFAULT_WEAPON_DIFFICULTY  # type: ignore[valid-type]
    rate: line("Rate", RATE_LIMIT, help="shots a turn as the books write it, e.g. 3") = ""  # type: ignore[valid-type]
    damage: number("Damage", *WEAPON_DAMAGE_RANGE) = 0  # type: ignore[valid-type]
    clip: number("Clip", 0, MOST_CLIP, optional=True) = None  # type: ignore[valid-type]


class Armor(EntryBase):
    """Armor or a shield: its rating. The Dexterity penalty is not an entry's to say: the
    sheet computes it from the armor's class, which its rating gives (L741)."""

    name: line("Name", ARMOR_NAME_LIMIT, required=True)  # type: ignore[valid-type]
    kind: choice("Kind", KINDS) = ARMOR  # type: ignore[valid-type]
    rating: number(  # type: ignore[valid-type]
        "Rating", 1, MOST_RATING, help="armor 1 to 6 (its class and penalty follow), shield 1 to 10"
    ) = 1

    def faults(self) -> dict[str, str]:
        low, high = RATING_RANGE[self.kind]
        if not low <= self.rating <= high:
            return {"rating": f"A {self.kind}'s rating runs from {low} to {high}."}
        return {}


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
        "Merits and flaws it brings",
        TextItem(),
        text_lines("Natural Weapons 2 (a catalog merit and, if it has several, its points)"),
    ) = []


class NpcTemplate(EntryBase):
    traits: lines(  # type: ignore[valid-type]
        "Attributes and abilities",
        NamedNumber,
        named_number_lines("a trait and its dots a line, e.g. “Dexterity 3”, “Firearms 2”"),
    ) = []


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


# --- picking an entry onto a sheet ----------------------------------------------------------
# A weapon or an armor (or shield) adds a row as a typed one does (its soak, class and
# penalty computed as for any row); a seed merit is taken as the merit edit takes it; a
# species or archetype names the sheet's species and takes the catalog merits it brings;
# an NPC template sets attributes and abilities. A merit or flaw of the table's own is
# refused: the sheet prices only the seed's.

TRAIT_KEYS = {
    **{t.label.casefold(): f"attr.{t.slug}" for t in ATTRIBUTES},
    **{t.label.casefold(): f"abil.{t.slug}" for t in ABILITIES},
}


def _pick_weapon(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["weapons"]) >= MAX_WEAPONS:
        raise refuse_pick(f"The sheet holds at most {MAX_WEAPONS} weapons.")
    # The sheet has no clip column; the entry keeps it.
    sheet["weapons"].append(
        {
            "name": entry["name"],
            "difficulty": entry["difficulty"],
            "rate": entry["rate"],
            "damage": entry["damage"],
            "compendium": mark,
        }
    )
    return sheet


def _pick_armor(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["armor"]) >= MAX_ARMOR_ROWS:
        raise refuse_pick(f"The sheet holds at most {MAX_ARMOR_ROWS} armor and shields.")
    sheet["armor"].append(
        {
            "name": entry["name"],
            "kind": entry["kind"],
            "rating": entry["rating"],
            "lost": 0,
            # Not worn until the player puts it on, as armor added by hand.
            "worn": False,
            "compendium": mark,
        }
    )
    return sheet


def _merit_slug(name: str) -> str | None:
    wanted = name.casefold()
    for merit in MERIT_BY_SLUG.values():
        if merit.name.casefold() == wanted:
            return merit.slug
    alias = SEED_NAME_ALIASES.get(name) or SEED_NAME_ALIASES.get(wanted)
    return alias if alias in MERIT_BY_SLUG else None


def _pick_merit(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    slug = _merit_slug(entry["name"])
    if slug is None or seed_entry(BUILTIN, "merit", entry) is None:
        raise refuse_pick(
            "The sheet prices only the seed's merits and flaws; a table's own is kept in the "
            "compendium for reading."
        )
    return apply_edit(sheet, "merit.add", f"{slug}|{entry['lowest']}", settings)


def _species_merit(sheet: dict, text_: str, settings: Mapping) -> dict:
    head, _, last = text_.rpartition(" ")
    name, points = (head, last) if head and last.isdigit() else (text_, "")
    slug = _merit_slug(name.strip())
    if slug is None:
        raise InvalidEdit("merits", f"“{name}” is not a merit of the seed.")
    return apply_edit(sheet, "merit.add", f"{slug}|{points}", settings)


def _pick_species(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    sheet["info"]["species"] = entry["name"]
    sheet["info"]["compendium"] = mark
    return apply_lines(
        sheet, entry["merits"], "Merits", lambda s, text_: _species_merit(s, text_, settings)
    )


def _trait(sheet: dict, item: Mapping[str, Any], settings: Mapping) -> dict:
    key = TRAIT_KEYS.get(item["name"].casefold())
    if key is None:
        raise InvalidEdit("traits", f"“{item['name']}” is not a trait of the seed.")
    return apply_edit(sheet, key, str(item["number"]), settings)


def _pick_npc_template(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if sheet["stage"] != "creation":
        raise refuse_pick("An NPC template fills a sheet in creation; this sheet is in play.")
    return apply_lines(sheet, entry["traits"], "Traits", lambda s, item: _trait(s, item, settings))


def _refresh_armor(item: dict, entry: Mapping[str, Any]) -> None:
    if item["kind"] != entry["kind"]:
        item["worn"] = False  # a shield become armor is not worn in the armor's place
    item.update(name=entry["name"], kind=entry["kind"], rating=entry["rating"])
    item["lost"] = min(item["lost"], entry["rating"])


PICKER = Picker(
    COMPENDIUM_KINDS,
    picks={
        "weapon": _pick_weapon,
        "armor": _pick_armor,
        "merit": _pick_merit,
        "species": _pick_species,
        "npc_template": _pick_npc_template,
    },
    refresh={
        "weapon": copies("name", "difficulty", "rate", "damage"),
        "armor": _refresh_armor,
        "species": lambda item, entry: item.update(species=entry["name"]),
    },
    validate_sheet=validate_sheet,
)
pick_entry = PICKER.pick_entry
refresh_entry = PICKER.refresh_entry
entry_refs = PICKER.entry_refs
