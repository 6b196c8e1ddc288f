"""Tables a roller reads: ranges, initiative, reactions, locations, the Force (digest §4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.o3d10 import data
from rulesets.o3d10.rules import (
    ImmuneTarget,
    actions_from_initiative,
    alteration_dc,
    cells_for_metres,
    combined_lift_total,
    deflect_redirect_dc,
    force_jump_dc,
    hit_location,
    organic_dc,
    physical_dc,
    ranged_dc,
    reaction_points,
)


# Digest case 7 (L67-L74), plus the edges of every row.
@pytest.mark.parametrize(
    ("cells", "dc"),
    [
        (1, 10),
        (2, 15),
        (3, 15),
        (4, 20),
        (7, 20),
        (8, 25),
        (10, 25),
        (11, 30),
        (15, 30),
        (16, 35),
        (40, 35),
    ],
    ids=lambda v: str(v),
)
def test_it_reads_the_ranged_difficulty_by_cells(cells, dc):
    assert ranged_dc(cells) == dc


def test_it_refuses_a_range_of_no_cells():
    with pytest.raises(ValueError):
        ranged_dc(0)


@pytest.mark.parametrize(
    ("metres", "cells"), [(1.5, 1), (3, 2), (4.5, 3), (10.5, 7), (12, 8), (22.6, 16)]
)
def test_it_turns_metres_into_cells_rounding_up(metres, cells):
    assert cells_for_metres(metres) == cells


# Digest case 8 (L21, L97-L102).
@pytest.mark.parametrize(
    ("total", "actions", "points"),
    [(9, 1, 1), (12, 1, 2), (20, 2, 3), (26, 2, 4), (31, 3, 4)],
    ids=["total9", "total12", "total20", "total26", "total31"],
)
def test_digest_case_eight_actions_and_reaction_points(total, actions, points):
    assert actions_from_initiative(total) == actions
    assert reaction_points(total) == points


@pytest.mark.parametrize(("total", "points"), [(10, 2), (14, 2), (15, 3), (25, 3), (-3, 1)])
def test_reaction_point_rows_under_the_default_reading(total, points):
    assert reaction_points(total) == points


def test_the_overlapping_fifteen_follows_the_setting():
    assert reaction_points(15, at_15=2) == 2
    assert reaction_points(16, at_15=2) == 3


@given(st.integers(-50, 200))
def test_a_higher_initiative_never_gives_fewer_actions_or_points(total):
    assert actions_from_initiative(total + 1) >= actions_from_initiative(total) >= 1
    assert reaction_points(total + 1) >= reaction_points(total) >= 1


@pytest.mark.parametrize(
    ("d10", "label", "bonus", "dice"),
    [
        (1, "Left leg", 0, ""),
        (3, "Upper back", 1, ""),
        (4, "Neck", 2, ""),
        (9, "Chest", 1, ""),
        (10, "Head", 0, "1d6"),
    ],
)
def test_it_reads_the_hit_location_table(d10, label, bonus, dice):
    location = hit_location(d10)
    assert (location.label, location.damage_bonus, location.extra_damage_dice) == (
        label,
        bonus,
        dice,
    )


def test_the_hit_location_table_covers_every_face_once():
    assert [row.roll for row in data.HIT_LOCATIONS] == list(range(1, 11))
    with pytest.raises(ValueError):
        hit_location(11)


@pytest.mark.parametrize(("cells", "dc"), [(1, 10), (3, 15), (10, 20), (11, 30)])
def test_it_reads_the_redirect_difficulty(cells, dc):
    assert deflect_redirect_dc(cells) == dc


@pytest.mark.parametrize(
    ("cells", "moving", "dc"), [(3, None, 10), (4, None, 15), (10, "slow", 23), (15, "fast", 33)]
)
def test_it_reads_the_force_jump_table(cells, moving, dc):
    assert force_jump_dc(cells, moving) == dc


def test_it_refuses_a_force_jump_past_the_table():
    with pytest.raises(ValueError, match="15 cells"):
        force_jump_dc(16)


# Digest case 10 (L168-L215).
def test_digest_case_ten_physical_school():
    assert physical_dc(weight_kg=80, speed_kmh=30, distance_m=5, organic=True) == 28


def test_digest_case_ten_alteration_school():
    assert alteration_dc(target_intelligence=6, trick="normal", distance_m=3) == 23


def test_digest_case_ten_droids_are_immune():
    with pytest.raises(ImmuneTarget, match="immune"):
        alteration_dc(target_intelligence=6, trick="normal", distance_m=3, machine=True)
    with pytest.raises(ImmuneTarget):
        organic_dc(distance_m=1, target_strength=5, maneuver="easy", machine=True)


def test_digest_case_ten_combined_lift():
    assert combined_lift_total([14, 16]) == 20


@pytest.mark.parametrize(
    ("weight", "modifier"), [(10, 1), (50, 3), (99, 3), (100, 5), (500, 7), (1000, 7), (1001, 10)]
)
def test_shared_weight_edges_fall_in_the_higher_row(weight, modifier):
    assert (
        physical_dc(weight_kg=weight, speed_kmh=0, distance_m=0, organic=False)
        == 12 + modifier + 2 + 1
    )


@pytest.mark.parametrize(
    ("strength", "modifier"), [(4, 1), (5, 2), (8, 5), (9, 8), (10, 8), (11, 10)]
)
def test_organic_strength_rows_read_eight_to_nine_as_nine_to_ten(strength, modifier):
    assert (
        organic_dc(distance_m=1, target_strength=strength, maneuver="easy") == 12 + 0 + modifier + 1
    )


@pytest.mark.parametrize(("distance", "modifier"), [(1.9, 0), (2, 5), (5, 5), (5.1, 15)])
def test_organic_distance_rows(distance, modifier):
    assert (
        organic_dc(distance_m=distance, target_strength=4, maneuver="hard")
        == 12 + modifier + 1 + 10
    )


def test_every_table_row_carries_a_seed_line():
    rows = [
        *data.STATS,
        *data.SKILLS,
        *data.HIT_LOCATIONS,
        *data.REACTIONS,
        *data.HEALING,
        *data.PHYSICAL_WEIGHT_KG,
        *data.ORGANIC_TARGET_STRENGTH,
    ]
    assert all(row.source.startswith("L") for row in rows)
    assert all(row.source.startswith("digest") for row in (*data.WEAPONS, *data.ARMORS))
