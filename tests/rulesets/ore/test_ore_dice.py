"""Star O.R.E. dice: sets as width x height, hard and wiggle dice, exact odds (seed 001 L33-L111;
digest §5 and case 12), checked against brute-force enumeration and the published table."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.ore as ore
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, dice_readings, parse_roll_options
from rulesets.ore.dice import (
    DICE_READINGS,
    LA_BELLE_CURVE,
    LA_BELLE_CURVE_WRONG,
    Pool,
    any_set_chance,
    bad_failure_chance,
    build_pool,
    chance_of_set,
    odds,
    read_dice,
    read_roll,
    roll,
)

# Chi-square critical values at p = 0.001 by degrees of freedom (standard tables).
CHI2_P001 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322,
    8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123,
}  # fmt: skip


def chi_square(observed: Counter, expected: dict[str, Fraction], rolls: int) -> tuple[float, int]:
    """Pearson's statistic, merging bars expected fewer than 5 times into one cell."""
    cells: list[tuple[float, float]] = []
    small_o = small_e = 0.0
    for label, chance in expected.items():
        e = float(chance) * rolls
        if e < 5:
            small_o += observed[label]
            small_e += e
        else:
            cells.append((observed[label], e))
    if small_e:
        if small_e >= 5 or not cells:
            cells.append((small_o, small_e))
        else:  # too few to stand alone: joined to the last cell
            last_o, last_e = cells.pop()
            cells.append((last_o + small_o, last_e + small_e))
    assert sum(observed.values()) == rolls
    assert set(observed) <= set(expected), set(observed) - set(expected)
    statistic = sum((o - e) ** 2 / e for o, e in cells if e)
    return statistic, len(cells) - 1


def pool(normal: int, hard: int = 0, wiggle: int = 0, **facts) -> Rollable:
    return Rollable("test", "Test", (normal, hard, wiggle), tuple(sorted(facts.items())))


DEFAULTS = dice_readings(resolve_settings(ore.SETTINGS, {}), DICE_READINGS)


def brute_force(normal: int, hard: int, wiggle: int, height: int, width: int) -> Fraction:
    """Every sequence of the normal dice, read with the wiggle dice set anywhere."""
    if normal + hard + wiggle < width:
        return Fraction(0)
    good = 0
    for faces in itertools.product(range(1, 11), repeat=normal):
        counts = Counter(faces)
        counts[10] += hard
        good += any(counts[f] + wiggle >= width for f in range(max(height, 1), 11))
    return Fraction(good, 10**normal)


# --- exact odds against enumeration --------------------------------------------------------


@pytest.mark.parametrize("normal", range(0, 4))
@pytest.mark.parametrize("hard", range(0, 3))
@pytest.mark.parametrize("wiggle", range(0, 3))
def test_set_odds_equal_brute_force_enumeration(normal, hard, wiggle):
    for height in (1, 3, 7, 10):
        for width in (2, 3, 4):
            expected = brute_force(normal, hard, wiggle, height, width)
            assert chance_of_set(Pool(normal, hard, wiggle), height=height, width=width) == expected


@pytest.mark.parametrize(("normal", "hard", "wiggle"), [(4, 0, 0), (4, 1, 0), (3, 1, 1)])
def test_four_dice_with_specials_equal_enumeration(normal, hard, wiggle):
    for height, width in ((1, 2), (6, 2), (2, 3), (9, 3)):
        expected = brute_force(normal, hard, wiggle, height, width)
        assert chance_of_set(Pool(normal, hard, wiggle), height=height, width=width) == expected


def test_the_bars_of_a_pool_are_a_distribution_and_match_enumeration():
    found = odds(pool(3, 1), DEFAULTS)
    assert sum(bar.chance for bar in found.bars) == 1
    # The highest set's height, counted over all 1000 sequences of the three normal dice.
    highest: Counter = Counter()
    for faces in itertools.product(range(1, 11), repeat=3):
        counts = Counter(faces)
        counts[10] += 1
        sets = [f for f, n in counts.items() if n >= 2]
        highest[f"Height {max(sets)}" if sets else "No set"] += 1
    assert {bar.label: bar.chance for bar in found.bars if bar.chance} == {
        label: Fraction(n, 1000) for label, n in highest.items()
    }


# --- La Belle Curve (L74-L85) ------------------------------------------------------------


def _printed(text: str) -> Fraction:
    return Fraction(text.rstrip("%")) / 100


def _rounds_to(exact: Fraction, text: str) -> bool:
    """The printed percentage is the exact one rounded to its decimals, or (10 dice) the
    highest value short of 100% at its decimals."""
    decimals = len(text.rstrip("%").partition(".")[2])
    step = Fraction(1, 10 ** (decimals + 2))
    printed = _printed(text)
    rounded = abs(exact - printed) <= step / 2
    capped = printed + step == 1 and printed <= exact < 1
    return rounded or capped


@pytest.mark.parametrize(
    ("dice", "printed", "line"),
    [row for row in LA_BELLE_CURVE if row[0] not in LA_BELLE_CURVE_WRONG],
    ids=lambda value: str(value),
)
def test_la_belle_curve_rows_that_are_right(dice, printed, line):
    exact = odds(pool(dice), DEFAULTS).success
    assert exact == any_set_chance(dice)
    assert _rounds_to(exact, printed), (dice, printed, float(exact))
    assert "La Belle Curve" not in odds(pool(dice), DEFAULTS).note


@pytest.mark.parametrize(
    ("dice", "printed", "exact", "shown"),
    [(7, "93%", Fraction(2936, 3125), "93.95%"), (8, "96%", Fraction(30683, 31250), "98.19%")],
)
def test_la_belle_curve_rows_that_are_wrong_are_corrected(dice, printed, exact, shown):
    row = next(row for row in LA_BELLE_CURVE if row[0] == dice)
    assert row[1] == printed
    found = odds(pool(dice), DEFAULTS)
    assert found.success == exact
    assert not _rounds_to(found.success, printed)
    # The note says so, with the seed's line, and never repeats the table's value as right.
    assert f"({row[2]}, La Belle Curve) prints {printed}" in found.note
    assert shown in found.note


def test_digest_extras_hard_die_and_wiggle_die():
    # A hard die matches as often as a normal die would (digest §5).
    for normal in range(1, 7):
        assert chance_of_set(Pool(normal, 1)) == any_set_chance(normal + 1)
    # A wiggle die with any other die always makes a set (L95).
    assert chance_of_set(Pool(1, 0, 1)) == 1
    assert chance_of_set(Pool(0, 1, 1)) == 1
    assert chance_of_set(Pool(0, 0, 1)) == 0
    # The widest set 3 or more: 1.0%, 3.7%, 8.6%, 15.8% with 3d to 6d.
    for normal, percent in ((3, 1.0), (4, 3.7), (5, 8.6), (6, 15.8)):
        assert round(float(chance_of_set(Pool(normal), width=3)) * 100, 1) == percent


# --- digest case 12 and the readings -------------------------------------------------------


def test_digest_case_12a_a_set_below_the_difficulty_fails_without_a_bad_failure():
    spec = read_roll(pool(5), DEFAULTS | {"difficulty": 4})
    reading = read_dice((3, 7, 3, 9, 1), spec)
    assert reading.sets == ((2, 3),)
    assert not reading.success
    plain = read_dice((3, 7, 3, 9, 1), read_roll(pool(5), DEFAULTS))
    assert plain.success and plain.chosen == (2, 3)


def test_digest_case_12b_the_penalty_takes_the_hard_die_and_the_wiggle_die_makes_2x8():
    spec = read_roll(pool(2, 1, 1), DEFAULTS | {"penalty": 1})
    assert spec.pool == Pool(2, 0, 1)
    reading = read_dice((4, 8), spec)
    assert reading.wiggle_face == 8 and reading.chosen == (2, 8)


@pytest.mark.parametrize(
    ("trim", "expected"),
    [("hard_first", Pool(9, 0, 1)), ("normal_first", Pool(7, 2, 1))],
)
def test_the_cap_reading_picks_the_dice_trimmed_past_ten(trim, expected):
    built, notes = build_pool((9, 0, 0), bonus_hard=2, bonus_wiggle=1, trim=trim)
    assert built == expected
    assert "12 dice cut to 10" in notes[0]


def test_the_cap_reading_changes_the_odds_of_a_height_ten():
    options = DEFAULTS | {"bonus_hard": 2, "bonus_wiggle": 1, "question": "height", "height": 10}
    hard_first = odds(pool(9), options | {"dice_cap_trim": "hard_first"}).success
    normal_first = odds(pool(9), options | {"dice_cap_trim": "normal_first"}).success
    assert normal_first == 1  # two hard dice are a 2x10 already
    assert hard_first < 1


def test_penalty_timing_reading_changes_the_pool_and_the_odds():
    options = DEFAULTS | {"bonus": 3, "penalty": 2}
    before = read_roll(pool(9), options | {"dice_penalty_timing": "before_cap"})
    after = read_roll(pool(9), options | {"dice_penalty_timing": "after_cap"})
    assert (before.pool, after.pool) == (Pool(10), Pool(8))
    assert (
        odds(pool(9), options | {"dice_penalty_timing": "after_cap"}).success
        < odds(pool(9), options | {"dice_penalty_timing": "before_cap"}).success
    )


@pytest.mark.parametrize(
    ("rule", "difficulty", "chance"),
    [
        ("below_6", 0, Fraction(5 * 4 * 3, 1000)),  # three different faces under 6
        ("below_difficulty", 4, Fraction(27, 1000)),  # every die 1-3 (L509)
        ("off", 4, Fraction(0)),
    ],
)
def test_bad_failure_reading(rule, difficulty, chance):
    assert bad_failure_chance(Pool(3), rule, difficulty) == chance
    assert bad_failure_chance(Pool(3, 1), rule, difficulty) == 0  # a hard die shows 10
    found = odds(pool(3), DEFAULTS | {"dice_bad_failure": rule, "difficulty": difficulty})
    assert ("Bad failure" in found.note) == bool(chance)


def test_a_bad_failure_roll_is_flagged_under_the_reading():
    spec = read_roll(pool(3), DEFAULTS)
    assert not read_dice((1, 4, 5), spec).success
    outcomes = Counter(roll(pool(3), DEFAULTS, random.Random(seed)).outcome for seed in range(300))
    assert outcomes["bad failure"] > 0
    off = DEFAULTS | {"dice_bad_failure": "off"}
    assert all(roll(pool(3), off, random.Random(s)).outcome != "bad failure" for s in range(300))


def test_questions_height_and_width():
    base = DEFAULTS
    by_height = odds(pool(6), base | {"question": "height", "height": 7}).success
    assert by_height == chance_of_set(Pool(6), height=7)
    by_width = odds(pool(6), base | {"question": "width", "width": 3}).success
    assert by_width == chance_of_set(Pool(6), width=3)
    # The Difficulty still applies to the width question.
    harder = odds(pool(6), base | {"question": "width", "width": 3, "difficulty": 8}).success
    assert harder == chance_of_set(Pool(6), height=8, width=3) < by_width


def test_a_destroyed_limb_costs_a_die():
    hurt = pool(5, limb_penalty=1)
    assert read_roll(hurt, DEFAULTS).pool == Pool(4)
    assert "destroyed limb" in odds(hurt, DEFAULTS).note


# --- roll against odds ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "options"),
    [
        ((5, 1, 0), {"difficulty": 6}),
        ((4, 0, 1), {"question": "width", "width": 3, "difficulty": 5}),
        ((7, 0, 0), {"question": "height", "height": 8}),
    ],
)
def test_rolls_follow_the_odds_chi_square(dice, options):
    rollable = pool(*dice)
    merged = DEFAULTS | options
    expected = {bar.label: bar.chance for bar in odds(rollable, merged).bars}
    rng = random.Random(20240612)
    rolls = 6000
    observed: Counter = Counter()
    wins = 0
    for _ in range(rolls):
        result = roll(rollable, merged, rng)
        observed[dict(result.facts)["bar"]] += 1
        wins += result.success
    statistic, freedom = chi_square(observed, expected, rolls)
    assert statistic < CHI2_P001[freedom], (statistic, freedom)
    success = float(odds(rollable, merged).success)
    two = ((wins - rolls * success) ** 2) / (rolls * success) + (
        (rolls - wins - rolls * (1 - success)) ** 2
    ) / (rolls * (1 - success))
    assert two < CHI2_P001[1]


def test_a_roll_names_its_set_for_combat():
    result = next(
        r
        for seed in range(100)
        if (r := roll(pool(6), DEFAULTS | {"difficulty": 3}, random.Random(seed))).success
    )
    facts = dict(result.facts)
    assert facts["height"] >= 3 and facts["width"] >= 2
    assert f"{facts['width']}x{facts['height']}" in result.kept
    assert result.total == facts["height"]


# --- invariants ------------------------------------------------------------------------------

POOLS = st.tuples(st.integers(0, 10), st.integers(0, 3), st.integers(0, 3))


@settings(max_examples=60, deadline=None)
@given(POOLS, st.integers(0, 10), st.sampled_from(["set", "height", "width"]))
def test_odds_are_probabilities_and_fall_as_the_difficulty_rises(dice, difficulty, question):
    options = DEFAULTS | {"question": question, "difficulty": difficulty}
    found = odds(pool(*dice), options)
    assert 0 <= found.success <= 1
    assert sum(bar.chance for bar in found.bars) == 1
    assert all(bar.chance >= 0 for bar in found.bars)
    if difficulty < 10:
        harder = odds(pool(*dice), options | {"difficulty": difficulty + 1}).success
        assert harder <= found.success


@settings(max_examples=40, deadline=None)
@given(POOLS, st.integers(2, 9))
def test_a_wider_set_is_never_likelier(dice, width):
    options = DEFAULTS | {"question": "width"}
    assert (
        odds(pool(*dice), options | {"width": width + 1}).success
        <= odds(pool(*dice), options | {"width": width}).success
    )


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "option", "words"),
    [
        ({"difficulty": "-1"}, "difficulty", "at least 0"),
        ({"difficulty": "11"}, "difficulty", "at most 10"),
        ({"bonus": "6"}, "bonus", "at most 5"),
        ({"bonus_hard": "3"}, "bonus_hard", "at most 2"),
        ({"penalty": "-2"}, "penalty", "at least 0"),
        ({"question": "luck"}, "question", "choose one of"),
        ({"width": "eleven"}, "width", "whole number"),
    ],
)
def test_bad_options_are_refused_with_the_option_named(raw, option, words):
    definitions = ore.roll_options(pool(5), DEFAULTS)
    with pytest.raises(InvalidRoll) as refused:
        parse_roll_options(definitions, raw)
    assert refused.value.option == option and words in refused.value.message
    # The engine refuses the same values passed straight in.
    with pytest.raises(InvalidRoll):
        odds(pool(5), DEFAULTS | {option: raw[option]})


@pytest.mark.parametrize("dice", [(31, 0, 0), (20, 6, 5), (-1, 0, 0), (3, 0)])
def test_a_pool_above_what_a_sheet_holds_is_refused(dice):
    with pytest.raises(InvalidRoll) as refused:
        odds(Rollable("x", "X", dice), DEFAULTS)
    assert refused.value.option == "dice"


# --- the sheet ------------------------------------------------------------------------------------


def test_the_demo_sheet_rolls_its_stats_skills_powers_and_weapons():
    sheet = ore.demo_sheet()
    found = {r.key: r for r in ore.rollables(sheet, {})}
    assert found["stat.coordination"].dice == (4, 0, 0)
    assert found["skill.lightsaber"].dice == (7, 0, 0)  # Coordination 4d + Lightsaber 3d
    assert found["power.force_sense"].dice == (2, 1, 0)
    assert found["weapon.0"].fact("penetration") == 5
    assert found["weapon.0"].fact("damage") == "width+3"
    for rollable in found.values():
        odds(rollable, DEFAULTS)  # every one answers


def test_a_destroyed_limb_on_the_sheet_reaches_every_roll():
    sheet = ore.demo_sheet()
    for box in range(5):
        sheet = ore.apply_edit(sheet, f"wound.right_leg.{box}", "killing", {})
    rollables = ore.rollables(sheet, {})
    assert all(r.fact("limb_penalty") == 1 for r in rollables)
