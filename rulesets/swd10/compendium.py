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
    NamedNumber,
    TextItem,
    choice,
    compendium_ref,
    find_kind,
    find_refs,
    line,
    lines,
    named_number_lines,
    normal_builtins,
    number,
    refresh_marked,
    text_lines,
    validate_entry,
)
from rulesets.core.edits import InvalidEdit, InvalidSheet, copy_sheet
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

PICK = "pick"  # the InvalidEntry key of a refusal about the sheet, not a field of the entry
TRAIT_KEYS = {
    **{t.label.casefold(): f"attr.{t.slug}" for t in ATTRIBUTES},
    **{t.label.casefold(): f"abil.{t.slug}" for t in ABILITIES},
}


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
    """Return a new sheet with the entry picked onto it, or raise InvalidEntry.

    A weapon or an armor (or shield) adds a row as a typed one does (its soak, class and
    penalty computed as for any row); a seed merit is taken as the merit edit takes it; a
    species or archetype names the sheet's species and takes the catalog merits it brings;
    an NPC template sets attributes and abilities. A merit or flaw of the table's own is
    refused: the sheet prices only the seed's. Refusals about the sheet are keyed "pick".
    """
    chosen = find_kind(COMPENDIUM_KINDS, kind)
    entry = validate_entry(chosen, data)
    mark = compendium_ref(kind, ref, version)
    picked = copy_sheet(dict(sheet))
    try:
        picked = _PICKS[kind](picked, entry, mark, settings)
    except InvalidEdit as refused:
        raise InvalidEntry({PICK: refused.message}) from None
    return validate_sheet(picked)


def _refuse(message: str) -> InvalidEdit:
    return InvalidEdit(PICK, message)


def _pick_weapon(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["weapons"]) >= MAX_WEAPONS:
        raise _refuse(f"The sheet holds at most {MAX_WEAPONS} weapons.")
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
        raise _refuse(f"The sheet holds at most {MAX_ARMOR_ROWS} armor and shields.")
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
    if slug is None or _seed_entry("merit", entry) is None:
        raise _refuse(
            "The sheet prices only the seed's merits and flaws; a table's own is kept in the "
            "compendium for reading."
        )
    return apply_edit(sheet, "merit.add", f"{slug}|{entry['lowest']}", settings)


def _seed_entry(kind: str, entry: Mapping[str, Any]) -> BuiltinEntry | None:
    return next((b for b in BUILTIN if b.kind == kind and b.data == entry), None)


def _pick_species(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    sheet["info"]["species"] = entry["name"]
    sheet["info"]["compendium"] = mark
    for number_, text_ in enumerate(entry["merits"], start=1):
        head, _, last = text_.rpartition(" ")
        name, points = (head, last) if head and last.isdigit() else (text_, "")
        slug = _merit_slug(name.strip())
        if slug is None:
            raise _refuse(f"Merits, line {number_}: “{name}” is not a merit of the seed.")
        try:
            sheet = apply_edit(sheet, "merit.add", f"{slug}|{points}", settings)
        except InvalidEdit as refused:
            raise _refuse(f"Merits, line {number_}: {refused.message}") from None
    return sheet


def _pick_npc_template(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if sheet["stage"] != "creation":
        raise _refuse("An NPC template fills a sheet in creation; this sheet is in play.")
    for number_, item in enumerate(entry["traits"], start=1):
        key = TRAIT_KEYS.get(item["name"].casefold())
        if key is None:
            raise _refuse(f"Traits, line {number_}: “{item['name']}” is not a trait of the seed.")
        try:
            sheet = apply_edit(sheet, key, str(item["number"]), settings)
        except InvalidEdit as refused:
            raise _refuse(f"Traits, line {number_}: {refused.message}") from None
    return sheet


_PICKS = {
    "weapon": _pick_weapon,
    "armor": _pick_armor,
    "merit": _pick_merit,
    "species": _pick_species,
    "npc_template": _pick_npc_template,
}
assert set(_PICKS) == {kind.key for kind in COMPENDIUM_KINDS}


def _refresh_armor(item: dict, entry: Mapping[str, Any]) -> None:
    if item["kind"] != entry["kind"]:
        item["worn"] = False  # a shield become armor is not worn in the armor's place
    item.update(name=entry["name"], kind=entry["kind"], rating=entry["rating"])
    item["lost"] = min(item["lost"], entry["rating"])


_REFRESH = {
    "weapon": lambda item, entry: item.update(
        name=entry["name"],
        difficulty=entry["difficulty"],
        rate=entry["rate"],
        damage=entry["damage"],
    ),
    "armor": _refresh_armor,
    "species": lambda item, entry: item.update(species=entry["name"]),
}
KINDS_COPIED_ONCE = ("merit", "npc_template")


def refresh_entry(
    sheet: Mapping[str, Any],
    kind: str,
    ref: str,
    version: int,
    data: Mapping[str, Any],
    settings: Mapping[str, Any],
) -> dict:
    """Return the sheet with every item picked from entry `ref` brought to this version of
    it (what the GM's change would do to the sheet, before it is confirmed), or raise
    InvalidEntry. KINDS_COPIED_ONCE were copied when picked and change nothing."""
    chosen = find_kind(COMPENDIUM_KINDS, kind)
    entry = validate_entry(chosen, data)
    update = _REFRESH.get(kind)
    refreshed = refresh_marked(
        sheet, kind, ref, version, None if update is None else lambda item: update(item, entry)
    )
    try:
        return validate_sheet(refreshed)
    except InvalidSheet as refused:
        raise InvalidEntry({PICK: f"The sheet cannot take this version: {refused}"}) from None
