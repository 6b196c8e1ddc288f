"""Hypothesis invariants: order-free totals, raise-then-lower, non-negative and additive costs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.ore as ore
from rulesets.ore.rules import raisables

WIGGLE_READINGS = st.sampled_from([{}, {"force_wiggle_cost": 20}])

# Purchases that do not limit one another, so any order of them is legal.
PURCHASES = st.fixed_dictionaries(
    {},
    optional={
        "stat.body": st.integers(1, 5),
        "stat.coordination": st.integers(1, 5),
        "stat.cool": st.integers(1, 5),
        "skill.language_basic": st.integers(0, 5),
        "power.force_sense": st.integers(1, 4),
        "power.energy_manipulation": st.integers(0, 4),
        "power.energy_manipulation.hard": st.integers(0, 3),
        "power.energy_manipulation.wiggle": st.integers(0, 3),
        "stunt.force_jump": st.integers(0, 4),
        "stunt.healing": st.integers(0, 4),
        "willpower.bought": st.integers(0, 5),
        "willpower.extra": st.integers(0, 5),
    },
)


def apply_all(sheet: dict, purchases: list[tuple[str, int]], chosen: dict) -> dict:
    for trait, value in purchases:
        sheet = ore.apply_edit(sheet, trait, str(value), chosen)
    return sheet


@settings(max_examples=60, deadline=None)
@given(purchases=PURCHASES, data=st.data(), chosen=WIGGLE_READINGS)
def test_the_order_of_purchases_never_changes_the_points_spent(purchases, data, chosen):
    items = list(purchases.items())
    shuffled = data.draw(st.permutations(items))
    first = apply_all(ore.blank_sheet(chosen), items, chosen)
    second = apply_all(ore.blank_sheet(chosen), shuffled, chosen)
    assert first == second
    spent = ore.points_spent(first, chosen)
    assert spent == sum(item.amount for item in ore.cost_items(second, chosen))
    assert ore.check(first, chosen).pool("points").spent == spent


@settings(max_examples=80, deadline=None)
@given(data=st.data(), chosen=WIGGLE_READINGS)
def test_raising_then_lowering_a_trait_restores_the_budget(data, chosen):
    sheet = ore.demo_sheet()
    options = raisables(sheet, chosen)
    trait = data.draw(st.sampled_from(sorted(options)))
    option = options[trait]
    target = data.draw(st.integers(option.current, option.maximum))
    before = ore.points_spent(sheet, chosen)
    raised = ore.apply_edit(sheet, trait, str(target), chosen)
    lowered = ore.apply_edit(raised, trait, str(option.current), chosen)
    assert ore.points_spent(lowered, chosen) == before
    assert lowered == sheet


@settings(max_examples=80, deadline=None)
@given(data=st.data(), chosen=WIGGLE_READINGS)
def test_a_multi_step_raise_costs_the_sum_of_its_single_steps_and_what_the_budget_says(
    data, chosen
):
    sheet = ore.demo_sheet()
    options = raisables(sheet, chosen)
    trait = data.draw(st.sampled_from(sorted(options)))
    option = options[trait]
    target = data.draw(st.integers(option.current, option.maximum))
    whole = ore.advance_cost(sheet, trait, target, chosen)
    steps = 0
    stepped = sheet
    for value in range(option.current, target):
        steps += ore.advance_cost(stepped, trait, value + 1, chosen).amount
        stepped = ore.apply_edit(stepped, trait, str(value + 1), chosen)
    assert whole.amount == steps >= 0
    assert ore.points_spent(stepped, chosen) - ore.points_spent(sheet, chosen) == whole.amount


@settings(max_examples=60, deadline=None)
@given(purchases=PURCHASES, chosen=WIGGLE_READINGS)
def test_no_cost_is_ever_negative(purchases, chosen):
    sheet = apply_all(ore.blank_sheet(chosen), list(purchases.items()), chosen)
    assert all(item.amount >= 0 for item in ore.cost_items(sheet, chosen))
    assert all(cost.amount >= 0 for cost in ore.next_costs(sheet, chosen).values())


@settings(max_examples=40, deadline=None)
@given(purchases=PURCHASES)
def test_every_sheet_the_editor_builds_passes_import_validation(purchases):
    sheet = apply_all(ore.blank_sheet({}), list(purchases.items()), {})
    assert ore.validate_sheet(sheet) == sheet
