"""SWd10 experience costs (L306-322) and the SWSE transfer (L1320).

Rows are the digest's worked examples (rules/swd10.md §3) and its §8 case 15.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.core import Cost
from rulesets.swd10.xp import (
    FORCE_KNOWLEDGE_FIRST_DOT,
    TIMES,
    XP,
    ability_cost,
    attribute_cost,
    force_ability_cost,
    force_knowledge_cost,
    language_cost,
    merit_cost,
    swse_transfer_xp,
    technique_cost,
    willpower_cost,
)


@pytest.mark.parametrize(
    ("current", "target", "amount"),
    [(2, 3, 12), (1, 3, 20), (4, 5, 20), (1, 5, 56), (2, 4, 28)],
    ids=lambda v: str(v),
)
def test_an_attribute_costs_its_new_value_times_four_per_dot(current, target, amount):
    assert attribute_cost("Dexterity", current, target).amount == amount  # L310


@pytest.mark.parametrize(
    ("current", "target", "amount"),
    [(0, 1, 3), (1, 2, 4), (2, 3, 6), (3, 4, 8), (4, 5, 10), (0, 3, 13), (0, 5, 31)],
)
def test_an_ability_costs_three_new_then_new_value_times_two(current, target, amount):
    assert ability_cost("Stealth", current, target).amount == amount  # L310, L312


@pytest.mark.parametrize(
    ("current", "target", "first_dot_xp", "amount"),
    [(0, 1, 3, 3), (0, 1, 2, 2), (1, 2, 3, 4), (2, 4, 3, 14), (0, 2, 2, 6), (0, 2, 3, 7)],
)
def test_a_force_knowledge_costs_new_value_times_two_with_the_first_dot_a_setting(
    current, target, first_dot_xp, amount
):
    cost = force_knowledge_cost("Battle", current, target, first_dot_xp=first_dot_xp)
    assert cost.amount == amount  # L312; first dot digest §3


def test_the_first_force_knowledge_dot_defaults_to_the_new_ability_price():
    assert FORCE_KNOWLEDGE_FIRST_DOT.default == 3
    assert [value for value, _label in FORCE_KNOWLEDGE_FIRST_DOT.choices] == [3, 2]
    assert FORCE_KNOWLEDGE_FIRST_DOT.coerce("2") == 2
    assert force_knowledge_cost("Battle", 0, 1).amount == 3


def test_a_force_knowledge_dot_says_it_brings_a_free_ability():
    cost = force_knowledge_cost("Battle", 1, 2)
    assert cost.explanation == (
        f"Battle 1 → 2: new value 2 {TIMES} 2 = 4 XP, and one Battle ability comes with the dot"
    )


@pytest.mark.parametrize(("current", "target", "amount"), [(3, 4, 4), (3, 5, 9), (6, 7, 7)])
def test_willpower_costs_its_new_value(current, target, amount):
    assert willpower_cost(current, target).amount == amount  # L314


def test_a_language_costs_two_spoken_and_two_written():
    assert language_cost("Huttese", spoken=True, written=True).amount == 4  # L314
    assert language_cost("Huttese", spoken=True, written=False).amount == 2
    assert language_cost("Huttese", spoken=False, written=True).explanation == (
        "Huttese written: 2 XP"
    )


def test_an_extra_technique_costs_two():
    cost = technique_cost("Firearms", "heavy weapons")
    assert (cost.amount, cost.explanation) == (2, "Extra Firearms technique (heavy weapons): 2 XP")


def test_an_extra_force_ability_costs_three():
    cost = force_ability_cost("Prescience")
    assert (cost.amount, cost.explanation) == (3, "Extra Force ability (Prescience): 3 XP")


@pytest.mark.parametrize(
    ("name", "current", "target", "amount"),
    [
        ("Eidetic Memory", 0, 2, 6),
        ("Juyo", 0, 4, 12),
        ("Vaapad", 0, 5, 15),
        ("Acute Senses", 1, 3, 6),  # digest §3 [INTERP]: the difference x 3
    ],
)
def test_a_merit_costs_its_value_times_three(name, current, target, amount):
    assert merit_cost(name, current, target).amount == amount  # L320


def test_a_merit_cost_reminds_of_the_storytellers_consent():
    assert merit_cost("Eidetic Memory", 0, 2).explanation == (
        f"Eidetic Memory 2: value 2 {TIMES} 3 = 6 XP, with the Storyteller's consent"
    )
    assert merit_cost("Debt", 1, 3).explanation == (
        f"Debt 1 → 3: difference 2 {TIMES} 3 = 6 XP, with the Storyteller's consent"
    )


@pytest.mark.parametrize(("level", "xp"), [(0, 0), (1, 17), (6, 102), (8, 136), (20, 340)])
def test_an_swse_transfer_brings_seventeen_xp_per_level(level, xp):
    assert swse_transfer_xp(level) == xp  # L1320


def test_it_refuses_a_negative_swse_level():
    with pytest.raises(ValueError, match="cannot be negative"):
        swse_transfer_xp(-1)


# --- explanations and multi-step sums -------------------------------------------------------


def test_a_single_step_explains_the_new_value_rule():
    cost = attribute_cost("Intelligence", 3, 4)
    assert cost.explanation == f"Intelligence 3 → 4: new value 4 {TIMES} 4 = 16 XP"
    assert cost.unit == XP == "XP"


def test_a_multi_step_raise_keeps_each_step_and_shows_the_sum():
    cost = attribute_cost("Intelligence", 2, 4)
    assert cost.explanation == "Intelligence 2 → 4: 12 + 16 = 28 XP"
    assert [step.amount for step in cost.steps] == [12, 16]


def test_a_new_ability_step_reads_as_new_ability():
    assert ability_cost("Stealth", 0, 1).explanation == "Stealth 0 → 1: new ability = 3 XP"
    assert willpower_cost(3, 4).explanation == "Willpower 3 → 4: new value = 4 XP"


def test_no_change_costs_nothing():
    assert ability_cost("Stealth", 2, 2).amount == 0
    assert merit_cost("Debt", 2, 2).amount == 0


@pytest.mark.parametrize(
    "call",
    [
        lambda: attribute_cost("Strength", 3, 2),
        lambda: ability_cost("Melee", 2, 0),
        lambda: willpower_cost(5, 4),
        lambda: merit_cost("Debt", 3, 1),
        lambda: ability_cost("Melee", -1, 2),
    ],
)
def test_it_refuses_to_price_a_lowering_or_a_negative_start(call):
    with pytest.raises(ValueError):
        call()


def test_case_15_the_base_characters_purchases_cost_44_xp():
    purchases = [
        attribute_cost("Dexterity", 4, 5),  # 20
        ability_cost("Stealth", 0, 2),  # 3 + 4
        willpower_cost(3, 4),  # 4
        merit_cost("Eidetic Memory", 0, 2),  # 6
        force_ability_cost("Crucitorn"),  # 3
        language_cost("Huttese", spoken=True, written=True),  # 2 + 2
    ]
    total = Cost.total(purchases, unit=XP, label="Case 15")
    assert total.amount == 44  # L310-322
    assert total.explanation == "Case 15: 20 + 7 + 4 + 6 + 3 + 4 = 44 XP"


# --- invariants ---------------------------------------------------------------------------

RAISES = {
    "attribute": lambda c, t: attribute_cost("Strength", c, t),
    "ability": lambda c, t: ability_cost("Melee", c, t),
    "force knowledge (3)": lambda c, t: force_knowledge_cost("Mind", c, t),
    "force knowledge (2)": lambda c, t: force_knowledge_cost("Mind", c, t, first_dot_xp=2),
    "willpower": willpower_cost,
    "merit": lambda c, t: merit_cost("Enemy", c, t),
}
kinds = st.sampled_from(sorted(RAISES))
spans = st.tuples(st.integers(0, 10), st.integers(0, 10)).map(sorted)


@given(kinds, spans)
def test_a_cost_is_never_negative(kind, span):
    current, target = span
    cost = RAISES[kind](current, target)
    assert cost.amount >= 0
    assert all(step.amount > 0 for step in cost.steps)


@given(kinds, st.integers(0, 8), st.integers(0, 4), st.integers(0, 4))
def test_summing_single_steps_equals_the_multi_step_raise(kind, start, first, second):
    raise_ = RAISES[kind]
    middle, end = start + first, start + first + second
    whole = raise_(start, end).amount
    assert whole == raise_(start, middle).amount + raise_(middle, end).amount
    assert whole == sum(raise_(v, v + 1).amount for v in range(start, end))


@given(
    st.lists(st.sampled_from(sorted(RAISES)), max_size=12),
    st.randoms(use_true_random=False),
)
def test_the_order_of_purchases_does_not_change_the_total(purchases, rng):
    def spend(order: list[str]) -> int:
        values = dict.fromkeys(RAISES, 1)
        total = 0
        for kind in order:
            total += RAISES[kind](values[kind], values[kind] + 1).amount
            values[kind] += 1
        return total

    shuffled = list(purchases)
    rng.shuffle(shuffled)
    assert spend(purchases) == spend(shuffled)
