"""Adding a weapon to an O.R.E. sheet (issue 13 item 6): a name the catalog lacks is never
quietly turned into a weapon with blank stats; the catalog weapons it may mean are named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.ore as ore
from rulesets.core import InvalidEdit
from rulesets.ore.data import ROW_TEXT_LENGTH, WEAPONS
from rulesets.ore.edits import weapon_matches


def refusal(sheet: dict, raw: str) -> str:
    with pytest.raises(InvalidEdit) as refused:
        ore.apply_edit(sheet, "weapon.add", raw, {})
    assert refused.value.trait == "weapon.add"
    return refused.value.message


def test_blaster_pistol_is_refused_with_the_blaster_first_among_the_suggestions():
    sheet = ore.blank_sheet({})
    message = refusal(sheet, "Blaster pistol")
    assert message.startswith(
        "“Blaster pistol” is not in the weapon list. Did you mean Blaster, Heavy blaster,"
    )
    assert "give its damage (e.g. width+1) to add it as your own weapon" in message
    assert sheet["weapons"] == []


def test_a_name_near_nothing_asks_for_its_damage_without_suggestions():
    message = refusal(ore.blank_sheet({}), "Gaffi stick")
    assert message == (
        "“Gaffi stick” is not in the weapon list, or give its damage (e.g. width+1) to add "
        "it as your own weapon; its other stats start at 0."
    )


def test_with_its_damage_a_weapon_of_ones_own_is_added():
    sheet = ore.apply_edit(ore.blank_sheet({}), "weapon.add", "Blaster pistol|width+1", {})
    assert sheet["weapons"] == [
        {
            "from": "",
            "name": "Blaster pistol",
            "damage": "width+1",
            "penetration": 0,
            "initiative": 0,
            "special": "",
        }
    ]


@pytest.mark.parametrize("typed", ["Blaster", "blaster", "  BLASTER ", "blaster|"])
def test_a_catalog_name_in_any_case_brings_its_stats(typed):
    sheet = ore.apply_edit(ore.blank_sheet({}), "weapon.add", typed, {})
    weapon = sheet["weapons"][0]
    assert (weapon["from"], weapon["damage"], weapon["penetration"]) == ("blaster", "width+1", 2)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "Name the weapon or pick it from the list."),
        ("|width", "Name the weapon or pick it from the list."),
        ("x" * (ROW_TEXT_LENGTH + 1), "limited to 200 characters"),
        ("Spear gun|" + "w" * (ROW_TEXT_LENGTH + 1), "Damage is limited to 200 characters"),
        ("Spear\x00gun|width", "cannot be stored"),
    ],
)
def test_bad_weapon_entries_are_refused_plainly(raw, message):
    assert message in refusal(ore.blank_sheet({}), raw)


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("Blaster pistol", "Blaster"),
        ("heavy blaster pistol", "Heavy blaster"),
        ("vibro", "Vibro-ax"),
        ("knife", "Knife"),
        ("thermal", "Thermal detonator"),
    ],
)
def test_matches_rank_the_weapon_meant_first(typed, first):
    assert weapon_matches(typed)[0].label == first


def test_one_letter_or_nothing_suggests_nothing():
    assert weapon_matches("") == () and weapon_matches("x y") == ()


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=400))
def test_matches_are_few_catalog_weapons_whatever_is_typed(typed):
    found = weapon_matches(typed)
    assert len(found) <= 8
    assert set(found) <= set(WEAPONS)
    assert len(set(found)) == len(found)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(WEAPONS))
def test_every_catalog_weapon_is_its_own_best_match(weapon):
    assert weapon_matches(weapon.label)[0] == weapon
