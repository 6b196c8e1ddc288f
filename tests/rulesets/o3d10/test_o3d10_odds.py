"""The 1o3d10 dice contract: rollables, options, exact odds and rolls (seed 004 L5-L17,
L41, L55-L93; digest §2, §4, cases 2-7), against enumeration of the 1000 rolls of 3d10."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.o3d10 as o3d10
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, dice_readings, parse_roll_options
from rulesets.o3d10.dice import (
    DICE_READINGS,
    explosion_at_least,
    is_critical_fail,
    odds,
    ranged_dc,
    read_roll,
    roll,
)

CHI2_P001 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322,
    8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123,
}  # fmt: skip
DEFAULTS = dice_readings(resolve_settings(o3d10.SETTINGS, {}), DICE_READINGS)
THREE_D10 = list(itertools.product(range(1, 11), repeat=3))


def check(bonus: int, **facts) -> Rollable:
    facts = {"kind": "check", "luck_left": 1, "luck_day": 3} | facts
    return Rollable("pool.test", "Test", bonus, tuple(sorted(facts.items())))


@cache
def explosion_brute(needed: int, mode: str, position: int = 1, depth: int = 4) -> Fraction:
    """What an explosion adds, by enumerating its dice (deep enough for `needed`)."""
    if needed <= 0:
        return Fraction(1)
    if depth == 0:
        return Fraction(0)
    if mode == "max_of_3d10":
        return Fraction(sum(max(d) >= needed for d in THREE_D10), 1000)
    if mode == "open_d10":
        return sum(
            (
                Fraction(1, 10) * (explosion_brute(needed - 10, mode, position, depth - 1))
                if face == 10
                else Fraction(face >= needed, 10)
            )
            for face in range(1, 11)
        )
    total = Fraction(0)
    for dice in THREE_D10:
        kept = sorted(dice)[position]
        if kept == 10:
            total += Fraction(1, 1000) * explosion_brute(needed - 10, mode, position, depth - 1)
        else:
            total += Fraction(kept >= needed, 1000)
    return total


def success_brute(bonus: int, dc: int, readings: dict, *, wounded=False, force=False, luck=False):
    """The chance of success by walking the 1000 rolls one by one, as the rules read."""
    keep = readings["force_roll_keep"]
    position = 0 if wounded else (2 if force and keep == "highest" else 1)
    mode = readings["explode_mode"]
    total = Fraction(0)
    for dice in THREE_D10:
        fumble = is_critical_fail(
            dice,
            wounded=wounded,
            force=force,
            force_keep=keep,
            wounded_crit_fail=readings["crit_fail_when_wounded"],
        )
        if fumble:
            total += Fraction(not readings["crit_fail_auto_fails"] and bonus + 1 >= dc, 1000)
            continue
        kept = sorted(dice)[position]
        chance = Fraction(1) if bonus + kept >= dc else Fraction(0)
        if kept == 10 and bonus + kept < dc:
            chance = explosion_brute(dc - bonus - 10, mode, position)
        if luck and chance == 0 and kept < 10:
            best = max(sorted([*dice[:i], 10, *dice[i + 1 :]])[position] for i in range(3))
            if bonus + best >= dc:
                chance = Fraction(1)
            elif best == 10 and readings["luck_ten_explodes"]:
                chance = explosion_brute(dc - bonus - 10, mode, position)
        total += chance / 1000
    return total


# --- exact odds against enumeration --------------------------------------------------------


@pytest.mark.parametrize("mode", ["max_of_3d10", "open_d10", "new_1o3d10"])
@pytest.mark.parametrize("position", [0, 1, 2])
def test_explosions_equal_enumeration(mode, position):
    for needed in (1, 5, 10, 11, 14, 20, 23):
        assert explosion_at_least(needed, mode, position) == explosion_brute(needed, mode, position)


READING_CASES = [
    {},
    {"explode_mode": "open_d10"},
    {"explode_mode": "new_1o3d10"},
    {"crit_fail_when_wounded": "distinct"},
    {"crit_fail_when_wounded": "middle_only"},
    {"crit_fail_auto_fails": False},
    {"luck_ten_explodes": True},
    {"force_roll_keep": "highest"},
]


@pytest.mark.parametrize("changes", READING_CASES, ids=lambda c: ",".join(c) or "defaults")
@pytest.mark.parametrize(
    ("bonus", "dc", "wounded", "force", "luck"),
    [
        (8, 15, False, False, False),
        (5, 18, True, False, True),
        (9, 19, False, False, True),
        (14, 15, True, False, False),
        (3, 14, False, True, False),
        (2, 20, False, True, True),
    ],
)
def test_success_equals_enumeration(changes, bonus, dc, wounded, force, luck):
    readings = DEFAULTS | changes
    rollable = check(bonus, dc=dc, wounded=wounded, force=force)
    found = odds(rollable, readings | {"luck": luck})
    assert found.success == success_brute(
        bonus, dc, readings, wounded=wounded, force=force, luck=luck
    )
    assert sum(bar.chance for bar in found.bars) == 1
    assert found.success == sum(bar.chance for bar in found.bars if bar.success)


def test_digest_case_6_and_calibration():
    # STR 5 + Melee 3 against Defense 15 needs a 7 on the middle die: 35.2%.
    melee = check(8, kind="melee")
    assert odds(melee, DEFAULTS | {"defense": 15}).success == Fraction(352, 1000)
    # From behind (+4) against 18 needs a 6: 50%.
    assert odds(melee, DEFAULTS | {"defense": 18, "from_behind": True}).success == Fraction(1, 2)
    # Bonus 12 against DC 18: 50% (digest §2.2).
    assert odds(check(12, dc=18), DEFAULTS).success == Fraction(1, 2)


@pytest.mark.parametrize(
    ("cells", "dc"), [(1, 10), (3, 15), (7, 20), (8, 25), (15, 30), (16, 35), (40, 35)]
)
def test_ranged_difficulty_by_distance(cells, dc):  # digest case 7, L67-L74
    assert ranged_dc(cells) == dc
    spec = read_roll(check(5, kind="ranged"), DEFAULTS | {"cells": cells})
    assert spec.dc == dc


def test_ranged_target_modifiers_add_to_the_difficulty():
    spec = read_roll(
        check(5, kind="ranged"),
        DEFAULTS | {"cells": 2, "cover": "medium_cover", "running": True},
    )
    assert spec.dc == 15 + 5 + 3


# --- each reading moves the odds the way it should --------------------------------------------


def test_each_reading_changes_the_odds_as_expected():
    far = check(8, dc=22)  # only an explosion reaches 22
    literal = odds(far, DEFAULTS).success
    assert odds(far, DEFAULTS | {"explode_mode": "open_d10"}).success < literal
    assert odds(far, DEFAULTS | {"explode_mode": "new_1o3d10"}).success < literal

    hurt = check(20, dc=15, wounded=True)  # only a fumble fails
    assert odds(hurt, DEFAULTS).success == Fraction(1000 - 163, 1000)
    assert odds(hurt, DEFAULTS | {"crit_fail_when_wounded": "distinct"}).success == Fraction(
        1000 - 145, 1000
    )
    assert odds(hurt, DEFAULTS | {"crit_fail_when_wounded": "middle_only"}).success == Fraction(
        990, 1000
    )
    assert odds(hurt, DEFAULTS | {"crit_fail_auto_fails": False}).success == 1

    lucky = check(9, dc=22)
    with_luck = DEFAULTS | {"luck": True}
    assert (
        odds(lucky, with_luck | {"luck_ten_explodes": True}).success
        > odds(lucky, with_luck).success
    )

    force = check(4, dc=12, force=True)
    assert (
        odds(force, DEFAULTS | {"force_roll_keep": "highest"}).success
        > odds(force, DEFAULTS).success
    )


def test_luck_raises_the_odds_but_never_saves_a_critical_fail():
    plain = odds(check(6, dc=14), DEFAULTS)
    lucky = odds(check(6, dc=14), DEFAULTS | {"luck": True})
    assert lucky.success > plain.success
    assert lucky.bars[0].label == plain.bars[0].label == "Critical fail"
    assert lucky.bars[0].chance == plain.bars[0].chance == Fraction(10, 1000)


# --- rolls ---------------------------------------------------------------------------------------


def test_luck_is_marked_only_when_it_saves_the_roll():
    rollable = check(6, dc=14)
    spent = kept = 0
    for seed in range(200):
        result = roll(rollable, DEFAULTS | {"luck": True}, random.Random(seed))
        plain = roll(rollable, DEFAULTS, random.Random(seed))
        if result.edits:
            assert result.edits == (("luck.use", ""),)
            assert o3d10.roll_edits(rollable, {}, result) == {"luck.use": ""}
            assert not plain.success and result.success
            spent += 1
        else:
            kept += 1
            assert result.success == plain.success
            if plain.outcome == "critical fail":
                assert not result.success  # L17: never against a critical fail
    assert spent and kept


@pytest.mark.parametrize(
    ("rollable", "options"),
    [
        (check(8, dc=15), {}),
        (check(5, dc=12, wounded=True), {"luck": True}),
        (check(9, dc=24), {"explode_mode": "open_d10"}),
        (check(2, dc=20, force=True), {"force_roll_keep": "highest", "luck": True}),
    ],
)
def test_rolls_follow_the_odds_chi_square(rollable, options):
    merged = DEFAULTS | options
    expected = {bar.label: bar.chance for bar in odds(rollable, merged).bars}
    rng = random.Random(4004)
    rolls = 5000
    observed: Counter = Counter()
    for _ in range(rolls):
        result = roll(rollable, merged, rng)
        label = dict(result.facts)["bar"]
        observed[label] += 1
        assert (
            result.success
            == next(bar.success for bar in odds(rollable, merged).bars if bar.label == label)
            or "explodes" in label
        )
    assert set(observed) <= set(expected)
    cells, small_o, small_e = [], 0, 0.0
    for label, chance in expected.items():
        e = float(chance) * rolls
        if e < 5:
            small_o, small_e = small_o + observed[label], small_e + e
        else:
            cells.append((observed[label], e))
    if small_e:
        cells.append((small_o, small_e))
    statistic = sum((o - e) ** 2 / e for o, e in cells if e)
    assert statistic < CHI2_P001[len(cells) - 1], statistic


def test_an_attack_that_hits_rolls_location_and_damage():
    blaster = check(11, kind="ranged", damage="1d8")
    for seed in range(40):
        result = roll(blaster, DEFAULTS | {"cells": 1, "absorption": 1}, random.Random(seed))
        facts = dict(result.facts)
        if result.success:
            assert facts["location"] and facts["damage"] >= 0
            assert any(line.startswith("Damage 1d8") for line in result.details)
        else:
            assert "damage" not in facts


def test_the_ranged_damage_reading_adds_a_d6_per_ten_over():
    blaster = check(25, kind="ranged", damage="1d8")  # beats DC 10 by 16 or more
    off = roll(blaster, DEFAULTS | {"cells": 1}, random.Random(1))
    on = roll(blaster, DEFAULTS | {"cells": 1, "ranged_damage_bonus": True}, random.Random(1))
    assert not any("d6 for" in line for line in off.details)
    assert any("+1d6 for 10 over" in line or "+2d6 for 20 over" in line for line in on.details)


# --- invariants ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.integers(-5, 30),
    st.integers(0, 50),
    st.booleans(),
    st.booleans(),
    st.sampled_from(READING_CASES),
)
def test_odds_are_probabilities_and_monotone(bonus, dc, wounded, luck, changes):
    readings = DEFAULTS | changes | {"luck": luck}
    found = odds(check(bonus, dc=dc, wounded=wounded), readings)
    assert 0 <= found.success <= 1
    assert sum(bar.chance for bar in found.bars) == 1
    assert odds(check(bonus, dc=dc + 1, wounded=wounded), readings).success <= found.success
    assert odds(check(bonus + 1, dc=dc, wounded=wounded), readings).success >= found.success


# --- bad input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rollable", "raw", "option"),
    [
        (check(5), {"difficulty": "-1"}, "difficulty"),
        (check(5), {"modifier": "21"}, "modifier"),
        (check(5), {"modifier": "-21"}, "modifier"),
        (check(5, kind="ranged"), {"cells": "0"}, "cells"),
        (check(5, kind="melee"), {"defense": "-3"}, "defense"),
        (check(5, kind="ranged"), {"cover": "wall"}, "cover"),
    ],
)
def test_bad_options_are_refused(rollable, raw, option):
    with pytest.raises(InvalidRoll) as refused:
        parse_roll_options(o3d10.roll_options(rollable, {}), raw)
    assert refused.value.option == option
    with pytest.raises(InvalidRoll):
        odds(rollable, DEFAULTS | raw)


def test_luck_already_used_today_is_refused():
    spent = check(5, luck_left=0, luck_day=4)
    with pytest.raises(InvalidRoll) as refused:
        odds(spent, DEFAULTS | {"luck": True})
    assert refused.value.option == "luck" and "day 4" in refused.value.message
    with pytest.raises(InvalidRoll):
        roll(spent, DEFAULTS | {"luck": True}, random.Random(1))
    assert odds(spent, DEFAULTS).success  # without Luck the roll is fine


def test_other_refusals():
    with pytest.raises(InvalidRoll) as refused:
        odds(check(5, kind="ranged"), DEFAULTS | {"cover": "total_cover"})
    assert refused.value.option == "cover"
    with pytest.raises(InvalidRoll):
        odds(check(500), DEFAULTS)
    with pytest.raises(InvalidRoll):
        odds(check(5, can_act=False, state="Unconscious"), DEFAULTS)


# --- the sheet ----------------------------------------------------------------------


def test_the_sheet_gives_its_pools_with_the_wound_state_and_luck():
    sheet = o3d10.demo_sheet()
    settings_ = resolve_settings(o3d10.SETTINGS, {})
    found = {r.key: r for r in o3d10.rollables(sheet, settings_)}
    assert {"pool.melee", "pool.ranged", "pool.dodge", "weapon.0"} <= set(found)
    assert found["pool.dodge"].fact("dc") == 18
    wounded = o3d10.derived(sheet, settings_)["health"]["state"] == "wounded"
    assert found["pool.melee"].fact("wounded") is wounded
    for rollable in found.values():
        definitions = o3d10.roll_options(rollable, settings_)
        odds(rollable, parse_roll_options(definitions, {}) | DEFAULTS)
    healthy = o3d10.apply_edit(sheet, "luck.new_day", "", settings_)
    luck = {r.key: r for r in o3d10.rollables(healthy, settings_)}["pool.dodge"]
    assert luck.fact("luck_left") == 1
    result = next(
        r
        for seed in range(200)
        if (r := roll(luck, DEFAULTS | {"luck": True}, random.Random(seed))).edits
    )
    marked = o3d10.apply_edit(healthy, *result.edits[0], settings_)
    after = {r.key: r for r in o3d10.rollables(marked, settings_)}["pool.dodge"]
    assert after.fact("luck_left") == 0
