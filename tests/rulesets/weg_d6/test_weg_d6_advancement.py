"""Advancement in Character Points (R&E, 002:35-59) and skill points (1E, 003:1758-1804)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.weg_d6 import costs, data, force, traits

SETTINGS = resolve_settings(weg.SETTINGS, {})


def in_play(sheet: dict, points: int = 100) -> dict:
    sheet = weg.apply_edit(sheet, "stage", "play", SETTINGS)
    return weg.apply_edit(sheet, "points.character", str(points), SETTINGS)


def smuggler(points: int = 100) -> dict:
    return in_play(weg.demo_sheet(), points)


def jedi_1e(control: int = 0, sense: int = 0, alter: int = 0, teacher: bool = True) -> dict:
    sheet = in_play(weg.blank_sheet({**SETTINGS, "default_edition": "1e"}))
    sheet["force"].update(control=control, sense=sense, alter=alter)
    sheet["teacher"] = {"present": teacher, "control": 21, "sense": 21, "alter": 21}
    return sheet


def jedi_re(control: int = 6, teacher: bool = True) -> dict:
    sheet = smuggler()
    sheet["force"].update(sensitive=True, control=control)
    sheet["teacher"]["present"] = teacher
    return sheet


# --- prices, table-driven from the seeds and the digest's worked examples ---------------------

PRICE_CASES = [
    # (id with its source, sheet builder, trait, from pips, to pips, expected amount)
    ("case10-blaster-4D+2-to-5D-002:43", smuggler, "skill.blaster", 14, 15, 4),
    ("case11-strength-3D-to-3D+1-002:51", smuggler, "attr.strength", 9, 10, 30),
    ("case12-dodge-3D-to-3D+1-002:43", smuggler, "skill.dodge", 9, 10, 3),
    ("S6-advanced-3D-to-3D+1-002:47", smuggler, "skill.advanced_medicine", 9, 10, 6),
    ("case13-control-2D-to-2D+1-teacher-002:798", jedi_re, "force.control", 6, 7, 2),
    (
        "case13-control-2D-to-2D+1-alone-002:798",
        lambda: jedi_re(teacher=False),
        "force.control",
        6,
        7,
        4,
    ),
    (
        "case15-control-above-master-003:1774",
        lambda: jedi_1e(control=22),
        "force.control",
        22,
        23,
        14,
    ),
    (
        "1E-control-2D-to-2D+1-alone-003:1772",
        lambda: jedi_1e(control=6, teacher=False),
        "force.control",
        6,
        7,
        4,
    ),
    (
        "1E-control-2D-to-2D+1-teacher-003:1764",
        lambda: jedi_1e(control=6),
        "force.control",
        6,
        7,
        2,
    ),
    ("multi-pip-skill-3D-to-5D-002:43", smuggler, "skill.dodge", 9, 15, 21),
]


@pytest.mark.parametrize(
    ("build", "trait", "start", "end", "amount"),
    [case[1:] for case in PRICE_CASES],
    ids=[case[0] for case in PRICE_CASES],
)
def test_it_prices_raises_as_the_seeds_do(build, trait, start, end, amount) -> None:
    sheet = build()
    rest = trait.partition(".")[2]
    if trait.startswith("attr."):
        sheet["attributes"][rest] = start
    elif trait.startswith("skill."):
        sheet["skills"][rest] = start
    assert weg.advance_cost(sheet, trait, end, SETTINGS).amount == amount


def test_a_specialization_costs_half_rounded_up_by_default() -> None:  # S6, 002:45
    sheet = smuggler()
    sheet["specializations"]["space_transports_yt_1300"]["pips"] = 17  # 5D+2
    cost = weg.advance_cost(sheet, "spec.space_transports_yt_1300", 18, SETTINGS)
    assert cost.amount == 3
    assert "half of 5" in cost.explanation
    down = {**SETTINGS, "specialization_rounding": "down"}
    assert weg.advance_cost(sheet, "spec.space_transports_yt_1300", 18, down).amount == 2


def test_move_costs_its_current_value_and_stops_at_the_species_maximum() -> None:  # 002:55-57
    sheet = smuggler()
    assert weg.advance_cost(sheet, "move", 11, SETTINGS).amount == 10
    assert weg.advance_cost(sheet, "move", 12, SETTINGS).amount == 21
    with pytest.raises(InvalidEdit, match="species maximum of 12"):
        weg.advance_cost(sheet, "move", 13, SETTINGS)


def test_the_explanation_names_the_numbers() -> None:
    cost = weg.advance_cost(smuggler(), "skill.blaster", 18, SETTINGS)
    assert cost.explanation == "Blaster: 5 + 5 = 10 CP"
    assert cost.steps[0].explanation == (
        "Blaster 5D+1 → 5D+2: 5 CP per pip (the number before the D) = 5 CP"
    )


def test_an_attribute_raise_explains_the_species_roll_and_half_refund() -> None:  # 002:51-53
    sheet = smuggler()
    sheet["attributes"]["strength"] = 9
    text = weg.advance_cost(sheet, "attr.strength", 10, SETTINGS).explanation
    assert "10 × 3 = 30 CP" in text
    assert "species maximum 4D" in text
    assert "15 CP back" in text


def test_the_attribute_roll_refunds_half_when_the_character_rolls_higher() -> None:  # case 11
    assert costs.resolve_attribute_roll(15, 12, 30) == costs.resolve_attribute_roll(15, 12, 30)
    failed = costs.resolve_attribute_roll(15, 12, 30)
    assert (failed.improved, failed.refund) == (False, 15)
    tie = costs.resolve_attribute_roll(12, 12, 30)
    assert (tie.improved, tie.refund) == (True, 0)


def test_the_attribute_roll_uses_the_injected_random_generator() -> None:
    first = costs.roll_attribute_improvement(10, 12, 30, random.Random(7))
    again = costs.roll_attribute_improvement(10, 12, 30, random.Random(7))
    assert first == again
    assert 4 <= first.character_total <= 19 and 4 <= first.gm_total <= 24


def test_the_currency_is_named_per_edition() -> None:
    assert weg.derived(smuggler(), SETTINGS)["currency"] == {
        "short": "CP",
        "name": "Character Points",
    }
    assert weg.derived(jedi_1e(), SETTINGS)["currency"]["name"] == "skill points"
    assert weg.advance_cost(jedi_1e(), "skill.blaster", 7, SETTINGS).unit == "SP"


def test_becoming_force_sensitive_costs_20_cp() -> None:  # 002:59
    sheet = weg.apply_edit(smuggler(25), "advance.force.sensitive", "", SETTINGS)
    assert sheet["force"]["sensitive"] is True
    assert sheet["points"]["character"] == 5


def test_it_refuses_a_force_skill_without_force_sensitivity() -> None:  # case 13, 002:794
    with pytest.raises(InvalidEdit, match="Force-sensitive"):
        weg.apply_edit(smuggler(), "force.control", "1D", SETTINGS)
    with pytest.raises(InvalidEdit, match="Force-sensitive"):
        weg.apply_edit(smuggler(), "advance.force.control", "1D", SETTINGS)
    sheet = smuggler()
    sheet["force"]["control"] = 3
    assert "force_needs_sensitivity" in weg.check(sheet, SETTINGS).codes()


def test_the_first_re_force_die_is_a_setting_doubled_without_a_teacher() -> None:  # §10.6
    sheet = jedi_re(control=0)
    assert weg.advance_cost(sheet, "force.control", 3, SETTINGS).amount == 3
    sheet["teacher"]["present"] = False
    assert weg.advance_cost(sheet, "force.control", 3, SETTINGS).amount == 6
    assert (
        weg.advance_cost(
            sheet, "force.control", 3, {**SETTINGS, "re_first_force_die_cost": 5}
        ).amount
        == 10
    )


def test_a_force_skill_pip_brings_a_free_power_that_uses_that_skill() -> None:  # 002:800
    sheet = weg.apply_edit(jedi_re(), "advance.force.control", "2D+1", SETTINGS)
    assert sheet["force"]["power_picks"] == ["control"]
    assert "power_picks_waiting" in weg.check(sheet, SETTINGS).codes()
    assert weg.advance_cost(sheet, "power.control_pain", 1, SETTINGS).amount == 0
    after = weg.apply_edit(sheet, "advance.power", "control_pain", SETTINGS)
    assert after["force"]["power_picks"] == []
    assert after["points"]["character"] == sheet["points"]["character"]


def test_a_power_without_a_skill_raise_costs_5_cp_and_two_skills_count_twice() -> None:
    sheet = jedi_re()
    sheet["force"]["sense"] = 3
    assert weg.advance_cost(sheet, "power.control_pain", 1, SETTINGS).amount == 5  # 002:802
    assert weg.advance_cost(sheet, "power.farseeing", 1, SETTINGS).amount == 10  # 002:804
    one = {**SETTINGS, "multi_skill_power_count": "one"}
    assert weg.advance_cost(sheet, "power.farseeing", 1, one).amount == 5


def test_it_refuses_learning_a_power_whose_skill_is_still_0d() -> None:
    with pytest.raises(InvalidEdit, match="needs Alter"):
        weg.apply_edit(jedi_re(), "advance.power", "telekinesis", SETTINGS)


# --- the one-pip rule between adventures (002:39) -----------------------------------------


def test_it_refuses_raising_a_skill_two_pips_between_adventures() -> None:  # case 12
    sheet = smuggler()
    sheet["skills"]["dodge"] = 9
    with pytest.raises(InvalidEdit, match="one pip between adventures"):
        weg.apply_edit(sheet, "advance.skill.dodge", "3D+2", SETTINGS)


def test_it_refuses_a_second_pip_for_the_same_skill_in_one_window() -> None:  # case 12
    sheet = smuggler()
    sheet["skills"]["dodge"] = 9
    sheet = weg.apply_edit(sheet, "advance.skill.dodge", "3D+1", SETTINGS)
    assert sheet["interval"] == [{"trait": "skill.dodge", "from": 9, "to": 10, "cost": 3}]
    assert sheet["points"]["character"] == 97
    with pytest.raises(InvalidEdit, match="already rose 1"):
        weg.apply_edit(sheet, "advance.skill.dodge", "3D+2", SETTINGS)
    # Another skill may rise in the same window, and a new adventure reopens dodge.
    weg.apply_edit(sheet, "advance.skill.blaster", "5D+2", SETTINGS)
    reopened = weg.apply_edit(sheet, "interval.close", "", SETTINGS)
    assert (
        weg.apply_edit(reopened, "advance.skill.dodge", "3D+2", SETTINGS)["skills"]["dodge"] == 11
    )


def test_check_flags_a_recorded_second_pip_between_adventures() -> None:
    sheet = smuggler()
    sheet["interval"] = [
        {"trait": "skill.dodge", "from": 13, "to": 14, "cost": 4},
        {"trait": "skill.dodge", "from": 14, "to": 15, "cost": 4},
    ]
    [found] = weg.check(sheet, SETTINGS).for_trait("skill.dodge")
    assert found.code == "second_pip_between_adventures"
    assert "2 pips" in found.message


def test_attributes_join_the_one_pip_rule_only_when_the_gm_says_so() -> None:  # §10.3
    sheet = smuggler(200)
    sheet = weg.apply_edit(sheet, "advance.attr.knowledge", "2D+2", SETTINGS)
    sheet = weg.apply_edit(sheet, "advance.attr.knowledge", "3D", SETTINGS)
    strict = {**SETTINGS, "pip_limit_scope": "skills_and_attributes"}
    assert "second_pip_between_adventures" in weg.check(sheet, strict).codes()
    assert "second_pip_between_adventures" not in weg.check(sheet, SETTINGS).codes()


def test_the_one_pip_rule_does_not_bind_1st_edition() -> None:
    sheet = jedi_1e()
    sheet["skills"]["dodge"] = 6
    sheet = weg.apply_edit(sheet, "advance.skill.dodge", "3D", SETTINGS)
    assert sheet["skills"]["dodge"] == 9


def test_it_refuses_a_raise_the_character_points_cannot_pay() -> None:
    with pytest.raises(InvalidEdit, match="only 3 Character Points are left"):
        weg.apply_edit(smuggler(3), "advance.skill.blaster", "5D+2", SETTINGS)


def test_it_refuses_to_lower_a_trait_through_advancement() -> None:
    with pytest.raises(InvalidEdit, match="only raises"):
        weg.advance_cost(smuggler(), "skill.blaster", 12, SETTINGS)


# --- 1st edition Force training (003:1758-1804) ------------------------------------------


def test_it_refuses_alter_as_the_first_force_skill_in_1e() -> None:  # case 14, 003:1762
    with pytest.raises(InvalidEdit, match="Alter is taught last"):
        weg.apply_edit(jedi_1e(), "advance.force.alter", "1D", SETTINGS)
    with pytest.raises(InvalidEdit, match="both Control and Sense"):
        weg.apply_edit(jedi_1e(control=3), "advance.force.alter", "1D", SETTINGS)
    either = {**SETTINGS, "alter_order": "after_either"}
    assert (
        weg.apply_edit(jedi_1e(control=3), "advance.force.alter", "1D", either)["force"]["alter"]
        == 3
    )
    sheet = jedi_1e(control=3)
    sheet["force"]["alter"] = 3
    assert "alter_before_control_sense" in weg.check(sheet, SETTINGS).codes()


def test_learning_a_1e_force_skill_takes_ten_weeks_and_brings_three_powers() -> None:  # S2
    sheet = weg.apply_edit(jedi_1e(), "advance.force.sense", "1D", SETTINGS)
    assert sheet["force"]["sense"] == 3
    assert set(sheet["force"]["powers"]) == {"life_sense", "magnify_senses", "receptive_telepathy"}
    cost = weg.advance_cost(jedi_1e(), "force.sense", 3, SETTINGS)
    assert cost.amount == 0 and "10 weeks" in cost.explanation


def test_a_1e_force_skill_at_0d_needs_a_teacher() -> None:  # 003:1772
    with pytest.raises(InvalidEdit, match="never be learned without a teacher"):
        weg.advance_cost(jedi_1e(teacher=False), "force.control", 3, SETTINGS)


def test_a_1e_power_is_free_from_a_teacher_and_one_point_by_experiment() -> None:  # S3, 003:1798
    sheet = jedi_1e(control=6, sense=6)
    assert weg.advance_cost(sheet, "power.farseeing", 1, SETTINGS).amount == 0
    sheet["teacher"]["present"] = False
    assert weg.advance_cost(sheet, "power.farseeing", 1, SETTINGS).amount == 1


def test_control_3d_plus_2_holds_eleven_powers_and_refuses_a_twelfth() -> None:  # S1, 003:1798
    sheet = jedi_1e(control=11, sense=3, alter=3)
    control_powers = [p.slug for p in data.FORCE_POWERS if "control" in p.skills]
    sheet["force"]["powers"] = control_powers[:11]
    report = weg.check(sheet, SETTINGS)
    assert report.pool("powers_control").exact
    assert "power_total" not in report.codes()
    with pytest.raises(InvalidEdit, match="holds 11 powers"):
        weg.apply_edit(sheet, "power.add", control_powers[11], SETTINGS)
    sheet["force"]["powers"] = control_powers[:12]
    assert "power_total" in weg.check(sheet, SETTINGS).codes()


def test_a_three_skill_power_takes_a_slot_in_each_skill() -> None:  # 003:1798
    sheet = jedi_1e(control=3, sense=3, alter=3)
    sheet["force"]["powers"] = ["telekinetic_kill"]
    totals = force.power_totals(sheet, SETTINGS)
    assert totals == {"control": (1, 3), "sense": (1, 3), "alter": (1, 3)}


# --- invariants -------------------------------------------------------------------------------

RAISABLE = [
    "skill.blaster",
    "skill.dodge",
    "attr.knowledge",
    "spec.space_transports_yt_1300",
    "skill.advanced_medicine",
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RAISABLE), st.integers(0, 25))
def test_a_cost_is_never_negative(trait: str, pips: int) -> None:
    sheet = smuggler()
    start = traits.trait_value(sheet, trait)
    cost = weg.advance_cost(sheet, trait, start + pips, SETTINGS)
    assert cost.amount >= 0
    # With the default rounding up, every pip costs at least 1, so nothing is free.
    assert cost.amount >= pips


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RAISABLE), st.integers(1, 20))
def test_summing_single_pips_equals_a_multi_pip_raise(trait: str, pips: int) -> None:
    sheet = smuggler()
    start = traits.trait_value(sheet, trait)
    singles = 0
    for value in range(start, start + pips):
        at_value = weg.apply_edit(sheet, trait, traits.code_text(value), SETTINGS)
        singles += weg.advance_cost(at_value, trait, value + 1, SETTINGS).amount
    assert singles == weg.advance_cost(sheet, trait, start + pips, SETTINGS).amount


@settings(max_examples=40, deadline=None)
@given(st.permutations(["skill.blaster", "skill.dodge", "skill.streetwise", "attr.perception"]))
def test_the_order_of_purchases_does_not_change_what_is_left(order: list[str]) -> None:
    sheet = smuggler(500)
    for trait in order:
        target = traits.code_text(traits.trait_value(sheet, trait) + 1)
        sheet = weg.apply_edit(sheet, f"advance.{trait}", target, SETTINGS)
    assert sheet["points"]["character"] == 500 - (5 + 4 + 3 + 30)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["skill.bargain", "skill.con", "skill.search"]), st.integers(1, 2))
def test_raising_then_lowering_a_skill_restores_the_skill_dice_budget(
    trait: str, pips: int
) -> None:
    sheet = weg.demo_sheet()
    before = weg.check(sheet, SETTINGS).pool("skill_dice").spent
    raised = weg.apply_edit(sheet, trait, traits.code_text(9 + pips), SETTINGS)
    assert weg.check(raised, SETTINGS).pool("skill_dice").spent == before + pips
    lowered = weg.apply_edit(raised, trait, "", SETTINGS)
    assert weg.check(lowered, SETTINGS).pool("skill_dice").spent == before


def test_next_costs_prices_one_step_of_every_raisable_trait() -> None:
    prices = costs.next_costs(smuggler(), SETTINGS)
    assert prices["skill.blaster"].amount == 5
    assert prices["attr.perception"].amount == 30
    assert prices["move"].amount == 10
    assert prices["force.sensitive"].amount == 20
    assert "force.control" not in prices  # not Force-sensitive yet
    jedi = costs.next_costs(jedi_re(), SETTINGS)
    assert jedi["force.control"].amount == 2 and jedi["force.sense"].amount == 3
