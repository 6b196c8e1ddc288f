"""Exports to Foundry VTT (issue 29, item 3): a WEG d6 sheet as an OD6S actor, an SWd10 sheet
as a WoD20 actor. Each file is read back by the reader the upload uses and gives the same
sheet, less exactly what the export lists as not held; and every field it writes is a field
of the target system's data model, with that field's type (tests/fixtures/formats/README.md
names the versions the models were read from)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulesets.core.rows import Stage
from rulesets.swd10.data import ABILITIES, CUSTOM_LORES
from rulesets.swd10.sheet import SCHEMA as SWD10_SCHEMA
from rulesets.swd10.sheet import demo_sheet as swd10_demo
from rulesets.swd10.sheet import validate_sheet as validate_swd10
from rulesets.weg_d6 import demo as weg_demo
from rulesets.weg_d6.data import EDITION_RE, FORCE_POWERS, MAX_POWERS, SKILLS
from rulesets.weg_d6.sheet import blank_sheet as weg_blank
from rulesets.weg_d6.sheet import validate_sheet as validate_weg
from sheets.transfer import formats
from sheets.transfer.formats import foundry_od6s_export, foundry_wod20_export
from sheets.transfer.formats.exporting import Export
from sheets.transfer.formats.foundry_exports import exporter_for, exporter_of_system

FIXTURES = Path(__file__).parent.parent / "fixtures" / "formats"
# Foundry's own fields of an Actor and of an Item document (common/documents), beside `system`.
ACTOR_FIELDS = {
    "_id", "name", "type", "img", "system", "prototypeToken", "items", "effects", "folder",
    "sort", "ownership", "flags", "_stats",
}  # fmt: skip
ITEM_FIELDS = {
    "_id", "name", "type", "img", "system", "effects", "folder", "sort", "ownership", "flags",
    "_stats",
}  # fmt: skip
STATS_FIELDS = {"systemId", "systemVersion", "coreVersion", "exportSource"}
NOT_TRANSCRIBED = "not transcribed"


# The sheets ---------------------------------------------------------------------------------


def weg_in_play_with_everything() -> dict:
    """An R&E sheet in play with every catalog skill and power, its own skills, powers and
    specializations, weapons, gear and text that looks like HTML: nothing in it is lost."""
    sheet = weg_blank({"default_edition": EDITION_RE})
    sheet["stage"] = Stage.PLAY.value
    sheet["skills"] = {skill.slug: sheet["attributes"][skill.attribute] + 1 for skill in SKILLS}
    sheet["custom_skills"] = {
        "droid_lore": {"name": "Droid lore", "attribute": "knowledge", "advanced": False},
        "advanced_xenobiology": {
            "name": "(A) Xenobiology",
            "attribute": "knowledge",
            "advanced": True,
        },
    }
    sheet["skills"] |= {"droid_lore": 12, "advanced_xenobiology": 4}
    sheet["specializations"] = {
        "heavy_blaster_pistol": {"name": "Heavy blaster pistol", "skill": "blaster", "pips": 15},
        "astromechs": {"name": "Astromechs", "skill": "droid_lore", "pips": 14},
    }
    sheet["force"] |= {
        "sensitive": True,
        "control": 4,
        "sense": 5,
        "alter": 6,
        "powers": [*(power.slug for power in FORCE_POWERS[: MAX_POWERS - 1]), "shatterpoint"],
        "custom_powers": {"shatterpoint": {"name": "Shatterpoint", "skills": ["sense", "alter"]}},
    }
    sheet["weapons"] = [
        {"name": "Blaster rifle", "damage": "5D", "range": "3/30/100", "ammo": "100"},
        {"name": "Club", "damage": "", "range": "", "ammo": ""},
    ]
    sheet["gear"] = {"credits": 5, "equipment": "Medpac ×2\nGlow rod"}
    sheet["points"] = {"character": 7, "force": 2, "dark_side": 1}
    sheet["wound"], sheet["move"] = "wounded_twice", 11
    sheet["info"] |= {"template": "Tinker & Scout", "description": "A <tinker>.\n\nAnd & more."}
    return sheet


def swd10_in_play_with_every_ability() -> dict:
    """An SWd10 sheet in play with every ability at 1, its three lores named, Willpower
    spent and two health boxes marked: nothing in it is lost."""
    sheet = SWD10_SCHEMA().model_dump(mode="json")
    sheet["abilities"] = {trait.slug: 1 for trait in ABILITIES}
    sheet["lore_names"] = dict(
        zip(CUSTOM_LORES, ("Mandalorians", "Hutts", "Old Republic"), strict=True)
    )
    sheet["attributes"] |= {"wits": 3, "appearance": 2}
    sheet["willpower"], sheet["willpower_current"] = 4, 2
    sheet["health_marked"] = 2
    sheet["info"] |= {"nature": "Survivor", "demeanor": "Loner"}
    sheet["stage"] = Stage.PLAY.value
    sheet["baseline"] = {
        "attributes": dict(sheet["attributes"]),
        "abilities": dict(sheet["abilities"]),
        "force_knowledges": dict(sheet["force_knowledges"]),
        "willpower": 4,
        "merits": {},
        "languages": [],
    }
    return sheet


WEG_SHEETS: dict[str, Callable[[], dict]] = {
    "Jax Durran (the demo's R&E smuggler)": weg_demo.demo_sheet,
    "Ven Aurel (the demo's 1E Force student)": weg_demo.force_student_1e_sheet,
    "R2-K5 (the demo's droid)": weg_demo.demo_droid_sheet,
    "the 3PO droid": weg_demo.droid_3po_sheet,
    "a blank sheet": lambda: weg_blank({}),
    "a sheet in play with everything": weg_in_play_with_everything,
}
SWD10_SHEETS: dict[str, Callable[[], dict]] = {
    "Kira Dane (the demo's hero)": swd10_demo,
    "a blank sheet": lambda: SWD10_SCHEMA().model_dump(mode="json"),
    "a sheet in play with every ability": swd10_in_play_with_every_ability,
}
CASES = [
    *((foundry_od6s_export, validate_weg, name, make) for name, make in WEG_SHEETS.items()),
    *((foundry_wod20_export, validate_swd10, name, make) for name, make in SWD10_SHEETS.items()),
]
IDS = [f"{exporter.KEY}: {name}" for exporter, _validate, name, _make in CASES]


# Reading back ------------------------------------------------------------------------------


def differences(before: Any, after: Any, path: str = "") -> set[str]:
    """The dotted paths where two sheets differ: a key one of them lacks, a list of another
    length, or a differing value."""
    if isinstance(before, dict) and isinstance(after, dict):
        found: set[str] = set()
        for key in set(before) | set(after):
            inner = f"{path}.{key}" if path else str(key)
            if key not in before or key not in after:
                found.add(inner)
            else:
                found |= differences(before[key], after[key], inner)
        return found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        found = set()
        for index, (one, other) in enumerate(zip(before, after, strict=True)):
            found |= differences(one, other, f"{path}.{index}")
        return found
    return set() if before == after else {path}


def under(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + ".")


def read_back(exported: Export) -> dict:
    """The file as the import page reads an upload: recognised by itself, then read."""
    reading = formats.read(exported.file_bytes())
    assert reading.format_key == exported.format_key
    return reading.sheet


def unexplained_and_unfounded(
    sheet: dict, exported: Export, back: dict | None = None
) -> tuple[set[str], set[str]]:
    """What changed on the way back that no lost item names, and the lost items (in words)
    of which nothing changed. A lost item names the paths it may change: at least one of
    them must have."""
    differing = differences(sheet, read_back(exported) if back is None else back)
    declared = {path for lost in exported.lost for path in lost.paths}
    unexplained = {d for d in differing if not any(under(p, d) for p in declared)}
    unfounded = {
        lost.what
        for lost in exported.lost
        if not any(under(p, d) or under(d, p) for p in lost.paths for d in differing)
    }
    return unexplained, unfounded


@pytest.mark.parametrize(("exporter", "validate", "name", "make"), CASES, ids=IDS)
def test_each_sheet_comes_back_the_same_less_exactly_what_its_export_lists(
    exporter, validate, name, make
):
    sheet = validate(make())
    unexplained, unfounded = unexplained_and_unfounded(sheet, exporter.export(sheet, name))
    assert unexplained == set(), "changed on the way back, and not listed as lost"
    assert unfounded == set(), "listed as lost, yet came back unchanged"


def test_a_sheet_the_formats_hold_whole_comes_back_with_nothing_lost():
    for exporter, validate, make in (
        (foundry_od6s_export, validate_weg, weg_in_play_with_everything),
        (foundry_wod20_export, validate_swd10, swd10_in_play_with_every_ability),
    ):
        sheet = validate(make())
        exported = exporter.export(sheet, "Whole")
        assert exported.lost == []
        assert read_back(exported) == sheet


def test_the_demo_smugglers_od6s_file_lists_what_od6s_cannot_hold_in_words():
    exported = foundry_od6s_export.export(validate_weg(weg_demo.demo_sheet()), "Jax Durran")
    assert [lost.what for lost in exported.lost] == [
        "the stage (creation)",
        "the physical description",
        "the quote",
        "the key of the specialization “YT-1300 transports”",
        "the weapon “Heavy blaster pistol”'s range “3-7/25/50”",
    ]
    vibroknife = next(i for i in exported.document["items"] if i["name"] == "Vibroknife")
    assert vibroknife["system"]["damage"] == {"score": 3, "muscle": True}
    # The OD6S reader reads the muscle flag back as Strength plus the dice.
    assert read_back(exported)["weapons"][1]["damage"] == "STR+1D"


def test_the_demo_heros_wod20_file_writes_what_wod20_has_no_field_for_into_its_notes():
    exported = foundry_wod20_export.export(validate_swd10(swd10_demo()), "Kira Dane")
    system = exported.document["system"]
    assert "Force abilities: Battle strike" in system["bio"]["notes"]
    assert "Heavy blaster pistol: difficulty 6, rate 1, damage 3" in system["gear"]["notes"]
    assert {lost.paths[0] for lost in exported.lost} >= {
        "merits",
        "force_abilities",
        "languages",
        "techniques",
        "weapons",
        "light_side",
        "force_knowledges",
    }


def test_a_monstrous_heros_file_says_datapad_reads_it_back_only_with_the_flaw():
    sheet = swd10_in_play_with_every_ability()
    sheet["attributes"]["appearance"] = 0
    sheet["merits"] = [{"slug": "monstrous", "value": 3, "choice": ""}]
    sheet = validate_swd10(sheet)
    exported = foundry_wod20_export.export(sheet, "Monstrous")
    assert exported.document["system"]["attributes"]["appearance"] == {"value": 0}
    assert "Appearance 0 (the Monstrous flaw)" in [lost.what for lost in exported.lost]
    with pytest.raises(formats.FormatRefused, match="only the Monstrous flaw"):
        read_back(exported)


def test_a_lore_named_like_an_swd10_ability_is_listed_not_misread():
    sheet = SWD10_SCHEMA().model_dump(mode="json")
    sheet["abilities"]["custom_lore_1"] = 2
    sheet["lore_names"]["custom_lore_1"] = "Athletics"
    sheet = validate_swd10(sheet)
    exported = foundry_wod20_export.export(sheet, "Lore")
    assert "the lore “Athletics” (2)" in [lost.what for lost in exported.lost]
    assert unexplained_and_unfounded(sheet, exported) == (set(), set())


# The target systems' data models -----------------------------------------------------------


def model(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def fits(value: Any, kind: str) -> bool:
    if kind in ("integer", "count"):
        whole = isinstance(value, int) and not isinstance(value, bool)
        return whole and (kind == "integer" or value >= 0)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    types = {"string": str, "html": str, "boolean": bool, "object": dict, "array": list}
    return isinstance(value, types[kind])


def field_faults(data: Any, fields: dict[str, str], where: str, path: str = "") -> list[str]:
    """Each value under `data` that is no field of `fields`, or not of its field's type."""
    if path in fields:
        kind = fields[path]
        if kind == NOT_TRANSCRIBED:
            return [f"{where}.{path}: written under a part of the model not transcribed"]
        return [] if fits(data, kind) else [f"{where}.{path}: {data!r} is not {kind}"]
    inside = any(field.startswith(path + ".") for field in fields)
    if path and not (isinstance(data, dict) and inside):
        return [f"{where}.{path}: no such field in the model"]
    faults = []
    for key, value in data.items() if isinstance(data, dict) else ():
        faults += field_faults(value, fields, where, f"{path}.{key}" if path else str(key))
    return faults


def model_faults(document: dict, schema: dict) -> list[str]:
    faults = [f"{key}: not a field of a Foundry actor" for key in set(document) - ACTOR_FIELDS]
    stats = document.get("_stats", {})
    faults += [f"_stats.{key}: not a field of _stats" for key in set(stats) - STATS_FIELDS]
    if (stats.get("systemId"), stats.get("systemVersion")) != (
        schema["system"]["id"],
        schema["system"]["version"],
    ):
        faults.append(f"_stats names {stats.get('systemId')} {stats.get('systemVersion')}")
    kind = document.get("type")
    if kind not in schema["actor_types"] or kind not in schema["actors"]:
        return [*faults, f"type: {kind!r} is no actor type of the model"]
    faults += field_faults(document["system"], schema["actors"][kind], "system")
    for index, item in enumerate(document.get("items", [])):
        faults += [
            f"items.{index}.{key}: not a field of an item" for key in set(item) - ITEM_FIELDS
        ]
        if item["type"] not in schema["item_types"] or item["type"] not in schema["items"]:
            faults.append(f"items.{index}.type: {item['type']!r} is no item type of the model")
            continue
        faults += field_faults(item["system"], schema["items"][item["type"]], f"items.{index}")
    return faults


MODELS = {foundry_od6s_export: "od6s_model.json", foundry_wod20_export: "wod20_model.json"}


@pytest.mark.parametrize(("exporter", "validate", "name", "make"), CASES, ids=IDS)
def test_every_field_written_is_a_field_of_the_target_model_with_its_type(
    exporter, validate, name, make
):
    document = exporter.export(validate(make()), name).document
    assert model_faults(document, model(MODELS[exporter])) == []


def test_the_model_check_finds_a_misspelt_field_a_wrong_type_and_a_foreign_item_type():
    exported = foundry_od6s_export.export(validate_weg(weg_demo.demo_sheet()), "Jax Durran")
    document = exported.document
    document["system"]["credits"] = {"amount": 1200}
    document["system"]["move"] = {"value": "ten"}
    document["items"][0]["type"] = "talent"
    document["items"][1]["system"]["base"] = 1.5
    assert model_faults(document, model("od6s_model.json")) == [
        "system.move.value: 'ten' is not number",
        "system.credits.amount: no such field in the model",
        "items.0.type: 'talent' is no item type of the model",
    ]
    wod = foundry_wod20_export.export(validate_swd10(swd10_demo()), "Kira").document
    wod["system"]["settings"] = {"era": "modern"}
    wod["items"][0]["system"]["value"] = -1
    assert model_faults(wod, model("wod20_model.json")) == [
        "system.settings: written under a part of the model not transcribed",
        "items.0.value: -1 is not count",
    ]


def test_each_model_names_the_version_and_commit_it_was_read_from():
    for name, system_id, version in (
        ("od6s_model.json", "nonex-ist-od6s", "3.0.0"),
        ("wod20_model.json", "worldofdarkness", "7.2.5"),
    ):
        source = model(name)["system"]
        assert (source["id"], source["version"]) == (system_id, version)
        assert len(source["commit"]) == 40
        readme = (FIXTURES / "README.md").read_text()
        assert source["commit"] in readme and name in readme


# Which exporter takes which system ----------------------------------------------------------


def test_each_system_has_its_foundry_format_and_no_other():
    assert exporter_of_system("weg_d6") is foundry_od6s_export
    assert exporter_of_system("swd10") is foundry_wod20_export
    assert exporter_of_system("ore") is None
    assert exporter_for("swd10", "foundry_od6s") is None
    assert exporter_for("weg_d6", "foundry_wod20") is None
    assert exporter_for("weg_d6", "foundry_od6s") is foundry_od6s_export


def test_a_specialization_named_by_punctuation_alone_reads_back_under_a_key_of_words():
    sheet = weg_blank({})
    sheet["skills"] = {"blaster": 9}
    sheet["specializations"] = {"specialization": {"name": "/", "skill": "blaster", "pips": 12}}
    sheet = validate_weg(sheet)
    exported = foundry_od6s_export.export(sheet, "Slash")
    assert read_back(exported)["specializations"] == sheet["specializations"]
    assert unexplained_and_unfounded(sheet, exported) == (set(), set())


def test_this_adventures_dark_side_calls_are_listed_as_not_held():
    sheet = weg_blank({})
    sheet["dark_side"] = {"calls": 2, "atoned": False}
    sheet = validate_weg(sheet)
    exported = foundry_od6s_export.export(sheet, "Tempted")
    assert "this adventure's calls on the Dark Side and atonement" in [
        lost.what for lost in exported.lost
    ]
    assert unexplained_and_unfounded(sheet, exported) == (set(), set())
