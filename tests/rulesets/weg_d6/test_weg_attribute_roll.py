"""The R&E attribute improvement roll (002:51-53), from the seed's numbers: the new code
against the GM's roll of the species maximum, a tie to the character, half back on a
failure; the table's Wild Die on both rolls in R&E (002:424)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import resolve_settings
from rulesets.weg_d6 import advancement, costs

SETTINGS = resolve_settings(weg.SETTINGS, {})


def smuggler(edition: str = "2e_re") -> dict:
    sheet = weg.apply_edit(weg.demo_sheet(), "stage", "play", SETTINGS)
    sheet["edition"] = edition
    return sheet


@pytest.mark.parametrize(
    ("mine", "theirs", "cost", "improved", "refund"),
    [
        pytest.param(15, 12, 30, False, 15, id="digest-case-11-strength-3D-to-3D+1"),
        pytest.param(12, 12, 30, True, 0, id="a-tie-goes-to-the-character"),
        pytest.param(9, 14, 40, True, 0, id="lower-improves"),
        pytest.param(20, 11, 20, False, 10, id="2D-to-2D+1-half-of-20"),
    ],
)
def test_the_roll_improves_on_a_tie_or_lower_and_gives_half_back_otherwise(
    mine, theirs, cost, improved, refund
):
    rolled = costs.resolve_attribute_roll(mine, theirs, cost)
    assert (rolled.improved, rolled.refund) == (improved, refund)


@pytest.mark.parametrize(
    ("edition", "trait", "reading", "rolls"),
    [
        ("2e_re", "attr.strength", "no_roll", True),
        ("2e_re", "skill.blaster", "no_roll", False),
        ("2e_re", "move", "roll", False),
        ("1e", "attr.strength", "no_roll", False),
        ("1e", "attr.strength", "roll", True),
    ],
)
def test_which_purchases_roll(edition, trait, reading, rolls):
    chosen = {**SETTINGS, "attribute_roll_1e": reading}
    assert costs.attribute_roll_applies(smuggler(edition), trait, chosen) is rolls


def test_an_r_and_e_roll_uses_the_wild_die_and_the_same_seed_rolls_the_same():
    readings = resolve_settings(weg.SETTINGS, {})
    first = costs.roll_attribute_improvement(10, 12, 30, random.Random(3), readings)
    again = costs.roll_attribute_improvement(10, 12, 30, random.Random(3), readings)
    assert first == again
    assert any(line.startswith("Character: Wild Die") for line in first.details)
    assert any(line.startswith("GM: Wild Die") for line in first.details)
    assert len(first.character_dice) >= 3 and len(first.gm_dice) >= 4


def test_the_purchase_rolls_the_new_code_against_the_species_maximum():
    sheet = smuggler()  # a human: Strength 3D+1, maximum 4D
    rolled = advancement.improvement_roll(
        sheet, "attr.strength", 11, 30, SETTINGS, random.Random(5)
    )
    assert rolled is not None
    expected = costs.roll_attribute_improvement(11, 12, 30, random.Random(5), SETTINGS)
    assert rolled == expected
    words = advancement.improvement_words(sheet, "attr.strength", rolled)
    assert "species maximum 4D" in words
    assert (
        advancement.improvement_roll(sheet, "skill.blaster", 12, 3, SETTINGS, random.Random(5))
        is None
    )


@settings(max_examples=200)
@given(
    new_code=st.integers(min_value=3, max_value=30),
    species_max=st.integers(min_value=3, max_value=30),
    cost=st.integers(min_value=0, max_value=200).map(lambda n: n * 10),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_what_a_roll_keeps_and_gives_back_adds_up_to_the_price(new_code, species_max, cost, seed):
    rolled = costs.roll_attribute_improvement(
        new_code, species_max, cost, random.Random(seed), SETTINGS
    )
    kept = cost - rolled.refund
    assert 0 <= rolled.refund <= kept <= cost
    assert rolled.improved is (rolled.character_total <= rolled.gm_total)
    # An attribute's price is 10 per number before the D, so half is always whole.
    assert rolled.improved or rolled.refund * 2 == cost
