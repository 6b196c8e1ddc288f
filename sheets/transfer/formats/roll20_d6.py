"""Roll20's D6StarWars sheet, exported by the VTT Enhancement Suite, into WEG d6.

From CHARACTER-FORMATS.md §6 (roll20-character-sheets D6StarWars.html): the suite writes
`{schema_version, type: "character", character: {name, bio, attribs: [{name, current,
max}], ...}}`; the sheet's values are flat attribs, each code as two whole numbers (dice
and pips), skills as totals in repeating sections named after their attribute (the
perception section is spelled `perckills` on purpose). Its wound select stores penalty
dice, where Stunned and Wounded share 1 and Incapacitated and Mortally Wounded share 5:
the worse reading of each is not guessed, the milder one is taken and said so.
"""

from __future__ import annotations

import re
from typing import Any

from rulesets.weg_d6.data import DESCRIPTION_LIMIT, PHYSICAL_LIMIT, QUOTE_LIMIT
from sheets.transfer.formats.base import (
    FormatRefused,
    Notes,
    Reading,
    block,
    items,
    line,
    number,
    obj,
    shown,
)
from sheets.transfer.formats.weg import SYSTEM, WegBuilder

KEY = "roll20_d6starwars"
LABEL = "Roll20 D6StarWars character (VTT Enhancement Suite export)"
ATTRIBUTES = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")
# Repeating section -> (attribute, prefix of its fields).
SKILL_SECTIONS = {
    "dexskills": ("dexterity", "dexskill"),
    "knowskills": ("knowledge", "knowskill"),
    "mechskills": ("mechanical", "mechskill"),
    "perckills": ("perception", "perckill"),
    "strskills": ("strength", "strskill"),
    "techskills": ("technical", "techskill"),
}
POWER_SECTIONS = {"controlpowers": "control", "sensepowers": "sense", "alterpowers": "alter"}
WOUNDS = {
    0: ("healthy", ""),
    1: ("wounded", "1 is Stunned or Wounded: read as Wounded"),
    2: ("wounded_twice", ""),
    5: ("incapacitated", "5 is Incapacitated or Mortally Wounded: read as Incapacitated"),
}
SHEET_TYPES = {"0": "pc", "1": "npc", "": "pc"}
_REPEATING = re.compile(r"^repeating_([a-z0-9]+)_([-A-Za-z0-9_]+?)_([A-Za-z0-9_]+)$")
# The attribs this reader places; any other is listed as not read.
READ = {
    *ATTRIBUTES,
    *(f"{a}pip" for a in ATTRIBUTES),
    "control",
    "controlpip",
    "sense",
    "sensepip",
    "alter",
    "alterpip",
    "characterPoints",
    "forcePoints",
    "darkSidePoints",
    "forceSensitive",
    "WoundLevel",
    "move",
    "species",
    "type",
    "charactername",
    "age",
    "height",
    "weight",
    "gender",
    "Physical_Description",
    "specialAbilities",
    "credits",
    "background",
    "quotes",
    "personality",
    "connections",
    "objectives",
    "notes",
    "sheettype",
    "forcePowers",
    *(f"geartext{i}" for i in range(1, 7)),
    "player",
    "playername",
}


def is_export(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and data.get("type") == "character"
        and "schema_version" in data
        and isinstance(data.get("character"), dict)
        and isinstance(data["character"].get("attribs"), list)
    )


def detect(data: Any) -> bool:
    if not is_export(data):
        return False
    names = {
        a["name"]
        for a in data["character"]["attribs"][:5000]
        if isinstance(a, dict) and isinstance(a.get("name"), str)
    }
    return bool({"dexterity", "dexteritypip", "knowledge"} & names) or any(
        n.startswith("repeating_dexskills_") for n in names
    )


def _code(flat: dict, key: str) -> int:
    return number(flat.get(key), key, 0, 99) * 3 + number(
        flat.get(f"{key}pip"), f"{key}pip", -99, 99
    )


def read(data: dict, **_: Any) -> Reading:
    notes = Notes()
    character = data["character"]
    flat: dict[str, Any] = {}
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for index, attrib in enumerate(items(character.get("attribs"), "character.attribs")):
        attrib = obj(attrib, f"character.attribs.{index}")
        key = attrib.get("name")
        if not isinstance(key, str):
            continue
        match = _REPEATING.match(key)
        if match:
            rows.setdefault((match[1], match[2]), {})[match[3]] = attrib.get("current")
        else:
            flat[key] = attrib.get("current")
    kind = str(flat.get("sheettype", "") or "").strip()
    if kind not in SHEET_TYPES:
        labels = {"2": "a starship", "3": "a container", "4": "a vehicle"}
        raise FormatRefused(
            f"This Roll20 sheet is {labels.get(kind, 'no character')}, not a character."
        )
    name = (
        line(character.get("name") or flat.get("charactername"), 100, notes, "name")
        or "Imported character"
    )
    sheet = WegBuilder(notes)
    if SHEET_TYPES[kind] == "npc":
        sheet.sheet["role"] = "npc"
        notes.place("Role", "NPC", "sheettype")
    for slug in ATTRIBUTES:
        if slug not in flat:
            raise FormatRefused(
                f"The sheet has no {slug} attrib: a character has all six attributes."
            )
        sheet.attribute(slug, _code(flat, slug), f"{slug} + {slug}pip")
    sections: dict[str, list[dict]] = {}
    for (section, _row), values in rows.items():
        sections.setdefault(section, []).append(values)
    for section, (attribute, prefix) in SKILL_SECTIONS.items():
        for values in sections.pop(section, []):
            skill = str(values.get(f"{prefix}name") or "")
            dice = number(values.get(f"{prefix}dice"), f"{prefix}dice", 0, 99)
            pips = number(values.get(f"{prefix}pip"), f"{prefix}pip", -99, 99)
            if skill.strip() or dice or pips:
                sheet.skill(skill, attribute, dice * 3 + pips, f"repeating_{section} (a total)")
    for slug in ("control", "sense", "alter"):
        pips = _code(flat, slug)
        if pips:
            sheet.force_skill(slug, pips, f"{slug} + {slug}pip")
    for section, slug in POWER_SECTIONS.items():
        for values in sections.pop(section, []):
            sheet.power(str(values.get(f"{slug}powername") or ""), [slug], f"repeating_{section}")
    for key, point in (
        ("characterPoints", "character"),
        ("forcePoints", "force"),
        ("darkSidePoints", "dark_side"),
    ):
        if key in flat:
            sheet.points(point, number(flat[key], key), key)
    if "forceSensitive" in flat:
        sheet.sensitive(
            str(flat["forceSensitive"]).strip() in ("1", "true", "on"), "forceSensitive"
        )
    if "WoundLevel" in flat:
        value = number(flat["WoundLevel"], "WoundLevel", 0, 99)
        slug, doubt = WOUNDS.get(
            value, ("incapacitated", f"{value} is no level of the sheet: read as Incapacitated")
        )
        sheet.wound(slug, "WoundLevel (penalty dice)")
        if doubt:
            notes.drop(f"WoundLevel {value}", doubt)
    if "move" in flat:
        sheet.move(number(flat["move"], "move", 0, 99), "move")
    if "credits" in flat:
        sheet.credits(number(flat["credits"], "credits"), "credits")
    species = line(flat.get("species"), 200, notes, "species")
    if species:
        sheet.species(species, None, "species")
    sheet.info("template", line(flat.get("type"), 200, notes, "type"), 200, "Template", "type")
    sheet.info(
        "quote",
        line(flat.get("quotes"), QUOTE_LIMIT, notes, "quote"),
        QUOTE_LIMIT,
        "Quote",
        "quotes",
    )
    physical = [
        f"{key.capitalize()}: {text}"
        for key in ("gender", "age", "height", "weight")
        if (text := line(flat.get(key), 100, notes, key))
    ]
    if text := line(
        flat.get("Physical_Description"), PHYSICAL_LIMIT, notes, "Physical_Description"
    ):
        physical.append(text)
    sheet.info(
        "physical",
        "; ".join(physical)[:PHYSICAL_LIMIT],
        PHYSICAL_LIMIT,
        "Physical description",
        "gender/age/height/weight/Physical_Description",
    )
    parts = [
        f"{label}: {text}"
        for key, label in (
            ("background", "Background"),
            ("personality", "Personality"),
            ("objectives", "Objectives"),
            ("connections", "Connections"),
            ("specialAbilities", "Special abilities"),
            ("forcePowers", "Force powers"),
            ("notes", "Notes"),
        )
        if (text := block(flat.get(key), DESCRIPTION_LIMIT, notes, key))
    ]
    if bio := block(character.get("bio"), DESCRIPTION_LIMIT, notes, "bio", html_text=True):
        parts.insert(0, bio)
    sheet.info(
        "description",
        block("\n\n".join(parts), DESCRIPTION_LIMIT, notes, "description"),
        DESCRIPTION_LIMIT,
        "Description",
        "bio, background, personality, …",
    )
    for values in sections.pop("weapons", []):
        damage = number(values.get("damagedice"), "damagedice", 0, 99) * 3 + number(
            values.get("damagepip"), "damagepip", -99, 99
        )
        ranges = "/".join(
            str(values[k])
            for k in ("shortrange", "medrange", "longrange")
            if str(values.get(k, "")).strip()
        )
        sheet.weapon(
            str(values.get("weapon") or ""),
            shown(damage) if damage else "",
            ranges,
            str(values.get("Ammo") or ""),
            "repeating_weapons",
        )
    for values in sections.pop("armors", []):
        armor = str(values.get("armorname") or "").strip()
        if armor:
            sheet.equip(f"{armor} (armor)", "repeating_armors")
            notes.drop(
                f"armor “{armor}”'s codes",
                "a WEG sheet has no armor rows: its name is kept in Equipment",
            )
    for index in range(1, 7):
        for text in block(flat.get(f"geartext{index}"), 2000, notes, f"geartext{index}").split(
            "\n"
        ):
            sheet.equip(text, f"geartext{index}")
    for section, found in sorted(sections.items()):
        notes.drop(f"repeating_{section} ({len(found)} rows)", "no place on a WEG character sheet")
    others = sorted(k for k in flat if k not in READ and not k.startswith(("ship_", "lightsaber")))
    if others:
        notes.drop(
            f"{len(others)} other attribs "
            f"({', '.join(others[:12])}{'…' if len(others) > 12 else ''})",
            "not part of a WEG character sheet",
        )
    for key in ("abilities",):
        if character.get(key):
            notes.drop(f"character.{key}", "Roll20 macros: no place on a sheet")
    return Reading(KEY, LABEL, SYSTEM, name, sheet.finish(), notes)
