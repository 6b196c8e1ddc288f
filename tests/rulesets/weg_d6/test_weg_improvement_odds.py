"""The exact odds of the R&E attribute improvement roll (002:53): the new code rolls no
more than the GM's roll of the species maximum, both with the table's Wild Die (002:424).
Checked against an independent count: the dice enumerated face by face, the two Wild Dice
followed roll by roll (while both run on, the state repeats: solved as p = S + p/36)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import resolve_settings
from rulesets.weg_d6 import costs
from rulesets.weg_d6.dice import WILD_ONE, chance_at_most

SIXTH = Fraction(1, 6)


def first_faces(pips: int, wild_one: str | None):
    """(chance, total so far, Wild Die still running) after every die's first face."""
    dice, extra = divmod(pips, 3)
    normal = dice - 1 if wild_one else dice
    for faces in itertools.product(range(1, 7), repeat=normal):
        chance = Fraction(1, 6**normal)
        if wild_one is None:
            yield chance, sum(faces) + extra, False
            continue
        for wild in range(1, 7):
            if wild == 1 and wild_one == "subtract":
                yield chance * SIXTH, sum(faces) - max(faces, default=0) + extra, False
            else:
                yield chance * SIXTH, sum(faces) + wild + extra, wild == 6


@cache
def at_most(mine: int, mine_runs: bool, theirs: int, theirs_runs: bool) -> Fraction:
    if not mine_runs and not theirs_runs:
        return Fraction(int(mine <= theirs))
    if mine_runs and not theirs_runs:
        if mine > theirs:
            return Fraction(0)  # the running die only adds
        return sum(SIXTH * at_most(mine + f, f == 6, theirs, False) for f in range(1, 7))
    if theirs_runs and not mine_runs:
        if mine <= theirs:
            return Fraction(1)
        return sum(SIXTH * at_most(mine, False, theirs + f, f == 6) for f in range(1, 7))
    rest = sum(
        SIXTH * SIXTH * at_most(mine + a, a == 6, theirs + b, b == 6)
        for a in range(1, 7)
        for b in range(1, 7)
        if (a, b) != (6, 6)
    )
    return rest / (1 - SIXTH * SIXTH)  # both 6: the same contest, 6 higher on each side


def brute_force(mine: int, theirs: int, wild_one: str | None) -> Fraction:
    return sum(
        ca * cb * at_most(a, ra, b, rb)
        for ca, a, ra in first_faces(mine, wild_one)
        for cb, b, rb in first_faces(theirs, wild_one)
    )


@pytest.mark.parametrize("wild_one", [None, "complication", "subtract", "count"])
@pytest.mark.parametrize(("mine", "theirs"), [(3, 3), (4, 6), (7, 6), (8, 9), (9, 5), (6, 10)])
def test_the_odds_equal_brute_force_enumeration(mine, theirs, wild_one):
    assert chance_at_most(mine, theirs, wild_one) == brute_force(mine, theirs, wild_one)


def test_two_lone_wild_dice_tie_in_one_roll_in_seven_so_the_new_code_wins_four_in_seven():
    # 1D against 1D, a 1 counted: P(tie) = 5/36 · 36/35 = 1/7; half the rest each way.
    assert chance_at_most(3, 3, "count") == Fraction(4, 7)


def test_a_code_at_the_maximum_is_more_likely_to_improve_than_one_above_it():
    # Digest case: Strength 3D to 3D+1 against a 4D maximum, then 4D+1 against 4D.
    below = chance_at_most(10, 12, "complication")
    above = chance_at_most(13, 12, "complication")
    assert Fraction(1, 2) < below < 1 and 0 < above < Fraction(1, 2)


def test_the_roll_carries_its_odds_under_the_tables_reading():
    for reading in ("complication", "subtract", "count"):
        readings = resolve_settings(weg.SETTINGS, {WILD_ONE: reading})
        rolled = costs.roll_attribute_improvement(10, 12, 30, random.Random(8), readings)
        assert rolled.chance == chance_at_most(10, 12, reading)
    plain = costs.roll_attribute_improvement(10, 12, 30, random.Random(8))
    assert plain.chance == chance_at_most(10, 12, None)


def test_the_rolls_follow_their_odds():
    readings = resolve_settings(weg.SETTINGS, {WILD_ONE: "subtract"})
    rng = random.Random(1977)
    draws = 6000
    improved = sum(
        costs.roll_attribute_improvement(10, 12, 30, rng, readings).improved for _ in range(draws)
    )
    expected = float(chance_at_most(10, 12, "subtract")) * draws
    spread = (expected * (1 - expected / draws)) ** 0.5
    assert abs(improved - expected) < 4 * spread
