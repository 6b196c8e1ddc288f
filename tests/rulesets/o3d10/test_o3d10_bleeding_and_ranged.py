"""1o3d10 rolls of issue 27, item 15: the bleeding roll of an unconscious character (seed 004
L43-L51, digest case 9) with its exact odds, checked against enumeration of the d10; and
the ranged target modifiers L76-L78 names without values, as the GM's house-rule settings
(digest §3 ranged_mods), never constants."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesets.o3d10 as o3d10
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, dice_readings, parse_roll_options
from rulesets.o3d10 import data, rules
from rulesets.o3d10.dice import DICE_READINGS, bleed_odds, ranged_target_modifiers, read_roll

SETTINGS = resolve_settings(o3d10.SETTINGS, {})


def readings(**chosen) -> dict:
    return dice_readings(resolve_settings(o3d10.SETTINGS, chosen), DICE_READINGS)


def sheet_at(hp: int, *, stabilised: bool = False) -> dict:
    sheet = o3d10.demo_sheet()  # Strength 6: unconscious from -1, dead below -18
    sheet = o3d10.apply_edit(sheet, "hp.current", str(hp), SETTINGS)
    if stabilised:
        sheet = o3d10.apply_edit(sheet, "hp.stabilised", "yes", SETTINGS)
    return sheet


def bleeding(sheet: dict) -> Rollable:
    return {r.key: r for r in o3d10.rollables(sheet, SETTINGS)}["bleed"]


# --- the bleeding roll (L47-L51) ----------------------------------------------------------


def enumerate_bleed(hp: int, dead_below: int) -> tuple[Fraction, Fraction, Fraction]:
    """Each face of the d10 in turn: (nothing lost, HP lost, dead)."""
    safe = lost = dead = Fraction(0)
    for face in range(1, 11):
        after = rules.bleed(hp, face)
        safe += Fraction(after == hp, 10)
        lost += Fraction(after < hp, 10)
        dead += Fraction(after < dead_below, 10)
    return safe, lost, dead


@pytest.mark.parametrize(
    ("hp", "dies"),
    [
        (-1, 0),
        (-2, 0),
        (-13, 0),
        (-14, Fraction(1, 10)),
        (-15, Fraction(2, 10)),
        (-18, Fraction(5, 10)),
    ],
)
def test_the_bleeding_odds_equal_enumeration_of_the_d10(hp, dies):
    odds = o3d10.odds(bleeding(sheet_at(hp)), {})
    safe, lost, dead = enumerate_bleed(hp, -18)
    assert odds.success == safe == Fraction(1, 2)  # 6 or more: nothing happens (L49)
    loses, killed = odds.beside
    assert (loses.chance, killed.chance) == (lost, dead)
    assert killed.chance == dies
    assert sum(bar.chance for bar in odds.bars) == 1


@given(strength=st.integers(1, 20), depth=st.integers(1, 60))
def test_dying_is_never_likelier_than_losing_hp(strength, depth):
    dead_below = -3 * strength
    hp = max(-depth, dead_below)
    odds = bleed_odds(hp, dead_below)
    loses, dies = (side.chance for side in odds.beside)
    assert (odds.success, loses) == (Fraction(1, 2), Fraction(1, 2))
    assert 0 <= dies <= loses
    assert (odds.success, loses, dies) == enumerate_bleed(hp, dead_below)


def seed_for(face: int) -> int:
    """A seed whose first d10 shows `face` (the roll draws one die with randint)."""
    return next(seed for seed in range(500) if random.Random(seed).randint(1, 10) == face)


def test_the_digest_case_bleeds_four_then_nothing():  # digest case 9, L49
    sheet = sheet_at(-2)
    rollable = bleeding(sheet)
    for face, hp_after in ((4, -6), (7, -6)):
        result = o3d10.roll(rollable, {}, random.Random(seed_for(face)))
        assert result.dice == (face,)
        for trait, raw in o3d10.roll_edits(rollable, {}, result).items():
            sheet = o3d10.apply_edit(sheet, trait, raw, SETTINGS)
        assert sheet["hp"] == hp_after
        rollable = bleeding(sheet)


def test_a_bleed_that_kills_says_so():
    sheet = sheet_at(-18)
    rollable = bleeding(sheet)
    result = o3d10.roll(rollable, {}, random.Random(seed_for(2)))
    assert result.outcome == "death" and "dead" in result.summary
    assert dict(result.facts)["bar"].endswith("(dead)")


@pytest.mark.parametrize(
    ("hp", "stabilised"),
    [(10, False), (3, False), (-4, True)],
)
def test_only_an_unconscious_unstabilised_character_has_a_bleeding_roll(hp, stabilised):
    keys = {r.key for r in o3d10.rollables(sheet_at(hp, stabilised=stabilised), SETTINGS)}
    assert "bleed" not in keys


def test_a_bleeding_roll_for_a_character_no_longer_bleeding_is_refused():
    forged = Rollable("bleed", "Bleeding", 0, (("dead_below", -18), ("hp", 4), ("kind", "bleed")))
    with pytest.raises(InvalidRoll, match="unconscious"):
        o3d10.odds(forged, {})


# --- the ranged target modifiers: house rules (L76-L78, digest §3) --------------------------

PROPOSAL = {  # digest §3 ranged_mods
    "running": 3,
    "prone": 2,
    "small_cover": 2,
    "medium_cover": 5,
    "big_cover": 8,
    "total_cover": None,
    "moving_vehicle": 5,
}


def test_each_named_modifier_is_a_house_rule_setting_defaulting_to_the_digests_proposal():
    found = ranged_target_modifiers(SETTINGS)
    assert {slug: value for slug, (_label, value) in found.items()} == PROPOSAL
    for slug in PROPOSAL:
        setting = data.SETTING_BY_KEY[data.ranged_mod_key(slug)]
        assert setting.label.endswith("(house rule)")
        assert setting.key in data.HOUSE_RULE_SETTINGS
        assert setting.source.startswith("L78")


def shot(**chosen) -> int:
    rollable = Rollable("weapon.0", "Blaster", 8, (("kind", "ranged"),))
    return read_roll(rollable, readings(**chosen.pop("house", {})) | chosen).dc


@pytest.mark.parametrize(
    ("chosen", "dc"),
    [
        ({"cells": 5}, 20),  # L71: 4-7 cells
        ({"cells": 5, "running": True}, 23),
        ({"cells": 5, "cover": "big_cover", "prone": True}, 30),
        ({"cells": 5, "running": True, "house": {"ranged_mod_running": "6"}}, 26),
        ({"cells": 5, "cover": "total_cover", "house": {"ranged_mod_total_cover": "12"}}, 32),
    ],
)
def test_a_shot_adds_the_modifiers_the_gm_set(chosen, dc):
    assert shot(**chosen) == dc


def test_total_cover_by_default_leaves_no_line_of_fire():
    with pytest.raises(InvalidRoll) as refused:
        shot(cells=3, cover="total_cover")
    assert refused.value.option == "cover"


def test_the_roll_panel_shows_the_values_in_force_and_says_they_are_house_rules():
    rollable = Rollable("weapon.0", "Blaster", 8, (("kind", "ranged"),))
    house = resolve_settings(o3d10.SETTINGS, {"ranged_mod_prone": "4"})
    options = {o.key: o for o in o3d10.roll_options(rollable, house)}
    assert options["prone"].label == "Target prone (+4)"
    assert "house rules" in options["prone"].help
    assert dict(options["cover"].choices)["total_cover"] == "Total cover (no line of fire)"


@pytest.mark.parametrize("raw", ["-1", "31", "lots"])
def test_a_bad_house_value_is_refused_with_a_message(raw):
    setting = data.SETTING_BY_KEY["ranged_mod_running"]
    with pytest.raises(ValueError, match="Ranged shot at a target running"):
        setting.coerce(raw)


def test_the_sheet_prints_the_values_in_force():
    house = resolve_settings(o3d10.SETTINGS, {"ranged_mod_big_cover": "9"})
    shown = {
        slug: value
        for slug, _label, value in o3d10.derived(o3d10.demo_sheet(), house)["ranged_modifiers"]
    }
    assert shown["big_cover"] == 9 and shown["total_cover"] is None


def test_a_form_value_outside_the_cover_choices_is_refused():
    rollable = Rollable("weapon.0", "Blaster", 8, (("kind", "ranged"),))
    with pytest.raises(InvalidRoll):
        parse_roll_options(o3d10.roll_options(rollable, SETTINGS), {"cover": "a wookiee"})
