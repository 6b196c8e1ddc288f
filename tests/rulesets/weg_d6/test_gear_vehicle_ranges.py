"""1E's ranges for additional weapons (003:466-487) as data, and a ship's hyperdrive bought a
level at a time: 1E skill points (003:1044), R&E a share of the value (002:268-287)."""

from __future__ import annotations

import pytest

from rulesets.core.edits import InvalidSheet
from rulesets.weg_d6 import vehicles as v
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE


def _meters(band: str) -> tuple[int, int]:
    low, high = band.replace(",", "").split("-")
    return int(low), int(high)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("speeder_light", "50-300/301-500/501-1,000"),
        ("artillery_heavy", "50-600/601-5,000/5,001-25,000"),
        ("starfighter_laser", "200-5,000/5,001-25,000/25,001-50,000"),
        ("capital_turbolaser", "5,000-30,000/30,001-70,000/70,001-150,000"),
        ("capital_tractor", "1,000-10,000/10,001-30,000/30,001-60,000"),
    ],
)
def test_a_category_fills_the_ranges_the_chart_prints(key, text):
    assert v.range_text(v.WEAPON_RANGE_BY_KEY[key]) == text


def test_the_garbled_proton_torpedo_ranges_are_left_blank_with_a_note():
    torpedoes = v.WEAPON_RANGE_BY_KEY["starfighter_torpedoes"]
    assert (torpedoes.short, torpedoes.medium, torpedoes.long) == ("500-15,000", "", "")
    assert "garbled" in torpedoes.note and torpedoes.text == "500-15,000/?/?"


@pytest.mark.parametrize("entry", [r for r in v.WEAPON_RANGES if r.medium and r.long])
def test_each_printed_band_starts_where_the_last_one_ends(entry):
    short, medium, long = (_meters(b) for b in (entry.short, entry.medium, entry.long))
    assert medium[0] == short[1] + 1
    # The capital missiles' medium band runs to 60,500 while long starts at 60,001: noted.
    assert long[0] == medium[1] + 1 or entry.note


def _ship(edition: str, hyperdrive: str, **more) -> dict:
    data = {"edition": edition, "scale": "starfighter", "hyperdrive": hyperdrive}
    return v.validate_vehicle(data | {"value": 100_000} | more)


@pytest.mark.parametrize(
    ("old", "new", "points", "credits"),
    [("x4", "x3", 5, "2,500"), ("x3", "x2", 10, "5,000"), ("x2", "x1", 20, "10,000"),
     ("x1", "x1/2", 40, "20,000")],
)  # fmt: skip
def test_a_1e_hyperdrive_level_costs_the_seeds_points_and_credits_by_scale(
    old, new, points, credits
):
    data, text = v.improve(_ship(EDITION_1E, old), v.HYPERDRIVE_KEY)
    assert data["hyperdrive"] == new and data["improved"] == {"hyperdrive": 1}
    assert f"{points} skill points, {credits} credits, 1 week" in text  # 003:1044, 003:1024
    # 003:1060 grades die-code pips only: the hyperdrive's difficulty is left to the GM.
    assert "technology roll at the GM's difficulty" in text
    assert not any(level in text for level in ("Easy", "Moderate", "Difficult", "Heroic"))


@pytest.mark.parametrize(
    ("old", "difficulty", "percent"),
    [("x4", "Easy", 10), ("x3", "Moderate", 15), ("x2", "Very Difficult", 25),
     ("x1", "Heroic", 35)],
)  # fmt: skip
def test_an_r_and_e_hyperdrive_level_is_the_old_multipliers_row(old, difficulty, percent):
    row = next(r for r in v.improvement_rows(_ship(EDITION_RE, old)) if r["key"] == "hyperdrive")
    assert f"{difficulty}, {percent}% = {1000 * percent:,} credits" in row["cost"]


@pytest.mark.parametrize("old", ["", "x1/2", "x5", "x10"])
def test_no_hyperdrive_step_off_the_chart(old):
    assert all(r["key"] != "hyperdrive" for r in v.improvement_rows(_ship(EDITION_RE, old)))
    with pytest.raises(InvalidSheet, match="hyperdrive"):
        v.improve(_ship(EDITION_1E, old), v.HYPERDRIVE_KEY)
