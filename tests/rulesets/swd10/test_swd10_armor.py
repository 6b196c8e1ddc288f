"""SWd10 armor and shields (000:L183-230, L739-793): classes, penalties and soak from the
seed's own numbers, the sheet's rows and edits, and an old sheet upgraded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets import swd10
from rulesets.core import InvalidEdit, InvalidSheet, resolve_settings
from rulesets.swd10 import armor

DEFAULTS = resolve_settings(swd10.SETTINGS, {})


def sheet_with(*rows: dict, merits: tuple[tuple[str, str], ...] = ()) -> dict:
    sheet = swd10.demo_sheet()
    sheet["armor"] = [{"rating": 1, "lost": 0, "worn": False, "kind": "armor"} | r for r in rows]
    for slug, choice in merits:
        sheet["merits"].append({"slug": slug, "value": 1, "choice": choice})
    return sheet


@pytest.mark.parametrize(
    ("rating", "name", "penalty"),
    [
        (1, "Light", 1),
        (2, "Light", 1),
        (3, "Medium", 2),
        (4, "Medium", 2),
        (5, "Heavy", 3),
        (6, "Heavy", 3),
    ],
)  # 000:L741
def test_each_rating_has_the_class_and_penalty_the_seed_prints(rating, name, penalty):
    assert armor.armor_class(rating).name == name
    assert armor.armor_penalty(rating, set(), set()) == penalty


@pytest.mark.parametrize(
    ("rating", "merits", "proficient", "penalty"),
    [
        (3, set(), {"medium"}, 1),  # L741: proficiency in the class, one less
        (3, set(), {"light"}, 2),  # a proficiency in another class does nothing
        (5, {"armored_protection"}, set(), 2),  # L747
        (5, {"armored_protection", "improved_armored_protection"}, {"heavy"}, 0),  # L793
        (1, {"armored_protection", "improved_armored_protection"}, {"light"}, 0),  # never below 0
    ],
)
def test_merits_lower_the_penalty_as_the_seed_says(rating, merits, proficient, penalty):
    assert armor.armor_penalty(rating, merits, proficient) == penalty


def test_armor_master_adds_a_die_only_to_armor_of_a_class_one_is_proficient_at():
    assert armor.armor_soak(3, 0, {"armor_master"}, {"medium"}) == 4  # L753
    assert armor.armor_soak(3, 0, {"armor_master"}, {"heavy"}) == 3
    assert armor.armor_soak(3, 1, set(), set()) == 2  # L224: a lost point soaks no more


@pytest.mark.parametrize(
    ("damage", "soaked", "rating", "wears"),
    [(6, 2, 3, True), (5, 2, 3, False), (3, 0, 3, False), (4, 0, 3, True)],
)  # L224: what is left after armor's soak, before Stamina's, exceeds the rating
def test_armor_wears_down_when_the_damage_left_exceeds_its_rating(damage, soaked, rating, wears):
    assert armor.armor_wears_down(damage, soaked, rating) is wears


@pytest.mark.parametrize(
    ("damage", "soaked", "wears"), [(3, 3, False), (3, 2, True), (0, 0, False)]
)
def test_a_shield_wears_down_unless_it_soaked_every_success(damage, soaked, wears):
    assert armor.shield_wears_down(damage, soaked) is wears  # L220


@given(
    rating=st.integers(1, 6),
    lost=st.integers(0, 6),
    merits=st.sets(
        st.sampled_from(["armored_protection", "improved_armored_protection", "armor_master"])
    ),
    proficient=st.sets(st.sampled_from(["light", "medium", "heavy"])),
)
def test_penalty_and_soak_stay_within_the_seeds_bounds(rating, lost, merits, proficient):
    penalty = armor.armor_penalty(rating, merits, proficient)
    soak = armor.armor_soak(rating, min(lost, rating), merits, proficient)
    assert 0 <= penalty <= armor.armor_class(rating).penalty <= 3
    assert 0 <= soak <= rating + 1


def test_the_sheet_derives_soak_and_penalty_from_the_worn_armor_and_merits():
    sheet = sheet_with(
        {"name": "Blast vest", "rating": 3, "worn": True},
        {"name": "Belt shield", "kind": "shield", "rating": 2, "lost": 1, "worn": True},
        {"name": "Old plate", "rating": 6},
        merits=(("armor_proficiency", "medium"),),
    )
    values = swd10.derived(swd10.validate_sheet(sheet), DEFAULTS)
    assert values["armor_worn"].name == "Blast vest"
    assert (values["armor_soak"], values["armor_penalty"], values["shield_soak"]) == (3, 1, 1)
    assert values["stamina_soak"] == 3 and values["stamina_soaks"] == "bashing and lethal"


def test_a_commoners_stamina_soaks_bashing_damage_only():
    sheet = swd10.demo_sheet() | {"power": 0, "power_current": 0}
    assert swd10.derived(sheet, DEFAULTS)["stamina_soaks"] == "bashing only"  # L187


def test_the_rows_say_the_class_penalty_and_soak_with_their_source():
    sheet = sheet_with({"name": "Blast vest", "rating": 3, "worn": True})
    rows = {row.key: row for row in swd10.trait_rows(sheet, DEFAULTS)}
    rating = rows["armor.0.rating"]
    assert (rating.minimum, rating.maximum) == (1, 6)
    assert "Medium armor: −2 dice" in rating.note and "soaks 3 dice" in rating.note
    assert "000:L741" in rating.source
    assert rows["armor.0.worn"].value is True


def test_armor_is_added_rated_worn_and_removed_through_edits():
    sheet = swd10.demo_sheet()
    sheet = swd10.apply_edit(sheet, "armor.add", "armor|Blast vest", DEFAULTS)
    sheet = swd10.apply_edit(sheet, "armor.add", "armor|Combat suit", DEFAULTS)
    sheet = swd10.apply_edit(sheet, "armor.0.rating", "4", DEFAULTS)
    sheet = swd10.apply_edit(sheet, "armor.0.worn", "yes", DEFAULTS)
    sheet = swd10.apply_edit(sheet, "armor.1.worn", "yes", DEFAULTS)
    # Putting on the suit takes the vest off: one armor at a time.
    assert [row["worn"] for row in sheet["armor"]] == [False, True]
    sheet = swd10.apply_edit(sheet, "armor.0.lost", "2", DEFAULTS)
    sheet = swd10.apply_edit(sheet, "armor.0.rating", "1", DEFAULTS)
    assert sheet["armor"][0] == {
        "name": "Blast vest", "kind": "armor", "rating": 1, "lost": 1, "worn": False
    }  # fmt: skip
    sheet = swd10.apply_edit(sheet, "armor.0.remove", "", DEFAULTS)
    assert [row["name"] for row in sheet["armor"]] == ["Combat suit"]
    assert swd10.validate_sheet(sheet)["armor"] == sheet["armor"]


@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("armor.0.rating", "7", "Blast vest rating runs from 1 to 6"),
        ("armor.0.rating", "0", "Blast vest rating runs from 1 to 6"),
        ("armor.0.lost", "4", "points lost runs from 0 to 3"),
        ("armor.add", "helmet|Bucket", "Choose armor or a shield"),
        ("armor.add", "armor| ", "Name the armor"),
        ("armor.3.rating", "2", "There is no armor or shield number 4"),
        ("armor.0.colour", "red", "is not a trait"),
    ],
)
def test_bad_armor_input_is_refused_with_a_message_and_changes_nothing(trait, raw, message):
    sheet = sheet_with({"name": "Blast vest", "rating": 3})
    before = {**sheet, "armor": [dict(row) for row in sheet["armor"]]}
    with pytest.raises(InvalidEdit) as refused:
        swd10.apply_edit(sheet, trait, raw, DEFAULTS)
    assert message in str(refused.value)
    assert sheet == before


def test_a_shield_may_be_rated_higher_than_armor():
    sheet = sheet_with({"name": "Field", "kind": "shield"})
    assert swd10.apply_edit(sheet, "armor.0.rating", "8", DEFAULTS)["armor"][0]["rating"] == 8


@pytest.mark.parametrize(
    ("rows", "fault"),
    [
        ([{"name": "A", "rating": 7}], "armor.0.rating: Armor rating runs from 1 to 6"),
        ([{"name": "A", "rating": 2, "lost": 3}], "armor.0.lost: cannot lose more"),
        ([{"name": "A", "worn": True}, {"name": "B", "worn": True}], "only one armor"),
        ([{"name": " "}], "armor.0.name: armor or a shield needs a name"),
    ],
)
def test_a_stored_or_imported_sheet_with_impossible_armor_is_refused(rows, fault):
    with pytest.raises(InvalidSheet) as bad:
        swd10.validate_sheet(sheet_with(*rows))
    assert fault in str(bad.value)


def test_a_version_1_sheet_upgrades_to_no_armor():
    old = swd10.demo_sheet()
    del old["armor"]
    old["schema_version"] = 1
    upgraded = swd10.validate_sheet(old)
    assert upgraded["schema_version"] == 2 and upgraded["armor"] == []
