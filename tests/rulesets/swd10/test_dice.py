"""SWd10 dice: exact odds against brute force, each reading's effect, the Path roll (L120),
Willpower (L181), bad options, and roll against odds by a chi-square test."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import swd10
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, dice_readings, parse_roll_options
from rulesets.swd10 import dice
from rulesets.swd10.dice import Spec, is_botch, net_successes, odds_for

DEFAULTS = resolve_settings(swd10.SETTINGS, {})
# chi-square critical values at p = 0.001 by degrees of freedom (standard tables).
CHI2_999 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124,
    9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123, 15: 37.697,
    16: 39.252, 17: 40.790, 18: 42.312, 19: 43.820, 20: 45.315,
}  # fmt: skip


def pool(dots: int, *, kind: str = "attribute", **facts) -> Rollable:
    merged = {"kind": kind, "willpower_current": 3, "wound_penalty": 0, "incapacitated": False}
    merged |= facts
    return Rollable(f"test.{kind}", "Test", dots, tuple(sorted(merged.items())))


def readings(**chosen) -> dict:
    return dice_readings(resolve_settings(swd10.SETTINGS, chosen), swd10.DICE_READINGS)


def options(**chosen) -> dict:
    keys = {"ones", "botch", "specialty_rule", "above"}
    picked = {k: v for k, v in chosen.items() if k in keys}
    mapping = {
        "ones": dice.ONES_CANCEL,
        "botch": dice.BOTCH,
        "specialty_rule": dice.SPECIALTY,
        "above": dice.ABOVE_TEN,
    }
    rest = {k: v for k, v in chosen.items() if k not in keys}
    return readings(**{mapping[k]: v for k, v in picked.items()}) | rest


def brute_force(spec: Spec) -> tuple[Fraction, Fraction]:
    """Every face of every die (no re-rolls): the chance of success and of a botch."""
    won = botched = 0
    for faces in itertools.product(range(1, 11), repeat=spec.pool):
        ones = faces.count(1)
        successes = sum(
            (2 if face == 10 and spec.specialty == "tens_twice" else 1)
            for face in faces
            if face >= spec.difficulty
        )
        if is_botch(spec, successes, ones):
            botched += 1
        elif net_successes(spec, successes, ones) >= spec.needed:
            won += 1
    total = 10**spec.pool
    return Fraction(won, total), Fraction(botched, total)


SMALL_SPECS = [
    Spec(n, d, needed, wp, cancel, botch, specialty)
    for n in range(0, 4)
    for d in (2, 6, 10)
    for needed in (1, 2)
    for wp in (False, True)
    for cancel in (True, False)
    for botch in ("revised", "old")
    for specialty in ("none", "tens_twice")
]


@pytest.mark.parametrize("spec", SMALL_SPECS, ids=str)
def test_odds_equal_exhaustive_enumeration_of_small_pools(spec):
    result = odds_for(spec)
    won, botched = brute_force(spec)
    assert result.success == won
    botch_bar = [bar.chance for bar in result.bars if bar.label == "Botch"]
    assert sum(botch_bar, Fraction(0)) == botched
    assert sum(bar.chance for bar in result.bars) == 1
    assert result.exact


@pytest.mark.parametrize(
    ("dots", "difficulty", "needed", "expected"),
    [
        # 1 die at 6: faces 6-10 succeed (L185's standard difficulty).
        (1, 6, 1, Fraction(1, 2)),
        # 2 dice at 6, 1s cancel: two successes, or one beside a blank (2 to 5).
        (2, 6, 1, Fraction(25 + 2 * 5 * 4, 100)),
        # 3 dice at 10 needing 2: two or three 10s, with at most (10s - 2) ones.
        (3, 10, 2, Fraction(3 * 8 + 1, 1000)),
    ],
)
def test_worked_odds_under_the_default_readings(dots, difficulty, needed, expected):
    chance = swd10.odds(pool(dots), options(difficulty=difficulty, needed=needed)).success
    assert chance == expected


def _tens_again_die(difficulty: int, cap: int) -> dict[int, Fraction]:
    """One die that is not a 1 (weights of all faces), successes with re-rolled 10s, by the
    closed form P(s or more) = (1/10)^(s-1) * (11 - d) / 10 for s >= 2 (a 10, then s - 2
    more 10s, then any success)."""
    at_least = {0: Fraction(9, 10), 1: Fraction(11 - difficulty, 10)}
    for s in range(2, cap + 1):
        at_least[s] = Fraction(1, 10 ** (s - 1)) * Fraction(11 - difficulty, 10)
    dist = {s: at_least[s] - at_least.get(s + 1, 0) for s in range(cap)}
    dist[cap] = at_least[cap]
    return dist


@pytest.mark.parametrize("n", [1, 2, 3, 5])
@pytest.mark.parametrize("difficulty", [6, 9, 10])
@pytest.mark.parametrize("needed", [1, 3])
def test_re_rolled_tens_are_exact_against_the_closed_form(n, difficulty, needed):
    spec = Spec(n, difficulty, needed, False, True, "revised", "tens_again")
    cap = needed + n + 2
    die = _tens_again_die(difficulty, cap)
    # Convolve with Fractions: (successes, ones), a 1 being its own outcome.
    table = {(0, 0): Fraction(1)}
    for _ in range(n):
        nxt: dict = {}
        for (s, o), p in table.items():
            key = (s, o + 1)
            nxt[key] = nxt.get(key, 0) + p / 10
            for gained, q in die.items():
                key = (min(s + gained, cap), o)
                nxt[key] = nxt.get(key, 0) + p * q
        table = nxt
    expected = sum(
        (p for (s, o), p in table.items() if not is_botch(spec, s, o) and s - o >= needed),
        Fraction(0),
    )
    assert odds_for(spec).success == expected
    assert odds_for(spec).exact


def test_one_die_with_re_rolled_tens_has_the_geometric_chance_of_two_successes():
    spec = Spec(1, 6, 2, False, True, "revised", "tens_again")
    # a 10 (1/10) and a re-roll of 6-10 (5/10): 1/20 exactly, no truncation.
    assert odds_for(spec).success == Fraction(1, 20)


def _chance(dots=3, **chosen) -> Fraction:
    return swd10.odds(pool(dots, kind="ability", **_ability_facts()), options(**chosen)).success


def _ability_facts():
    return {"attributes": (("dexterity", 0),), "default_attribute": "dexterity"}


def test_each_reading_changes_the_odds_the_way_it_should():
    base = _chance(needed=2)
    assert _chance(needed=2, ones=False) > base  # 1s no longer cancel
    twice = _chance(needed=2, specialty_rule="tens_twice", specialty=True)
    again = _chance(needed=2, specialty_rule="tens_again", specialty=True)
    assert twice > again > base
    # The specialty flag does nothing while the reading is "none".
    assert _chance(needed=2, specialty=True) == base
    # Botch: "more 1s than successes" botches far more often than "no success at all".
    old = swd10.odds(pool(3), options(botch="old")).bars[0].chance
    revised = swd10.odds(pool(3), options()).bars[0].chance
    assert old > revised > 0
    # Above 10: 1 success at 10 beats 2 at 10, which beats 3 at 9 (L1450) for 3 dice.
    ten = _chance(difficulty=11, above="ten")
    extra = _chance(difficulty=11, above="extra_successes")
    threshold = _chance(difficulty=11, above="threshold")
    assert ten > extra
    assert threshold == _chance(difficulty=9, needed=3)
    assert extra == _chance(difficulty=10, needed=2)


def test_the_path_roll_uses_the_current_value_minus_the_grade_plus_six():
    # Digest §4.5: Light side 5 and a grade-3 mistake roll 5 dice at difficulty 8 (L120).
    path = pool(5, kind="path")
    result = swd10.odds(path, options(grade=3))
    assert "5 dice at difficulty 8" in result.question
    assert result.success == _chance(dots=5, difficulty=8)
    assert "two" in result.note  # a botch loses two grades (L126)
    names = [option.key for option in swd10.roll_options(path, DEFAULTS)]
    assert names == ["grade", "dice"]  # no Willpower on a Path roll (L181)


def test_path_rolls_and_their_consequences_from_a_sheet():
    sheet = copy.deepcopy(swd10.demo_sheet())
    sheet["light_side"] = 1
    by_key = {r.key: r for r in swd10.rollables(sheet, DEFAULTS)}
    path = by_key["path.light_side"]
    rng = random.Random(3)
    outcomes = {swd10.roll(path, options(grade=1), rng).outcome for _ in range(200)}
    assert outcomes == {"success", "failure", "botch"}
    text = swd10.roll(path, options(grade=1), random.Random(4)).summary
    assert "grade" in text


def test_willpower_adds_one_success_that_no_one_cancels():
    no_dice = pool(0)
    assert swd10.odds(no_dice, options()).success == 0
    assert swd10.odds(no_dice, options(willpower=True)).success == 1
    with_wp = swd10.odds(pool(2), options(willpower=True))
    assert with_wp.bars[0].label == "Botch" and with_wp.bars[0].chance == 0


def test_willpower_is_offered_only_with_willpower_left_and_never_on_willpower_rolls():
    keys = [o.key for o in swd10.roll_options(pool(3, willpower_current=0), DEFAULTS)]
    assert "willpower" not in keys
    keys = [o.key for o in swd10.roll_options(pool(3, kind="willpower"), DEFAULTS)]
    assert "willpower" not in keys
    with pytest.raises(InvalidRoll) as refused:
        swd10.odds(pool(3, kind="willpower"), options(willpower=True))
    assert refused.value.option == "willpower"
    with pytest.raises(InvalidRoll):
        swd10.odds(pool(3, willpower_current=0), options(willpower=True))


def test_wounds_come_off_the_pool_unless_willpower_ignores_them():
    wounded = pool(4, wound_penalty=2)
    assert swd10.odds(wounded, options()).success == swd10.odds(pool(2), options()).success
    assert (
        swd10.odds(wounded, options(ignore_wounds=True)).success
        == swd10.odds(pool(4), options()).success
    )


@pytest.mark.parametrize(
    ("rollable", "chosen", "option"),
    [
        (pool(15), {"dice": 10}, "dice"),  # a pool above 20 dice
        (pool(3), {"difficulty": -1}, "difficulty"),
        (pool(3), {"difficulty": 21}, "difficulty"),
        (pool(3), {"needed": 0}, "needed"),
        (pool(3), {"dice": 11}, "dice"),
        (pool(3, kind="path"), {"grade": 11}, "grade"),
        (pool(3, incapacitated=True), {}, "pool"),
    ],
)
def test_bad_options_are_refused_naming_the_option(rollable, chosen, option):
    with pytest.raises(InvalidRoll) as refused:
        swd10.odds(rollable, options(**chosen))
    assert refused.value.option == option
    assert refused.value.message


def test_a_form_with_a_negative_difficulty_is_refused_before_any_odds():
    definitions = swd10.roll_options(pool(3), DEFAULTS)
    with pytest.raises(InvalidRoll, match="at least 2"):
        parse_roll_options(definitions, {"difficulty": "-3"})


def test_every_sheet_rollable_has_options_odds_and_a_roll():
    sheet = swd10.demo_sheet()
    found = swd10.rollables(sheet, DEFAULTS)
    keys = {r.key for r in found}
    assert {"attr.dexterity", "abil.firearms", "willpower", "pool.initiative"} <= keys
    assert not any(k.startswith("abil.") and k.endswith("politics") for k in keys)  # L193
    rng = random.Random(0)
    for rollable in found:
        chosen = parse_roll_options(swd10.roll_options(rollable, DEFAULTS), {}) | readings()
        chance = swd10.odds(rollable, chosen)
        assert 0 <= chance.success <= 1
        assert swd10.roll(rollable, chosen, rng).outcome in {"success", "failure", "botch"}


def test_an_untrained_skill_defaults_to_difficulty_eight():
    sheet = copy.deepcopy(swd10.demo_sheet())
    sheet["abilities"]["demolition"] = 0
    by_key = {r.key: r for r in swd10.rollables(sheet, DEFAULTS)}
    options_ = {o.key: o for o in swd10.roll_options(by_key["abil.demolition"], DEFAULTS)}
    assert options_["difficulty"].default == 8  # L193


def _bar_index(result, bars) -> int:
    if result.outcome == "botch":
        return 0
    labels = [bar.label for bar in bars]
    shift = 1 if labels[0] == "Botch" else 0
    return shift + min(result.total, len(bars) - 1 - shift)


@pytest.mark.parametrize(
    "chosen",
    [
        {"difficulty": 6},
        {"difficulty": 8, "needed": 2, "ones": False, "botch": "old"},
        {"difficulty": 7, "specialty_rule": "tens_again", "specialty": True},
        {"difficulty": 6, "specialty_rule": "tens_twice", "specialty": True, "willpower": True},
    ],
)
def test_rolls_follow_the_odds_chi_square(chosen):
    rollable = pool(4)
    chosen = options(**chosen)
    result = swd10.odds(rollable, chosen)
    rng = random.Random(20240512)
    draws = 20000
    seen = [0] * len(result.bars)
    for _ in range(draws):
        seen[_bar_index(swd10.roll(rollable, chosen, rng), result.bars)] += 1
    expected = [float(bar.chance) * draws for bar in result.bars]
    # Pool bins expected below 5 into their neighbour (the usual chi-square condition).
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


DIFFICULTIES = st.integers(2, 10)


@settings(max_examples=60, deadline=None)
@given(
    dots=st.integers(0, 10),
    low=DIFFICULTIES,
    high=DIFFICULTIES,
    needed=st.integers(1, 4),
    cancel=st.booleans(),
    specialty=st.sampled_from(["none", "tens_twice", "tens_again"]),
    wp=st.booleans(),
)
def test_odds_are_probabilities_and_fall_as_the_difficulty_rises(
    dots, low, high, needed, cancel, specialty, wp
):
    low, high = sorted((low, high))
    chance = {}
    for difficulty in (low, high):
        result = swd10.odds(
            pool(dots),
            options(
                difficulty=difficulty,
                needed=needed,
                ones=cancel,
                specialty_rule=specialty,
                specialty=True,
                willpower=wp,
            ),
        )
        assert 0 <= result.success <= 1
        assert sum(bar.chance for bar in result.bars) == 1
        assert all(bar.chance >= 0 for bar in result.bars)
        chance[difficulty] = result.success
    assert chance[low] >= chance[high]
