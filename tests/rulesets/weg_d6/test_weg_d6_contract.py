"""The WEG d6 side of the shared contract: schema and migration, stage, rows, row numbers."""

from __future__ import annotations

import copy

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, InvalidSheet, RowKind, Setter, resolve_settings
from rulesets.weg_d6 import demo

SETTINGS = resolve_settings(weg.SETTINGS, {})


def _sheet_stored_before_versions() -> dict:
    """A sheet exactly as Datapad stored it before schema versions existed."""
    return {
        "edition": "2e_re",
        "kind": "character",
        "role": "pc",
        "stage": "play",
        "info": {"player": "Ana", "template": "Smuggler", "description": "Owes a Hutt."},
        "species": "human",
        "custom_species": {
            "name": "",
            "minimum": dict.fromkeys(
                ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"),
                6,
            ),
            "maximum": dict.fromkeys(
                ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"),
                12,
            ),
            "move": 10,
            "move_max": 12,
        },
        "alien_template": None,
        "attributes": {
            "dexterity": 10,
            "knowledge": 7,
            "mechanical": 11,
            "perception": 9,
            "strength": 10,
            "technical": 7,
        },
        "move": 10,
        "skills": {"blaster": 16, "pazaak": 9},
        "custom_skills": {
            "pazaak": {
                "name": "Pazaak",
                "attribute": "perception",
                "advanced": False,
                "prerequisite": None,
            }
        },
        "specializations": {
            "blaster_dl_44": {"name": "DL-44", "skill": "blaster", "pips": 17},
        },
        "force": {
            "sensitive": False,
            "control": 0,
            "sense": 0,
            "alter": 0,
            "powers": [],
            "custom_powers": {},
            "power_picks": [],
        },
        "points": {"character": 3, "force": 1, "dark_side": 0},
        "teacher": {"present": False, "control": 0, "sense": 0, "alter": 0},
        "interval": [{"trait": "skill.blaster", "from": 15, "to": 16, "cost": 5}],
        "wound": "wounded",
        "droid": {"speed": 0, "armor": 0, "equipment": []},
    }


def test_a_sheet_stored_before_schema_versions_upgrades_and_keeps_every_value() -> None:
    old = _sheet_stored_before_versions()
    upgraded = weg.validate_sheet(copy.deepcopy(old))
    # Version 2 adds the classic template's weapons, gear, looks and quote, all empty.
    assert upgraded == {
        **old,
        "schema_version": weg.SCHEMA_VERSION,
        "info": {**old["info"], "physical": "", "quote": ""},
        "weapons": [],
        "gear": {"credits": 0, "equipment": ""},
        # Version 3 keeps the picks each Force power used up: none yet.
        "force": {**old["force"], "power_picks_spent": {}},
        # Version 4 keeps the 1E stun results still counting: none yet.
        "stuns": [],
    }
    assert weg.check(upgraded, SETTINGS) is not None
    assert weg.status(upgraded, SETTINGS).stage == "play"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda s: s["attributes"].update(strength="3D"), "attributes.strength: expected a whole"),
        (lambda s: s["skills"].update(blaster=1.5), "skills.blaster: expected a whole number"),
        (lambda s: s["force"].update(sensitive="yes"), "force.sensitive: expected true or false"),
        (lambda s: s["info"].update(player=7), "info.player: expected text"),
        (lambda s: s.update(stage="finished"), "stage: expected one of creation, play"),
        (lambda s: s["droid"].update(equipment={}), "droid.equipment: Input should be a valid"),
        (
            lambda s: s["droid"]["equipment"].append({"name": "Arm", "features": -1}),
            "droid.equipment.0.features: expected a whole number from 0 to 20",
        ),
        (
            lambda s: s["interval"].append({"trait": "move", "from": "10", "to": 11}),
            "interval.0.from: expected a whole number",
        ),
        (lambda s: s["points"].update(evil=1), "points.evil: is not part of this sheet"),
        (lambda s: s.update(schema_version="1"), "schema_version: expected a whole number"),
        (
            lambda s: s["skills"].update({"Pazaak Cards": 9}),
            "skills.Pazaak Cards.[key]: expected a plain",
        ),
        (
            lambda s: s["specializations"].update(x={"name": "X", "skill": "pazaak", "pips": 9}),
            "specializations.x.skill: “pazaak” is not a skill",
        ),
        (
            lambda s: s["custom_species"]["minimum"].update(strength=13),
            "custom_species.minimum.strength: is above the maximum",
        ),
        (
            lambda s: s["force"].update(powers=["telekinesis", "telekinesis"]),
            "force.powers: a power is listed twice",
        ),
    ],
)
def test_validate_sheet_refuses_a_wrong_value_naming_its_field(change, words) -> None:
    sheet = weg.demo_sheet()
    change(sheet)
    with pytest.raises(InvalidSheet) as refused:
        weg.validate_sheet(sheet)
    assert words in str(refused.value)


def test_the_stage_trait_finishes_creation_and_reopens_it() -> None:
    sheet = weg.demo_sheet()
    playing = weg.apply_edit(sheet, "stage", "play", SETTINGS)
    assert playing["stage"] == "play"
    assert weg.status(playing, SETTINGS).stage == "play"
    assert weg.apply_edit(playing, "stage", "play", SETTINGS) == playing
    assert weg.apply_edit(playing, "stage", "creation", SETTINGS)["stage"] == "creation"
    with pytest.raises(InvalidEdit, match="Stage: choose one of"):
        weg.apply_edit(sheet, "stage", "finished", SETTINGS)
    with pytest.raises(InvalidEdit, match="not a trait"):
        weg.apply_edit(sheet, "info.stage", "play", SETTINGS)


def _rows(sheet: dict) -> dict:
    return {row.key: row for row in weg.trait_rows(sheet, SETTINGS)}


def _custom_species_1e() -> dict:
    sheet = weg.blank_sheet({"default_edition": "1e"})
    return weg.apply_edit(sheet, "info.species", "custom", SETTINGS)


def test_what_the_seeds_leave_to_the_gm_is_set_by_the_gm() -> None:
    rows = _rows(_custom_species_1e())
    gm = {key for key, row in rows.items() if row.setter is Setter.GM}
    assert {
        "force.sensitive",
        "teacher.present",
        "teacher.control",
        "teacher.sense",
        "teacher.alter",
        "points.dark_side",
        "species.name",
        "species.move",
        "species.move_max",
        "species.min.strength",
        "species.max.strength",
    } <= gm
    assert not any(key.startswith(("attr.", "skill.", "info.")) for key in gm)
    # R&E sells Force-sensitivity to the player for Character Points.
    assert _rows(weg.demo_sheet())["force.sensitive"].setter is Setter.PLAYER


def test_code_rows_give_their_range_in_pips_as_apply_edit_takes_it() -> None:
    rows = _rows(_custom_species_1e())
    strength = rows["attr.strength"]
    assert (strength.kind, strength.minimum, strength.maximum) == (RowKind.CODE, 3, 180)
    # A species' minimum never crosses its maximum, and the other way round.
    assert (rows["species.min.strength"].minimum, rows["species.min.strength"].maximum) == (0, 12)
    assert (rows["species.max.strength"].minimum, rows["species.max.strength"].maximum) == (6, 180)
    assert rows["wound"].choices[-1] == ("killed", "Killed")
    assert "wounded_twice" not in dict(rows["wound"].choices)


def test_locked_rows_say_why_in_plain_words() -> None:
    smuggler = _rows(weg.demo_sheet())
    assert smuggler["force.control"].locked == (
        "Only a Force-sensitive character has Control; mark it first."
    )
    droid = _rows(demo.demo_droid_sheet())
    assert droid["force.sensitive"].locked == "Droids are never Force-sensitive."
    assert droid["force.alter"].locked == "Droids may never have Force skills."
    assert "info.species" not in droid
    assert droid["equipment.3.features"].value == 1


def test_rows_price_the_next_step_when_it_can_be_raised() -> None:
    rows = _rows(weg.apply_edit(weg.demo_sheet(), "stage", "play", SETTINGS))
    assert rows["skill.blaster"].next_cost.amount == 5
    assert rows["skill.blaster"].next_cost.unit == "CP"
    assert rows["info.player"].next_cost is None


def test_every_edit_key_has_a_plain_label() -> None:
    assert weg.trait_label("attr.dexterity") == "Dexterity"
    assert weg.trait_label("skill.space_transports") == "Space transports"
    assert weg.trait_label("equipment.2.features") == "Droid item 3 extra features"
    assert weg.trait_label("advance.force.sensitive") == "Advance Force-sensitive"
    assert weg.trait_label("species.max.perception") == "Species Perception maximum"
    assert weg.trait_label("stage") == "Stage"


@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("equipment.9.name", "Arm", "There is no droid item number 10 on this sheet."),
        ("equipment.².name", "Arm", "“²” does not name a droid item row."),
        ("equipment.remove", "9", "There is no droid item number 10 on this sheet."),
    ],
)
def test_row_numbers_in_messages_count_from_one(trait: str, raw: str, message: str) -> None:
    with pytest.raises(InvalidEdit) as refused:
        weg.apply_edit(demo.demo_droid_sheet(), trait, raw, SETTINGS)
    assert refused.value.message == message
    assert refused.value.trait == trait


def test_what_an_edit_stores_always_passes_the_schema() -> None:
    sheet = weg.apply_edit(demo.demo_droid_sheet(), "equipment.add", "Arc welder|2", SETTINGS)
    sheet = weg.apply_edit(sheet, "equipment.0.name", "Three legs", SETTINGS)
    sheet = weg.apply_edit(sheet, "info.kind", "character", SETTINGS)
    assert weg.validate_sheet(sheet) == sheet
    with pytest.raises(InvalidEdit, match="cannot be stored"):
        weg.apply_edit(sheet, "info.player", "Ana\x00", SETTINGS)
