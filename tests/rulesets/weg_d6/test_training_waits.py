"""A raise that trains waits for its training's end (the reading `training_counts`, 002:43-55):
the sheet kept meanwhile holds the old values with the raise in the adventure's window, and
the end writes the engine's own paid raise, with whatever comes with it (an R&E Force
skill's power pick, 002:800), leaving the window and the points as they are."""

from __future__ import annotations

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.weg_d6 import advancement, demo_sheet, training

SETTINGS = resolve_settings(weg.SETTINGS, {})


def _in_play(**changes) -> dict:
    sheet = weg.apply_edit(demo_sheet(), "stage", "play", SETTINGS)
    sheet = sheet | changes
    sheet["points"] = dict(sheet["points"], character=100)
    return sheet


def _bought(sheet: dict, trait: str, raw: str) -> dict:
    return weg.apply_edit(sheet, f"advance.{trait}", raw, SETTINGS)


@pytest.mark.parametrize(
    ("readings", "waits"),
    [
        ({}, True),
        ({"training_counts": "when_trained"}, True),
        ({"training_counts": "at_once"}, False),
    ],
)
def test_the_reading_says_whether_a_raise_waits(readings, waits):
    assert training.raise_waits(readings) is waits


def test_while_training_the_sheet_keeps_its_values_and_the_window_counts_the_raise():
    sheet = _in_play()
    bought = _bought(sheet, "skill.blaster", "5D+2")
    held = advancement.while_training(sheet, bought)
    assert held["skills"]["blaster"] == sheet["skills"]["blaster"]
    assert held["interval"] == bought["interval"]
    assert held["interval"][-1]["trait"] == "skill.blaster"
    # The one-pip rule (002:39) counts it from the day it is paid.
    with pytest.raises(InvalidEdit, match="one pip between adventures"):
        _bought(held, "skill.blaster", "5D+2")


@pytest.mark.parametrize(
    ("trait", "raw", "where"),
    [
        ("skill.blaster", "5D+2", ("skills", "blaster")),
        ("attr.dexterity", "3D+2", ("attributes", "dexterity")),
        ("move", "11", ("move",)),
    ],
)
def test_the_end_of_training_writes_what_the_paid_raise_would_have(trait, raw, where):
    sheet = _in_play()
    bought = _bought(sheet, trait, raw)
    held = advancement.while_training(sheet, bought)
    new_value = bought
    for key in where:
        new_value = new_value[key]
    ended = advancement.trained(held, trait, new_value, SETTINGS)
    value = ended
    for key in where:
        value = value[key]
    assert value == new_value
    assert ended["interval"] == held["interval"] and ended["points"] == held["points"]
    assert ended["teacher"] == held["teacher"]


def test_an_re_force_skill_gives_its_power_pick_when_its_training_ends():
    sheet = _in_play()
    sheet = weg.apply_edit(sheet, "advance.force.sensitive", "yes", SETTINGS)
    bought = _bought(sheet, "force.control", "1D")
    held = advancement.while_training(sheet, bought)
    assert "control" not in held["force"]["power_picks"]  # 002:800, not yet
    ended = advancement.trained(held, "force.control", bought["force"]["control"], SETTINGS)
    assert ended["force"]["control"] == bought["force"]["control"]
    assert ended["force"]["power_picks"] == bought["force"]["power_picks"]


def test_a_raise_the_gm_overtook_meanwhile_is_refused_at_the_end():
    sheet = _in_play()
    bought = _bought(sheet, "skill.blaster", "5D+2")
    held = advancement.while_training(sheet, bought)
    corrected = weg.apply_edit(held, "skill.blaster", "6D", SETTINGS)
    with pytest.raises(InvalidEdit):
        advancement.trained(corrected, "skill.blaster", bought["skills"]["blaster"], SETTINGS)


def test_a_raise_in_training_leaves_the_window_by_its_forget_edits():
    sheet = _in_play()
    held = advancement.while_training(sheet, _bought(sheet, "skill.blaster", "5D+2"))
    for key, raw in advancement.forget_edits("skill.blaster"):
        held = weg.apply_edit(held, key, raw, SETTINGS)
    assert held == sheet
