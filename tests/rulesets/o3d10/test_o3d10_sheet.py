"""The sheet engine: edits, checks, budgets, costs, derived pools, Luck and import."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.o3d10 as o3d10
from rulesets.core import Cost, InvalidEdit, InvalidSheet, Report, resolve_settings
from rulesets.o3d10 import (
    SETTINGS,
    advance_cost,
    apply_edit,
    blank_sheet,
    check,
    demo_sheet,
    derived,
    dice,
    validate_sheet,
)
from rulesets.o3d10.data import HOUSE_RULE_SETTINGS
from rulesets.o3d10.rules import luck_options, next_costs, roll_initiative, xp_spent
from rulesets.registry import SYSTEMS

STAT_SLUGS = ["strength", "dexterity", "intelligence", "perception"]
SKILL_SLUGS = ["melee_weapons", "ranged_weapons", "dodge", "reflexes", "medicine"]


def edits(sheet: dict, *pairs: tuple[str, str], chosen: dict | None = None) -> dict:
    for trait, raw in pairs:
        sheet = apply_edit(sheet, trait, raw, chosen)
    return sheet


def legal_creation() -> dict:
    """A finished creation spend: 24 stat points, 20 skill points."""
    return edits(
        blank_sheet(None),
        ("stat.strength", "6"),
        ("stat.dexterity", "6"),
        ("stat.intelligence", "6"),
        ("stat.perception", "6"),
        ("skill.melee_weapons", "4"),
        ("skill.ranged_weapons", "4"),
        ("skill.dodge", "4"),
        ("skill.reflexes", "4"),
        ("skill.medicine", "4"),
    )


def in_play(xp: int = 50) -> dict:
    return edits(legal_creation(), ("stage", "play"), ("xp.earned", str(xp)))


# --- The module protocol -----------------------------------------------------------------
def test_the_module_names_itself_as_the_registry_expects():
    assert o3d10.KEY == "o3d10"
    assert SYSTEMS["o3d10"].name == "1o3d10"
    assert SYSTEMS["o3d10"].summary


def test_the_demo_character_is_legal_and_round_trips_through_json():
    sheet = demo_sheet()
    report = check(sheet, None)
    assert report.errors == []
    assert validate_sheet(json.loads(json.dumps(sheet))) == sheet
    assert sheet["stage"] == "play" and sheet["force_sensitive"]
    assert derived(sheet, None)["xp"]["spent"] > 0


def test_a_blank_sheet_round_trips_through_validate():
    sheet = blank_sheet(resolve_settings(SETTINGS, None))
    assert validate_sheet(json.loads(json.dumps(sheet))) == sheet


def test_a_blank_sheet_has_no_errors_only_points_to_spend():
    report = check(blank_sheet(None), None)
    assert report.ok
    assert {v.code for v in report.warnings} == {"stat_points_left", "skill_points_left"}
    assert report.pool("stats").left == 20  # 24 - four stats at 1
    assert report.pool("skills").left == 20


def test_apply_edit_never_mutates_its_input():
    sheet = demo_sheet()
    before = copy.deepcopy(sheet)
    apply_edit(sheet, "skill.add", "Slicing|intelligence", None)
    apply_edit(sheet, "weapon.0.damage", "2d6", None)
    apply_edit(sheet, "luck.new_day", "", None)
    assert sheet == before


def test_every_setting_has_a_source_and_house_rules_say_so():
    assert all(s.source for s in SETTINGS)
    assert {"creation_stat_points", "creation_skill_points", "xp_per_stat_rank", "stat_max"} <= (
        HOUSE_RULE_SETTINGS
    )
    assert all("(house rule)" in s.label for s in SETTINGS if s.key in HOUSE_RULE_SETTINGS)


# --- Edits that must be refused ----------------------------------------------------------
@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("stat.strength", "11", "highest at creation is 8"),
        ("stat.strength", "0", "lowest is 1"),
        ("stat.strength", "strong", "whole number"),
        ("stat.charisma", "3", "not a stat"),
        ("skill.dodge", "7", "highest at creation is 6"),
        ("skill.dodge", "-1", "lowest is 0"),
        ("skill.piloting", "2", "not a skill"),
        ("skill.force_jump", "1", "Force-sensitive first"),
        ("nonsense.key", "1", "not a trait"),
        ("info.player", "x" * 201, "limited to 200"),
        ("force.sensitive", "maybe", "yes or no"),
        ("weapon.0.damage", "1d8", "no weapon number 1 on this sheet"),
        ("weapon.add", "Sword", "name|melee or ranged|damage"),
        ("weapon.add", "Sword|magic|1d8", "choose one of Melee, Ranged"),
        ("weapon.add", "Sword|melee|lots", "not a damage code"),
        ("armor.add", "Cape|x", "whole number"),
        ("armor.add", "Cape|25", "runs from 0 to 20"),
        ("stage", "play", "breaks a rule"),
        ("xp.earned", "-1", "runs from 0 to 100000"),
    ],
)
def test_it_refuses_bad_edits_in_plain_words(trait, raw, message):
    sheet = blank_sheet(None)
    if trait == "stage":
        sheet = edits(
            sheet, ("stat.strength", "8"), ("stat.dexterity", "8"), ("stat.perception", "8")
        )
        sheet = edits(sheet, ("stat.intelligence", "8"))  # 32 points: over budget
    with pytest.raises(InvalidEdit, match=message) as error:
        apply_edit(sheet, trait, raw, None)
    assert error.value.trait == trait


def test_it_refuses_a_stat_outside_the_campaign_range_in_play():
    sheet = in_play()
    with pytest.raises(InvalidEdit, match="highest in this campaign is 10"):
        apply_edit(sheet, "stat.dexterity", "11", None)
    with pytest.raises(InvalidEdit, match="below its creation value 6"):
        apply_edit(sheet, "stat.dexterity", "5", None)
    raised = edits(sheet, ("stat.dexterity", "9"))
    assert raised["stats"]["dexterity"] == 9  # above the creation cap once in play


def test_a_gm_can_widen_the_stat_range():
    chosen = {"stat_creation_max": 12, "stat_max": 12}
    sheet = apply_edit(blank_sheet(chosen), "stat.strength", "12", chosen)
    assert sheet["stats"]["strength"] == 12


# --- Midichlorian Luck -------------------------------------------------------------------
def test_luck_can_be_used_once_a_day_and_comes_back_the_next_day():
    sheet = edits(blank_sheet(None), ("luck.use", ""))
    assert derived(sheet, None)["luck"]["left_today"] == 0
    with pytest.raises(
        InvalidEdit, match=r"No Midichlorian Luck left today.*day 1.*day 2"
    ) as error:
        apply_edit(sheet, "luck.use", "", None)
    assert error.value.trait == "luck.use"
    sheet = edits(sheet, ("luck.new_day", ""))
    assert derived(sheet, None)["luck"] == {
        "day": 2,
        "used_today": 0,
        "left_today": 1,
        "per_day": 1,
    }
    sheet = edits(sheet, ("luck.use", ""))
    assert sheet["luck"] == {"day": 2, "last_used_day": 2, "uses_that_day": 1}


def test_a_gm_setting_allows_more_luck_per_day():
    chosen = {"luck_per_day": 2}
    sheet = edits(blank_sheet(chosen), ("luck.use", ""), ("luck.use", ""), chosen=chosen)
    with pytest.raises(InvalidEdit, match="No Midichlorian Luck left"):
        apply_edit(sheet, "luck.use", "", chosen)


def test_the_day_counter_cannot_go_back_before_the_last_luck_use():
    sheet = edits(blank_sheet(None), ("luck.day", "5"), ("luck.use", ""))
    with pytest.raises(InvalidEdit, match="between 5"):
        apply_edit(sheet, "luck.day", "4", None)
    assert edits(sheet, ("luck.day", "9"))["luck"]["day"] == 9


def test_check_flags_an_imported_sheet_that_used_luck_twice_in_a_day():
    data = blank_sheet(None)
    data["luck"] = {"day": 3, "last_used_day": 3, "uses_that_day": 2}
    report = check(validate_sheet(data), None)
    assert "luck_overused" in report.codes()


# --- Check: pools and violations ---------------------------------------------------------
def test_it_reports_every_creation_problem_at_once():
    sheet = blank_sheet(None)
    sheet["stats"] = {"strength": 9, "dexterity": 8, "intelligence": 8, "perception": 0}
    sheet["skills"]["dodge"] = 7
    sheet["skills"]["physical_school"] = 2
    report = check(sheet, None)
    assert {"stat_points_over", "stat_above_creation_max", "stat_below_min"} <= report.codes()
    assert {"skill_above_creation_max", "force_locked"} <= report.codes()
    over = next(v for v in report.errors if v.code == "stat_points_over")
    assert "25 points" in over.message and "budget is 24" in over.message
    assert report.for_trait("stat.strength")[0].message == (
        "Strength is 9 at creation; the creation maximum is 8."
    )


def test_a_finished_creation_has_no_warnings_and_exact_pools():
    report = check(legal_creation(), None)
    assert report.violations == []
    assert report.pool("stats").exact and report.pool("skills").exact


def test_it_reports_xp_spent_beyond_what_was_earned():
    sheet = edits(in_play(xp=0))
    sheet["stats"]["strength"] = 7  # 14 XP, as an import could carry
    report = check(sheet, None)
    assert report.pool("xp").spent == 14
    assert any(v.code == "xp_over" and "14 XP" in v.message for v in report.errors)


def test_it_reports_a_value_lowered_below_creation_in_an_import():
    sheet = in_play()
    sheet["skills"]["dodge"] = 2
    report = check(sheet, None)
    assert report.for_trait("skill.dodge")[0].code == "below_creation_value"


def test_it_warns_when_hp_sits_above_the_maximum():
    sheet = legal_creation()
    sheet["hp"] = 40
    assert [v.code for v in check(sheet, None).warnings] == ["hp_above_max"]


def test_force_skills_open_once_the_gm_marks_the_character():
    sheet = edits(legal_creation(), ("skill.dodge", "2"), ("force.sensitive", "yes"))
    sheet = edits(sheet, ("skill.organic_school", "2"))
    assert check(sheet, None).violations == []
    unlocked = {"force_needs_sensitivity": False}
    assert (
        apply_edit(legal_creation(), "skill.force_jump", "1", unlocked)["skills"]["force_jump"] == 1
    )


# --- Costs -------------------------------------------------------------------------------
def test_a_creation_raise_costs_one_point_per_rank():
    cost = advance_cost(blank_sheet(None), "stat.strength", 4, None)
    assert cost.amount == 3 and cost.unit == "stat points"
    assert cost.explanation == "Strength 1 → 4: 1 + 1 + 1 = 3 stat points"


def test_an_xp_raise_costs_the_new_value_times_the_rate():
    sheet = in_play()
    assert advance_cost(sheet, "stat.strength", 7, None).explanation == (
        "Strength 6 → 7: new value 7 \u00d7 2 = 14 XP"
    )
    cost = advance_cost(sheet, "skill.dodge", 6, None)
    assert (cost.amount, cost.explanation) == (11, "Dodge 4 → 6: 5 + 6 = 11 XP")


def test_a_gm_can_change_the_xp_rates():
    chosen = {"xp_per_skill_rank": 3}
    assert advance_cost(in_play(), "skill.medicine", 5, chosen).amount == 15


def test_next_costs_cover_every_raisable_trait_and_skip_locked_or_maxed_ones():
    costs = next_costs(legal_creation(), None)
    assert costs["stat.strength"].amount == 1
    assert "skill.force_jump" not in costs
    play = in_play()
    play_costs = next_costs(play, None)
    assert play_costs["skill.dodge"] == Cost(5, "XP", "Dodge 4 → 5: new rank 5 \u00d7 1 = 5 XP")
    maxed = edits(play, ("xp.earned", "500"), ("stat.strength", "10"))
    assert "stat.strength" not in next_costs(maxed, None)


def test_a_custom_skill_can_be_added_bought_and_rolled():
    sheet = edits(
        legal_creation(), ("skill.medicine", "2"), ("skill.add", "Pilot (ships)|dexterity")
    )
    sheet = edits(sheet, ("skill.pilot_ships", "2"))
    assert check(sheet, None).pool("skills").spent == 20
    pool = derived(sheet, None)["custom_pools"]["pilot_ships"]
    assert pool["bonus"] == 8 and pool["formula"] == "Dexterity 6 + Pilot (ships) 2 + 1o3d10"
    assert next_costs(sheet, None)["skill.pilot_ships"].amount == 1
    with pytest.raises(InvalidEdit, match="already has a skill"):
        apply_edit(sheet, "skill.add", "Pilot  (Ships)", None)
    removed = edits(sheet, ("skill.remove", "pilot_ships"))
    assert removed["custom_skills"] == []


def test_it_refuses_a_cost_above_the_maximum_or_for_a_non_trait():
    with pytest.raises(InvalidEdit, match="cannot go above 8"):
        advance_cost(blank_sheet(None), "stat.strength", 9, None)
    with pytest.raises(InvalidEdit, match="not a stat or skill"):
        advance_cost(blank_sheet(None), "hp.current", 3, None)


raisable = st.sampled_from([f"stat.{s}" for s in STAT_SLUGS] + [f"skill.{s}" for s in SKILL_SLUGS])


@given(raisable, st.integers(0, 10), st.booleans())
def test_a_cost_is_never_negative(trait, target, playing):
    sheet = in_play() if playing else legal_creation()
    try:
        cost = advance_cost(sheet, trait, target, None)
    except InvalidEdit:
        return
    assert cost.amount >= 0


@given(raisable, st.integers(0, 4))
def test_single_steps_sum_to_the_multi_step_raise(trait, steps):
    sheet = in_play(xp=1000)
    start = derived(sheet, None)["xp"]["spent"]
    group, slug = trait.split(".")
    current = sheet["stats" if group == "stat" else "skills"][slug]
    whole = advance_cost(sheet, trait, current + steps, None).amount
    paid = 0
    for value in range(current + 1, current + steps + 1):
        paid += next_costs(sheet, None)[trait].amount
        sheet = apply_edit(sheet, trait, str(value), None)
    assert paid == whole == derived(sheet, None)["xp"]["spent"] - start


@given(raisable, st.integers(1, 2), st.booleans())
def test_raising_then_lowering_restores_every_budget(trait, steps, playing):
    sheet = in_play() if playing else legal_creation()
    group, slug = trait.split(".")
    current = sheet["stats" if group == "stat" else "skills"][slug]
    raised = apply_edit(sheet, trait, str(current + steps), None)
    lowered = apply_edit(raised, trait, str(current), None)
    assert _pools(check(lowered, None)) == _pools(check(sheet, None))


@settings(max_examples=50)
@given(
    st.permutations(
        [
            ("stat.strength", "8"),
            ("skill.dodge", "7"),
            ("skill.medicine", "6"),
            ("stat.perception", "7"),
        ]
    )
)
def test_the_order_of_purchases_does_not_change_the_xp_total(order):
    sheet = edits(in_play(xp=200), *order)
    assert xp_spent(sheet, None) == (7 + 8) * 2 + (5 + 6 + 7) + (5 + 6) + 7 * 2


def _pools(report: Report) -> list[tuple[str, int, int]]:
    return [(p.key, p.allowed, p.spent) for p in report.pools]


# --- Derived pools -----------------------------------------------------------------------
def test_the_attack_and_skill_pools_are_ready_to_read():
    sheet = edits(
        in_play(), ("force.sensitive", "yes"), ("xp.earned", "99"), ("skill.organic_school", "3")
    )
    pools = derived(sheet, None)["pools"]
    assert pools["melee"]["bonus"] == 6 + 4 and pools["melee"]["source"] == "L55"
    assert pools["ranged"]["bonus"] == 6 + 4
    assert pools["dodge"]["dc"] == 18 and pools["dodge"]["chance"] == 0.216  # P(mid >= 8)
    assert pools["deflect"]["formula"] == "Perception 6 + Reflexes 4 + 1o3d10"
    assert pools["stabilise"]["bonus"] == 10
    assert pools["initiative"]["bonus"] == 10
    force = derived(sheet, None)["force_pools"]
    assert force["organic_school"]["bonus"] == 3 and force["organic_school"]["roll"] == "1a3d10"
    assert force["force_healing"]["dc"] == 15


def test_wounds_lower_the_odds_shown_on_the_sheet():
    sheet = in_play()
    healthy = derived(sheet, None)["pools"]["dodge"]["chance"]
    hurt = derived(edits(sheet, ("hp.current", "3")), None)["pools"]["dodge"]["chance"]
    assert (healthy, hurt) == (0.216, 0.027)  # digest §2.2: P(mid >= 8), P(low >= 8)


def test_defense_absorption_and_weapons_come_from_the_rows():
    sheet = edits(
        in_play(),
        ("defense.bonus", "2"),
        ("armor.add", "medium"),
        ("armor.add", "Helmet|1"),
        ("armor.1.worn", "no"),
        ("weapon.add", "lightsaber"),
        ("weapon.add", "Hold-out|ranged|1D6 + 2"),
    )
    result = derived(sheet, None)
    assert result["defense"] == 10 + 6 + 2
    assert result["absorption"] == 2
    assert [(w["name"], w["damage"], w["attack_bonus"]) for w in result["weapons"]] == [
        ("Lightsaber", "2d6", 10),
        ("Hold-out", "1d6+2", 10),
    ]
    assert [row["name"] for row in edits(sheet, ("armor.remove", "0"))["armor"]] == ["Helmet"]


def test_the_ranged_odds_follow_the_difficulty_table():
    chances = derived(in_play(), None)["ranged_chances"]
    assert [row["dc"] for row in chances] == [10, 15, 20, 25, 30, 35]
    assert [row["chance"] for row in chances] == sorted(
        (row["chance"] for row in chances), reverse=True
    )


def test_the_reaction_table_shown_follows_the_setting():
    rows = derived(in_play(), {"reaction_points_at_15": 2})["reaction_points_table"]
    assert rows[1] == {"totals": "10-15", "points": 2}


def test_hp_follows_strength_while_building_but_not_in_play():
    sheet = edits(blank_sheet(None), ("stat.strength", "5"))
    assert sheet["hp"] == 20
    play = edits(in_play(), ("stat.strength", "7"))
    assert play["hp"] == 22 and derived(play, None)["hp_max"] == 24


# --- Import ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.update(colour="red"), "colour: is not part of this sheet"),
        (lambda s: s["stats"].update(strength="6"), "stats.strength: expected a whole number"),
        (lambda s: s["stats"].update(strength=25), "stats.strength: .*from 0 to 20"),
        (lambda s: s["stats"].update(agility=3), "stats.agility: is not part of this sheet"),
        (lambda s: s.update(hp=1.5), "hp: expected a whole number"),
        (lambda s: s.update(stage="done"), "stage: expected one of creation, play"),
        (
            lambda s: s["weapons"].append(
                {"name": "x", "kind": "melee", "damage": "d", "notes": ""}
            ),
            "weapons.0.damage: expected a damage code",
        ),
        (
            lambda s: s["custom_skills"].append(
                {"slug": "dodge", "name": "Dodge", "stat": "", "rank": 0}
            ),
            "custom_skills.0.name: .*already taken",
        ),
        (
            lambda s: s["custom_skills"].append(
                {"slug": "pilot", "name": "Pilot ships", "stat": "", "rank": 0}
            ),
            "custom_skills.0.slug: expected “pilot_ships”",
        ),
        (
            lambda s: s.update(base={"stats": s["stats"], "skills": s["skills"]}),
            "base: expected null while the character is in creation",
        ),
        (lambda s: s.update(stage="play"), "base: expected the creation values"),
        (lambda s: s.update(force_sensitive="yes"), "force_sensitive: expected true or false"),
        (
            lambda s: s.update(luck={"day": 2, "last_used_day": 3, "uses_that_day": 1}),
            "luck.last_used_day: expected a day no later than luck.day",
        ),
        (
            lambda s: s.update(luck={"day": 2, "last_used_day": None, "uses_that_day": 1}),
            "luck.uses_that_day: expected 0",
        ),
    ],
)
def test_it_rejects_bad_imports_naming_the_field(mutate, message):
    sheet = blank_sheet(None)
    mutate(sheet)
    with pytest.raises(InvalidSheet, match=message):
        validate_sheet(sheet)


def test_it_rejects_an_import_that_is_not_an_object():
    with pytest.raises(InvalidSheet, match="JSON object"):
        validate_sheet([1, 2])


def test_a_base_that_names_a_skill_the_character_lacks_is_refused():
    sheet = in_play()
    sheet["base"]["skills"]["slicing"] = 2
    with pytest.raises(InvalidSheet, match=r"base\.skills\.slicing: is not a skill"):
        validate_sheet(sheet)
    del sheet["base"]["skills"]["slicing"]
    del sheet["base"]["skills"]["dodge"]
    with pytest.raises(InvalidSheet, match=r"base\.skills\.dodge: is missing"):
        validate_sheet(sheet)


# --- Settings reach the dice -------------------------------------------------------------
class Replay(random.Random):
    """A real Random that replays fixed faces, so a test can choose the dice."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_initiative_reads_actions_and_reaction_points_from_the_total():
    sheet = in_play()  # Dexterity 6 + Reflexes 4
    result = roll_initiative(sheet, Replay([3, 9, 7]), None)
    assert (result.bonus, result.total) == (10, 17)
    assert (result.actions, result.reaction_points, result.lost_first_turn) == (1, 3, False)


def test_a_fumbled_initiative_loses_the_first_turn_unless_the_gm_decides():
    sheet = in_play()
    assert roll_initiative(sheet, Replay([1, 1, 2]), None).lost_first_turn
    assert not roll_initiative(sheet, Replay([1, 1, 2]), {"initiative_fail": "gm"}).lost_first_turn


def test_the_initiative_setting_changes_the_pool():
    sheet = edits(in_play(), ("xp.earned", "99"), ("stat.perception", "8"))
    chosen = {"initiative_pool": "perception_reflexes"}
    assert roll_initiative(sheet, Replay([5, 5, 5]), chosen).bonus == 12
    assert derived(sheet, chosen)["pools"]["initiative"]["bonus"] == 12


def test_the_luck_setting_reaches_the_dice():
    natural = dice.read_dice((3, 5, 10))
    plain = dice.use_luck(
        natural, 0, Replay([4, 4, 4]), **luck_options(resolve_settings(SETTINGS, None))
    )
    chosen = resolve_settings(SETTINGS, {"luck_ten_explodes": True})
    boosted = dice.use_luck(natural, 0, Replay([4, 4, 4]), **luck_options(chosen))
    assert (plain.result, boosted.result) == (10, 14)


def test_the_explosion_setting_changes_the_odds_shown():
    sheet = edits(in_play(), ("stat.dexterity", "6"))
    literal = derived(sheet, None)["ranged_chances"][-1]["chance"]  # needs 25 on the die
    open_ended = derived(sheet, {"explode_mode": "open_d10"})["ranged_chances"][-1]["chance"]
    assert literal == 0 and open_ended > 0
