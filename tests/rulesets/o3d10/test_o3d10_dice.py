"""The 1o3d10 roll and its exact odds (seed L5-L17, L41, L55-L59; digest §2, cases 2-6)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.o3d10 import dice
from rulesets.o3d10.dice import (
    HIGHEST,
    LOWEST,
    MIDDLE,
    LuckRefused,
    chance_at_least,
    critical_fail_count,
    kept_counts,
    melee_bonus_d6,
    read_dice,
    resolve_check,
    roll_1o3d10,
    success_chance,
    use_luck,
)


# Digest case 2 (L5, L41).
@pytest.mark.parametrize(
    ("wounded", "kept"), [(False, 6), (True, 2)], ids=["L5-middle", "L41-lowest"]
)
def test_it_keeps_the_middle_die_or_the_lowest_when_wounded(wounded, kept):
    assert read_dice((9, 2, 6), wounded=wounded).kept == kept


# Digest case 3 (L9, L41): the roller explodes only on a kept 10.
@pytest.mark.parametrize(("wounded", "kept", "explodes"), [(False, 10, True), (True, 3, False)])
def test_a_kept_ten_explodes_and_a_wounded_three_does_not(wounded, kept, explodes):
    rng = _rng_yielding([10, 3, 10, 7, 2, 5])
    rolled = roll_1o3d10(rng, wounded=wounded)
    assert rolled.kept == kept
    assert rolled.exploded is explodes
    if explodes:
        assert rolled.explosion == (7, 2, 5)
        assert rolled.result == 10 + 7  # literal reading B: add the highest of 3d10 again


# Digest case 4 (L13, L41).
@pytest.mark.parametrize(
    ("natural", "wounded", "rule", "fumble"),
    [
        ((1, 4, 1), False, "literal", True),
        ((1, 1, 5), False, "literal", False),  # 5 is not below 5
        ((1, 2, 9), False, "literal", False),  # target die is 2
        ((1, 1, 1), False, "literal", True),
        ((1, 3, 8), True, "literal", True),  # target 1, middle 3
        ((1, 3, 8), True, "middle_only", False),
        ((1, 1, 8), True, "distinct", False),  # next different value is 8
        ((1, 1, 8), True, "literal", True),  # middle die is 1
        ((1, 5, 8), True, "literal", False),
    ],
)
def test_it_spots_critical_fails(natural, wounded, rule, fumble):
    assert read_dice(natural, wounded=wounded, wounded_crit_fail=rule).critical_fail is fumble


def test_keep_highest_force_rolls_never_fumble():
    # L13 limits the fumble to 1o3d10; keep-highest is a different roll.
    rolled = read_dice((1, 1, 1), force=True, force_keep="highest")
    assert rolled.kept == 1 and not rolled.critical_fail
    assert read_dice((1, 1, 1), force=True, force_keep="middle").critical_fail


# Digest case 5 (L15-L17).
def test_luck_on_the_low_die_raises_the_kept_die_to_the_old_highest():
    lucky = use_luck(read_dice((2, 4, 9)), 0, random.Random(1))
    assert lucky.dice == (10, 4, 9)
    assert lucky.kept == 9
    assert lucky.natural == (2, 4, 9)


def test_luck_cannot_cancel_a_critical_fail():
    with pytest.raises(LuckRefused, match="critical fail"):
        use_luck(read_dice((1, 1, 3)), 2, random.Random(1))


def test_luck_is_refused_twice_on_one_roll_and_on_a_missing_die():
    lucky = use_luck(read_dice((2, 4, 9)), 0, random.Random(1))
    with pytest.raises(LuckRefused, match="already used"):
        use_luck(lucky, 1, random.Random(1))
    with pytest.raises(LuckRefused, match="no die 4"):
        use_luck(read_dice((2, 4, 9)), 3, random.Random(1))


def test_a_luck_ten_explodes_only_when_the_setting_says_so():
    natural = read_dice((3, 5, 10))  # Luck on the 3 gives [5, 10, 10]: middle 10
    plain = use_luck(natural, 0, _rng_yielding([6, 6, 6]))
    assert plain.kept == 10 and not plain.exploded
    boosted = use_luck(natural, 0, _rng_yielding([6, 4, 2]), luck_ten_explodes=True)
    assert boosted.result == 16


# Digest case 6 (L11, L55-L59): STR 5 + Melee 3 with dice [4, 7, 7] -> 7, total 15.
@pytest.mark.parametrize(
    ("bonus_to_hit", "defense", "hit", "critical", "extra_d6"),
    [
        (0, 15, True, False, 0),
        (0, 5, True, True, 1),
        (4, 18, True, False, 0),
        (0, 16, False, False, 0),
    ],
    ids=["L59-equal", "L11-margin10", "L59-from-behind", "L59-miss"],
)
def test_digest_case_six_melee(bonus_to_hit, defense, hit, critical, extra_d6):
    total = 5 + 3 + read_dice((4, 7, 7)).kept + bonus_to_hit
    outcome = resolve_check(total, defense)
    assert (outcome.success, outcome.critical) == (hit, critical)
    assert melee_bonus_d6(total, defense) == extra_d6


def test_melee_adds_a_d6_per_full_ten_of_margin():
    assert [melee_bonus_d6(t, 10) for t in (9, 10, 19, 20, 29, 30, 41)] == [0, 0, 0, 1, 1, 2, 3]


def test_a_critical_fail_fails_even_a_total_that_beats_the_difficulty():
    assert not resolve_check(20, 5, critical_fail=True).success
    assert resolve_check(20, 5, critical_fail=True, fumble_fails=False).success


# Digest §2.2: the 1000-outcome table, columns "# middle", "# lowest", "# highest".
MIDDLE_COUNTS = (28, 76, 112, 136, 148, 148, 136, 112, 76, 28)
LOWEST_COUNTS = (271, 217, 169, 127, 91, 61, 37, 19, 7, 1)
HIGHEST_COUNTS = (1, 7, 19, 37, 61, 91, 127, 169, 217, 271)


@pytest.mark.parametrize(
    ("position", "expected"),
    [(MIDDLE, MIDDLE_COUNTS), (LOWEST, LOWEST_COUNTS), (HIGHEST, HIGHEST_COUNTS)],
    ids=["middle", "lowest", "highest"],
)
def test_the_kept_die_counts_match_the_digest_table(position, expected):
    assert kept_counts(position) == expected


def test_the_middle_count_follows_the_digest_formula():
    assert kept_counts(MIDDLE) == tuple(6 * (k - 1) * (10 - k) + 28 for k in range(1, 11))


@pytest.mark.parametrize(
    ("k", "percent"),
    [(1, "100"), (2, "97.2"), (5, "64.8"), (6, "50.0"), (7, "35.2"), (9, "10.4"), (10, "2.8")],
)
def test_the_chance_of_at_least_k_matches_the_digest(k, percent):
    assert chance_at_least(k) == Fraction(percent) / 100


@pytest.mark.parametrize(
    ("rule", "wounded", "count"),
    [
        ("literal", False, 10),
        ("literal", True, 163),
        ("distinct", True, 145),
        ("middle_only", True, 10),
    ],
)
def test_critical_fail_counts_match_the_digest(rule, wounded, count):
    assert critical_fail_count(wounded=wounded, wounded_crit_fail=rule) == count


# Digest §2.4: P(kept + explosion >= t), in percent rounded to two places.
@pytest.mark.parametrize(
    ("target", "open_d10", "max_of_3d10"),
    [
        (10, 2.80, 2.80),
        (11, 2.80, 2.80),
        (12, 2.52, 2.80),
        (13, 2.24, 2.78),
        (15, 1.68, 2.62),
        (18, 0.84, 1.84),
        (20, 0.28, 0.76),
    ],
)
def test_explosion_tails_match_the_digest(target, open_d10, max_of_3d10):
    assert round(float(chance_at_least(target, explode_mode="open_d10")) * 100, 2) == open_d10
    assert round(float(chance_at_least(target, explode_mode="max_of_3d10")) * 100, 2) == max_of_3d10


def test_the_literal_explosion_cannot_reach_past_twenty():
    assert chance_at_least(21, explode_mode="max_of_3d10") == 0
    assert chance_at_least(21, explode_mode="open_d10") > 0


def test_the_calibration_points_of_the_digest_hold():
    assert success_chance(12, 18) == Fraction(1, 2)  # P(mid >= 6)
    assert success_chance(10, 18) == Fraction(216, 1000)  # P(mid >= 8)
    assert success_chance(8, 15) == Fraction(352, 1000)  # digest case 6: die >= 7
    assert success_chance(12, 18, wounded=True) == Fraction(125, 1000)


def test_fumbles_come_off_a_roll_that_could_not_otherwise_fail():
    assert success_chance(20, 5) == Fraction(990, 1000)
    assert success_chance(20, 5, fumble_fails=False) == 1
    assert success_chance(20, 5, wounded=True) == Fraction(837, 1000)


def test_keep_highest_force_rolls_are_easier():
    assert success_chance(0, 8, force=True, force_keep="highest") > success_chance(0, 8, force=True)


@given(st.integers(-5, 30), st.integers(0, 40), st.booleans(), st.sampled_from(dice.EXPLODE_MODES))
def test_a_higher_bonus_never_lowers_the_chance(bonus, dc, wounded, mode):
    lower = success_chance(bonus, dc, wounded=wounded, explode_mode=mode)
    higher = success_chance(bonus + 1, dc, wounded=wounded, explode_mode=mode)
    assert 0 <= lower <= higher <= 1


@given(st.integers(0, 2**32 - 1), st.booleans(), st.sampled_from(dice.EXPLODE_MODES))
def test_rolls_are_reproducible_and_well_formed(seed, wounded, mode):
    first = roll_1o3d10(random.Random(seed), wounded=wounded, explode_mode=mode)
    again = roll_1o3d10(random.Random(seed), wounded=wounded, explode_mode=mode)
    assert first == again
    assert all(1 <= die <= 10 for die in first.natural)
    assert first.exploded == (first.kept == 10)
    assert first.result >= first.kept


def test_the_open_d10_explosion_keeps_rolling_on_tens():
    rng = _rng_yielding([10, 10, 10, 10, 10, 3])
    rolled = roll_1o3d10(rng, explode_mode="open_d10")
    assert rolled.explosion == (10, 10, 3)
    assert rolled.result == 33


def test_it_refuses_dice_outside_one_to_ten():
    with pytest.raises(ValueError, match="three dice from 1 to 10"):
        read_dice((0, 4, 11))


def test_a_large_sample_lands_near_the_exact_odds():
    rng = random.Random(2024)
    hits = sum(roll_1o3d10(rng).result >= 7 for _ in range(20_000))
    assert abs(hits / 20_000 - 0.352) < 0.015


def _rng_yielding(values: list[int]) -> random.Random:
    """A real Random whose randint replays `values` (no mock: a subclass with fixed output)."""

    class Replay(random.Random):
        def __init__(self) -> None:
            super().__init__(0)
            self.queue = list(values)

        def randint(self, a: int, b: int) -> int:
            value = self.queue.pop(0)
            assert a <= value <= b
            return value

    return Replay()
