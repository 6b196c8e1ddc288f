"""Issue 13, WEG: Force skills counted at creation, "+1D" read as dice over the attribute,
the 1E initial powers under a visible reading, and the template's weapons, gear and looks.

Every sheet is built as a player builds it: a blank sheet, then apply_edit one field at a
time, exactly what the sheet page posts.
"""

from __future__ import annotations

import contextlib
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, InvalidSheet, resolve_settings
from rulesets.weg_d6 import demo
from rulesets.weg_d6.data import ATTRIBUTE_SLUGS, INITIAL_POWERS_1E, MAX_WEAPONS, QUOTE_LIMIT
from rulesets.weg_d6.force import power_totals

SETTINGS = resolve_settings(weg.SETTINGS, {})
# A human PC at 18D: 3D in every attribute (003:913).
ATTRIBUTES_18D = dict.fromkeys(ATTRIBUTE_SLUGS, "3D")


def build(edits: list[tuple[str, str]], settings: dict | None = None, edition="2e_re") -> dict:
    chosen = {**SETTINGS, **(settings or {})}
    sheet = weg.blank_sheet({**chosen, "default_edition": edition})
    for trait, raw in [*((f"attr.{a}", c) for a, c in ATTRIBUTES_18D.items()), *edits]:
        sheet = weg.apply_edit(sheet, trait, raw, chosen)
    return sheet


def codes(sheet: dict, settings: dict | None = None) -> list[str]:
    return sorted(v.code for v in weg.check(sheet, {**SETTINGS, **(settings or {})}).errors)


SEVEN_DICE_ELSEWHERE = [
    ("skill.blaster", "5D"),  # 2D
    ("skill.dodge", "5D"),  # 2D
    ("skill.search", "5D"),  # 2D
    ("skill.stamina", "4D"),  # 1D
]


# --- 1. Force skills at creation are counted and checked ----------------------------------


@pytest.mark.parametrize(
    ("edits", "edition", "reading", "expected"),
    [
        # The play-test: Control 5D with all 7D spent elsewhere (R&E).
        (
            [("force.sensitive", "yes"), *SEVEN_DICE_ELSEWHERE, ("force.control", "5D")],
            "2e_re",
            {},
            ["creation_skill_cap", "skill_dice_over"],
        ),
        # Within the dice and the 2D cap: legal.
        (
            [("force.sensitive", "yes"), *SEVEN_DICE_ELSEWHERE[:3], ("force.control", "1D")],
            "2e_re",
            {},
            [],
        ),
        # 2D of Force dice but only the per-skill cap broken: 3D in Sense.
        (
            [("force.sensitive", "yes"), ("skill.blaster", "5D"), ("force.sense", "3D")],
            "2e_re",
            {},
            ["creation_skill_cap"],
        ),
        # R&E without Force-sensitivity: the rule is named.
        ([("force.control", "1D")], "2e_re", {}, []),  # refused at the edit, see below
        # Force dice of their own: Control 1D is outside the 7D, and the pool holds 3D.
        (
            [("force.sensitive", "yes"), *SEVEN_DICE_ELSEWHERE, ("force.control", "1D")],
            "2e_re",
            {"force_creation": "force_dice"},
            [],
        ),
        (
            [("force.sensitive", "yes"), ("force.control", "2D"), ("force.sense", "2D")],
            "2e_re",
            {"force_creation": "force_dice"},
            ["force_dice_over"],
        ),
        # 1E: a Force template (the GM's mark) or a teacher, else the rule is named.
        ([("force.control", "1D")], "1e", {}, ["force_needs_template"]),
        ([("force.sensitive", "yes"), ("force.control", "1D")], "1e", {}, []),
        ([("teacher.present", "yes"), ("force.control", "1D")], "1e", {}, []),
        # 1E counts them in the skill dice too: 7D elsewhere plus Control 1D is 8D.
        (
            [("force.sensitive", "yes"), *SEVEN_DICE_ELSEWHERE, ("force.control", "1D")],
            "1e",
            {},
            ["skill_dice_over"],
        ),
    ],
)
def test_force_skills_at_creation_are_counted_and_checked(edits, edition, reading, expected):
    if edition == "2e_re" and ("force.sensitive", "yes") not in edits:
        with pytest.raises(InvalidEdit, match="Only a Force-sensitive character"):
            build(edits, reading, edition)
        return
    sheet = build(edits, reading, edition)
    assert codes(sheet, reading) == expected


def test_force_skills_count_in_the_skill_dice_pool():
    sheet = build([("force.sensitive", "yes"), ("force.control", "2D")])
    [pool] = [p for p in weg.check(sheet, SETTINGS).pools if p.key == "skill_dice"]
    assert pool.spent == 6
    assert weg.derived(sheet, SETTINGS)["skill_dice_spent"] == "2D"


def test_an_imported_r_and_e_sheet_with_force_skills_and_no_sensitivity_names_the_rule():
    sheet = build([])
    sheet["force"]["control"] = 3
    [found] = weg.check(sheet, SETTINGS).for_trait("force.control")
    assert found.code == "force_needs_sensitivity" and found.source == "002:794"


def test_the_1e_rule_names_the_force_templates_and_its_source():
    sheet = build([("force.control", "1D")], edition="1e")
    found = [v for v in weg.check(sheet, SETTINGS).errors if v.code == "force_needs_template"]
    assert found[0].source == "003:1758"
    assert "Minor Jedi" in found[0].message and "teacher or master" in found[0].message


def test_in_play_the_1e_template_rule_no_longer_applies():
    sheet = build([("force.control", "1D")], edition="1e")
    sheet = weg.apply_edit(sheet, "stage", "play", SETTINGS)
    assert "force_needs_template" not in codes(sheet)


# --- 2. "+1D" is dice over the attribute (over the skill, for a specialization) ---------


@pytest.mark.parametrize(
    ("trait", "typed", "stored"),
    [
        ("skill.dodge", "+1D", 12),  # Dexterity 3D + 1D = 4D, not an absolute 1D
        ("skill.dodge", "+1D+1", 13),
        ("skill.dodge", "+ 2D", 15),
        ("skill.dodge", "4D+1", 13),  # written out in full, as before
        ("skill.dodge", "+0D", 9),
    ],
)
def test_a_leading_plus_is_dice_over_the_attribute(trait, typed, stored):
    sheet = build([(trait, typed)])
    assert sheet["skills"]["dodge"] == stored
    assert "skill_below_attribute" not in codes(sheet)


def test_the_play_test_dodge_plus_1d_is_no_longer_below_its_attribute():
    sheet = build([("skill.dodge", "+1D")])
    assert not weg.check(sheet, SETTINGS).for_trait("skill.dodge")
    rows = {row.key: row for row in weg.trait_rows(sheet, SETTINGS)}
    # The field shows the code it came to; the note says it as dice over the attribute.
    assert rows["skill.dodge"].shown == "4D"
    assert "+1D over it" in rows["skill.dodge"].note


def test_a_leading_plus_on_a_specialization_is_dice_over_its_skill():
    sheet = build([("skill.blaster", "4D"), ("spec.add", "Heavy blaster pistol|Blaster")])
    sheet = weg.apply_edit(sheet, "spec.blaster_heavy_blaster_pistol", "+1D", SETTINGS)
    assert sheet["specializations"]["blaster_heavy_blaster_pistol"]["pips"] == 15  # 5D


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("+60D", "comes to 63D"),
        ("+1D+3", "3 pips"),
        ("+x", "is not a die code"),
        ("-1D", "is too low"),  # a penalty is no skill code
    ],
)
def test_a_bad_relative_code_is_refused_with_a_clear_message(typed, words):
    sheet = build([])
    with pytest.raises(InvalidEdit, match=words):
        weg.apply_edit(sheet, "skill.dodge", typed, SETTINGS)


# --- 3. 1E initial powers under a visible reading -----------------------------------------

LEARN_ALL = [("force.sensitive", "yes"), ("force.control", "1D"), ("force.sense", "1D")]


def test_the_traditional_sets_stand_legal_at_1d_under_the_default_reading():  # 003:1778-1796
    sheet = build([*LEARN_ALL, ("force.alter", "1D")], edition="1e")
    assert sorted(sheet["force"]["powers"]) == sorted(
        slug for slugs in INITIAL_POWERS_1E.values() for slug in slugs
    )
    assert "power_total" not in codes(sheet)
    assert {s: used for s, (used, _t) in power_totals(sheet, SETTINGS).items()} == {
        "control": 3,
        "sense": 3,
        "alter": 3,
    }


def test_the_reading_is_visible_with_its_sources():
    [setting] = [s for s in weg.SETTINGS if s.key == "initial_power_slots"]
    assert setting.default == "own_skill"
    assert "003:1798" in setting.source and "003:1778" in setting.source


def test_under_every_skill_no_power_breaks_the_limit_and_the_sheet_proposes_a_swap():
    reading = {"initial_power_slots": "every_skill"}
    sheet = build([*LEARN_ALL, ("force.alter", "1D")], reading, edition="1e")
    assert "control_anothers_pain" not in sheet["force"]["powers"]
    assert "shift_sense" not in sheet["force"]["powers"]  # it would be a 4th Sense power
    assert "power_total" not in codes(sheet, reading)
    [proposal] = weg.check(sheet, {**SETTINGS, **reading}).for_trait("force.alter")
    assert proposal.code == "powers_to_choose"
    assert "Control another's pain would overfill Control 1D" in proposal.message
    assert "drop a power there to take it, or choose another Alter power" in proposal.message


def test_switching_to_every_skill_on_a_full_sheet_names_the_rule():
    sheet = build([*LEARN_ALL, ("force.alter", "1D")], edition="1e")
    reading = {"initial_power_slots": "every_skill"}
    found = [v for v in weg.check(sheet, {**SETTINGS, **reading}).errors]
    assert {v.code for v in found} == {"power_total"}
    assert all(v.source == "003:1798" for v in found)


@settings(max_examples=60, deadline=None)
@given(
    order=st.permutations(["control", "sense", "alter"]),
    reading=st.sampled_from(["own_skill", "every_skill"]),
    shift=st.sampled_from(["sense", "alter"]),
    extra=st.lists(st.sampled_from(["emptiness", "farseeing", "affect_mind"]), max_size=2),
)
def test_learning_force_skills_never_adds_powers_that_break_the_limit(order, reading, shift, extra):
    chosen = {**SETTINGS, "initial_power_slots": reading, "shift_sense_skill": shift}
    sheet = weg.blank_sheet({**chosen, "default_edition": "1e"})
    sheet = weg.apply_edit(sheet, "force.sensitive", "yes", chosen)
    for skill in order:
        for power in extra:  # powers added by hand first may leave no room
            with contextlib.suppress(InvalidEdit):
                sheet = weg.apply_edit(sheet, "power.add", power, chosen)
        sheet = weg.apply_edit(sheet, f"force.{skill}", "1D", chosen)
        for used, total in power_totals(sheet, chosen).values():
            assert total is None or used <= total


# --- 5. weapons, gear, credits, looks and quote --------------------------------------------


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("4D", "4D"), ("5d+2", "5D+2"), ("str+1d", "STR+1D"), ("STR -1D", "STR-1D"), ("", "")],
)
def test_weapon_damage_is_read_as_the_books_write_it(typed, stored):
    sheet = weg.apply_edit(build([]), "weapon.add", f"Blaster|{typed}", SETTINGS)
    assert sheet["weapons"] == [{"name": "Blaster", "damage": stored, "range": "", "ammo": ""}]


@pytest.mark.parametrize(
    ("trait", "raw", "words"),
    [
        ("weapon.add", "|4D", "Write the weapon's name"),
        ("weapon.add", "Blaster|lots", "not a damage code"),
        ("weapon.add", "Blaster|+1D", "not a damage code"),
        ("weapon.add", "x" * 201, "limited to 200 characters"),
        ("weapon.0.range", "r" * 41, "Range is limited to 40 characters"),
        ("weapon.0.ammo", "a" * 21, "Ammo is limited to 20 characters"),
        ("weapon.0.name", "", "needs a name"),
        ("weapon.5.name", "Rifle", "no weapon number 6"),
        ("weapon.remove", "7", "no weapon number 8"),
        ("gear.credits", "-5", "Credits"),
        ("gear.credits", "1000000000", "Credits"),
        ("gear.equipment", "e" * 2001, "Equipment is limited to 2000 characters"),
        ("info.quote", "q" * (QUOTE_LIMIT + 1), f"Quote is limited to {QUOTE_LIMIT} characters"),
        ("info.physical", "p" * 1001, "Physical description is limited to 1000 characters"),
        ("info.quote", "a\x00b", "cannot be stored"),
    ],
)
def test_new_fields_are_capped_with_a_clear_message(trait, raw, words):
    sheet = weg.apply_edit(build([]), "weapon.add", "Blaster|4D", SETTINGS)
    before = copy.deepcopy(sheet)
    with pytest.raises(InvalidEdit, match=words) as refused:
        weg.apply_edit(sheet, trait, raw, SETTINGS)
    assert refused.value.trait == trait
    assert sheet == before


def test_a_sheet_lists_at_most_its_weapons():
    sheet = build([])
    for index in range(MAX_WEAPONS):
        sheet = weg.apply_edit(sheet, "weapon.add", f"Blaster {index}", SETTINGS)
    with pytest.raises(InvalidEdit, match=f"at most {MAX_WEAPONS} weapons"):
        weg.apply_edit(sheet, "weapon.add", "One more", SETTINGS)
    too_many = {**sheet, "weapons": [*sheet["weapons"], {"name": "x"}]}
    with pytest.raises(InvalidSheet, match="weapons"):
        weg.validate_sheet(too_many)


def test_weapons_gear_and_looks_are_rows_of_the_sheet():
    sheet = build([("weapon.add", "Vibroknife|STR+1D"), ("gear.credits", "1200")])
    sheet = weg.apply_edit(sheet, "info.quote", "Never tell me the odds.", SETTINGS)
    rows = {row.key: row for row in weg.trait_rows(sheet, SETTINGS)}
    assert rows["weapon.0.damage"].shown == "STR+1D"
    assert rows["gear.credits"].value == 1200
    assert rows["info.quote"].section == "background"
    assert weg.trait_label("weapon.0.damage") == "Weapon 1 damage"
    assert weg.trait_label("gear.credits") == "Credits"
    droid_rows = {row.key for row in weg.trait_rows(demo.demo_droid_sheet(), SETTINGS)}
    assert "gear.credits" not in droid_rows and "info.quote" not in droid_rows


def test_a_version_1_sheet_upgrades_to_version_2_with_empty_weapons_and_gear():
    current = weg.demo_sheet()
    old = copy.deepcopy(current)
    old["schema_version"] = 1
    for key in ("weapons", "gear"):
        del old[key]
    for key in ("physical", "quote"):
        del old["info"][key]
    upgraded = weg.validate_sheet(old)
    assert upgraded["schema_version"] == weg.SCHEMA_VERSION
    assert upgraded["weapons"] == [] and upgraded["gear"] == {"credits": 0, "equipment": ""}
    assert upgraded["info"]["quote"] == "" and upgraded["info"]["player"] == ""


# --- 9. the demo's 1E Force student and droid ----------------------------------------------


@pytest.mark.parametrize("make", [demo.force_student_1e_sheet, demo.demo_droid_sheet])
def test_the_demo_force_student_and_droid_are_legal(make):
    sheet = weg.validate_sheet(make())
    assert weg.status(sheet, SETTINGS).legal
    assert sheet["edition"] == "1e"
