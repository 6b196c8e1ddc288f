"""Valthoron's SWD6-Sheet character JSON into WEG d6 (R&E).

From CHARACTER-FORMATS.md §2 (its js/models/Character.js and CharacterStat.js): `{Name,
Stats[]}`, each stat `{Type, Name, Base, Species, Starting, Improvement, Bonus}` in pips,
the last four written only when not zero. An attribute is Species + Starting +
Improvement; a skill adds those to its attribute (`Base` names it); an advanced skill is
rolled without the attribute; a specialization adds them to the attribute of its parent
skill (`Base` names the skill). `Bonus` is a shown modifier, not part of the code. The
file holds nothing else.
"""

from __future__ import annotations

from typing import Any

from sheets.transfer.formats.base import FormatRefused, Notes, Reading, items, line, number, obj
from sheets.transfer.formats.weg import ATTRIBUTE_NAMES, SYSTEM, WegBuilder

KEY = "swd6_sheet"
LABEL = "Valthoron SWD6-Sheet character"
TYPES = ("Attribute", "Skill", "AdvancedSkill", "Specialization")
STAT_KEYS = frozenset({"Type", "Name", "Base", "Species", "Starting", "Improvement", "Bonus"})


def detect(data: Any) -> bool:
    return isinstance(data, dict) and "Name" in data and isinstance(data.get("Stats"), list)


def _pips(stat: dict, where: str) -> int:
    return sum(
        number(stat.get(key), f"{where}.{key}", -180, 180)
        for key in ("Species", "Starting", "Improvement")
    )


def read(data: dict, **_: Any) -> Reading:
    notes = Notes()
    notes.unknown_keys("", data, {"Name", "Stats"})
    if "Attributes" in data:
        raise FormatRefused(
            "This SWD6-Sheet file has the old layout (“Attributes”), which SWD6-Sheet itself no "
            "longer reads: open it there and save it again."
        )
    name = line(data.get("Name"), 100, notes, "name") or "Imported character"
    stats = [obj(s, f"Stats.{i}") for i, s in enumerate(items(data.get("Stats"), "Stats"))]
    sheet = WegBuilder(notes)
    totals: dict[str, int] = {}
    for index, stat in enumerate(stats):
        notes.unknown_keys(f"Stats.{index}", stat, STAT_KEYS)
        if stat.get("Type") not in TYPES:
            notes.drop(
                f"Stats.{index} of type “{str(stat.get('Type'))[:30]}”",
                "not a type SWD6-Sheet writes: not read",
            )
    for index, stat in enumerate(stats):
        if stat.get("Type") != "Attribute":
            continue
        slug = ATTRIBUTE_NAMES.get(str(stat.get("Name", "")).strip().lower())
        if slug is None:
            notes.drop(f"attribute “{str(stat.get('Name'))[:40]}”", "not one of the six: not read")
            continue
        totals[slug] = _pips(stat, f"Stats.{index}")
        sheet.attribute(slug, totals[slug], f"Stats.{index} (Species + Starting + Improvement)")
        if number(stat.get("Bonus"), f"Stats.{index}.Bonus", -180, 180):
            notes.drop(
                f"{slug.capitalize()}'s Bonus", "a shown modifier, not part of the code: not kept"
            )
    missing = [slug for slug in ATTRIBUTE_NAMES.values() if slug not in totals]
    if missing:
        raise FormatRefused(
            f"The file has no {', '.join(sorted(set(missing)))}: a character has all six "
            "attributes."
        )
    parents: dict[str, str] = {}
    for index, stat in enumerate(stats):
        kind, label = stat.get("Type"), " ".join(str(stat.get("Name") or "").split())
        where = f"Stats.{index}"
        if kind == "Skill":
            attribute = ATTRIBUTE_NAMES.get(str(stat.get("Base", "")).strip().lower())
            if attribute is None:
                raise FormatRefused(
                    f"{where}: skill “{label[:40]}” names no attribute it rests on."
                )
            parents[label.casefold()] = attribute
            sheet.skill(
                label,
                attribute,
                totals[attribute] + _pips(stat, where),
                f"{where} ({attribute} + adds)",
            )
        elif kind == "AdvancedSkill":
            attribute = ATTRIBUTE_NAMES.get(str(stat.get("Base", "")).strip().lower())
            sheet.skill(
                label,
                attribute,
                _pips(stat, where),
                f"{where} (advanced: without the attribute)",
                advanced=True,
            )
    for index, stat in enumerate(stats):
        if stat.get("Type") != "Specialization":
            continue
        where = f"Stats.{index}"
        label = " ".join(str(stat.get("Name") or "").split())
        parent = " ".join(str(stat.get("Base") or "").split())
        attribute = parents.get(parent.casefold())
        if attribute is None:
            raise FormatRefused(
                f"{where}: specialization “{label[:40]}” rests on “{parent[:40]}”, which is no "
                "skill in the file."
            )
        sheet.specialization(
            label,
            parent,
            attribute,
            totals[attribute] + _pips(stat, where),
            f"{where} ({attribute} + adds)",
        )
    notes.drop(
        "Force, points, wounds, species, equipment, background",
        "SWD6-Sheet files hold only the name, attributes and skills: the sheet's defaults stand",
    )
    return Reading(KEY, LABEL, SYSTEM, name, sheet.finish(), notes)
