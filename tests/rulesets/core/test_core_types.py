"""The shared rule types every system builds on."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.core import (
    Cost,
    DieCode,
    DieCodeError,
    Pool,
    Report,
    Setting,
    Severity,
    resolve_settings,
    roll,
)

# --- die codes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "dice", "pips"),
    [
        ("4D+2", 4, 2),  # seed 003:93
        ("4d+2", 4, 2),
        ("4D", 4, 0),
        ("0D", 0, 0),  # 003:1010, fire control 0D
        ("+1D+1", 1, 1),
        ("-1D", -1, 0),  # 002:177
        (" 3D - 1 ", 3, -1),
    ],
)
def test_it_reads_the_die_code_forms_of_the_seeds(text, dice, pips):
    assert DieCode.parse(text) == DieCode(dice, pips)


@pytest.mark.parametrize("text", ["D4", "4", "4D+", "four dice", "", "4D+2+1", "4x"])
def test_it_refuses_text_that_is_not_a_die_code(text):
    with pytest.raises(DieCodeError, match="not a die code"):
        DieCode.parse(text)


def test_it_refuses_three_or_more_pips_in_a_stored_code_and_says_what_to_write():
    with pytest.raises(DieCodeError, match="write 6D\\+1"):
        DieCode.parse("4D+7")


def test_a_code_in_play_keeps_its_extra_pips():
    # 003:99: a roll of 4D+6 stays 4D+6, pips never turn into dice in play.
    code = DieCode.parse("4D+6", allow_extra_pips=True)
    assert code.format() == "4D+6"
    assert DieCode(4, 2) + DieCode(0, 2) == DieCode(4, 4)


@pytest.mark.parametrize(
    ("start", "pips", "result"),
    [("3D", 1, "3D+1"), ("3D+2", 1, "4D"), ("2D+1", 5, "4D"), ("4D+2", 3, "5D+2")],
)
def test_improving_a_code_carries_every_third_pip_into_a_die(start, pips, result):
    # 003:97: 3D -> 3D+1 -> 3D+2 -> 4D.
    assert DieCode.parse(start).improved(pips).format() == result


def test_it_prints_bonuses_and_penalties_with_their_sign():
    assert DieCode(1, 1).format(signed=True) == "+1D+1"
    assert DieCode(-1, 0).format() == "-1D"
    assert DieCode.from_pips(-4).format() == "-1D-1"
    assert DieCode(0, 2).format(signed=True) == "+0D+2"
    assert DieCode(3, -1).format() == "3D-1"


@given(st.integers(min_value=-300, max_value=300))
def test_parse_of_format_is_the_identity_on_stored_codes(total):
    code = DieCode.from_pips(total)
    assert DieCode.parse(code.format()) == code
    assert DieCode.parse(code.format()).total_pips == total


codes = st.builds(DieCode, st.integers(-20, 20), st.integers(-8, 8))


@given(codes, codes, codes)
def test_adding_codes_is_associative(a, b, c):
    assert (a + b) + c == a + (b + c)


# --- pools, reports, costs, settings, dice ---------------------------------------------


def test_a_pool_says_what_is_left_and_whether_it_is_overspent():
    pool = Pool("attributes.physical", "Physical", allowed=6, spent=7)
    assert (pool.left, pool.over, pool.exact) == (-1, True, False)
    assert Pool("x", "X", allowed=4, spent=4).exact


def test_a_report_keeps_every_violation_and_groups_them_by_trait():
    report = Report()
    report.error("too_high", "abil.dodge", "Dodge is 4")
    report.warn("left", "pool.talents", "2 dots left")
    report.error("too_high", "abil.brawl", "Brawl is 5")
    assert not report.ok
    assert [v.trait for v in report.errors] == ["abil.dodge", "abil.brawl"]
    assert report.warnings[0].severity is Severity.WARNING
    assert set(report.by_trait()) == {"abil.dodge", "pool.talents", "abil.brawl"}
    assert report.codes() == {"too_high", "left"}


def test_a_report_with_only_warnings_is_legal():
    report = Report()
    report.warn("left", None, "dots left")
    assert report.ok


def test_a_multi_step_cost_shows_each_step_and_the_sum():
    steps = [Cost(12, "XP", "2 → 3"), Cost(16, "XP", "3 → 4")]
    total = Cost.total(steps, unit="XP", label="Intelligence 2 → 4")
    assert total.amount == 28
    assert total.explanation == "Intelligence 2 → 4: 12 + 16 = 28 XP"
    assert Cost.total([], unit="XP", label="Wits 2 → 2").amount == 0


def test_dice_follow_the_injected_generator():
    first = roll(10, 10, random.Random(7))
    assert first == roll(10, 10, random.Random(7))
    assert all(1 <= face <= 10 for face in first)
    with pytest.raises(ValueError):
        roll(-1, 6, random.Random(1))


def test_a_setting_coerces_choices_and_bounded_numbers():
    budget = Setting("budget", "Point budget", 150, "L768", minimum=0, maximum=1000)
    assert budget.coerce("200") == 200
    with pytest.raises(ValueError, match="at least 0"):
        budget.coerce("-5")
    with pytest.raises(ValueError, match="not a whole number"):
        budget.coerce("lots")
    edition = Setting("edition", "Edition", "2e", "002", choices=(("1e", "1st"), ("2e", "R&E")))
    assert edition.coerce("1e") == "1e"
    with pytest.raises(ValueError, match="choose one of"):
        edition.coerce("3e")
    assert resolve_settings((budget, edition), {"budget": 90, "stray": 1}) == {
        "budget": 90,
        "edition": "2e",
    }
