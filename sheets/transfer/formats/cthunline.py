"""cthunline's Star Wars D6 characters (`gameId: "starWarsD6"`) into WEG d6 (R&E).

From CHARACTER-FORMATS.md §5 (cthunline-games src/starWarsD6/schema.ts): attributes and
skills are die-code strings, skills as totals under their attribute; statistics hold the
points, Force sensitivity and Move; the wound state is five flags, of which the highest
set counts (as cthunline's own client shows it); weapons are rows with a damage string.
The character may come bare or inside cthunline's record (`{gameId, name, data}`).
"""

from __future__ import annotations

from typing import Any

from rulesets.weg_d6.data import DESCRIPTION_LIMIT, PHYSICAL_LIMIT, QUOTE_LIMIT
from sheets.transfer.formats.base import (
    FormatRefused,
    Notes,
    Reading,
    block,
    code_pips,
    items,
    line,
    number,
    obj,
)
from sheets.transfer.formats.weg import SYSTEM, WegBuilder

KEY = "cthunline"
LABEL = "cthunline Star Wars D6 character"
GAME_ID = "starWarsD6"
ATTRIBUTES = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")
WOUNDS = (
    ("mortallyWounded", "mortally_wounded"),
    ("incapacitated", "incapacitated"),
    ("doublyWounded", "wounded_twice"),
    ("wounded", "wounded"),
    ("stunned", "stunned"),
)
KNOWN = frozenset(
    {"biography", "attributes", "statistics", "woundStatus", "story", "weapons", "abilities"}
)


def _bare(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("attributes"), dict)
        and (isinstance(data.get("statistics"), dict) or isinstance(data.get("biography"), dict))
    )


def is_record(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("gameId"), str)
        and isinstance(data.get("data"), dict)
    )


def detect(data: Any) -> bool:
    if is_record(data):
        return data["gameId"] == GAME_ID
    return (
        _bare(data)
        and isinstance((data["attributes"].get("dexterity") or {}), dict)
        and "value" in (data["attributes"].get("dexterity") or {})
    )


def read(data: dict, **_: Any) -> Reading:
    notes = Notes()
    record_name = ""
    if is_record(data):
        record_name = str(data.get("name") or "")
        data = data["data"]
    notes.unknown_keys("", data, KNOWN)
    biography = obj(data.get("biography"), "biography")
    name = line(biography.get("name") or record_name, 100, notes, "name") or "Imported character"
    sheet = WegBuilder(notes)
    attributes = obj(data.get("attributes"), "attributes")
    for slug in ATTRIBUTES:
        where = f"attributes.{slug}"
        entry = obj(attributes.get(slug), where)
        if "value" not in entry:
            raise FormatRefused(
                f"{where}.value is missing: the character has no {slug.capitalize()}."
            )
        sheet.attribute(slug, code_pips(entry.get("value"), f"{where}.value"), f"{where}.value")
        for index, skill in enumerate(items(entry.get("skills"), f"{where}.skills")):
            skill = obj(skill, f"{where}.skills.{index}")
            value = skill.get("value")
            if value in (None, ""):
                continue
            sheet.skill(
                str(skill.get("name") or ""),
                slug,
                code_pips(value, f"{where}.skills.{index}.value"),
                f"{where}.skills.{index}",
            )
    stats = obj(data.get("statistics"), "statistics")
    for key, kind in (
        ("characterPoints", "character"),
        ("forcePoints", "force"),
        ("darkSidePoints", "dark_side"),
    ):
        if key in stats:
            sheet.points(kind, number(stats.get(key), f"statistics.{key}"), f"statistics.{key}")
    if "forceSensitive" in stats:
        sheet.sensitive(bool(stats.get("forceSensitive")), "statistics.forceSensitive")
    if "move" in stats:
        sheet.move(number(stats.get("move"), "statistics.move"), "statistics.move")
    wounds = obj(data.get("woundStatus"), "woundStatus")
    for key, slug in WOUNDS:
        if wounds.get(key) is True:
            sheet.wound(slug, f"woundStatus.{key} (the highest set)")
            break
    species = line(biography.get("species"), 200, notes, "species")
    if species:
        sheet.species(species, None, "biography.species")
    sheet.info(
        "template",
        line(biography.get("occupation"), 200, notes, "occupation"),
        200,
        "Template",
        "biography.occupation",
    )
    physical = [
        f"{key.capitalize()}: {text}"
        for key in ("age", "height", "weight")
        if (text := line(biography.get(key), 100, notes, key))
    ]
    sheet.info(
        "physical",
        "; ".join(physical)[:PHYSICAL_LIMIT],
        PHYSICAL_LIMIT,
        "Physical description",
        "biography.age/height/weight",
    )
    story = obj(data.get("story"), "story")
    sheet.info(
        "quote",
        line(story.get("quote"), QUOTE_LIMIT, notes, "quote"),
        QUOTE_LIMIT,
        "Quote",
        "story.quote",
    )
    parts = [
        f"{label}: {text}" if label else text
        for key, label, holder in (
            ("description", "", biography),
            ("background", "Background", story),
            ("personality", "Personality", story),
            ("objectives", "Objectives", story),
            ("connections", "Connections", story),
        )
        if (text := block(holder.get(key), DESCRIPTION_LIMIT, notes, key))
    ]
    abilities = [line(a, 300, notes, "ability") for a in items(data.get("abilities"), "abilities")]
    if any(abilities):
        parts.append("Special abilities:\n" + "\n".join(a for a in abilities if a))
    sheet.info(
        "description",
        block("\n\n".join(parts), DESCRIPTION_LIMIT, notes, "description"),
        DESCRIPTION_LIMIT,
        "Description",
        "biography.description, story, abilities",
    )
    for line_text in block(story.get("equipment"), 2000, notes, "story.equipment").split("\n"):
        sheet.equip(line_text, "story.equipment")
    if story.get("equipment"):
        notes.drop(
            "credits in story.equipment",
            "free text: the credits stay in Equipment, the sheet's Credits at 0",
        )
    for index, weapon in enumerate(items(data.get("weapons"), "weapons")):
        weapon = obj(weapon, f"weapons.{index}")
        ranges = "/".join(
            str(weapon.get(k))
            for k in ("shortRange", "mediumRange", "longRange")
            if weapon.get(k) not in (None, "")
        )
        sheet.weapon(
            str(weapon.get("name") or ""),
            str(weapon.get("damage") or ""),
            ranges,
            str(weapon.get("ammo") or ""),
            f"weapons.{index}",
        )
    return Reading(KEY, LABEL, SYSTEM, name, sheet.finish(), notes)
