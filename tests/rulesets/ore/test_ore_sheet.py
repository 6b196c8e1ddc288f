"""The module protocol, the demo Jedi, import validation, advance_cost and next_costs."""

from __future__ import annotations

import copy
import json

import pytest

import rulesets.ore as ore
from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.core.ruleset import CONTRACT
from rulesets.registry import SYSTEMS


def test_the_module_answers_the_ruleset_protocol():
    assert ore.KEY == "ore" and SYSTEMS["ore"].name == "Star O.R.E."
    for name in CONTRACT:
        assert callable(getattr(ore, name))
    assert {s.key for s in ore.SETTINGS} >= {"creation_budget", "force_wiggle_cost"}


def test_the_default_budget_is_150_and_a_campaign_may_change_it():  # L772
    assert ore.blank_sheet({})["character_points"] == 150
    assert ore.blank_sheet({"creation_budget": "400"})["character_points"] == 400


def test_the_demo_jedi_is_legal_and_shows_a_hard_die_and_stunts():
    sheet = ore.demo_sheet()
    report = ore.check(sheet, {})
    assert report.errors == [] and report.warnings == []
    assert sheet["creation_spent"] == 150
    d = ore.derived(sheet, {})
    force_sense = d["powers"][0]
    assert force_sense["text"] == "2d+1hd"
    assert sum(len(p["stunts"]) for p in d["powers"]) == 4
    assert d["experience"] == {"awarded": 3, "carried_over": 0, "total": 3, "unspent": 1}
    json.dumps(d)  # everything the sheet shows is plain data


def test_a_blank_sheet_and_the_demo_round_trip_through_validation():
    blank = ore.blank_sheet({})
    assert ore.validate_sheet(json.loads(json.dumps(blank))) == blank
    demo = ore.demo_sheet()
    assert ore.validate_sheet(json.loads(json.dumps(demo))) == demo


def broken(change) -> dict:
    sheet = copy.deepcopy(ore.demo_sheet())
    change(sheet)
    return sheet


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(colour="red"), "colour: is not part of this sheet"),
        (lambda s: s["stats"].update(body="3"), "stats.body: expected a whole number"),
        (lambda s: s["stats"].update(body=True), "stats.body: expected a whole number"),
        (lambda s: s.update(species="gungan"), "species: expected one of human"),
        (
            lambda s: s["powers"]["force_sense"].update(hard=11),
            "powers.force_sense.hard: expected a whole number from 0 to 10",
        ),
        (lambda s: s["stunts"]["force_jump"].update(hard=1), "stunts.force_jump.hard: is not"),
        (
            lambda s: s["stunts"].update(laser_eyes={"dice": 1, "approved": False}),
            "stunts.laser_eyes",
        ),
        (lambda s: s["wounds"]["head"].append(""), "wounds.head: expected 4 boxes, found 5"),
        (lambda s: s["wounds"]["head"].__setitem__(0, "bruise"), "wounds.head.0: expected one"),
        (lambda s: s["skills"].append(dict(s["skills"][0])), "share an id"),
        (lambda s: s["skills"][2].update(free=2), "skills.2.free: only the two starting"),
        (lambda s: s["skills"][0].update(id="Bad Id"), "skills.0.id"),
        (lambda s: s.update(creation_spent=None), "exactly when the stage is play"),
        (lambda s: s.update(stage="finished"), "stage: expected one of creation, play"),
        (lambda s: s["weapons"].extend([s["weapons"][0]] * 9), "weapons: .*at most 10"),
        (lambda s: s["armor"][0].update(covers=["tail"]), "armor.0.covers.0: expected one"),
        (lambda s: s["armor"][0].update({"from": "beskar"}), "armor.0.from: expected one"),
        (lambda s: s.update(character_points=-1), "character_points: expected a whole"),
        (lambda s: s["info"].update(player=3), "info.player: expected text"),
        (lambda s: s["xp_awards"][0].update(amount=0), "xp_awards.0.amount: expected a whole"),
        (
            lambda s: s["abilities"].append(
                {"ability": "stat_hard_die", "target": "x", "level": 1}
            ),
            "abilities.0.target: expected a stat",
        ),
        (lambda s: s.update(schema_version="1"), "schema_version"),
    ],
)
def test_it_rejects_an_import_with_the_field_at_fault_named(change, message):
    with pytest.raises(InvalidSheet, match=message):
        ore.validate_sheet(broken(change))


def test_an_import_missing_newer_parts_is_filled_from_a_blank_sheet():
    partial = {"info": {"player": "Old export"}, "stats": {"body": 3}}
    sheet = ore.validate_sheet(partial)
    assert sheet["info"]["player"] == "Old export" and sheet["stats"]["body"] == 3
    assert sheet["powers"]["force_sense"]["dice"] == 1


def test_advance_cost_explains_each_step_and_sums_a_multi_step_raise():
    sheet = ore.blank_sheet({})
    cost = ore.advance_cost(sheet, "stat.body", 3, {})
    assert cost.amount == 10
    assert cost.explanation == "Body 1d → 3d: 5 + 5 = 10 CP"
    assert cost.steps[0].explanation == "Body 1d → 2d: 5 CP per die = 5 CP"


def test_a_starting_language_raise_is_free_up_to_2d():  # L762
    sheet = ore.apply_edit(ore.blank_sheet({}), "skill.language_basic", "0", {})
    cost = ore.advance_cost(sheet, "skill.language_basic", 3, {})
    assert [step.amount for step in cost.steps] == [0, 0, 2]
    assert "the first 2d are free" in cost.steps[0].explanation


def test_advance_cost_refuses_a_lowering_an_unknown_trait_and_a_value_above_the_cap():
    sheet = ore.apply_edit(ore.blank_sheet({}), "stat.body", "3", {})
    with pytest.raises(InvalidEdit, match="cannot lower"):
        ore.advance_cost(sheet, "stat.body", 2, {})
    with pytest.raises(InvalidEdit, match="not a trait that can be bought"):
        ore.advance_cost(sheet, "stunt.force_jump.hard", 1, {})
    with pytest.raises(InvalidEdit, match="up to 5d"):
        ore.advance_cost(sheet, "stat.body", 6, {})


def test_next_costs_prices_every_stat_skill_power_and_stunt():
    costs = ore.next_costs(ore.demo_sheet(), {})
    assert costs["stat.coordination"].amount == 5
    assert costs["skill.lightsaber"].amount == 2
    assert costs["power.force_sense"].amount == 5
    assert costs["power.force_sense.hard"].amount == 10
    assert costs["power.force_sense.wiggle"].amount == 5
    assert costs["stunt.force_jump"].amount == 2
    assert costs["stunt.fear"].amount == 2  # not yet bought, still priced
    assert costs["willpower.bought"].amount == 3
    assert all(cost.unit == "XP" for cost in costs.values())


def test_next_costs_leaves_out_a_trait_at_its_maximum():
    sheet = ore.apply_edit(ore.blank_sheet({}), "stat.body", "5", {})
    assert "stat.body" not in ore.next_costs(sheet, {})


def test_derived_lists_the_whole_printed_sheet():  # L1090-L1159
    d = ore.derived(ore.demo_sheet(), {})
    assert [s["label"] for s in d["stats"]] == [
        "Body",
        "Coordination",
        "Sense",
        "Brains",
        "Command",
        "Cool",
    ]
    lightsaber = next(s for s in d["skills"] if s["id"] == "lightsaber")
    assert (lightsaber["stat_label"], lightsaber["pool"]["text"]) == ("Coordination", "7d")
    assert d["weapons"][0]["name"] == "Lightsaber" and d["weapons"][0]["source"] == "L415"
    assert len(d["maneuvers"]) == 19
    assert d["species"]["label"] == "Human"
    assert d["dark_side"] == {"base": 0, "current": 0}
    assert d["hit_locations"][3]["marks"][0] == "/"
