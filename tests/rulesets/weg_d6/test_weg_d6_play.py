"""Play state: wounds and their penalty on every code, the Dark Side, CP limits per roll."""

from __future__ import annotations

import random

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.weg_d6 import force, rules

SETTINGS = resolve_settings(weg.SETTINGS, {})


def wounded(level: str, edition: str = "2e_re") -> dict:
    sheet = weg.apply_edit(weg.demo_sheet(), "info.edition", edition, SETTINGS)
    return weg.apply_edit(sheet, "wound", level, SETTINGS)


@pytest.mark.parametrize(
    ("level", "edition", "blaster", "strength"),
    [
        ("healthy", "2e_re", "5D+1", "3D+1"),
        ("stunned", "2e_re", "4D+1", "2D+1"),
        ("wounded", "2e_re", "4D+1", "2D+1"),  # 003:1840
        ("wounded_twice", "2e_re", "3D+1", "1D+1"),  # 002:557
        ("stunned", "1e", "4D+1", "3D+1"),  # 1E stun spares Strength, 003:440
    ],
)
def test_the_wound_penalty_lowers_every_shown_code(level, edition, blaster, strength) -> None:
    shown = weg.derived(wounded(level, edition), SETTINGS)
    assert shown["effective"]["skill.blaster"] == blaster
    assert shown["effective"]["attr.strength"] == strength
    assert shown["codes"]["skill.blaster"] == "5D+1"  # the stored code never changes


def test_a_penalty_bigger_than_the_code_leaves_0d() -> None:  # digest §10.17
    sheet = wounded("wounded_twice")
    sheet["skills"]["bargain"] = 4
    assert weg.derived(sheet, SETTINGS)["effective"]["skill.bargain"] == "0D"


def test_an_incapacitated_character_cannot_act() -> None:  # 003:1852
    assert weg.derived(wounded("incapacitated"), SETTINGS)["wound"]["can_act"] is False


@pytest.mark.parametrize(
    ("level", "edition", "after"),
    [
        ("healthy", "2e_re", "wounded"),
        ("wounded", "2e_re", "wounded_twice"),  # S8, 002:555
        ("wounded_twice", "2e_re", "incapacitated"),  # 002:557
        ("wounded", "1e", "incapacitated"),  # S8, 003:1840
        ("incapacitated", "1e", "mortally_wounded"),
    ],
)
def test_a_further_wound_moves_down_each_editions_ladder(level, edition, after) -> None:
    assert rules.wound_after_another(level, edition) == after


def test_it_refuses_wounded_twice_in_1st_edition() -> None:  # 003:1840
    with pytest.raises(InvalidEdit, match="second wound incapacitates"):
        wounded("wounded_twice", "1e")


def test_switching_to_1e_turns_wounded_twice_into_incapacitated() -> None:
    sheet = weg.apply_edit(wounded("wounded_twice"), "info.edition", "1e", SETTINGS)
    assert sheet["wound"] == "incapacitated"


@pytest.mark.parametrize(("points", "faces"), [(1, 2), (3, 4), (5, 6), (8, 6)])
def test_the_dark_side_warning_gives_the_odds_of_being_consumed(points, faces) -> None:
    sheet = weg.apply_edit(weg.demo_sheet(), "points.dark_side", str(points), SETTINGS)
    [warning] = weg.check(sheet, SETTINGS).for_trait("points.dark_side")
    assert warning.code == "dark_side_consumption"
    assert f"1-{faces}" in warning.message
    assert weg.check(sheet, SETTINGS).ok


def rolls_of(die: int) -> random.Random:
    """A seeded generator whose first 1D roll shows `die`."""
    for seed in range(1000):
        if random.Random(seed).randint(1, 6) == die:
            return random.Random(seed)
    raise AssertionError("no seed rolls that face")


@pytest.mark.parametrize(("die", "consumed"), [(4, True), (5, False), (1, True)])
def test_the_consumption_roll_is_one_die_at_or_under_the_points(die, consumed) -> None:
    # S7, 003:1708: a 4th point and a roll of 4 consumes; a 5 does not.
    assert rules.dark_side_check(4, rolls_of(die)) == (die, consumed)


def test_re_dark_side_points_add_1d_each_to_force_skills() -> None:  # 002:810
    sheet = weg.apply_edit(weg.demo_sheet(), "points.dark_side", "2", SETTINGS)
    assert weg.derived(sheet, SETTINGS)["dark_side"]["force_bonus"] == "2D"


def test_power_needs_its_skills_or_the_check_complains() -> None:
    sheet = weg.demo_sheet()
    sheet["force"].update(sensitive=True, control=3, powers=["affect_mind"])
    [found] = weg.check(sheet, SETTINGS).for_trait("power.affect_mind")
    assert found.code == "power_needs_skill" and "Sense and Alter" in found.message


def test_a_new_1e_jedi_above_1d_is_reminded_to_choose_the_rest_of_the_powers() -> None:  # 003:1800
    sheet = weg.blank_sheet({**SETTINGS, "default_edition": "1e"})
    sheet = weg.apply_edit(sheet, "force.sensitive", "yes", SETTINGS)  # a Force template
    sheet = weg.apply_edit(sheet, "force.control", "2D", SETTINGS)
    assert len(sheet["force"]["powers"]) == 3  # the traditional three, 003:1782
    found = weg.check(sheet, SETTINGS).for_trait("force.control")
    assert [v.code for v in found] == ["powers_to_choose"]
    assert "3 still to choose" in found[0].message


def test_shift_sense_follows_the_gm_reading() -> None:  # digest §10.8
    sheet = weg.blank_sheet({**SETTINGS, "default_edition": "1e"})
    # Learned on its own, not with the traditional Alter set (no Alter yet).
    sheet["force"].update(control=3, sense=3, powers=["shift_sense"])
    assert force.power_totals(sheet, SETTINGS)["sense"][0] == 1
    sheet["force"]["alter"] = 3
    alter = {**SETTINGS, "shift_sense_skill": "alter"}
    assert force.power_totals(sheet, alter)["alter"][0] == 1


def test_a_custom_power_names_its_skills() -> None:
    sheet = weg.demo_sheet()
    sheet["force"].update(sensitive=True, control=3, sense=3)
    sheet = weg.apply_edit(sheet, "power.add", "Battle meditation|control+sense", SETTINGS)
    assert sheet["force"]["custom_powers"]["battle_meditation"]["skills"] == ["control", "sense"]
    assert "battle_meditation" in sheet["force"]["powers"]
