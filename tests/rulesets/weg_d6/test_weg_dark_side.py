"""The Dark Side from the seeds' numbers: calling on it in 1E (6, +3 a call this adventure,
+10 without a harmful action; a Force Point and a Dark Side Point on success, 003:1692-1702),
the GM's 1D on a point gained (003:1708), atonement (003:1724-1730) and R&E redemption
(002:823-827), with the readings the seed leaves open."""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.rolls import InvalidRoll, parse_roll_options
from rulesets.weg_d6 import darkside
from rulesets.weg_d6.advancement import adventure_end_edits
from rulesets.weg_d6.dice import DARK_SIDE_CALL, chance_at_least, read_roll

SETTINGS = resolve_settings(weg.SETTINGS, {})


def jedi(edition: str = "1e", *, force: int = 2, dark: int = 0) -> dict:
    sheet = copy.deepcopy(weg.demo_sheet())
    sheet["edition"] = edition
    sheet["points"].update(force=force, dark_side=dark)
    return sheet


def edit(sheet: dict, what: str, raw: str = "", **readings) -> dict:
    return weg.apply_edit(sheet, f"darkside.{what}", raw, SETTINGS | readings)


@pytest.mark.parametrize(
    ("calls", "harmful", "difficulty"),
    [(0, True, 6), (1, True, 9), (2, True, 12), (0, False, 16), (3, False, 25)],
)
def test_the_call_difficulty(calls, harmful, difficulty):
    assert darkside.call_difficulty(calls, harmful=harmful) == difficulty


def test_a_successful_call_gives_a_force_point_and_a_dark_side_point_and_counts():
    after = edit(jedi(force=1, dark=0), "called", "success")
    assert after["points"]["force"] == 2 and after["points"]["dark_side"] == 1
    assert darkside.calls_this_adventure(after) == 1


@pytest.mark.parametrize(("reading", "calls"), [("every", 1), ("success", 0)])
def test_a_failed_call_gives_nothing_and_counts_as_the_gm_reads_it(reading, calls):
    after = edit(jedi(force=1), "called", "failure", dark_side_calls_counted=reading)
    assert (after["points"]["force"], after["points"]["dark_side"]) == (1, 0)
    assert darkside.calls_this_adventure(after) == calls


def test_the_adventures_end_sets_the_difficulty_back_to_six():
    sheet = edit(edit(jedi(), "called", "success"), "called", "failure")
    assert darkside.call_difficulty(darkside.calls_this_adventure(sheet), harmful=True) == 12
    for trait, raw in adventure_end_edits(sheet):
        sheet = weg.apply_edit(sheet, trait, raw, SETTINGS)
    assert darkside.calls_this_adventure(sheet) == 0 and "dark_side" not in sheet


@pytest.mark.parametrize(
    ("held", "chance"), [(0, Fraction(0)), (1, Fraction(1, 6)), (4, Fraction(4, 6)), (6, 1), (9, 1)]
)
def test_the_gms_die_consumes_at_or_under_the_points_held(held, chance):
    assert darkside.consumption_chance(held) == chance
    assert sum(darkside.consumed(die, held) for die in range(1, 7)) == chance * 6


def test_atonement_trades_a_force_point_for_a_dark_side_point_once_an_adventure():
    after = edit(jedi(force=1, dark=3), "atone")
    assert (after["points"]["force"], after["points"]["dark_side"]) == (0, 2)
    with pytest.raises(InvalidEdit, match="One Dark Side Point an adventure"):
        edit(after | {"points": after["points"] | {"force": 1}}, "atone")


@pytest.mark.parametrize(
    ("force", "dark", "message"),
    [(1, 0, "No Dark Side Point"), (0, 2, "none is left")],
)
def test_atonement_needs_a_point_to_atone_and_a_force_point(force, dark, message):
    with pytest.raises(InvalidEdit, match=message):
        edit(jedi(force=force, dark=dark), "atone")


@given(force=st.integers(1, 10), dark=st.integers(1, 10))
def test_the_atoning_force_point_comes_back_when_the_adventure_ends(force, dark):
    sheet = edit(jedi(force=force, dark=dark), "atone")
    for trait, raw in adventure_end_edits(sheet):
        sheet = weg.apply_edit(sheet, trait, raw, SETTINGS)
    assert (sheet["points"]["force"], sheet["points"]["dark_side"]) == (force, dark - 1)
    assert "dark_side" not in sheet


@pytest.mark.parametrize(
    ("held", "reading", "left"),
    [(9, "at_most_five", 5), (3, "at_most_five", 3), (3, "five", 5), (12, "five", 5)],
)
def test_redemption_takes_every_force_point_and_leaves_five_dark_side_points(held, reading, left):
    after = edit(jedi("2e_re", force=3, dark=held), "redeem", redemption_dark_side=reading)
    assert (after["points"]["force"], after["points"]["dark_side"]) == (0, left)


def test_redemption_is_r_and_e_and_needs_a_dark_side_point():
    with pytest.raises(InvalidEdit, match="R&E"):
        edit(jedi("1e", dark=3), "redeem")
    with pytest.raises(InvalidEdit, match="no redemption"):
        edit(jedi("2e_re", dark=0), "redeem")


def test_only_1e_characters_call_and_the_call_is_on_the_roll_panel():
    assert DARK_SIDE_CALL in {r.key for r in weg.rollables(jedi("1e"), SETTINGS)}
    assert DARK_SIDE_CALL not in {r.key for r in weg.rollables(jedi("2e_re"), SETTINGS)}
    with pytest.raises(InvalidEdit):
        edit(jedi("2e_re"), "called", "success")


def _call(sheet: dict):
    return next(r for r in weg.rollables(sheet, SETTINGS) if r.key == DARK_SIDE_CALL)


def test_the_calls_odds_are_the_chosen_codes_at_the_calls_difficulty():
    sheet = jedi()
    sheet["force"]["control"] = 7
    sheet = edit(sheet, "called", "failure")  # one call before: 9
    rollable = _call(sheet)
    chosen = parse_roll_options(weg.roll_options(rollable, SETTINGS), {"with": "control"})
    odds = weg.odds(rollable, chosen)
    control = weg.odds(rollable, chosen | {"harmful": False})
    assert odds.question.startswith("2D+1 against 9")
    assert control.question.startswith("2D+1 against 19")
    assert odds.success > control.success


def test_control_is_offered_only_with_a_control_code():
    rollable = _call(jedi())
    with pytest.raises(InvalidRoll):
        weg.odds(rollable, {"with": "control", "harmful": True})


def test_a_successful_call_rolls_the_gms_die_and_writes_its_points():
    rollable = _call(jedi(dark=2))
    rng = random.Random(11)
    for _ in range(30):
        result = weg.roll(rollable, {"with": "perception", "harmful": True}, rng)
        edits = weg.roll_edits(rollable, {}, result)
        assert edits == {"darkside.called": "success" if result.success else "failure"}
        facts = dict(result.facts)
        if result.success:
            assert facts["consumed"] is (result.dice[-1] <= 3)


def test_the_calls_odds_match_the_plain_1e_chance():
    rollable = _call(jedi())
    perception = jedi()["attributes"]["perception"]
    odds = weg.odds(rollable, {"with": "perception", "harmful": True}).success
    plain = read_roll(
        next(r for r in weg.rollables(jedi(), SETTINGS) if r.key == "attr.perception"),
        {"difficulty": 6},
    )
    assert perception and odds == chance_at_least(plain, 6)
