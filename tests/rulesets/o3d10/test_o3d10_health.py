"""Health states from HP and Strength (seed L37-L51; digest §1.4-§1.5, test cases 1 and 9)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.core import InvalidEdit
from rulesets.o3d10 import apply_edit, blank_sheet, derived
from rulesets.o3d10.data import DEAD, NORMAL, UNCONSCIOUS, WOUNDED
from rulesets.o3d10.rules import bleed, health_state


# Digest test case 1 (L39-L45): STR 6.
@pytest.mark.parametrize(
    ("hp", "expected"),
    [(6, NORMAL), (5, WOUNDED), (0, WOUNDED), (-1, UNCONSCIOUS), (-18, UNCONSCIOUS), (-19, DEAD)],
    ids=["L39-hp6", "L41-hp5", "L41-hp0", "L43-hp-1", "L45-hp-18", "L45-hp-19"],
)
def test_it_reads_the_seed_health_rows_for_strength_six(hp, expected):
    assert health_state(hp, 6) is expected


@pytest.mark.parametrize("strength", [1, 2, 5, 6, 8, 10, 20])
@pytest.mark.parametrize(
    ("offset_name", "expected"),
    [
        ("hp=STR", NORMAL),  # L39 "equal or higher"
        ("hp=STR-1", WOUNDED),  # L41
        ("hp=0", WOUNDED),  # L43 unconscious only under 0
        ("hp=-1", UNCONSCIOUS),  # L43
        ("hp=-3xSTR", UNCONSCIOUS),  # L45 dead only strictly below
        ("hp=-3xSTR-1", DEAD),  # L45
    ],
)
def test_it_puts_each_boundary_in_the_state_the_seed_gives(strength, offset_name, expected):
    hp = {
        "hp=STR": strength,
        "hp=STR-1": strength - 1,
        "hp=0": 0,
        "hp=-1": -1,
        "hp=-3xSTR": -3 * strength,
        "hp=-3xSTR-1": -3 * strength - 1,
    }[offset_name]
    assert health_state(hp, strength) is expected


@given(st.integers(-500, 500), st.integers(0, 60), st.integers(1, 20))
def test_lowering_hp_never_improves_the_state(hp, drop, strength):
    assert health_state(hp - drop, strength).rank >= health_state(hp, strength).rank


@given(st.integers(-500, 500), st.integers(1, 19))
def test_more_strength_never_worsens_the_state_below_zero(hp, strength):
    # Below 0 more Strength only pushes death further away (L45).
    if hp < 0:
        assert health_state(hp, strength + 1).rank <= health_state(hp, strength).rank


@pytest.mark.parametrize(
    ("hp", "d10", "expected"),
    [(-2, 4, -6), (-6, 7, -6), (-1, 5, -6), (-1, 6, -1), (-3, 1, -4), (-3, 10, -3)],
    ids=["L49-loss-4", "L49-safe-7", "L49-loss-5", "L49-safe-6", "L49-loss-1", "L49-safe-10"],
)
def test_it_applies_the_bleeding_d10(hp, d10, expected):
    assert bleed(hp, d10) == expected


def _unconscious_sheet(hp: int) -> dict:
    sheet = apply_edit(blank_sheet(None), "stat.strength", "6", None)
    return apply_edit(sheet, "hp.current", str(hp), None)


def test_digest_case_nine_bleeds_then_stabilises_and_keeps_hp():
    sheet = _unconscious_sheet(-2)
    sheet = apply_edit(sheet, "hp.bleed", "4", None)
    assert sheet["hp"] == -6
    sheet = apply_edit(sheet, "hp.bleed", "7", None)
    assert sheet["hp"] == -6
    sheet = apply_edit(sheet, "hp.stabilised", "yes", None)
    health = derived(sheet, None)["health"]
    assert health["state"] == "unconscious"
    assert health["stabilised"] and not health["bleeding"]
    with pytest.raises(InvalidEdit, match="unstabilised"):
        apply_edit(sheet, "hp.bleed", "3", None)


def test_it_shows_the_bleed_and_the_stabilise_roll_while_unconscious():
    health = derived(_unconscious_sheet(-3), None)["health"]
    assert health["bleeding"] is True
    assert health["can_act"] is False
    assert health["stabilise_dc"] == 18
    assert any("1d10" in note for note in health["notes"])
    assert any("Intelligence + Medicine" in note for note in health["notes"])


def test_it_notes_the_lowest_die_while_wounded():
    sheet = _unconscious_sheet(2)
    health = derived(sheet, None)["health"]
    assert health["state"] == "wounded"
    assert health["target_die"] == "lowest"
    assert health["wounded_below"] == 6 and health["dead_below"] == -18


def test_the_state_follows_hp_live_without_being_stored():
    sheet = _unconscious_sheet(-19)
    assert derived(sheet, None)["health"]["state"] == "dead"
    assert "state" not in sheet
    healed = apply_edit(sheet, "hp.heal", "25", None)
    assert derived(healed, None)["health"]["state"] == "normal"


def test_it_refuses_hp_that_is_not_a_number():
    with pytest.raises(InvalidEdit, match="HP: “lots” is not a whole number") as error:
        apply_edit(blank_sheet(None), "hp.current", "lots", None)
    assert error.value.trait == "hp.current"


@pytest.mark.parametrize("raw", ["", "3.5", "1e3", "--2", "five"])
def test_it_refuses_every_non_whole_hp(raw):
    with pytest.raises(InvalidEdit):
        apply_edit(blank_sheet(None), "hp.current", raw, None)


def test_it_refuses_hp_above_the_maximum():
    sheet = apply_edit(blank_sheet(None), "stat.strength", "6", None)  # max 10 + 2x6 = 22
    with pytest.raises(InvalidEdit, match="maximum is 22"):
        apply_edit(sheet, "hp.current", "23", None)


def test_healing_stops_at_the_maximum_and_clears_stabilised():
    sheet = apply_edit(_unconscious_sheet(-4), "hp.stabilised", "yes", None)
    healed = apply_edit(sheet, "hp.heal", "100", None)
    assert healed["hp"] == 22
    assert healed["stabilised"] is False


def test_it_refuses_to_stabilise_a_conscious_character():
    with pytest.raises(InvalidEdit, match="Only an unconscious character"):
        apply_edit(blank_sheet(None), "hp.stabilised", "yes", None)


def test_it_refuses_negative_damage():
    with pytest.raises(InvalidEdit, match="cannot be negative"):
        apply_edit(blank_sheet(None), "hp.damage", "-3", None)
