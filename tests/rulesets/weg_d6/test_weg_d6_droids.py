"""Droid building dice from the 1E Rules Companion (003:929-1004), with the seed's R2 and 3PO."""

from __future__ import annotations

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.weg_d6 import demo, droids

SETTINGS = resolve_settings(weg.SETTINGS, {})
PIPS = 3


def test_3po_spends_exactly_the_35d_of_an_npc_droid() -> None:  # case 5, 003:977-994
    sheet = demo.droid_3po_sheet()
    build = droids.droid_build(sheet)
    assert (build.attributes, build.skills, build.equipment) == (15 * PIPS, 13 * PIPS, 7 * PIPS)
    report = weg.check(sheet, SETTINGS)
    assert report.pool("building_dice").spent == 35 * PIPS
    assert report.pool("building_dice").exact
    assert report.violations == []


def test_r2_spends_34d_as_written_and_35d_with_the_third_leg_as_a_feature() -> None:  # case 6
    sheet = demo.demo_droid_sheet()
    build = droids.droid_build(sheet)
    assert (build.attributes, build.speed, build.armor) == (5 * PIPS, 3 * PIPS, 3 * PIPS)
    assert (build.skills, build.equipment) == (12 * PIPS, 11 * PIPS)
    assert build.total == 34 * PIPS
    assert weg.check(sheet, SETTINGS).ok
    sheet = weg.apply_edit(sheet, "equipment.0.features", "1", SETTINGS)  # 003:945
    assert weg.check(sheet, SETTINGS).pool("building_dice").exact


def test_r2_would_bust_its_budget_if_speed_were_charged_in_full() -> None:  # case 6, 003:935
    sheet = demo.demo_droid_sheet()
    sheet = weg.apply_edit(sheet, "droid.speed", "3D", SETTINGS)  # 2D over Dex: 6D of dice
    sheet["droid"]["equipment"][0]["features"] = 0
    assert droids.droid_build(sheet).total == 37 * PIPS
    assert "droid_over_budget" in weg.check(sheet, SETTINGS).codes()


def test_it_refuses_a_pc_droid_spending_66d() -> None:  # case 7, 003:931
    sheet = demo.droid_3po_sheet()
    sheet["role"] = "pc"
    sheet["points"]["force"] = 1
    sheet["skills"]["languages"] = 30 + 31 * PIPS  # +31D on top of 35D
    assert droids.droid_build(sheet).total == 66 * PIPS
    found = [v for v in weg.check(sheet, SETTINGS).errors if v.code == "droid_over_budget"]
    assert found and "65D" in found[0].message


def test_it_refuses_any_force_skill_on_a_droid() -> None:  # case 8, 003:947, 003:1002
    with pytest.raises(InvalidEdit, match="Droids may never have Force skills"):
        weg.apply_edit(demo.demo_droid_sheet(), "force.control", "1D", SETTINGS)
    with pytest.raises(InvalidEdit, match="Droids may never"):
        weg.apply_edit(demo.demo_droid_sheet(), "force.sensitive", "yes", SETTINGS)
    imported = demo.demo_droid_sheet()
    imported["force"]["control"] = 3
    assert "droid_force_skill" in weg.check(imported, SETTINGS).codes()


def test_it_refuses_a_droid_skill_above_13d() -> None:  # case 9, 003:947
    sheet = weg.apply_edit(demo.droid_3po_sheet(), "skill.languages", "14D", SETTINGS)
    [found] = [v for v in weg.check(sheet, SETTINGS).errors if v.code == "droid_skill_cap"]
    assert found.trait == "skill.languages" and "13D" in found.message


def test_attributes_cost_5d_per_die_and_armor_3d_per_die() -> None:  # 003:933-935
    sheet = weg.apply_edit(weg.blank_sheet(SETTINGS), "info.kind", "droid", SETTINGS)
    sheet = weg.apply_edit(sheet, "attr.dexterity", "3D", SETTINGS)
    sheet = weg.apply_edit(sheet, "droid.armor", "2D", SETTINGS)
    build = droids.droid_build(sheet)
    assert (build.attributes, build.armor, build.speed) == (10 * PIPS, 6 * PIPS, 0)


def test_equipment_costs_1d_per_item_and_1d_per_extra_feature() -> None:  # 003:937-945
    sheet = weg.apply_edit(weg.blank_sheet(SETTINGS), "info.kind", "droid", SETTINGS)
    sheet = weg.apply_edit(sheet, "equipment.add", "Comlink", SETTINGS)
    sheet = weg.apply_edit(sheet, "equipment.add", "Macrobinoculars|2", SETTINGS)
    assert droids.droid_build(sheet).equipment == 4 * PIPS
    sheet = weg.apply_edit(sheet, "equipment.remove", "1", SETTINGS)
    assert droids.droid_build(sheet).equipment == 1 * PIPS


def test_a_droid_starts_at_1d_and_a_pc_droid_with_one_force_point() -> None:  # 003:929, 1004
    sheet = weg.apply_edit(weg.blank_sheet(SETTINGS), "info.kind", "droid", SETTINGS)
    assert set(sheet["attributes"].values()) == {3}
    assert sheet["points"]["force"] == 1
    assert weg.check(sheet, SETTINGS).pool("building_dice").allowed == 65 * PIPS


def test_part_of_a_die_of_droid_attribute_goes_to_the_gm() -> None:  # digest §10.11
    sheet = weg.apply_edit(demo.demo_droid_sheet(), "attr.strength", "1D+1", SETTINGS)
    assert "droid_part_die" in {v.code for v in weg.check(sheet, SETTINGS).warnings}


def test_a_new_droid_skill_also_costs_1000_credits() -> None:  # 003:998
    sheet = demo.demo_droid_sheet()
    sheet["stage"] = "play"
    cost = weg.advance_cost(sheet, "skill.astrogation", 4, SETTINGS)
    assert cost.amount == 1 and "1,000 credits" in cost.explanation


def test_derived_shows_the_droid_breakdown() -> None:
    summary = weg.derived(demo.demo_droid_sheet(), SETTINGS)["droid"]
    assert (summary["spent"], summary["allowed"], summary["left"]) == ("34D", "35D", "1D")
    assert summary["items"][3] == {
        "name": "Video sensor, extends almost a meter",
        "features": 1,
        "cost": "2D",
    }
