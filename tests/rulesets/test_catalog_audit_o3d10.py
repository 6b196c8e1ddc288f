"""1o3d10 tables read against the seed rows they cite (issue 27 item 16).

The seed prints its tables as markdown rows ("| 1 | Left leg | 0 |"); these tests parse the
row each entry cites and set its modifier or DC against the entry, so a table that drifts
from its seed fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesets.o3d10 import data

SEEDS = Path("/work/shared/seeds")
if not SEEDS.is_dir():  # pragma: no cover - the seeds live beside the project, not in it
    pytest.skip("the seed files are not on this machine", allow_module_level=True)

[_SEED] = SEEDS.glob("004_*.txt")
LINES = _SEED.read_text(encoding="utf-8").split("\n")


def line(source: str) -> str:
    return LINES[int(re.match(r"L(\d+)", source).group(1)) - 1].strip()


def cells(source: str) -> list[str]:
    return [cell.strip() for cell in line(source).strip("|").split("|")]


def last_number(source: str) -> int:
    return int(re.search(r"([+-]?\d+)\s*\|?$", line(source)).group(1))


@pytest.mark.parametrize("location", data.HIT_LOCATIONS, ids=lambda loc: loc.label)
def test_every_hit_location_has_the_roll_name_and_damage_its_row_prints(location) -> None:
    roll, name, modifier = cells(location.source)
    assert (int(roll), name) == (location.roll, location.label)
    if location.extra_damage_dice:
        assert modifier == f"+{location.extra_damage_dice}"
        assert location.damage_bonus == 0
    else:
        assert int(modifier) == location.damage_bonus


def test_the_location_table_has_ten_rows_and_the_catalog_all_of_them() -> None:
    assert [loc.roll for loc in data.HIT_LOCATIONS] == list(range(1, 11))


RANGED_ROWS = ("L69", "L70", "L71", "L72", "L73", "L74")


@pytest.mark.parametrize(("row", "source"), enumerate(RANGED_ROWS))
def test_every_ranged_difficulty_is_its_rows_and_starts_at_its_first_cell(row, source) -> None:
    lowest, dc = data.RANGED_DC_BY_CELLS[row]
    assert dc == last_number(source)
    printed = re.search(r"\(>?(\d+)", line(source)).group(1)
    assert lowest == int(printed)


@pytest.mark.parametrize(
    ("table", "sources"),
    [
        (data.PHYSICAL_WEIGHT_KG, ("L173", "L174", "L175", "L176", "L177")),
        (data.PHYSICAL_SPEED_KMH, ("L178", "L179", "L180", "L181")),
        (data.PHYSICAL_DISTANCE_M, ("L182", "L183", "L184", "L185")),
        (data.ALTERATION_TARGET_INTELLIGENCE, ("L201", "L202", "L203", "L204", "L205")),
        (data.ALTERATION_DISTANCE_M, ("L210", "L211", "L212", "L213")),
        (data.ORGANIC_DISTANCE_M, ("L224", "L225", "L226")),
        (data.ORGANIC_TARGET_STRENGTH, ("L227", "L228", "L229", "L230", "L231")),
    ],
    ids=(
        "weight",
        "speed",
        "physical distance",
        "intelligence",
        "alteration distance",
        "organic distance",
        "strength",
    ),
)
def test_every_force_condition_has_the_modifier_its_row_prints(table, sources) -> None:
    assert tuple(band.source for band in table) == sources
    for band in table:
        assert band.modifier == last_number(band.source)


@pytest.mark.parametrize(
    ("value", "source", "pattern"),
    [
        (data.PHYSICAL_BASE_DC, "L169", r"DC (\d+)"),
        (data.ALTERATION_BASE_DC, "L197", r"DC (\d+)"),
        (data.ORGANIC_BASE_DC, "L220", r"DC (\d+)"),
        (data.PHYSICAL_ORGANIC_TARGET, "L186", r"\+(\d+)"),
        (data.DODGE_DC, "L118", r"(\d+)"),
        (data.DEFLECT_DC, "L128", r"(\d+)"),
        (data.STABILISE_DC, "L51", r"DC of (\d+)"),
        (data.FORCE_HEALING_DC, "L247", r"(\d+)"),
        (data.MELEE_FROM_BEHIND_BONUS, "L59", r"adds \+(\d+)"),
        (data.MELEE_BONUS_D6_PER_MARGIN, "L59", r"overcome by (\d+), add 1d6"),
        (-data.DEFLECT_REDIRECT_DAMAGE_MODIFIER, "L145", r"damage -(\d+)"),
        (data.COMBINED_LIFT_PENALTY_PER_USER, "L192", r"add -(\d+) for each"),
        (data.DEATH_MULTIPLIER, "L45", r"x(\d+)"),
        (data.BLEED_SAFE_FROM, "L49", r"If (\d+) or higher"),
        (data.CRITICAL_MARGIN, "L11", r"by (\d+) or more"),
        (data.CRIT_FAIL_NEXT_DIE_BELOW, "L13", r"less than (\d+)"),
        (data.SHORT_ACTION_CELLS, "L31", r"\((\d+) cells\)"),
        (data.LONG_ACTION_CELLS, "L33", r"\((\d+) cells\)"),
        (data.MAX_CELLS_PER_TURN, "L35", r"\((\d+) cells\)"),
        (data.INITIATIVE_PER_EXTRA_ACTION, "L21", r"20 to 29"),
        (data.REACTION_POINTS_BELOW_10, "L99", r"\| (\d+) \|$"),
    ],
)
def test_every_rule_number_is_the_one_its_line_prints(value, source, pattern) -> None:
    found = re.search(pattern, line(source))
    assert found, f"{source} no longer says {pattern}"
    if found.groups():
        assert value == int(found.group(1))
    else:  # "<20 one action, 20 to 29 two": a step of 10
        assert value == 10


@pytest.mark.parametrize("reaction", data.REACTIONS, ids=lambda r: r.slug)
def test_every_reaction_costs_the_points_its_row_prints(reaction) -> None:
    if reaction.slug == "attached_move":
        assert "using one Reaction Point" in line(reaction.source)
        assert reaction.points == 1
        return
    name, points = cells(reaction.source)
    assert (name, int(points)) == (reaction.label, reaction.points)


def test_the_reaction_point_rows_give_the_points_the_table_prints() -> None:
    for (_lowest, points), source in zip(
        data.REACTION_POINTS, ("L100", "L101", "L102"), strict=True
    ):
        assert points == last_number(source)


def test_the_redirect_bands_have_the_dcs_the_table_prints() -> None:
    for (_slug, label, _cells, dc), source in zip(
        data.DEFLECT_REDIRECT_DC, ("L140", "L141", "L142", "L143"), strict=True
    ):
        assert cells(source) == [label, str(dc)]


def test_the_force_jump_rows_and_moving_targets_are_the_tables() -> None:
    for (lowest, dc), source in zip(
        data.FORCE_JUMP_DC_BY_CELLS, ("L158", "L159", "L160", "L161"), strict=True
    ):
        assert dc == last_number(source)
        assert lowest == int(re.search(r"\((\d+)-", line(source)).group(1))
    assert int(re.search(r"-(\d+) cells", line("L161")).group(1)) == data.FORCE_JUMP_MAX_CELLS
    for speed, source in (("slow", "L162"), ("normal", "L163"), ("fast", "L164")):
        assert data.FORCE_JUMP_TARGET_MOVING[speed] == last_number(source)


def test_the_tricks_and_maneuvers_add_what_their_rows_print() -> None:
    for trick, source in (
        ("easy", "L206"),
        ("normal", "L207"),
        ("hard", "L208"),
        ("very_hard", "L209"),
    ):
        assert data.ALTERATION_TRICK[trick] == last_number(source)
    for maneuver, source in (("easy", "L232"), ("medium", "L233"), ("hard", "L234")):
        assert data.ORGANIC_MANEUVER[maneuver] == last_number(source)
