"""SWd10 vehicle size where it touches a character's roll (000:L1386-1536): the operation
dice and difficulty, cumulative as L1412's examples say, and a pilot's exact odds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesets.core import resolve_settings
from rulesets.core.edits import InvalidSheet
from rulesets.core.rolls import Rollable
from rulesets.registry import get_ruleset
from rulesets.swd10 import dice
from rulesets.swd10 import vehicles as v


def test_l1412s_examples_hold_colossal_and_fine():
    colossal, fine = v.SIZE_BY_KEY["colossal"], v.SIZE_BY_KEY["fine"]
    assert (colossal.dice, colossal.difficulty) == (-2, 1)
    assert (fine.dice, fine.difficulty) == (3, -1)


def test_l1416s_battle_station_example():
    # An attacker rolls damage against a battle station at difficulty 9 (6 + 3); it soaks
    # with shields at difficulty 3 (6 - 3).
    station = v.SIZE_BY_KEY["colossal_battle_station"]
    assert 6 + station.damage_difficulty == 9 and 6 + station.shields_difficulty == 3


def test_medium_changes_nothing():
    medium = v.SIZE_BY_KEY["medium"]
    assert (
        medium.dice,
        medium.difficulty,
        medium.shields_difficulty,
        medium.damage_difficulty,
    ) == (0, 0, 0, 0)


def test_bad_size_is_refused():
    with pytest.raises(InvalidSheet, match="size"):
        v.validate_vehicle({"size": "enormous"})


def _brute_force(pool: int, difficulty: int) -> Fraction:
    """At least one success once 1s cancel successes (the default botch and cancel readings
    are read from the odds under test: compared here for pools small enough to list)."""
    hits = 0
    for faces in itertools.product(range(1, 11), repeat=pool):
        successes = sum(1 for f in faces if f >= difficulty)
        ones = faces.count(1)
        hits += successes - ones >= 1
    return Fraction(hits, 10**pool)


def _pilot(dexterity: int, pilot: int) -> Rollable:
    ruleset = get_ruleset("swd10")
    settings = resolve_settings(ruleset.SETTINGS, {})
    sheet = ruleset.blank_sheet(settings)
    sheet["attributes"]["dexterity"] = dexterity
    sheet["abilities"]["pilot"] = pilot
    return next(r for r in ruleset.rollables(sheet, settings) if r.key == "abil.pilot")


@pytest.mark.parametrize(("size", "pool"), [("large", 3), ("small", 5), ("huge", 3), ("medium", 4)])
def test_a_pilot_rolls_dexterity_and_pilot_with_the_sizes_dice_and_difficulty(size, pool):
    rollable = v.crew_rollable(v.validate_vehicle({"size": size}), _pilot(2, 2))
    grown = v.SIZE_BY_KEY[size]
    difficulty = 6 + grown.difficulty
    assert rollable.fact("default_difficulty") == difficulty
    odds = dice.odds(rollable, {"difficulty": difficulty, "attribute": "dexterity"})
    assert odds.success == _brute_force(pool, difficulty)
