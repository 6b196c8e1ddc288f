"""Star O.R.E. combat from a hit (seed 001 L161-L163, L207-L228, L232, L280, L403-L444):
damage by width and weapon, armor less Penetration at the location the height names, and
the wound boxes marked as sheet edits the normal edit service applies."""

from __future__ import annotations

import random

import pytest

import rulesets.ore as ore
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, dice_readings
from rulesets.ore.combat import mark_boxes, resolve_attack, resolve_hit, weapon_damage

SETTINGS = resolve_settings(ore.SETTINGS, {})


def target() -> dict:
    return ore.blank_sheet(SETTINGS)


def apply(sheet: dict, edits: dict[str, str]) -> dict:
    for trait, raw in edits.items():
        sheet = ore.apply_edit(sheet, trait, raw, SETTINGS)
    return sheet


@pytest.mark.parametrize(
    ("height", "location"),
    [
        (1, "right_leg"),
        (2, "left_leg"),
        (3, "right_arm"),
        (4, "right_arm"),
        (5, "left_arm"),
        (6, "left_arm"),
        (7, "torso"),
        (8, "torso"),
        (9, "vitals"),
        (10, "head"),
    ],
)
def test_the_height_names_the_location(height, location):  # L221-L228
    hit = resolve_hit(target(), width=2, height=height)
    assert [h.slug for h in hit.locations] == [location]
    assert hit.edits == {f"wound.{location}.0": "killing", f"wound.{location}.1": "killing"}


@pytest.mark.parametrize(
    ("damage", "width", "points", "shock"),
    [
        ("width", 3, 3, False),  # knife, L408
        ("width+1", 3, 4, False),  # blaster, L425
        ("width+3", 2, 5, False),  # lightsaber, L415
        ("width in Shock", 4, 4, True),  # unarmed, L404
        ("width+2 in Shock", 2, 4, True),  # stun baton, L407
        ("none", 3, 0, False),  # net, L421
    ],
)
def test_damage_is_width_plus_the_weapon(damage, width, points, shock):  # L163
    read = weapon_damage(damage, width)
    assert (read.points, read.shock) == (points, shock)


def test_every_weapon_in_the_catalog_has_readable_damage():
    from rulesets.ore.data import WEAPONS

    for weapon in WEAPONS:
        weapon_damage(weapon.damage, 2)


def test_armor_less_penetration_takes_points_off():  # L232, L280; digest §1.4
    sheet = apply(target(), {"armor.add": "Blast vest"})
    vest = resolve_hit(sheet, width=3, height=7, damage="width+1")  # 4 against AR 3
    assert vest.locations[0].armor == 3 and vest.locations[0].applied == 1
    pierced = resolve_hit(sheet, width=3, height=7, damage="width+1", penetration=2)
    assert pierced.locations[0].armor_left == 1 and pierced.locations[0].applied == 3
    # The vest covers the torso only; an arm takes it all.
    arm = resolve_hit(sheet, width=3, height=5, damage="width+1")
    assert arm.locations[0].applied == 4


def test_penetration_never_adds_damage():  # L280
    plain = resolve_hit(target(), width=3, height=7, damage="width+3")
    pierced = resolve_hit(target(), width=3, height=7, damage="width+3", penetration=5)
    assert plain.locations[0].applied == pierced.locations[0].applied == 6


def test_shock_on_a_full_location_turns_slashes_into_crosses():  # L213, L219
    marked, lost = mark_boxes(["shock"] * 4, 2, shock=True)
    assert marked == ["killing", "killing", "shock", "shock"] and lost == 0
    marked, lost = mark_boxes(["killing"] * 4, 2, shock=False)
    assert lost == 2
    marked, _ = mark_boxes(["shock", "", "", ""], 2, shock=False)
    assert marked == ["shock", "killing", "killing", ""]


def test_the_edits_go_through_the_edit_service_and_mark_the_boxes():
    sheet = target()
    first = resolve_hit(sheet, width=3, height=10, damage="width in Shock")
    sheet = apply(sheet, first.edits)
    assert sheet["wounds"]["head"] == ["shock", "shock", "shock", ""]
    second = resolve_hit(sheet, width=2, height=10, damage="width in Shock")
    sheet = apply(sheet, second.edits)
    assert sheet["wounds"]["head"] == ["killing", "shock", "shock", "shock"]
    status = {row["slug"]: row["status"] for row in ore.derived(sheet, SETTINGS)["hit_locations"]}
    assert status["head"] == "disabled"


def test_stun_makes_all_damage_shock_and_each_location_weapons_hit_everywhere():
    stunned = resolve_hit(target(), width=2, height=9, damage="width+1", stun=True)  # L294
    assert set(stunned.edits.values()) == {"shock"}
    grenade = resolve_hit(target(), width=2, height=1, damage="width in Shock to each location")
    assert len(grenade.locations) == 7 and len(grenade.edits) == 14  # L443


@pytest.mark.parametrize(
    ("keywords", "option"),
    [
        ({"width": 0, "height": 5}, "width"),
        ({"width": 11, "height": 5}, "width"),
        ({"width": 2, "height": 11}, "height"),
        ({"width": 2, "height": 5, "penetration": -1}, "penetration"),
        ({"width": 2, "height": 5, "damage": "2d6"}, "damage"),
    ],
)
def test_bad_hits_are_refused(keywords, option):
    with pytest.raises(InvalidRoll) as refused:
        resolve_hit(target(), **keywords)
    assert refused.value.option == option


def test_an_attack_roll_becomes_a_hit_on_the_target():
    attacker = ore.demo_sheet()
    saber = next(r for r in ore.rollables(attacker, SETTINGS) if r.key == "weapon.0")
    options = dice_readings(SETTINGS, ore.DICE_READINGS)
    results = [ore.roll(saber, options, random.Random(seed)) for seed in range(20)]
    hit_roll = next(r for r in results if r.success)
    facts = dict(hit_roll.facts)
    hit = resolve_attack(target(), saber, hit_roll)
    assert (hit.width, hit.height) == (facts["width"], facts["height"])
    assert hit.damage == facts["width"] + 3  # a lightsaber's width+3
    missed = next(r for r in results if not r.success)
    with pytest.raises(InvalidRoll):
        resolve_attack(target(), saber, missed)
