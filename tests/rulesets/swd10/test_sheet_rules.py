"""SWd10 creation budgets and sheet edits, table-driven from seed 000 (L288-304)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesets.swd10 as swd10
from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.swd10.data import ABILITIES, ATTRIBUTES

DEFAULTS = {"attribute_free_dot": True}


def with_changes(sheet: dict, **changes: str) -> dict:
    for trait, value in changes.items():
        sheet = swd10.apply_edit(sheet, trait.replace("__", "."), value, DEFAULTS)
    return sheet


def test_the_digest_base_character_is_legal_with_every_budget_spent():
    # Digest §8 case 1 (L290-298): Physical 6 / Social 4 / Mental 3, 11/7/4 abilities.
    report = swd10.check(swd10.demo_sheet(), DEFAULTS)
    assert report.ok, report.violations
    assert report.violations == []
    assert [(p.key, p.allowed, p.spent) for p in report.pools] == [
        ("attributes.physical", 6, 6),
        ("attributes.social", 4, 4),
        ("attributes.mental", 3, 3),
        ("abilities.talents", 11, 11),
        ("abilities.skills", 7, 7),
        ("abilities.knowledges", 4, 4),
    ]


@pytest.mark.parametrize(
    ("case", "changes", "code", "trait"),
    [
        # §8 case 2, L290: Dexterity 5 makes Physical 7 extra dots.
        ("2", {"attr__dexterity": "5"}, "attributes_over_budget", "pool.attributes.physical"),
        # §8 case 3, L290: Str 1 / Dex 5 / Sta 4 is 0 + 4 + 3 = 7.
        (
            "3",
            {"attr__strength": "1", "attr__dexterity": "5", "attr__stamina": "4"},
            "attributes_over_budget",
            "pool.attributes.physical",
        ),
        # §8 case 4, L292: Acrobatics 4 (Talents still 11).
        (
            "4",
            {"abil__acrobatics": "4", "abil__dodge": "2"},
            "ability_above_creation_cap",
            "abil.acrobatics",
        ),
        # §8 case 5, L292: Melee 3 makes Skills 8.
        ("5", {"abil__melee": "3"}, "abilities_over_budget", "pool.abilities.skills"),
    ],
)
def test_it_reports_the_digest_creation_errors(case, changes, code, trait):
    report = swd10.check(with_changes(swd10.demo_sheet(), **changes), DEFAULTS)
    assert not report.ok
    assert [(v.code, v.trait) for v in report.errors] == [(code, trait)]


def test_the_over_budget_message_names_the_numbers_and_the_source_line():
    report = swd10.check(with_changes(swd10.demo_sheet(), attr__dexterity="5"), DEFAULTS)
    (error,) = report.errors
    assert error.message == (
        "Physical has 7 dots placed; as the primary group it allows 6 (L290). Remove 1."
    )


def test_an_attribute_of_six_is_refused_at_the_edit():
    # §8 case 3 second half: Dexterity 6 breaks the 5-circle maximum (L10-12).
    with pytest.raises(InvalidEdit, match="Dexterity runs from 1 to 5"):
        swd10.apply_edit(swd10.demo_sheet(), "attr.dexterity", "6", DEFAULTS)


def test_dots_still_to_place_are_warnings_not_errors():
    report = swd10.check(swd10.blank_sheet(DEFAULTS), DEFAULTS)
    assert report.ok
    assert {v.code for v in report.warnings} == {"attributes_left", "abilities_left"}
    assert report.pool("abilities.talents").left == 11


def test_choosing_a_priority_swaps_it_with_the_group_that_had_it():
    sheet = swd10.apply_edit(swd10.blank_sheet(), "prio.attributes.mental", "0", DEFAULTS)
    assert sheet["priorities"]["attributes"] == ["mental", "social", "physical"]
    report = swd10.check(sheet, DEFAULTS)
    assert report.pool("attributes.mental").allowed == 6
    assert report.pool("attributes.physical").allowed == 3


def test_the_demo_character_breaks_the_budget_once_priorities_are_swapped():
    sheet = swd10.apply_edit(swd10.demo_sheet(), "prio.abilities.knowledges", "0", DEFAULTS)
    report = swd10.check(sheet, DEFAULTS)
    assert {(v.code, v.trait) for v in report.errors} == {
        ("abilities_over_budget", "pool.abilities.talents")
    }


def test_the_counting_first_dot_reading_charges_the_printed_dot_too():
    settings = {"attribute_free_dot": False}
    report = swd10.check(swd10.blank_sheet(settings), settings)
    assert report.pool("attributes.physical").spent == 3


@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("attr.wits", "three", "Wits: “three” is not a whole number."),
        ("attr.wits", "0", "Wits runs from 1 to 5; “0” is outside it."),
        ("abil.dodge", "-1", "Dodge runs from 0 to 5; “-1” is outside it."),
        ("abil.lightsaber", "2", "“abil.lightsaber” is not a trait of a SWd10 sheet."),
        ("prio.attributes.cosmic", "0", "There is no attributes group called “cosmic”."),
        ("prio.abilities.skills", "3", "Skills priority runs from 0 to 2; “3” is outside it."),
        ("info.experience", "-5", "Experience runs from 0 to 100000; “-5” is outside it."),
        ("info.player", "x" * 201, "Player is limited to 200 characters."),
    ],
)
def test_it_refuses_bad_edits_with_a_plain_message_and_leaves_the_sheet_alone(trait, raw, message):
    sheet = swd10.demo_sheet()
    snapshot = swd10.demo_sheet()
    with pytest.raises(InvalidEdit) as refused:
        swd10.apply_edit(sheet, trait, raw, DEFAULTS)
    assert refused.value.message == message
    assert refused.value.trait == trait
    assert sheet == snapshot


def test_derived_values_follow_the_seed_formulas():
    derived = swd10.derived(swd10.demo_sheet(), DEFAULTS)
    # Dexterity 4: (20 + 12) / 2 = 16 m, running 32 m (L212); Wits 2 + 1 (L296).
    assert derived == {
        "willpower_at_creation": 3,
        "walk_metres": 16.0,
        "run_metres": 32.0,
        "initiative_pool": 6,
    }


@pytest.mark.parametrize(
    ("trait", "start", "end", "amount", "explanation"),
    [
        ("attr.intelligence", 2, 4, 28, "Intelligence 2 → 4: 12 + 16 = 28 XP"),
        ("attr.strength", 1, 5, 56, "Strength 1 → 5: 8 + 12 + 16 + 20 = 56 XP"),
        ("abil.stealth", 0, 1, 3, "Stealth 0 → 1: a new ability costs 3 XP"),
        ("abil.stealth", 0, 5, 31, "Stealth 0 → 5: 3 + 4 + 6 + 8 + 10 = 31 XP"),
    ],
)
def test_raises_cost_the_seed_xp_prices(trait, start, end, amount, explanation):
    # L310-312: attribute NV × 4, new ability 3, ability NV × 2.
    sheet = swd10.apply_edit(swd10.blank_sheet(), trait, str(start), DEFAULTS)
    cost = swd10.advance_cost(sheet, trait, end, DEFAULTS)
    assert (cost.amount, cost.explanation) == (amount, explanation)


def test_validate_sheet_round_trips_a_sheet_and_refuses_strangers():
    assert swd10.validate_sheet(swd10.demo_sheet()) == swd10.demo_sheet()
    with pytest.raises(InvalidSheet, match="Unknown sheet sections: spells"):
        swd10.validate_sheet(swd10.demo_sheet() | {"spells": {}})
    broken = swd10.demo_sheet()
    broken["attributes"]["wits"] = 9
    with pytest.raises(InvalidSheet, match="Wits runs from 1 to 5"):
        swd10.validate_sheet(broken)
    broken = swd10.demo_sheet()
    broken["abilities"]["dodge"] = "2"
    with pytest.raises(InvalidSheet, match="must be a whole number"):
        swd10.validate_sheet(broken)
    with pytest.raises(InvalidSheet, match="JSON object"):
        swd10.validate_sheet([1, 2])


attribute_traits = st.sampled_from([f"attr.{t.slug}" for t in ATTRIBUTES])
ability_traits = st.sampled_from([f"abil.{t.slug}" for t in ABILITIES])


@given(st.one_of(attribute_traits, ability_traits), st.integers(0, 5))
def test_raising_then_lowering_a_trait_restores_every_budget(trait, value):
    sheet = swd10.demo_sheet()
    section = "attributes" if trait.startswith("attr.") else "abilities"
    original = sheet[section][trait.partition(".")[2]]
    value = max(value, 1) if section == "attributes" else value
    before = [(p.key, p.spent) for p in swd10.check(sheet, DEFAULTS).pools]
    raised = swd10.apply_edit(sheet, trait, str(value), DEFAULTS)
    restored = swd10.apply_edit(raised, trait, str(original), DEFAULTS)
    assert [(p.key, p.spent) for p in swd10.check(restored, DEFAULTS).pools] == before


@given(st.one_of(attribute_traits, ability_traits), st.integers(0, 4), st.integers(0, 5))
def test_a_raise_never_costs_less_than_nothing_and_steps_add_up(trait, start, extra):
    section = "attributes" if trait.startswith("attr.") else "abilities"
    start = max(start, 1) if section == "attributes" else start
    end = min(start + extra, 5)
    sheet = swd10.apply_edit(swd10.blank_sheet(), trait, str(start), DEFAULTS)
    whole = swd10.advance_cost(sheet, trait, end, DEFAULTS)
    assert whole.amount >= 0
    by_steps, current = 0, sheet
    for value in range(start + 1, end + 1):
        by_steps += swd10.advance_cost(current, trait, value, DEFAULTS).amount
        current = swd10.apply_edit(current, trait, str(value), DEFAULTS)
    assert by_steps == whole.amount
