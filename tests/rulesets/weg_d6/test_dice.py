"""WEG d6 dice: the Wild Die's exact odds (closed form, brute force), the readings, the
code as rolled (actions, Force Point, Character Points, wounds), the difficulty bands, bad
options, and roll against odds by a chi-square test."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import weg_d6
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, dice_readings, parse_roll_options
from rulesets.weg_d6 import dice
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE
from rulesets.weg_d6.dice import Spec, band_for, chance_at_least, read_roll

DEFAULTS = resolve_settings(weg_d6.SETTINGS, {})
CHI2_999 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124,
    9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123, 15: 37.697,
    16: 39.252, 17: 40.790, 18: 42.312, 19: 43.820, 20: 45.315, 21: 46.797, 22: 48.268,
    23: 49.728, 24: 51.179, 25: 52.620, 26: 54.052, 27: 55.476, 28: 56.892,
}  # fmt: skip


def code(pips: int, *, edition: str = EDITION_RE, key: str = "skill.blaster", **facts) -> Rollable:
    merged = {
        "edition": edition,
        "can_act": True,
        "wound": "Healthy",
        "wound_dice": 0,
        "character_points": 5,
        "force_points": 1,
        "purposes": ("use",),
        "specialization": False,
    } | facts
    return Rollable(key, "Test", pips, tuple(sorted(merged.items())))


def options(wild_one: str = "complication", cp_die: str = "wild", **chosen) -> dict:
    readings = resolve_settings(weg_d6.SETTINGS, {dice.WILD_ONE: wild_one, dice.CP_DIE: cp_die})
    return dice_readings(readings, weg_d6.DICE_READINGS) | chosen


def open_ended_at_least(target: int) -> Fraction:
    """P(one open-ended d6 ≥ target): each full 6 passed costs a factor 1/6 (closed form)."""
    if target <= 1:
        return Fraction(1)
    runs, rest = divmod(target - 1, 6)
    return Fraction(6 - rest, 6 ** (runs + 1))


@pytest.mark.parametrize("target", range(1, 41))
def test_a_lone_wild_die_has_the_closed_form_chance_exactly(target):
    # 1D under "count it": the Wild Die alone, 6s rolled again without end.
    result = weg_d6.odds(code(3), options("count", difficulty=target))
    assert result.success == open_ended_at_least(target)
    assert result.exact


def test_the_answer_for_a_target_is_exact_not_truncated():
    # 20 needs three 6s then a 2 or more: (5/6)·(1/6)^3 = 5/1296, as a Fraction, exactly.
    result = weg_d6.odds(code(3), options("count", difficulty=20))
    assert result.success == Fraction(5, 1296)
    assert result.exact
    # Far out the chance is tiny but still the exact closed form, never rounded to 0:
    # 200 needs thirty-three 6s and then a 2 or more.
    far = weg_d6.odds(code(3), options("count", difficulty=200)).success
    assert far == open_ended_at_least(200) == Fraction(5, 6**34)


def brute_force(spec: Spec, target: int) -> Fraction:
    """Enumerate the normal dice, then follow each open-ended die face by face until the
    total is certain to pass (an independent exact count)."""
    normal = spec.dice - 1 if spec.wild else spec.dice
    open_count = (spec.cp_dice if spec.cp_wild else 0) + int(spec.wild)
    plain = 0 if spec.cp_wild else spec.cp_dice

    def chains(total: int, left: int, first_wild: bool, highest: int) -> Fraction:
        if left == 0 or (total >= target and not first_wild):
            # Only the Wild Die's first face can take anything away; the rest only add.
            return Fraction(int(total >= target))
        chance = Fraction(0)
        for face in range(1, 7):
            if first_wild and face == 1 and spec.wild_one == "subtract":
                chance += Fraction(1, 6) * chains(total - highest, left - 1, False, highest)
            elif face == 6:  # the same die is rolled again: as many dice still to go
                chance += Fraction(1, 6) * chains(total + 6, left, False, highest)
            else:
                chance += Fraction(1, 6) * chains(total + face, left - 1, False, highest)
        return chance

    result = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=normal + plain):
        start = sum(faces) + spec.pips
        highest = max(faces[:normal], default=0)
        weight = Fraction(1, 6 ** len(faces))
        result += weight * chains(start, open_count, spec.wild, highest)
    return result


SPECS = [
    Spec(n, pips, wild, rule, cp, cp_wild, 0)
    for n in (1, 2, 3)
    for pips in (0, 2)
    for wild, rule in (
        (True, "complication"),
        (True, "subtract"),
        (True, "count"),
        (False, "count"),
    )
    for cp, cp_wild in ((0, True), (1, True), (1, False))
]


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_odds_equal_brute_force_for_small_codes(spec):
    for target in (1, 5, 9, 14, 21):
        assert chance_at_least(spec, target) == brute_force(spec, target), target


def test_first_edition_rolls_plain_dice():
    # 2D in 1E: 21 of 36 faces total 7 or more (003:93, no Wild Die).
    assert weg_d6.odds(code(6, edition=EDITION_1E), options(difficulty=7)).success == Fraction(
        21, 36
    )
    assert "character_points" not in {
        o.key for o in weg_d6.roll_options(code(6, edition=EDITION_1E), DEFAULTS)
    }


def test_the_wild_one_readings_change_the_odds_as_they_should():
    counted = weg_d6.odds(code(9), options("count", difficulty=12)).success
    complication = weg_d6.odds(code(9), options("complication", difficulty=12))
    subtract = weg_d6.odds(code(9), options("subtract", difficulty=12)).success
    assert complication.success == counted  # a complication changes no total
    assert "complication" in complication.note
    assert subtract < counted
    # A Character Point die that is rolled again on a 6 beats a plain one.
    wild_cp = weg_d6.odds(code(9), options(difficulty=20, character_points=1)).success
    plain_cp = weg_d6.odds(code(9), options(cp_die="plain", difficulty=20, character_points=1))
    assert wild_cp > plain_cp.success > weg_d6.odds(code(9), options(difficulty=20)).success


def test_the_code_as_rolled_follows_the_seeds():
    # 003:95: a Force Point doubles 5D+2 to 10D+4 (pips never carry, 003:99).
    spec = read_roll(code(17), options(force_point=True))
    assert (spec.dice, spec.pips) == (10, 4)
    # 003:133-139: two actions take 1D off each roll.
    assert read_roll(code(9), options(actions=2)).dice == 2
    # Bonus pips stay pips: 4D+2 with +4 pips rolls 4D+6.
    spec = read_roll(code(14), options(pips=4))
    assert (spec.dice, spec.pips) == (4, 6)
    # The sheet's wound takes whole dice off.
    assert read_roll(code(12, wound_dice=2), options()).dice == 2


def test_character_points_follow_the_re_limits():
    with pytest.raises(InvalidRoll) as refused:
        read_roll(code(9), options(character_points=1, force_point=True))  # 002:487
    assert refused.value.option == "character_points"
    with pytest.raises(InvalidRoll):
        read_roll(code(9), options(character_points=3))  # 2 on a skill (002:483)
    assert read_roll(code(9, purposes=("dodge",)), options(character_points=5)).cp_dice == 5
    with pytest.raises(InvalidRoll):
        read_roll(code(9, edition=EDITION_1E), options(character_points=1))
    with pytest.raises(InvalidRoll):
        read_roll(code(9, force_points=0), options(force_point=True))


@pytest.mark.parametrize(
    ("rollable", "chosen", "option"),
    [
        (code(3), {"difficulty": 0}, "difficulty"),
        (code(3), {"difficulty": -5}, "difficulty"),
        (code(3), {"dice": 11}, "dice"),
        (code(3), {"pips": -13}, "pips"),
        (code(6), {"actions": 3}, "actions"),  # 2D less 2D for two extra actions
        (code(200), {"force_point": True, "dice": 10}, "dice"),  # a pool above 130 dice
        (code(9, can_act=False, wound="Incapacitated"), {}, "dice"),
    ],
)
def test_bad_options_are_refused_naming_the_option(rollable, chosen, option):
    with pytest.raises(InvalidRoll) as refused:
        weg_d6.odds(rollable, options(**chosen))
    assert refused.value.option == option
    assert refused.value.message


def test_a_form_with_a_negative_difficulty_is_refused():
    with pytest.raises(InvalidRoll, match="at least 1"):
        parse_roll_options(weg_d6.roll_options(code(9), DEFAULTS), {"difficulty": "-4"})


@pytest.mark.parametrize(
    ("difficulty", "label", "source"),
    [
        (3, "Very Easy", "003:2673"),
        (5, "Very Easy", "003:2673"),
        (10, "Easy", "003:2674"),
        (15, "Moderate", "003:2675"),
        (20, "Difficult", "003:2676"),
        (30, "Very Difficult", "003:2677"),
        (35, "Heroic", "002:428 (R&E)"),
        (45, "Heroic+10", "002:428 (R&E)"),
    ],
)
def test_difficulty_bands_come_from_the_seeds(difficulty, label, source):
    band = band_for(difficulty)
    assert (band.label, band.source) == (label, source)


def test_a_band_outside_the_seeds_says_so_in_its_source_and_in_a_players_words():
    assert band_for(1).source.startswith("outside the seeds")
    note = weg_d6.odds(code(9), options(difficulty=2)).note
    assert "the core book's range" in note and "seed" not in note


def test_every_sheet_rollable_rolls_and_wounds_are_facts():
    sheet = copy.deepcopy(weg_d6.demo_sheet())
    sheet["wound"] = "wounded"
    found = weg_d6.rollables(sheet, DEFAULTS)
    assert {"attr.dexterity", "skill.blaster"} <= {r.key for r in found}
    rng = random.Random(1)
    for rollable in found:
        # A wound takes dice off actions, not off a weapon's damage or a wound roll.
        assert rollable.fact("wound_dice") == (0 if rollable.group in ("Weapons", "Wounds") else 1)
        chosen = parse_roll_options(weg_d6.roll_options(rollable, DEFAULTS), {}) | options()
        assert 0 <= weg_d6.odds(rollable, chosen).success <= 1
        outcomes = {"success", "failure", "unconscious", "lives this round", "dies"}
        assert weg_d6.roll(rollable, chosen, rng).outcome in outcomes


def _bar_index(total: int, bars) -> int:
    for index, bar in enumerate(bars):
        head = bar.label.split()[0].split("–")
        if bar.label.endswith("or less") and total <= int(head[0]):
            return index
        if bar.label.endswith("or more") and total >= int(head[0]):
            return index
        low = int(head[0])
        high = int(head[-1])
        if low <= total <= high and "or" not in bar.label:
            return index
    raise AssertionError((total, [bar.label for bar in bars]))


@pytest.mark.parametrize(
    ("pips", "chosen"),
    [
        (9, {"wild_one": "complication", "difficulty": 12}),
        (7, {"wild_one": "subtract", "difficulty": 8}),
        (12, {"wild_one": "count", "difficulty": 15, "character_points": 2}),
        (10, {"wild_one": "subtract", "cp_die": "plain", "character_points": 1}),
    ],
)
def test_rolls_follow_the_odds_chi_square(pips, chosen):
    rollable = code(pips)
    chosen = options(**chosen)
    result = weg_d6.odds(rollable, chosen)
    rng = random.Random(1977)
    draws = 20000
    seen = [0] * len(result.bars)
    for _ in range(draws):
        seen[_bar_index(weg_d6.roll(rollable, chosen, rng).total, result.bars)] += 1
    expected = [float(bar.chance) * draws for bar in result.bars]
    pairs, carry_seen, carry_expected = [], 0, 0.0
    for s, e in zip(seen, expected, strict=True):
        carry_seen, carry_expected = carry_seen + s, carry_expected + e
        if carry_expected >= 5:
            pairs.append((carry_seen, carry_expected))
            carry_seen, carry_expected = 0, 0.0
    if carry_expected:
        s, e = pairs.pop()
        pairs.append((s + carry_seen, e + carry_expected))
    statistic = sum((s - e) ** 2 / e for s, e in pairs)
    assert statistic < CHI2_999[len(pairs) - 1]


@settings(max_examples=60, deadline=None)
@given(
    pips=st.integers(3, 60),
    low=st.integers(1, 80),
    high=st.integers(1, 80),
    rule=st.sampled_from(["complication", "subtract", "count"]),
    edition=st.sampled_from([EDITION_RE, EDITION_1E]),
    cp=st.integers(0, 2),
)
def test_odds_are_probabilities_and_fall_as_the_difficulty_rises(
    pips, low, high, rule, edition, cp
):
    low, high = sorted((low, high))
    cp = cp if edition == EDITION_RE else 0
    chance = {}
    for difficulty in (low, high):
        result = weg_d6.odds(
            code(pips, edition=edition),
            options(rule, difficulty=difficulty, character_points=cp),
        )
        assert 0 <= result.success <= 1
        assert sum(bar.chance for bar in result.bars) == 1
        assert all(bar.chance >= 0 for bar in result.bars)
        assert result.exact
        chance[difficulty] = result.success
    assert chance[low] >= chance[high]
