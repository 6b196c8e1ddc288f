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
    NamedNumber,
    Picker,
    TextItem,
    apply_lines,
    builtin,
    checkbox,
    choice,
    group,
    line,
    lines,
    named_number_lines,
    normal_builtins,
    number,
    refuse_pick,
    rewrites,
    seed_entry,
    text_lines,
)
from rulesets.ore.data import (
    ALL_LOCATIONS,
    ARMOR_COORDINATION_MAXIMUM,
    ARMOR_ROWS,
    ARMORS,
    CUSTOM_SPECIES,
    FORCE_TECHNIQUES,
    GEAR_NUMBER_MAXIMUM,
    HIT_LOCATIONS,
    POWER_BY_SLUG,
    POWERS,
    ROW_TEXT_LENGTH,
    SPECIAL_TEXT_LENGTH,
    SPECIES,
    STAT_MINIMUM,
    STATS,
    STUNTS,
    WEAPON_ROWS,
    WEAPONS,
)
from rulesets.ore.edits import apply_edit
from rulesets.ore.rules import fit_wounds
from rulesets.ore.sheet import validate_sheet

SEED = "001"
MOST_SPECIES_COST = 100
MOST_STAT_BONUS = 5
MOST_AREA = 10
MOST_SPRAY = 10
MOST_NPC_STAT = 10  # dice; a pool never rolls more than 10 (L70)
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
    droid: checkbox("Droid", help="no Willpower and no Force Sense") = False  # type: ignore[valid-type]
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


def _stats() -> type[EntryPart]:
    annotations = {s.slug: number(s.label, STAT_MINIMUM, MOST_NPC_STAT) for s in STATS}
    return type(
        "NpcStats",
        (EntryPart,),
        {"__annotations__": annotations, **dict.fromkeys(annotations, 2)},
    )


NpcStats = _stats()


class NpcTemplate(EntryBase):
    stats: Annotated[NpcStats, group("Stats (dice)")] = NpcStats()
    skills: lines(  # type: ignore[valid-type]
        "Skills",
        NamedNumber,
        named_number_lines("a skill and its dice a line, e.g. “Athletics 2”, “Lore [Hutts] 1”"),
    ) = []


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
            droid=s.droid,
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


# --- picking an entry onto a sheet ----------------------------------------------------------
# A species becomes the sheet's own (its cost, stat maxima, natural AR and wound boxes
# copied; the seed's own species is simply chosen); a weapon or armor adds a row as a typed
# one does; a seed stunt is bought at 1d; an NPC template sets stats and skills.


def _pick_species(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    seed = seed_entry(BUILTIN, "species", entry)
    if seed is not None:
        # The seed's own species, with every rule the catalog gives it (skill hard dice).
        return apply_edit(sheet, "species", entry["name"], settings)
    sheet["species"] = CUSTOM_SPECIES
    sheet["custom_species"] = _species_row(entry) | {"compendium": mark}
    force_sense = sheet["powers"]["force_sense"]
    # As choosing a species does: a droid has no Force Sense at all (L766).
    if entry["droid"]:
        force_sense["dice"] = 0
    else:
        force_sense["dice"] = max(force_sense["dice"], POWER_BY_SLUG["force_sense"].free_dice)
    fit_wounds(sheet)
    return sheet


def _special(entry: Mapping[str, Any]) -> str:
    parts = [entry["special"]] if entry["special"] else []
    for word in ("Area", "Spray"):
        rating = entry[word.lower()]
        if rating and _rating(word, entry["special"]) != rating:
            parts.append(f"{word} {rating}")
    return ", ".join(parts)[:SPECIAL_TEXT_LENGTH]


def _pick_weapon(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["weapons"]) >= WEAPON_ROWS:
        raise refuse_pick(f"The sheet has room for {WEAPON_ROWS} weapons.")
    sheet["weapons"].append({"from": "", **_weapon_row(entry), "compendium": mark})
    return sheet


def _pick_armor(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["armor"]) >= ARMOR_ROWS:
        raise refuse_pick(f"The sheet has room for {ARMOR_ROWS} armor rows.")
    # Worn as armor added by hand is: its AR counts at once.
    row = {"from": "", **_armor_row(entry), "special": "", "worn": True, "compendium": mark}
    sheet["armor"].append(row)
    return sheet


def _pick_power(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if seed_entry(BUILTIN, "power", entry) is not None:
        raise refuse_pick(f"{entry['name']} is already on every sheet; give it dice there.")
    raise refuse_pick(
        "A Star O.R.E. sheet holds the seed's four Force powers; a power of the table's own "
        "is kept in the compendium for reading, not bought on the sheet."
    )


def _pick_stunt(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    seed = seed_entry(BUILTIN, "stunt", entry)
    if seed is None:
        raise refuse_pick(
            "A stunt of the table's own cannot be bought on the sheet yet; the seed's stunts can."
        )
    slug = next(t.slug for t in STUNTS if t.label == entry["name"])
    if slug in sheet["stunts"]:
        raise refuse_pick(f"The sheet already has {entry['name']}.")
    return apply_edit(sheet, f"stunt.{slug}", "1d", settings)


def _npc_skill(sheet: dict, item: Mapping[str, Any], settings: Mapping) -> dict:
    before = {row["id"] for row in sheet["skills"]}
    sheet = apply_edit(sheet, "skill.add", item["name"], settings)
    (added,) = [row["id"] for row in sheet["skills"] if row["id"] not in before]
    if item["number"]:
        sheet = apply_edit(sheet, f"skill.{added}", f"{item['number']}d", settings)
    return sheet


def _pick_npc_template(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if sheet["stage"] != "creation":
        raise refuse_pick("An NPC template fills a sheet in creation; this sheet is in play.")
    for slug, dice in entry["stats"].items():
        sheet = apply_edit(sheet, f"stat.{slug}", f"{dice}d", settings)
    return apply_lines(
        sheet, entry["skills"], "Skills", lambda s, item: _npc_skill(s, item, settings)
    )


# What a picked item copies of its entry, again on each refresh.


def _species_row(entry: Mapping[str, Any]) -> dict:
    return {
        "name": entry["name"],
        "cost": entry["cost"],
        "stat_max_bonus": {slug: bonus for slug, bonus in entry["stat_max_bonus"].items() if bonus},
        "natural_ar": entry["natural_ar"],
        "extra_wound_boxes": entry["extra_wound_boxes"],
        "droid": entry["droid"],
        "abilities": list(entry["abilities"]),
    }


def _weapon_row(entry: Mapping[str, Any]) -> dict:
    return {
        "name": entry["name"],
        "damage": entry["damage"],
        "penetration": entry["penetration"],
        "initiative": entry["initiative"],
        "special": _special(entry),
    }


def _armor_row(entry: Mapping[str, Any]) -> dict:
    return {
        "name": entry["name"],
        "ar": entry["ar"],
        "coordination": entry["coordination_penalty"],
        "move": entry["move"],
        "covers": [slug for slug in ALL_LOCATIONS if entry["covers"][slug]],
    }


def _settle(sheet: dict) -> None:
    if sheet["species"] == CUSTOM_SPECIES and sheet.get("custom_species"):
        fit_wounds(sheet)  # the species' wound boxes may have changed


PICKER = Picker(
    COMPENDIUM_KINDS,
    picks={
        "species": _pick_species,
        "weapon": _pick_weapon,
        "armor": _pick_armor,
        "power": _pick_power,
        "stunt": _pick_stunt,
        "npc_template": _pick_npc_template,
    },
    refresh={
        "species": rewrites(_species_row),
        "weapon": rewrites(_weapon_row),
        "armor": rewrites(_armor_row),
    },
    validate_sheet=validate_sheet,
    settle=_settle,
)
pick_entry = PICKER.pick_entry
refresh_entry = PICKER.refresh_entry
entry_refs = PICKER.entry_refs
