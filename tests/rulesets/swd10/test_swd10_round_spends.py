"""SWd10 spends and gains a roll meets (seed 000): a Destiny point once a round (L81) and how
its successes meet the 1s (L83, a reading), current Power gained in battle (L100, L609,
L629) and spent after Stamina's soak as a second step (L106), the Path roll's lost grades
written with it (L124-126), the evasion penalty (L206) and armor converted from Saga
Edition (L1374). Numbers from the seed; odds exact against an enumeration of our own."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets import swd10
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, RollResult, dice_readings, parse_roll_options
from rulesets.swd10 import armor, dice, spends
from rulesets.swd10.dice import Spec, odds_for

DEFAULTS = resolve_settings(swd10.SETTINGS, {})
READINGS = dice_readings(DEFAULTS, swd10.DICE_READINGS)
AMBUSH = spends.RoundState("Ambush", 3)


def sheet(**changes) -> dict:
    made = copy.deepcopy(swd10.demo_sheet())
    for key, value in changes.items():
        made[key] = value
    return made


def rollable(made: dict, key: str, state: spends.RoundState | None = None, settings=DEFAULTS):
    found = {r.key: r for r in swd10.rollables(made, settings)}[key]
    return dice.at_round(found, state)


def parsed(target, settings=DEFAULTS, **raw) -> dict:
    definitions = swd10.roll_options(target, settings)
    chosen = parse_roll_options(definitions, {k: str(v) for k, v in raw.items()})
    return chosen | READINGS


def offered(target) -> dict:
    return {option.key: option for option in swd10.roll_options(target, DEFAULTS)}


def result(outcome: str, success: bool, total: int = 0) -> RollResult:
    return RollResult((), "", outcome, success, "", total=total)


# --- a Destiny point once a round (L81) ------------------------------------------------------


def test_outside_a_scene_the_destiny_spend_says_the_table_keeps_the_count():
    made = sheet(info=swd10.demo_sheet()["info"] | {"destiny_points": 2})
    attack = rollable(made, "abil.firearms")
    assert "the table keeps that count" in offered(attack)["destiny_successes"].help
    assert "L81" in offered(attack)["destiny_successes"].source


def test_in_a_scene_the_destiny_spend_names_the_round():
    made = sheet(info=swd10.demo_sheet()["info"] | {"destiny_points": 2})
    attack = rollable(made, "abil.firearms", AMBUSH)
    assert offered(attack)["destiny_successes"].help == "One a round (L81): round 3 of Ambush."


@pytest.mark.parametrize("use", ["successes", "wounds"])
def test_a_second_destiny_point_in_the_same_round_is_refused_beside_its_field(use):
    made = sheet(info=swd10.demo_sheet()["info"] | {"destiny_points": 2}, health_marked=2)
    spent = spends.RoundState("Ambush", 3, destiny_spent="initiative")
    attack = rollable(made, "abil.firearms", spent)
    with pytest.raises(InvalidRoll, match="already spent in round 3 of Ambush") as refused:
        swd10.odds(attack, parsed(attack, **{f"destiny_{use}": "yes"}))
    assert refused.value.option == f"destiny_{use}"
    assert "Already spent in round 3" in offered(attack)["destiny_successes"].help


def test_a_destiny_point_in_a_new_round_is_spent_again():
    made = sheet(info=swd10.demo_sheet()["info"] | {"destiny_points": 2})
    attack = rollable(made, "abil.firearms", spends.RoundState("Ambush", 4))
    options = parsed(attack, destiny_successes="yes")
    rolled = swd10.roll(attack, options, random.Random(1))
    assert dict(rolled.facts)["destiny"] == "successes"  # what the next roll's count reads
    assert swd10.roll_edits(attack, options, rolled)["info.destiny_points"] == "1"


def test_wounds_ignored_by_this_rounds_destiny_point_stay_ignored_for_the_round():
    made = sheet(health_marked=3)  # Injured: −1 (sheet L48-54)
    plain = rollable(made, "attr.strength")
    held = rollable(made, "attr.strength", spends.RoundState("Ambush", 3, "wounds"))
    assert swd10.odds(plain, parsed(plain)).question.startswith("1 die")  # Strength 2 − 1
    assert swd10.odds(held, parsed(held)).question.startswith("2 dice")  # L85: the round's


def test_the_destiny_uses_left_to_the_storyteller_are_listed_with_their_lines():
    assert [source for _what, source in spends.DESTINY_ELSEWHERE] == [
        "L86", "L87", "L88", "L89", "L93", "L94"
    ]  # fmt: skip


# --- a Destiny point's successes and the 1s (L83, a reading) ---------------------------------


def enumerate_destiny(spec: Spec) -> tuple[Fraction, Fraction]:
    """Every face of every die, read by the reading's words alone: the chance of success
    and of a botch."""
    won = botched = 0
    for faces in itertools.product(range(1, 11), repeat=spec.pool):
        ones = faces.count(1)
        hits = sum(1 for face in faces if face >= spec.difficulty)
        if spec.auto_rule == "with_dice":
            counted = hits + spec.auto
            kept = max(counted - ones, 0) if spec.ones_cancel else counted
            botch = ones > 0 and (counted == 0 if spec.botch == "revised" else ones > counted)
        else:
            kept = (max(hits - ones, 0) if spec.ones_cancel else hits) + spec.auto
            dice_botch = hits == 0 if spec.botch == "revised" else ones > hits
            botch = spec.auto_rule == "botch_stands" and ones > 0 and dice_botch
        if botch:
            botched += 1
        elif kept >= spec.needed:
            won += 1
    return Fraction(won, 10**spec.pool), Fraction(botched, 10**spec.pool)


DESTINY_SPECS = [
    Spec(n, d, needed, False, cancel, botch, "none", auto=3, auto_rule=rule)
    for n in range(0, 4)
    for d in (4, 6, 9)
    for needed in (3, 4, 6)
    for cancel in (True, False)
    for botch in ("revised", "old")
    for rule in ("after_roll", "botch_stands", "with_dice")
]


@pytest.mark.parametrize("spec", DESTINY_SPECS, ids=str)
def test_destiny_odds_equal_an_enumeration_under_each_reading(spec):
    odds = odds_for(spec)
    won, botched = enumerate_destiny(spec)
    assert odds.success == won
    assert sum((bar.chance for bar in odds.bars if bar.label == "Botch"), Fraction(0)) == botched
    assert sum(bar.chance for bar in odds.bars) == 1


@given(
    pool=st.integers(0, 6),
    difficulty=st.integers(2, 10),
    needed=st.integers(1, 9),
    cancel=st.booleans(),
    botch=st.sampled_from(["revised", "old"]),
)
def test_no_reading_makes_a_destiny_point_worth_more_than_added_after_the_roll(
    pool, difficulty, needed, cancel, botch
):
    def chance(rule: str) -> Fraction:
        spec = Spec(pool, difficulty, needed, False, cancel, botch, "none", auto=3, auto_rule=rule)
        return odds_for(spec).success

    after = chance("after_roll")
    assert chance("botch_stands") <= after and chance("with_dice") <= after
    plain = odds_for(Spec(pool, difficulty, needed, False, cancel, botch, "none")).success
    assert plain <= min(chance("botch_stands"), chance("with_dice"))  # three successes help


def test_the_destiny_reading_defaults_to_the_seeds_after_the_roll():
    assert DEFAULTS[dice.DESTINY_DICE] == "after_roll"  # L83: after any combat roll


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # One die at 6 and three Destiny successes, needing three: only a 1 can stop it.
        ("after_roll", Fraction(1)),  # no 1 cancels them, no botch
        ("botch_stands", Fraction(9, 10)),  # a lone 1 is a botch
        ("with_dice", Fraction(9, 10)),  # a lone 1 cancels one of the three
    ],
)
def test_each_destiny_reading_changes_a_one_die_roll_as_it_says(rule, expected):
    spec = Spec(1, 6, 3, False, True, "revised", "none", auto=3, auto_rule=rule)
    assert odds_for(spec).success == expected


def test_the_destiny_reading_reaches_the_roll_from_the_settings():
    made = sheet(info=swd10.demo_sheet()["info"] | {"destiny_points": 1})
    attack = rollable(made, "abil.firearms")
    settings = resolve_settings(swd10.SETTINGS, {dice.DESTINY_DICE: "with_dice"})
    options = parsed(attack, settings, destiny_successes="yes") | dice_readings(
        settings, swd10.DICE_READINGS
    )
    assert dice.read_roll(attack, options).auto_rule == "with_dice"
    assert "1s cancel them too" in swd10.odds(attack, options).note


# --- current Power gained in battle (L100, L609, L629) -------------------------------------


@pytest.mark.parametrize(
    ("kind", "success", "merits", "gained"),
    [
        ("ability", True, (), 1),  # L100
        ("ability", False, (), 0),
        ("force", True, (), 1),
        ("force", True, ("strong_in_the_force",), 2),  # L629
        ("ability", True, ("strong_in_the_force",), 1),  # a Force ability's only
        ("initiative", False, ("power_recovery",), 2),  # L609, whatever the dice
        ("initiative", True, ("power_recovery",), 3),
        ("path", True, (), 0),  # a matter of conscience, not the fight
    ],
)
def test_a_battle_roll_gains_the_seeds_power(kind, success, merits, gained):
    assert spends.power_gained(kind, success, merits) == gained


@given(
    current=st.integers(0, 10),
    maximum=st.integers(0, 10),
    spent=st.integers(0, 10),
    gained=st.integers(0, 3),
)
def test_current_power_never_falls_below_nothing_nor_rises_past_power(
    current, maximum, spent, gained
):
    current = min(current, maximum)
    after = spends.power_after(current, maximum, min(spent, current), gained)
    assert 0 <= after <= maximum


def test_a_battle_flag_is_ticked_in_a_scene_and_not_outside_one():
    made = sheet(power=3, power_current=0)
    assert offered(rollable(made, "abil.firearms"))["battle"].default is False
    assert offered(rollable(made, "abil.firearms", AMBUSH))["battle"].default is True
    assert "battle" not in offered(rollable(made, "path.light_side"))
    commoner = sheet(power=0, power_current=0)
    assert "battle" not in offered(rollable(commoner, "abil.firearms", AMBUSH))  # L96


def test_a_successful_battle_roll_writes_its_power_and_a_failed_one_nothing():
    made = sheet(power=3, power_current=1)
    attack = rollable(made, "abil.firearms", AMBUSH)
    options = parsed(attack)
    assert options["battle"] is True
    assert swd10.roll_edits(attack, options, result("success", True, 1)) == {"power_current": "2"}
    assert swd10.roll_edits(attack, options, result("failure", False)) == {}


def test_power_gained_and_spent_on_one_roll_meet_and_stop_at_power():
    made = sheet(power=2, power_current=2)
    # Outside a scene a roll pays its own Power (in one, the round's start pays, L104-105).
    attack = rollable(made, "attr.strength")
    options = parsed(attack, actions=2, power_actions=1, battle=True)
    # 2 − 1 spent + 1 gained, never past Power 2 (L100).
    assert swd10.roll_edits(attack, options, result("success", True, 1)) == {"power_current": "2"}
    full = rollable(sheet(power=2, power_current=2), "attr.strength", AMBUSH)
    assert swd10.roll_edits(full, parsed(full), result("success", True, 1)) == {}


def test_the_roll_says_what_power_it_gained():
    made = sheet(power=3, power_current=0)
    attack = rollable(made, "attr.strength", AMBUSH)
    options = parsed(attack, difficulty=2)
    for seed in range(50):
        rolled = swd10.roll(attack, options, random.Random(seed))
        if rolled.success:
            assert any("current Power +1" in line for line in rolled.details)
            return
    pytest.fail("no success in fifty rolls at difficulty 2")


# --- current Power after Stamina's soak (L106): a second step ------------------------------


def test_the_stamina_soak_records_what_it_leaves_for_power():
    made = sheet(power=3, power_current=2)
    soak = rollable(made, "soak.stamina")
    rolled = swd10.roll(soak, parsed(soak, incoming=5), random.Random(4))
    facts = dict(rolled.facts)
    assert facts["incoming"] == 5 and facts["soak_left"] == 5 - rolled.total


@pytest.mark.parametrize(
    ("facts", "current", "raw", "message"),
    [
        ({"soak_left": 2, "incoming": 3}, 2, "3", "Only 2 current Power"),
        ({"soak_left": 1, "incoming": 3}, 4, "2", "At most 1: only 1 levels"),
        ({"soak_left": 0, "incoming": 3}, 4, "1", "Stamina soaked it all"),
        ({"soak_left": 2, "incoming": 3, "power_soaked": 1}, 4, "1", "already spent"),
        ({}, 4, "1", "with its damage known"),
        ({"soak_left": 2, "incoming": 3}, 4, "two", "a whole number"),
        ({"soak_left": 2, "incoming": 3}, 4, "0", "at least 1"),
        ({"soak_left": 2, "incoming": 3}, 4, "-1", "a whole number"),
    ],
)
def test_power_the_sheet_cannot_pay_after_the_soak_is_refused(facts, current, raw, message):
    with pytest.raises(InvalidRoll, match=message) as refused:
        dice.power_soak(facts, current, raw)
    assert refused.value.option == "power_soak"


def test_power_after_the_soak_soaks_a_level_a_point():
    points, edits, line = dice.power_soak({"soak_left": 3, "incoming": 4}, 2, "2")
    assert points == 2 and edits == {"power_current": "0"}
    assert "2 more level(s) soaked, 1 of 4 damage left (L106)" in line


@given(left=st.integers(0, 12), current=st.integers(0, 10))
def test_power_never_soaks_more_than_is_left_nor_more_than_the_pool(left, current):
    most = spends.power_soak_most(left, current)
    assert 0 <= most <= min(left, current)


# --- the Path roll's lost grade written with the roll (L124-126) ---------------------------


@pytest.mark.parametrize(
    ("side", "value", "outcome", "edits"),
    [
        ("light_side", 4, "success", {}),  # L122
        ("light_side", 4, "failure", {"side.light": "3"}),  # L124
        ("light_side", 4, "botch", {"side.light": "2"}),  # L126
        ("dark_side", 1, "botch", {"side.dark": "0"}),  # never below 0
        ("dark_side", 5, "failure", {"side.dark": "4"}),
    ],
)
def test_a_path_roll_writes_the_grades_it_loses(side, value, outcome, edits):
    made = sheet(power=6, **{side: value})
    path = rollable(made, f"path.{side}")
    options = parsed(path, grade="2")
    assert swd10.roll_edits(path, options, result(outcome, outcome == "success")) == edits


# --- the evasion penalty (L206) -------------------------------------------------------------


@pytest.mark.parametrize(("evasions", "dice_left"), [(0, 4), (1, 3), (2, 2), (4, 0)])
def test_each_evasion_before_takes_a_die_off_the_action(evasions, dice_left):
    made = sheet()
    dex = rollable(made, "attr.dexterity")  # Dexterity 4
    options = parsed(dex, evasions=evasions)
    assert swd10.odds(dex, options).question.startswith(f"{dice_left} d")
    assert offered(dex)["evasions"].source == "L206"


def test_too_many_evasions_are_refused_beside_the_field():
    dex = rollable(sheet(), "attr.dexterity")
    with pytest.raises(InvalidRoll) as refused:
        parsed(dex, evasions=spends.MAX_EVASIONS + 1)
    assert refused.value.option == "evasions"


# --- armor converted from Saga Edition (L1374) ---------------------------------------------


@pytest.mark.parametrize(("max_dex", "penalty"), [(0, 5), (1, 4), (2, 3), (3, 2), (4, 1), (6, 1)])
def test_converted_armor_takes_five_less_its_max_dex_bonus_at_least_one(max_dex, penalty):
    assert armor.swse_penalty(max_dex) == penalty


VEST = {"name": "Blast vest", "kind": "armor", "rating": 3, "lost": 0, "worn": True}


def test_a_converted_armors_penalty_replaces_its_classes_on_dexterity_rolls():
    made = sheet(armor=[VEST])  # medium: −2 by class (L741)
    dex = rollable(made, "attr.dexterity")  # Dexterity 4
    assert swd10.odds(dex, parsed(dex)).question.startswith("2 dice")
    assert swd10.odds(dex, parsed(dex, armor_swse="3")).question.startswith("2 dice")  # 5 − 3
    assert swd10.odds(dex, parsed(dex, armor_swse="4")).question.startswith("3 dice")  # least 1
    assert swd10.odds(dex, parsed(dex, armor_swse="1")).question.startswith("0 dice")  # 5 − 1
    assert offered(dex)["armor_swse"].source == "L741, L1374"
    assert "armor_swse" not in offered(rollable(made, "attr.strength"))


def test_an_unknown_armor_choice_is_refused_beside_its_field():
    dex = rollable(sheet(armor=[VEST]), "attr.dexterity")
    with pytest.raises(InvalidRoll) as refused:
        swd10.odds(dex, READINGS | {"armor_swse": "9"})
    assert refused.value.option == "armor_swse"
