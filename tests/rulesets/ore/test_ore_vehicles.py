"""Star O.R.E. vehicles (001:L446-628): the seed's three sample vehicles, hit locations filled
with Shock or Killing, and a pilot's roll against the vehicle's Difficulty, whose exact odds
match enumeration."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulesets.core.edits import InvalidSheet
from rulesets.core.rolls import Rollable
from rulesets.ore import dice
from rulesets.ore import vehicles as v


def test_the_three_samples_are_the_seeds_vehicles():
    at_st, t47, x_wing = (v.sample(key) for key in ("at_st", "t47", "x_wing"))
    assert (at_st["speed"], at_st["speed_rating"], at_st["crew"]) == ("ground", 1, "2")
    assert [w["damage"] for w in at_st["weapons"]] == ["width+5", "width+4", "width+3"]
    assert [(r["name"], r["armor"], r["boxes"]) for r in at_st["locations"]] == [
        ("Left leg", 5, 10),
        ("Right leg", 5, 10),
        ("Engine", 5, 20),
        ("Cockpit", 3, 10),
    ]
    assert (t47["speed"], t47["speed_rating"], t47["passengers"], t47["weapons"]) == (
        "air",
        4,
        1,
        [],
    )
    assert x_wing["shield_points"] == 10 and x_wing["starship_armor"]
    assert [w["damage"] for w in x_wing["weapons"]] == ["width+4", "width+8"]
    assert x_wing["weapons"][1]["ammo"] == 6


def test_every_samples_hit_locations_cover_heights_one_to_ten_once():
    for key in v.SAMPLES:
        heights = Counter(
            h for row in v.sample(key)["locations"] for h in range(row["low"], row["high"] + 1)
        )
        assert sorted(heights) == list(range(1, 11)) and set(heights.values()) == {1}


@pytest.mark.parametrize(
    ("shock", "killing", "state"),
    [
        (0, 0, "working"),
        (3, 0, "damaged"),
        (10, 0, "inoperable"),
        (4, 6, "inoperable"),
        (0, 10, "destroyed"),
    ],
)
def test_a_location_full_of_shock_is_inoperable_and_of_killing_destroyed(shock, killing, state):
    row = {"name": "Engine", "boxes": 10, "shock": shock, "killing": killing}
    assert v.location_state(row) == state


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"locations": [{"low": 5, "high": 2, "name": "Leg", "boxes": 3}]}, "locations.0.low"),
        (
            {
                "locations": [
                    {"low": 1, "high": 2, "name": "Leg", "boxes": 3, "shock": 2, "killing": 2}
                ]
            },
            "locations.0.killing",
        ),
        ({"shield_points": 2, "shields_left": 3}, "shields_left"),
        ({"difficulty": 11}, "difficulty: expected a whole number from 0 to 10"),
        ({"weapons": [{"name": "Gun"}]}, "weapons.0.damage: is missing"),
    ],
)
def test_bad_vehicles_are_refused_naming_the_field(changes, message):
    with pytest.raises(InvalidSheet) as refused:
        v.validate_vehicle(changes)
    assert message in str(refused.value)


def _brute_force(dice_count: int, difficulty: int) -> Fraction:
    hits = 0
    for faces in itertools.product(range(1, 11), repeat=dice_count):
        counts = Counter(faces)
        hits += any(n >= 2 and height >= difficulty for height, n in counts.items())
    return Fraction(hits, 10**dice_count)


@pytest.mark.parametrize(("key", "pool"), [("t47", 2), ("at_st", 3), ("x_wing", 4)])
def test_a_pilots_odds_against_the_vehicles_difficulty_match_enumeration(key, pool):
    pilot = Rollable(
        "skill.p", "Pilot (Coordination + Pilot)", (pool, 0, 0), (("limb_penalty", 0),)
    )
    vehicle = v.sample(key)
    rollable = v.crew_rollable(vehicle, pilot)
    assert rollable.fact("difficulty") == vehicle["difficulty"]
    options = dict(rollable.facts) | {"difficulty": vehicle["difficulty"]}
    assert dice.odds(rollable, options).success == _brute_force(pool, vehicle["difficulty"])
