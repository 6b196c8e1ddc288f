"""apply_edit: every verb, a new sheet each time, and plain refusals for bad input."""

from __future__ import annotations

import copy

import pytest

import rulesets.ore as ore
from rulesets.core import InvalidEdit


def blank() -> dict:
    return ore.blank_sheet({})


def test_it_never_changes_the_sheet_it_was_given():
    sheet = blank()
    before = copy.deepcopy(sheet)
    ore.apply_edit(sheet, "stat.body", "3", {})
    ore.apply_edit(sheet, "wound.torso.1", "", {})
    ore.apply_edit(sheet, "skill.add", "Blaster", {})
    assert sheet == before


@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("character_points", "-10", "budget runs from 0 to 100000; -10 is outside it"),
        ("species", "Gungan", "not a known species"),
        ("stat.body", "6", "maximum of 5d"),
        ("stat.body", "three", "not a whole number"),
        ("stunt.force_push_extra", "1", "not a trait"),
        ("stunt.force_jump.hard", "1", "normal dice only"),
        ("stunt.force_jump", "1hd", "normal dice only"),
        ("power.energy_manipulation", "11", "pool of 11 dice"),
        ("skill.add", "Gardening", "add it as Name|stat"),
        ("skill.add", "Lore", "needs a specialty"),
        ("skill.add", "Blaster [heavy]", r"takes no \[specialty\]"),
        ("skill.add", "Language [Basic]", "already on the sheet"),
        ("skill.language_basic.remove", "", "starting language"),
        ("skill.blaster", "2", "no skill “blaster”"),
        ("bogus.trait", "1", "not a trait"),
        ("wound.torso.6", "", "no torso wound box number 7"),
        ("wound.torso.1", "bruise", "Mark a box"),
        ("lightsaber_form", "Form IX", "not a lightsaber form"),
        ("power.force_sense.approved", "maybe", "not yes or no"),
        ("ability.add", "laser_eyes", "not an ability"),
        ("ability.add", "stat_hard_die", "needs a stat"),
        ("weapon.3.damage", "width", "no weapon number 4"),
        ("stage", "finished", "choose one of Creation, In play"),
    ],
)
def test_it_refuses_bad_input_with_a_plain_message(trait, raw, message):
    with pytest.raises(InvalidEdit, match=message) as refused:
        ore.apply_edit(blank(), trait, raw, {})
    assert refused.value.trait == trait


def test_it_adds_a_catalog_skill_with_its_stat_and_a_custom_skill_with_the_given_stat():
    sheet = ore.apply_edit(blank(), "skill.add", "Lore [Jedi lore]", {})
    sheet = ore.apply_edit(sheet, "skill.add", "Sabacc|cool", {})
    rows = {row["id"]: (row["name"], row["stat"]) for row in sheet["skills"]}
    assert rows["lore_jedi_lore"] == ("Lore [Jedi lore]", "brains")
    assert rows["sabacc"] == ("Sabacc", "cool")
    assert next(s for s in ore.derived(sheet, {})["skills"] if s["id"] == "sabacc")["custom"]


def test_renaming_a_specialty_keeps_the_trait_key_stable():
    sheet = ore.apply_edit(blank(), "skill.language_native.specialty", "Shyriiwook", {})
    row = sheet["skills"][0]
    assert (row["id"], row["name"]) == ("language_native", "Language [Shyriiwook]")
    sheet = ore.apply_edit(sheet, "skill.add", "Language [native]", {})
    assert sheet["skills"][-1]["id"] == "language_native_2"


def test_a_skill_can_be_rolled_with_another_stat_and_removed():  # L658
    sheet = ore.apply_edit(blank(), "skill.add", "Tech", {})
    sheet = ore.apply_edit(sheet, "skill.tech.stat", "cool", {})
    assert sheet["skills"][-1]["stat"] == "cool"
    sheet = ore.apply_edit(sheet, "skill.tech.remove", "", {})
    assert [row["id"] for row in sheet["skills"]] == ["language_native", "language_basic"]


def test_a_stunt_set_to_zero_is_removed():
    sheet = ore.apply_edit(blank(), "stunt.empathy", "2d", {})
    assert sheet["stunts"] == {"empathy": {"dice": 2, "approved": False}}
    assert ore.apply_edit(sheet, "stunt.empathy", "0", {})["stunts"] == {}


def test_armor_and_weapons_come_from_the_catalog_or_are_typed_in():  # L389-L444
    sheet = ore.apply_edit(blank(), "armor.add", "medium_battle_armor", {})
    sheet = ore.apply_edit(sheet, "armor.add", "Beskar plates", {})
    sheet = ore.apply_edit(sheet, "armor.1.ar", "5", {})
    sheet = ore.apply_edit(sheet, "armor.1.covers", "torso, vitals", {})
    sheet = ore.apply_edit(sheet, "weapon.add", "Bowcaster", {})
    # A weapon of one's own comes with its damage (issue 13: never a blank one by mistake).
    sheet = ore.apply_edit(sheet, "weapon.add", "Gaffi stick|width+1 in Shock", {})
    assert sheet["armor"][0]["ar"] == 4 and sheet["armor"][0]["move"] == 8
    assert sheet["armor"][1]["covers"] == ["torso", "vitals"]
    assert (sheet["weapons"][0]["damage"], sheet["weapons"][0]["penetration"]) == ("width+3", 3)
    assert sheet["weapons"][1] == {
        "from": "",
        "name": "Gaffi stick",
        "damage": "width+1 in Shock",
        "penetration": 0,
        "initiative": 0,
        "special": "",
    }
    assert ore.derived(sheet, {})["armor_by_location"]["torso"] == 5
    with pytest.raises(InvalidEdit, match="room for 2 armor rows"):
        ore.apply_edit(sheet, "armor.add", "Blast vest", {})


def test_the_sheet_has_room_for_ten_weapons():  # L1139-L1148
    sheet = blank()
    for _ in range(10):
        sheet = ore.apply_edit(sheet, "weapon.add", "Knife", {})
    with pytest.raises(InvalidEdit, match="room for 10 weapons"):
        ore.apply_edit(sheet, "weapon.add", "Knife", {})


def test_a_wound_box_can_be_set_directly_and_a_location_cleared():
    sheet = ore.apply_edit(blank(), "wound.torso.2", "X", {})
    assert sheet["wounds"]["torso"][2] == "killing"
    sheet = ore.apply_edit(sheet, "wound.torso.clear", "", {})
    assert sheet["wounds"]["torso"] == [""] * 6


def test_finishing_creation_freezes_the_creation_spend_and_refuses_an_overspend():
    sheet = ore.apply_edit(ore.blank_sheet({"creation_budget": 5}), "stat.body", "2", {})
    assert ore.apply_edit(sheet, "stage", "play", {})["creation_spent"] == 5
    over = ore.apply_edit(sheet, "stat.body", "3", {})
    with pytest.raises(InvalidEdit, match="over budget"):
        ore.apply_edit(over, "stage", "play", {})


def test_experience_awards_can_be_added_and_removed():
    sheet = ore.apply_edit(blank(), "xp.award", "2|Session 3", {})
    assert sheet["xp_awards"] == [{"amount": 2, "note": "Session 3"}]
    assert ore.apply_edit(sheet, "xp.0.remove", "", {})["xp_awards"] == []


def test_a_skill_still_boosted_by_an_ability_cannot_be_removed():
    sheet = ore.apply_edit(blank(), "skill.add", "Tech", {})
    sheet = ore.apply_edit(sheet, "ability.add", "skill_hard_die|tech", {})
    with pytest.raises(InvalidEdit, match="remove it first"):
        ore.apply_edit(sheet, "skill.tech.remove", "", {})
