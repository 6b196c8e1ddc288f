"""The sheet dict: the module protocol, imports through validate_sheet, edits that refuse."""

from __future__ import annotations

import copy
import json
import time

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, InvalidSheet, resolve_settings
from rulesets.registry import SYSTEMS, get_ruleset
from rulesets.weg_d6 import demo

SETTINGS = resolve_settings(weg.SETTINGS, {})


def test_the_registry_finds_this_module_with_its_key_and_name() -> None:
    module = get_ruleset("weg_d6")
    assert (module.KEY, SYSTEMS["weg_d6"].name) == ("weg_d6", "West End Games d6")
    for name in ("blank_sheet", "apply_edit", "check", "derived", "advance_cost", "validate_sheet"):
        assert callable(getattr(module, name))


def test_every_setting_from_outside_the_seeds_says_so() -> None:
    outside = {
        "skill_dice",
        "creation_skill_cap",
        "specialization_ratio",
        "starting_character_points",
        "re_first_force_die_cost",
        "attribute_cost_multiplier_1e",
        "advanced_prerequisite_dice",
    }
    for setting in weg.SETTINGS:
        if setting.key in outside:
            assert "not in either seed" in setting.source, setting.key


def test_a_blank_sheet_round_trips_through_validate_sheet() -> None:
    blank = weg.blank_sheet(SETTINGS)
    assert weg.validate_sheet(json.loads(json.dumps(blank))) == blank


@pytest.mark.parametrize("build", [weg.demo_sheet, demo.demo_droid_sheet, demo.droid_3po_sheet])
def test_the_example_sheets_are_json_and_round_trip(build) -> None:
    sheet = build()
    assert weg.validate_sheet(json.loads(json.dumps(sheet))) == sheet
    assert weg.check(sheet, SETTINGS).ok


def test_the_blank_sheet_follows_the_default_edition_setting() -> None:
    assert weg.blank_sheet({"default_edition": "1e"})["edition"] == "1e"
    assert weg.blank_sheet({})["edition"] == "2e_re"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda s: s.update(colour="red"), "colour: is not part of this sheet"),
        (lambda s: s.update(edition="3e"), "edition: expected one of"),
        (
            lambda s: s["attributes"].update(dexterity="3D"),
            "attributes.dexterity: expected a whole number",
        ),
        (lambda s: s["attributes"].update(dexterity=2), "from 3 to 180"),
        (lambda s: s["skills"].update(pazaak=6), "neither a catalog skill"),
        (lambda s: s["force"].update(powers=["fly"]), "“fly” is not a Force power"),
        (lambda s: s["points"].update(character=True), "points.character: expected a whole"),
        (
            lambda s: s.update(wound="wounded_twice", edition="1e"),
            "wound: “wounded_twice” is not a wound level",
        ),
        (lambda s: s["custom_skills"].update(x={"name": "X", "attribute": "charm"}), "attribute"),
        (lambda s: s["interval"].append({"trait": "skill.dodge", "from": 5, "to": 4}), "goes down"),
    ],
)
def test_validate_sheet_refuses_a_bad_import_and_says_where(change, words) -> None:
    sheet = weg.demo_sheet()
    change(sheet)
    with pytest.raises(InvalidSheet) as refused:
        weg.validate_sheet(sheet)
    assert words in str(refused.value)


def test_validate_sheet_refuses_something_that_is_not_a_sheet() -> None:
    with pytest.raises(InvalidSheet, match="must be a JSON object"):
        weg.validate_sheet(["not", "a", "sheet"])


def test_apply_edit_never_changes_the_sheet_it_was_given() -> None:
    sheet = weg.demo_sheet()
    before = copy.deepcopy(sheet)
    weg.apply_edit(sheet, "skill.blaster", "6D", SETTINGS)
    weg.apply_edit(sheet, "spec.add", "DL-44|blaster", SETTINGS)
    assert sheet == before


@pytest.mark.parametrize(
    ("trait", "raw", "words"),
    [
        ("attr.charisma", "3D", "not a trait"),
        ("skill.pazaak", "3D", "not a trait"),
        ("nonsense", "1", "not a trait"),
        ("points.character", "lots", "not a whole number"),
        ("points.force", "-1", "runs from 0 to 9999"),
        ("info.edition", "3e", "Edition: choose one of"),
        ("attr.strength", "0D+2", "at least 1D"),
        ("force.sensitive", "maybe", "not yes or no"),
        ("power.add", "Fly", "not a Force power"),
        ("skill.add", "Pazaak", "Name|attribute"),
        ("wound", "bruised", "Wound level: choose one of"),
    ],
)
def test_apply_edit_refuses_bad_input_in_plain_words(trait: str, raw: str, words: str) -> None:
    with pytest.raises(InvalidEdit) as refused:
        weg.apply_edit(weg.demo_sheet(), trait, raw, SETTINGS)
    assert words in refused.value.message
    assert refused.value.trait == trait


def test_edits_of_the_sheet_text_and_choices_land_where_the_shape_says() -> None:
    sheet = weg.apply_edit(weg.demo_sheet(), "info.player", "Ana", SETTINGS)
    sheet = weg.apply_edit(sheet, "info.role", "npc", SETTINGS)
    sheet = weg.apply_edit(sheet, "teacher.control", "7D+1", SETTINGS)
    sheet = weg.apply_edit(sheet, "move", "11", SETTINGS)
    assert (sheet["info"]["player"], sheet["role"], sheet["move"]) == ("Ana", "npc", 11)
    assert sheet["teacher"]["control"] == 22
    assert weg.validate_sheet(sheet) == sheet


def test_check_and_derived_are_fast_on_a_complete_sheet() -> None:
    sheet = weg.demo_sheet()
    sheet["force"].update(
        sensitive=True,
        control=12,
        sense=9,
        alter=6,
        powers=["control_pain", "life_sense", "telekinesis"],
    )
    runs = 200
    started = time.perf_counter()
    for _ in range(runs):
        weg.check(sheet, SETTINGS)
        weg.derived(sheet, SETTINGS)
    assert (time.perf_counter() - started) / runs < 0.002
