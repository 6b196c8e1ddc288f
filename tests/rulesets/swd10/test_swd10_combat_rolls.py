"""SWd10 rolls the seed's combat rules add (000): the aiming tables (L246-286), the Path
grades read against the roll after a mistake (L120-168), Destiny points (L81-85) and
current Power (L102-106) spent with a roll, the armor penalty (L741) and the soak rolls
(L185-230). The numbers are the seed's; the odds stay exact against enumeration."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets import swd10
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.rolls import InvalidRoll, dice_readings, parse_roll_options
from rulesets.swd10 import aiming, dice, paths, spends
from rulesets.swd10.dice import Spec, is_botch, net_successes, odds_for

DEFAULTS = resolve_settings(swd10.SETTINGS, {})
READINGS = dice_readings(DEFAULTS, swd10.DICE_READINGS)


def sheet(**changes) -> dict:
    made = copy.deepcopy(swd10.demo_sheet())
    for key, value in changes.items():
        made[key] = value
    return made


def rollable(made: dict, key: str, settings=DEFAULTS):
    return {r.key: r for r in swd10.rollables(made, settings)}[key]


def parsed(target, settings=DEFAULTS, **raw) -> dict:
    definitions = swd10.roll_options(target, settings)
    chosen = parse_roll_options(definitions, {k: str(v) for k, v in raw.items()})
    return chosen | READINGS


# --- aiming (L246-286) ---------------------------------------------------------------------

RANGED_TABLE = [  # L251-257: difficulty to hit, damage dice
    ("head", 3, 4), ("arms", 3, -1), ("chest", 0, 0), ("vitals", 2, 3),
    ("legs", 2, 0), ("eyes", 4, 3), ("weapon", 3, 0),
]  # fmt: skip
MELEE_TABLE = [  # L264-270
    ("head", 3, 4), ("arms", 0, -1), ("chest", 2, 1), ("vitals", 3, 3),
    ("legs", 1, 0), ("eyes", 4, 3), ("weapon", 3, 0),
]  # fmt: skip


@pytest.mark.parametrize(
    ("table", "key", "difficulty", "damage"),
    [(aiming.RANGED, *row) for row in RANGED_TABLE] + [(aiming.MELEE, *row) for row in MELEE_TABLE],
)
def test_the_aiming_tables_hold_the_seeds_numbers(table, key, difficulty, damage):
    entry = aiming.location(table, key)
    assert (entry.difficulty, entry.damage_dice) == (difficulty, damage)
    assert entry.source.startswith("L2")


@pytest.mark.parametrize(
    ("ability", "key", "added"),
    [("firearms", "head", 3), ("firearms", "arms", 3), ("melee", "arms", 0), ("brawl", "chest", 2)],
)
def test_aiming_an_attack_raises_its_difficulty_by_its_table(ability, key, added):
    target = rollable(sheet(), f"abil.{ability}")
    plain = swd10.odds(target, parsed(target))
    aimed = swd10.odds(target, parsed(target, aim=key))
    assert f"difficulty {6 + added}" in aimed.question
    assert plain.question.replace("difficulty 6", f"difficulty {6 + added}") == aimed.question


def test_a_force_pool_aims_by_the_ranged_table_and_says_only_with_the_descriptor():
    target = rollable(sheet(), "fk.battle")
    option = {o.key: o for o in swd10.roll_options(target, DEFAULTS)}["aim"]
    assert option.source == "L259" and "Aiming descriptor" in option.help
    assert "difficulty 10" in swd10.odds(target, parsed(target, aim="eyes")).question


def test_a_roll_that_cannot_aim_offers_no_aim_and_refuses_one():
    target = rollable(sheet(), "abil.alertness")
    assert "aim" not in {o.key for o in swd10.roll_options(target, DEFAULTS)}
    with pytest.raises(InvalidRoll, match="cannot be aimed"):
        swd10.odds(target, READINGS | {"aim": "head"})


def test_an_unknown_aim_is_refused_with_the_choices():
    target = rollable(sheet(), "abil.firearms")
    with pytest.raises(InvalidRoll) as refused:
        parsed(target, aim="kneecap")
    assert refused.value.option == "aim" and "Head / neck" in refused.value.message
    with pytest.raises(InvalidRoll, match="Aim: choose one of"):
        swd10.odds(target, READINGS | {"aim": "kneecap"})


@pytest.mark.parametrize(
    ("aim", "dice_added"),
    [("ranged.head", 4), ("melee.chest", 1), ("ranged.chest", 0), ("melee.arms", -1)],
)
def test_a_damage_roll_adds_the_aims_damage_dice(aim, dice_added):
    target = rollable(sheet(), "dmg.0")  # heavy blaster pistol, damage 3
    assert f"{3 + dice_added} dice" in swd10.odds(target, parsed(target, aim=aim)).question


@pytest.mark.parametrize(
    ("key", "damage", "needs"),
    [
        ("head", 2, None), ("head", 3, 3), ("head", 4, 4), ("head", 5, 5), ("head", 9, 6),
        ("arms", 1, 1), ("arms", 4, 4), ("arms", 6, 6),
        ("chest", 4, None), ("chest", 5, 5), ("chest", 7, 7),
        ("vitals", 4, 4), ("vitals", 5, 5),
        ("legs", 3, None), ("legs", 4, 4), ("legs", 6, 6),
        ("eyes", 1, None), ("eyes", 2, 2), ("eyes", 3, 3), ("eyes", 4, 4),
        ("weapon", 1, 1),
    ],
)  # fmt: skip
def test_a_hit_does_the_effect_needing_the_most_damage_it_reaches(key, damage, needs):
    # L272: where several effects apply, the one that needs the most damage happens.
    found = aiming.effect(key, damage)
    assert (found.least_damage if found else None) == needs


def test_an_aimed_damage_roll_reads_its_effect_by_location():
    target = rollable(sheet(), "dmg.0")
    options = parsed(target, aim="ranged.head")
    for seed in range(200):
        result = swd10.roll(target, options, random.Random(seed))
        if result.total >= 4:
            break
    assert any(d.startswith(f"Head / neck, {result.total} damage: ") for d in result.details)


# --- Path grades (L120-168) ---------------------------------------------------------------


def test_both_path_tables_run_from_grade_1_to_10_each_with_a_source():
    for side in (paths.LIGHT, paths.DARK):
        table = paths.PATHS[side]
        assert [g.grade for g in table] == list(range(1, 11))
        assert all(g.degree and g.mistake and g.source.startswith("L1") for g in table)


@pytest.mark.parametrize(
    ("value", "mistake", "difficulty"), [(5, 3, 8), (1, 1, 6), (1, 10, 2), (10, 1, 15), (4, 9, 2)]
)
def test_the_path_difficulty_is_value_minus_grade_plus_six(value, mistake, difficulty):
    assert paths.difficulty(value, mistake) == difficulty  # L120 (the digest's example first)


@pytest.mark.parametrize(("outcome", "after"), [("success", 5), ("failure", 4), ("botch", 3)])
def test_the_outcome_keeps_or_loses_grades(outcome, after):
    assert paths.after(5, outcome) == after  # L122-126


def test_the_result_is_read_against_the_table():
    assert paths.reading(paths.LIGHT, 5, "success") == "Light side stays 5"
    assert paths.reading(paths.LIGHT, 5, "failure").startswith("Light side 5 → 4, losing grade 5")
    botch = paths.reading(paths.DARK, 2, "botch")
    assert botch.startswith("Dark side 2 → 0") and "grade 1" in botch and "grade 2" in botch


def test_the_path_roll_offers_its_sides_mistakes_as_the_grade():
    made = sheet(power=6, light_side=2, dark_side=5)
    light = rollable(made, "path.light_side")
    dark = rollable(made, "path.dark_side")
    light_grades = {o.key: o for o in swd10.roll_options(light, DEFAULTS)}["grade"]
    dark_grades = {o.key: o for o in swd10.roll_options(dark, DEFAULTS)}["grade"]
    assert [value for value, _ in light_grades.choices] == [str(n) for n in range(1, 11)]
    assert light_grades.choices[0][1] == "1: " + paths.PATHS[paths.LIGHT][0].mistake
    assert dark_grades.choices[5][1] == "6: forgives"
    assert "5 dice at difficulty 8" in swd10.odds(dark, parsed(dark, grade=3)).question


def test_a_path_roll_result_names_the_degree_lost():
    made = sheet(power=6, light_side=5)
    target = rollable(made, "path.light_side")
    summaries = {
        swd10.roll(target, parsed(target, grade=1), random.Random(s)).outcome: s for s in range(300)
    }
    failed = swd10.roll(target, parsed(target, grade=1), random.Random(summaries["failure"]))
    assert (
        "Light side 5 → 4, losing grade 5: trusts those further along the same Path"
        in failed.summary
    )


def test_a_grade_outside_the_table_is_refused():
    target = rollable(sheet(), "path.light_side")
    with pytest.raises(InvalidRoll):
        parsed(target, grade=11)
    with pytest.raises(InvalidRoll, match="choose 1 to 10"):
        swd10.odds(target, READINGS | {"grade": "0"})


# --- Destiny and current Power (L81-110) ---------------------------------------------------


def brute_force(spec: Spec) -> Fraction:
    won = 0
    for faces in itertools.product(range(1, 11), repeat=spec.pool):
        successes = sum(1 for face in faces if face >= spec.difficulty)
        ones = faces.count(1)
        if (
            not is_botch(spec, successes, ones)
            and net_successes(spec, successes, ones) >= spec.needed
        ):
            won += 1
    return Fraction(won, 10**spec.pool)


@pytest.mark.parametrize(
    "spec",
    [Spec(n, d, needed, False, True, "revised", "none", auto=auto)
     for n in range(0, 4) for d in (4, 6, 9) for needed in (1, 3, 5) for auto in (0, 3, 5)],
    ids=str,
)  # fmt: skip
def test_automatic_successes_keep_the_odds_exact_against_enumeration(spec):
    result = odds_for(spec)
    assert result.success == brute_force(spec)
    assert sum(bar.chance for bar in result.bars) == 1


def test_a_destiny_point_adds_three_successes_to_an_attack_and_is_written_with_the_roll():
    made = sheet()
    made["info"]["destiny_points"] = 2
    target = rollable(made, "abil.firearms")
    options = parsed(target, destiny_successes="yes", needed=3)
    assert swd10.odds(target, options).success == 1  # L83: three successes that no 1 cancels
    result = swd10.roll(target, options, random.Random(1))
    assert any("Destiny point: +3 successes" in d for d in result.details)
    assert swd10.roll_edits(target, options, result) == {"info.destiny_points": "1"}


def test_a_destiny_point_adds_five_successes_to_initiative_only_there():
    made = sheet()
    made["info"]["destiny_points"] = 1
    initiative = rollable(made, "pool.initiative")
    offered = [
        o.key for o in swd10.roll_options(initiative, DEFAULTS) if o.key.startswith("destiny")
    ]
    assert offered == ["destiny_initiative"]
    options = parsed(initiative, destiny_initiative="yes", needed=5)
    assert swd10.odds(initiative, options).success == 1  # L84
    with pytest.raises(InvalidRoll):
        swd10.odds(rollable(made, "abil.firearms"), READINGS | {"destiny_initiative": True})


def test_one_destiny_point_a_roll_buys_one_use():
    made = sheet(health_marked=2)
    made["info"]["destiny_points"] = 2
    target = rollable(made, "abil.firearms")
    with pytest.raises(InvalidRoll, match="choose one of its uses"):
        swd10.odds(target, parsed(target, destiny_successes="yes", destiny_wounds="yes"))


def test_which_rolls_are_combat_rolls_is_a_reading():
    made = sheet()
    made["info"]["destiny_points"] = 1
    alertness = rollable(made, "abil.alertness")
    assert "destiny_successes" not in {o.key for o in swd10.roll_options(alertness, DEFAULTS)}
    wide = resolve_settings(swd10.SETTINGS, {spends.DESTINY_COMBAT_ROLLS: "any_action"})
    alertness = rollable(made, "abil.alertness", wide)
    assert "destiny_successes" in {o.key for o in swd10.roll_options(alertness, wide)}


def test_a_destiny_point_lifts_wound_penalties_like_willpower():
    made = sheet(health_marked=4)  # Wounded: −2 dice
    made["info"]["destiny_points"] = 1
    target = rollable(made, "attr.strength")
    hurt = swd10.odds(target, parsed(target))
    spared = swd10.odds(target, parsed(target, destiny_wounds="yes"))
    assert hurt.question.startswith("0 dice") and spared.question.startswith("2 dice")  # L85


def test_no_destiny_point_left_offers_none_and_refuses_one():
    target = rollable(sheet(), "abil.firearms")
    assert not [o for o in swd10.roll_options(target, DEFAULTS) if o.key.startswith("destiny")]
    with pytest.raises(InvalidRoll, match="No Destiny point left"):
        swd10.odds(target, READINGS | {"destiny_successes": True})


@pytest.mark.parametrize(
    ("declared", "number", "penalty"),
    [(1, 1, 0), (2, 1, 2), (2, 2, 3), (3, 1, 3), (3, 2, 4), (3, 3, 5)],
)
def test_the_multiple_action_penalty_follows_the_seeds_example(declared, number, penalty):
    assert spends.multiple_action_penalty(declared, number) == penalty  # L204: 3, 4, 5


@given(declared=st.integers(1, 6), number=st.integers(1, 6), points=st.integers(0, 10))
def test_power_lowers_the_penalty_a_die_a_point_and_never_below_nothing(declared, number, points):
    full = spends.multiple_action_penalty(declared, number)
    after = spends.penalty_after_power(declared, number, points)
    assert after == max(full - points, 0) and 0 <= after <= full


def test_current_power_spent_on_the_penalty_comes_back_as_dice_and_off_the_pool():
    made = sheet(power_current=1)
    target = rollable(made, "attr.strength")  # 2 dice
    split = swd10.odds(target, parsed(target, actions=2, action=1))
    assert split.question.startswith("0 dice")
    eased = parsed(target, actions=2, action=1, power_actions=1)
    assert swd10.odds(target, eased).question.startswith("1 die")  # L105
    result = swd10.roll(target, eased, random.Random(2))
    assert swd10.roll_edits(target, eased, result) == {"power_current": "0"}


def test_current_power_adds_damage_dice_and_is_no_option_of_the_stamina_roll_itself():
    made = sheet(power=3, power_current=2)
    damage = rollable(made, "dmg.0")  # 3 dice
    assert swd10.odds(damage, parsed(damage, power_damage=2)).question.startswith("5 dice")  # L104
    soak = rollable(made, "soak.stamina")
    # L106: Power soaks after Stamina's result is seen, a second step (dice.power_soak).
    assert "power_soak" not in {option.key for option in swd10.roll_options(soak, READINGS)}


def test_more_power_than_is_left_is_refused_and_changes_nothing():
    made = sheet(power_current=1)
    target = rollable(made, "attr.strength")
    with pytest.raises(InvalidRoll, match="at most 1"):
        parsed(target, power_actions=2)
    with pytest.raises(InvalidRoll, match="cannot be spent that way"):
        swd10.odds(target, READINGS | {"power_damage": 1})


# --- armor penalty and soak (L185-230, L741) ----------------------------------------------

VEST = {"name": "Blast vest", "kind": "armor", "rating": 3, "lost": 0, "worn": True}
SHIELD = {"name": "Belt shield", "kind": "shield", "rating": 2, "lost": 0, "worn": True}


def test_the_armor_penalty_comes_off_dexterity_rolls_only():
    made = sheet(armor=[VEST])  # medium: −2 (L741)
    dex = rollable(made, "attr.dexterity")
    assert swd10.odds(dex, parsed(dex)).question.startswith("2 dice")  # Dexterity 4 − 2
    strength = rollable(made, "attr.strength")
    assert swd10.odds(strength, parsed(strength)).question.startswith("2 dice")  # untouched
    firearms = rollable(made, "abil.firearms")
    assert swd10.odds(firearms, parsed(firearms)).question.startswith("4 dice")  # 4 + 2 − 2
    with_wits = parsed(firearms, attribute="wits")
    assert swd10.odds(firearms, with_wits).question.startswith("4 dice")  # 2 + 2


def test_which_pools_the_penalty_reaches_is_a_reading():
    made = sheet(armor=[VEST])
    assert rollable(made, "pool.initiative").fact("armor_penalty") == 2
    narrow = resolve_settings(swd10.SETTINGS, {"armor_penalty_rolls": "dexterity_actions"})
    assert rollable(made, "pool.initiative", narrow).fact("armor_penalty") == 0
    none = resolve_settings(swd10.SETTINGS, {"armor_penalty_rolls": "none"})
    assert rollable(made, "attr.dexterity", none).fact("armor_penalty") == 0


def test_soak_rolls_for_stamina_armor_and_shield_at_difficulty_6():
    made = sheet(armor=[VEST, SHIELD])
    keys = [r.key for r in swd10.rollables(made, DEFAULTS) if r.group == "Soak"]
    assert keys == ["soak.stamina", "soak.shield", "soak.armor"]
    armor_soak = rollable(made, "soak.armor")
    assert "3 dice at difficulty 6" in swd10.odds(armor_soak, parsed(armor_soak)).question
    names = {o.key for o in swd10.roll_options(armor_soak, DEFAULTS)}
    assert "willpower" not in names  # L181: no Willpower success on a soak


@pytest.mark.parametrize(
    ("soak", "weapon", "refused"),
    [("soak.armor", "lightsaber", True), ("soak.shield", "lightsaber", False),
     ("soak.armor", "disruptor", True), ("soak.shield", "disruptor", True),
     ("soak.armor", "other", False)],
)  # fmt: skip
def test_lightsabers_pass_armor_and_disruptors_pass_both(soak, weapon, refused):
    target = rollable(sheet(armor=[VEST, SHIELD]), soak)
    options = parsed(target, weapon=weapon)
    if refused:
        with pytest.raises(InvalidRoll, match=r"soaks nothing against"):
            swd10.odds(target, options)
    else:
        swd10.odds(target, options)


def test_a_commoner_cannot_soak_lethal_damage_with_stamina():
    commoner = rollable(sheet(power=0, power_current=0), "soak.stamina")
    options = parsed(commoner)
    assert options["damage_type"] == "bashing"
    with pytest.raises(InvalidRoll, match=r"bashing damage only"):
        swd10.odds(commoner, parsed(commoner, damage_type="lethal"))


def test_a_soak_that_leaves_damage_wears_the_shield_and_writes_it():
    made = sheet(armor=[VEST, SHIELD])
    shield = rollable(made, "soak.shield")
    options = parsed(shield, incoming=5)  # two dice never soak five: the shield wears (L220)
    result = swd10.roll(shield, options, random.Random(3))
    assert any("loses a point" in d for d in result.details)
    assert swd10.roll_edits(shield, options, result) == {"armor.1.lost": "1"}


def test_armor_wears_only_when_what_is_left_exceeds_its_rating():
    made = sheet(armor=[VEST])
    vest = rollable(made, "soak.armor")
    light_hit = parsed(vest, incoming=3)  # at most 3 left, never more than rating 3
    for seed in range(20):
        result = swd10.roll(vest, light_hit, random.Random(seed))
        assert swd10.roll_edits(vest, light_hit, result) == {}


def test_an_incapacitated_character_still_soaks():
    made = sheet(health_marked=7)
    soak = rollable(made, "soak.stamina")
    assert swd10.odds(soak, parsed(soak)).question.startswith("3 dice")
    with pytest.raises(InvalidRoll, match="cannot act"):
        target = rollable(made, "attr.strength")
        swd10.odds(target, parsed(target))


def test_wounds_on_soak_is_a_reading():
    made = sheet(health_marked=4)
    soak = rollable(made, "soak.stamina")
    assert swd10.odds(soak, parsed(soak)).question.startswith("3 dice")
    hurt = parsed(soak) | {dice.WOUNDS_ON_SOAK: True}
    assert swd10.odds(soak, hurt).question.startswith("1 die")


def test_the_path_roll_says_the_degree_held_beside_the_mistakes():
    made = sheet(power=6, light_side=4)
    grade = {o.key: o for o in swd10.roll_options(rollable(made, "path.light_side"), DEFAULTS)}
    assert grade["grade"].help.startswith(
        "Grade 4 held: seeks all there is to know and looks from every side."
    )


def test_the_side_rows_name_the_grade_held_with_its_source():
    rows = {row.key: row for row in swd10.trait_rows(sheet(power=6, dark_side=6), DEFAULTS)}
    assert rows["side.dark"].note.endswith(
        "Grade 6: lets hatred end doubt and conviction bend others."
    )
    assert rows["side.dark"].source == "000:L116, 000:L164"


def test_a_destiny_point_refills_current_willpower_once_asked():
    made = swd10.apply_edit(swd10.demo_sheet(), "stage", "play", DEFAULTS)
    made["info"]["destiny_points"] = 1
    made["willpower_current"] = 0
    refilled = swd10.apply_edit(made, "destiny.refill", "yes", DEFAULTS)  # L93
    assert refilled["willpower_current"] == 3 and refilled["info"]["destiny_points"] == 0
    for again, message in (
        (refilled, "No Destiny point left"),
        (made | {"willpower_current": 3}, "already full"),
    ):
        with pytest.raises(InvalidEdit, match=message):
            swd10.apply_edit(again, "destiny.refill", "yes", DEFAULTS)


@pytest.mark.parametrize(
    ("chosen", "difficulty"), [({}, 6), ({spends.POWER_CONTEST_DIFFICULTY: 8}, 8)]
)
def test_current_power_contests_a_commoners_attack_at_the_readings_difficulty(chosen, difficulty):
    settings = resolve_settings(swd10.SETTINGS, chosen)
    contest = rollable(sheet(power=3, power_current=2), "pool.power_contest", settings)
    assert (
        f"2 dice at difficulty {difficulty}"
        in swd10.odds(contest, parsed(contest, settings)).question
    )
    keys = {r.key for r in swd10.rollables(sheet(power_current=0), DEFAULTS)}
    assert "pool.power_contest" not in keys  # L108: nothing in the pool, no contest


def test_the_destiny_points_row_names_the_uses_no_roll_has():
    rows = {row.key: row for row in swd10.trait_rows(swd10.demo_sheet(), DEFAULTS)}
    note = rows["info.destiny_points"].note
    assert note.startswith("With a roll (one a round), or for ")
    assert all(use in note for use, _source in spends.DESTINY_ELSEWHERE)
    assert rows["info.destiny_points"].source == "000:L81-94"
