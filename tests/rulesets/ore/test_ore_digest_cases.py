"""The test cases of the O.R.E. digest (rules/ore.md §6), one row per case, with seed lines."""

from __future__ import annotations

import pytest

import rulesets.ore as ore
from rulesets.core import InvalidEdit


def build(*edits: tuple[str, str], settings: dict | None = None, budget: int = 150) -> dict:
    sheet = ore.blank_sheet({"creation_budget": budget, **(settings or {})})
    for trait, raw in edits:
        sheet = ore.apply_edit(sheet, trait, raw, settings or {})
    return sheet


def spent(sheet: dict, settings: dict | None = None) -> int:
    return ore.points_spent(sheet, settings or {})


def test_case_1_a_new_human_spends_nothing_and_gets_the_free_package():  # L750, L760-L766
    sheet = build()
    d = ore.derived(sheet, {})
    assert spent(sheet) == 0
    assert d["willpower"]["base"] == 2
    assert {s["slug"]: s["dice"] for s in d["stats"]} == dict.fromkeys(
        ("body", "coordination", "sense", "brains", "command", "cool"), 1
    )
    assert d["powers"][0]["label"] == "Force Sense" and d["powers"][0]["dice"] == 1
    languages = {s["name"]: s["dice"] for s in d["skills"]}
    assert languages == {"Language [native]": 2, "Language [Basic]": 2}


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        pytest.param((("stat.body", "3d"), ("stat.coordination", "4d")), 25, id="case2-L778"),
        pytest.param(
            (
                ("skill.add", "Blaster"),
                ("skill.blaster", "3"),
                ("skill.add", "Dodge"),
                ("skill.dodge", "2"),
                ("skill.language_basic", "3"),
            ),
            12,
            id="case3-L762-L780",
        ),
        pytest.param(
            (("species", "wookiee"), ("stat.body", "7d"), ("stat.command", "4d")),
            65,
            id="case5-L792-L814",
        ),
        pytest.param(
            (
                ("stat.command", "3"),
                ("stat.cool", "3"),
                ("willpower.bought", "2"),
                ("willpower.extra", "3"),
            ),
            29,
            id="case6-L778-L784",
        ),
        pytest.param((("power.force_sense", "4d"),), 15, id="case7-L766-L786"),
        pytest.param(
            (
                ("power.energy_manipulation", "9"),
                ("power.energy_manipulation.approved", "yes"),
                ("stunt.force_jump", "2"),
                ("stunt.force_jump.approved", "yes"),
            ),
            45 + 4,
            id="case9-L788",
        ),
    ],
)
def test_purchases_cost_what_the_digest_computes(edits, expected):
    assert spent(build(*edits)) == expected


def test_case_4_it_refuses_a_human_stat_of_6d_a_stat_of_0d_and_a_skill_of_6d():  # L29, L62
    sheet = build(("skill.add", "Lightsaber"))
    with pytest.raises(InvalidEdit, match="maximum of 5d"):
        ore.apply_edit(sheet, "stat.body", "6d", {})
    with pytest.raises(InvalidEdit, match="below 1d"):
        ore.apply_edit(sheet, "stat.body", "0", {})
    with pytest.raises(InvalidEdit, match="up to 5d"):
        ore.apply_edit(sheet, "skill.lightsaber", "6", {})


def test_case_4_check_reports_all_three_out_of_range_values_of_an_import_at_once():
    sheet = build(("skill.add", "Lightsaber"))
    sheet["stats"]["body"] = 6
    sheet["stats"]["cool"] = 0
    sheet["skills"][-1]["dice"] = 6
    codes = [v.code for v in ore.check(sheet, {}).errors]
    assert codes.count("stat_above_maximum") == 1
    assert "stat_below_minimum" in codes and "skill_above_maximum" in codes


def test_case_5_a_wookiee_may_have_body_7d_but_not_command_5d():  # L814
    sheet = build(("species", "wookiee"), ("stat.body", "7d"), ("stat.command", "4d"))
    assert ore.check(sheet, {}).ok
    with pytest.raises(InvalidEdit, match="Command 5d is above the maximum of 4d"):
        ore.apply_edit(sheet, "stat.command", "5", {})


def test_case_6_willpower_is_command_plus_cool_plus_bought_and_current_adds_extra():
    sheet = build(
        ("stat.command", "3"),
        ("stat.cool", "3"),
        ("willpower.bought", "2"),
        ("willpower.extra", "3"),
    )
    assert ore.derived(sheet, {})["willpower"] == {"applies": True, "base": 8, "current": 11}


def test_case_7_force_sense_needs_no_permission_but_energy_manipulation_does():  # L774
    sense = build(("power.force_sense", "4d"))
    assert ore.check(sense, {}).for_trait("power.force_sense") == []
    manipulation = build(("power.energy_manipulation", "2d"))
    flagged = ore.check(manipulation, {}).for_trait("power.energy_manipulation")
    assert [v.code for v in flagged] == ["gm_permission"]
    assert "GM's permission" in flagged[0].message


@pytest.mark.parametrize(
    ("wiggle_cost", "expected"),
    [pytest.param(5, 30, id="case8-printed-L786"), pytest.param(20, 45, id="case8-corrected")],
)
def test_case_8_a_power_with_hard_and_wiggle_dice_costs_per_the_wiggle_setting(
    wiggle_cost, expected
):
    settings = {"force_wiggle_cost": wiggle_cost}
    sheet = build(
        ("power.physical_control", "3"),
        ("power.physical_control.hard", "1"),
        ("power.physical_control.wiggle", "1"),
        ("power.physical_control.approved", "yes"),
        settings=settings,
    )
    assert spent(sheet, settings) == expected


def test_case_8_it_refuses_a_power_of_eleven_dice_counting_hard_and_wiggle():  # L876
    sheet = build(("power.physical_control", "9"), ("power.physical_control.hard", "1"))
    with pytest.raises(InvalidEdit, match="pool of 11 dice"):
        ore.apply_edit(sheet, "power.physical_control.wiggle", "1", {})


def test_case_9_a_stunt_pool_adds_to_its_power_and_is_capped_at_ten():  # L70, L882
    sheet = build(
        ("power.energy_manipulation", "9"),
        ("power.energy_manipulation.approved", "yes"),
        ("stunt.force_jump", "2"),
        ("stunt.force_jump.approved", "yes"),
    )
    energy = ore.derived(sheet, {})["powers"][1]
    pool = energy["stunts"][0]["pool"]
    assert (pool["total"], pool["uncapped"], pool["capped"]) == (10, 11, True)
    assert not ore.check(sheet, {}).errors


def test_case_9_it_refuses_a_hard_die_on_a_stunt_and_flags_an_unapproved_stunt():  # L884
    sheet = build(("stunt.blaster_defense", "1"))
    with pytest.raises(InvalidEdit, match="normal dice only"):
        ore.apply_edit(sheet, "stunt.blaster_defense.hard", "1", {})
    assert "gm_permission" in {
        v.code for v in ore.check(sheet, {}).for_trait("stunt.blaster_defense")
    }


def test_case_10_a_purchase_of_104_on_100_is_over_budget_by_4():  # L772
    sheet = build(
        *[(f"stat.{s}", "4") for s in ("body", "coordination", "sense", "brains", "command")],
        ("stat.cool", "2"),
        ("skill.language_basic", "4"),
        ("willpower.extra", "20"),
        budget=100,
    )
    assert spent(sheet) == 75 + 5 + 4 + 20
    errors = ore.check(sheet, {}).errors
    assert [e.code for e in errors] == ["over_budget"]
    assert "over budget by 4" in errors[0].message


def test_case_10_spending_95_of_100_carries_5_over_as_experience():  # L768
    sheet = build(*[(f"stat.{s}", "4") for s in ("body", "coordination", "sense")], budget=100)
    sheet = ore.apply_edit(sheet, "willpower.extra", "50", {})
    assert spent(sheet) == 95
    report = ore.check(sheet, {})
    assert report.ok and report.pool("points").left == 5
    experience = ore.derived(sheet, {})["experience"]
    assert (experience["total"], experience["unspent"]) == (5, 5)


def test_case_11_three_xp_from_one_session_and_sense_costs_five_as_at_creation():  # L826-L834
    sheet = build(("stat.sense", "2"), budget=5)
    sheet = ore.apply_edit(sheet, "stage", "play", {})
    for note in ("played", "goal achieved", "great plan"):
        sheet = ore.apply_edit(sheet, "xp.award", f"1|{note}", {})
    assert ore.derived(sheet, {})["experience"]["unspent"] == 3
    cost = ore.advance_cost(sheet, "stat.sense", 3, {})
    assert (cost.amount, cost.unit) == (5, "XP")
    raised = ore.apply_edit(sheet, "stat.sense", "3", {})
    errors = ore.check(raised, {}).errors
    assert [e.code for e in errors] == ["insufficient_xp"]
    assert "2 XP short" in errors[0].message


@pytest.mark.parametrize(
    ("base_dsp", "stunt", "unusable"),
    [
        pytest.param("0", "force_lightning", True, id="case12c-DS-needs-DSP-L926"),
        pytest.param("1", "force_lightning", False, id="case12c-DS-with-DSP"),
        pytest.param("1", "healing", True, id="case12c-LS-forbidden-with-DSP-L928"),
        pytest.param("0", "healing", False, id="case12c-LS-without-DSP"),
    ],
)
def test_case_12c_dark_and_light_side_stunts_say_when_they_cannot_be_used(
    base_dsp, stunt, unusable
):
    sheet = build(("dsp.base", base_dsp), (f"stunt.{stunt}", "1"), (f"stunt.{stunt}.approved", "y"))
    flagged = [
        v for v in ore.check(sheet, {}).for_trait(f"stunt.{stunt}") if v.code == "side_unusable"
    ]
    assert bool(flagged) is unusable
    power = next(p for p in ore.derived(sheet, {})["powers"] if p["stunts"])
    assert power["stunts"][0]["usable"] is not unusable


def test_case_12d_a_droid_costs_5_has_no_willpower_and_no_force_sense():  # L764-L766, L800
    sheet = build(("species", "droid"))
    d = ore.derived(sheet, {})
    assert spent(sheet) == 5
    assert d["willpower"] == {"applies": False, "base": None, "current": None}
    assert d["powers"][0]["dice"] == 0
    with pytest.raises(InvalidEdit, match="Droids have no Force Sense"):
        ore.apply_edit(sheet, "power.force_sense", "1", {})
    with pytest.raises(InvalidEdit, match="Droids have no Force Sense"):
        ore.apply_edit(sheet, "stunt.empathy", "1", {})
