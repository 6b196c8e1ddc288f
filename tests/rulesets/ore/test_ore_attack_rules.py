"""Star O.R.E. rolls of issue 27, item 10: the attack tables (L171-L185) as roll options with
their seed lines, suppressing fire (L340-L350) as a roll with exact odds checked against
brute-force enumeration, and Willpower awards (L836-L842)."""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import ore
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, parse_roll_options
from rulesets.ore import awards
from rulesets.ore.dice import Pool, read_roll, sets_distribution, suppress_hit_chance

SETTINGS = resolve_settings(ore.SETTINGS, {})


def attack(kind: str, dice_: tuple[int, int, int] = (5, 0, 0)) -> Rollable:
    facts = (("attack", kind), ("damage", "width"), ("limb_penalty", 0), ("weapon", 0))
    return Rollable("weapon.0", "Blaster attack", dice_, facts)


def offered(rollable: Rollable) -> dict:
    return {option.key: option for option in ore.roll_options(rollable, SETTINGS)}


# --- the attack tables (L171-L185) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "picked", "pool", "difficulty", "source"),
    [
        ("ranged", {"target_running": True}, Pool(5), 2, "L172"),
        ("ranged", {"attacker_running": True}, Pool(4), 0, "L173"),
        ("ranged", {"cover": "partial"}, Pool(5), 4, "L174-L175"),
        ("ranged", {"cover": "nearly_full"}, Pool(5), 6, "L174-L175"),
        ("ranged", {"obscured": True}, Pool(4), 0, "L176"),
        ("ranged", {"hidden": True}, Pool(3), 0, "L177"),
        ("melee", {"from_behind": True}, Pool(6), 0, "L180"),
        ("melee", {"surprise": True}, Pool(5, hard=1), 0, "L181"),
        ("melee", {"helpless": True}, Pool(5, wiggle=1), 0, "L182"),
        ("melee", {"from_above": True}, Pool(6), 0, "L183"),
        ("melee", {"size": "bigger"}, Pool(6), 0, "L184"),
        ("melee", {"size": "smaller"}, Pool(4), 0, "L184"),
        ("melee", {"attacker_prone": True}, Pool(4), 0, "L185"),
    ],
)
def test_each_attack_circumstance_changes_the_pool_or_difficulty_as_printed(
    kind, picked, pool, difficulty, source
):
    (key,) = picked
    rollable = attack(kind)
    assert offered(rollable)[key].source == source
    spec = read_roll(rollable, picked)
    assert (spec.pool, spec.difficulty) == (pool, difficulty)


def test_circumstances_add_up_and_are_named_in_the_odds():
    # 5d, attacker running (-1d) and smoke (-1d) at partial cover behind a runner (+4, +2).
    picked = {
        "attacker_running": True,
        "obscured": True,
        "cover": "partial",
        "target_running": True,
    }
    spec = read_roll(attack("ranged"), picked)
    assert (spec.pool, spec.difficulty) == (Pool(3), 6)
    odds = ore.odds(attack("ranged"), picked)
    assert "Ranged attack: target running +2 Difficulty" in odds.note
    # The same as asking for the dice and Difficulty by hand.
    by_hand = ore.odds(attack("ranged"), {"penalty": 2, "difficulty": 6})
    assert odds.success == by_hand.success


def test_a_difficulty_past_ten_leaves_no_height_and_says_so():
    odds = ore.odds(attack("ranged"), {"difficulty": 6, "cover": "nearly_full"})
    assert odds.success == 0
    assert "Difficulty 12: no height reaches it." in odds.note


@pytest.mark.parametrize(
    ("kind", "has", "lacks"),
    [
        ("ranged", {"target_running", "cover", "hidden"}, {"from_behind", "size"}),
        ("melee", {"from_behind", "surprise", "size"}, {"cover", "target_running"}),
        ("any", {"cover", "from_behind"}, set()),
    ],
)
def test_an_attack_offers_the_table_of_its_kind(kind, has, lacks):
    keys = set(offered(attack(kind)))
    assert has <= keys
    assert not lacks & keys


def test_a_roll_that_is_no_attack_offers_no_circumstance():
    sheet = ore.demo_sheet()
    found = {r.key: r for r in ore.rollables(sheet, SETTINGS)}
    assert "cover" not in offered(found["skill.dodge"])
    assert "cover" in offered(found["weapon.1"])  # the hold-out blaster
    assert "from_behind" in offered(found["weapon.0"])  # the lightsaber
    assert "from_behind" in offered(found["skill.lightsaber"])


def test_ranged_and_hand_to_hand_circumstances_do_not_mix():
    with pytest.raises(InvalidRoll) as refused:
        ore.odds(attack("any"), {"cover": "partial", "from_behind": True})
    assert refused.value.option == "from_behind"
    assert "ranged or hand-to-hand" in refused.value.message


def test_a_circumstance_the_table_does_not_print_is_refused():
    with pytest.raises(InvalidRoll) as refused:
        parse_roll_options(ore.roll_options(attack("ranged"), SETTINGS), {"cover": "a wall"})
    assert refused.value.option == "cover"


# --- suppressing fire (L340-L350) ---------------------------------------------------------------


@pytest.mark.parametrize("count", range(0, 6))
def test_the_number_of_sets_equals_brute_force_enumeration(count):
    seen = Counter(
        sum(1 for n in Counter(faces).values() if n >= 2)
        for faces in itertools.product(range(1, 11), repeat=count)
    )
    assert sets_distribution(count) == tuple(seen[s] for s in range(count // 2 + 1))


def brute_hit(count: int, targets: int) -> Fraction:
    """Every attacker roll, then every die each target rolls (one per set)."""
    hit = Fraction(0)
    for faces in itertools.product(range(1, 11), repeat=count):
        heights = [f for f, n in Counter(faces).items() if n >= 2]
        weight = Fraction(1, 10**count)
        if not heights:
            continue
        target_faces = itertools.product(range(1, 11), repeat=len(heights) * targets)
        outcomes = 10 ** (len(heights) * targets)
        struck = sum(
            any(die == heights[i % len(heights)] for i, die in enumerate(rolled))
            for rolled in target_faces
        )
        hit += weight * Fraction(struck, outcomes)
    return hit


@pytest.mark.parametrize(("count", "targets"), [(2, 1), (3, 1), (2, 2), (4, 1), (3, 2)])
def test_the_chance_a_target_is_hit_equals_brute_force_enumeration(count, targets):
    assert suppress_hit_chance(count, targets) == brute_hit(count, targets)


def test_two_dice_suppress_one_roll_in_ten_and_hit_a_target_one_in_a_hundred():
    sheet = ore.demo_sheet()
    found = {r.key: r for r in ore.rollables(sheet, SETTINGS)}
    fire = found["suppress.1"]  # the hold-out blaster: a flat 2d (L344)
    assert fire.source == "L340-L350"
    odds = ore.odds(fire, {"targets": 3})
    assert odds.success == Fraction(1, 10)
    one, three = odds.beside
    assert (one.chance, one.source) == (Fraction(1, 100), "L344-L346")
    assert three.chance == Fraction(1, 10) * (1 - Fraction(9, 10) ** 3)


def test_a_spray_weapon_adds_its_rating_to_the_pool():  # L346
    sheet = copy.deepcopy(ore.demo_sheet())
    sheet["weapons"].append(
        {"from": "light_repeating_blaster", "name": "Repeater", "damage": "width+2",
         "penetration": 2, "initiative": 0, "special": "Spray 2"}
    )  # fmt: skip
    found = {r.key: r for r in ore.rollables(sheet, SETTINGS)}
    odds = ore.odds(found["suppress.2"], {})
    assert odds.success == 1 - Fraction(10 * 9 * 8 * 7, 10**4)
    assert "Spray 2" in odds.note


def test_the_lightsaber_lays_down_no_suppressing_fire():
    keys = {r.key for r in ore.rollables(ore.demo_sheet(), SETTINGS)}
    assert "suppress.0" not in keys


def test_two_blasters_need_two_weapon_fighting_at_least_the_weapon_skill():  # L350
    sheet = copy.deepcopy(ore.demo_sheet())
    fire = {r.key: r for r in ore.rollables(sheet, SETTINGS)}["suppress.1"]
    with pytest.raises(InvalidRoll) as refused:
        ore.odds(fire, {"two_blasters": True})
    assert refused.value.option == "two_blasters"
    assert "Two-Weapon Fighting 0d is below the weapon skill's 2d" in refused.value.message
    sheet["skills"].append(
        {"id": "twf", "skill": "two_weapon_fighting", "name": "Two-Weapon Fighting",
         "specialty": "", "stat": "coordination", "dice": 2, "free": 0}
    )  # fmt: skip
    fire = {r.key: r for r in ore.rollables(sheet, SETTINGS)}["suppress.1"]
    assert ore.odds(fire, {"two_blasters": True}).success == Fraction(28, 100)  # 3d


def test_suppressing_fire_takes_no_attack_modifiers_and_refuses_bad_targets():
    fire = {r.key: r for r in ore.rollables(ore.demo_sheet(), SETTINGS)}["suppress.1"]
    assert set(offered(fire)) == {"two_blasters", "targets"}
    with pytest.raises(InvalidRoll) as refused:
        parse_roll_options(ore.roll_options(fire, SETTINGS), {"targets": "0"})
    assert refused.value.option == "targets"


def test_a_suppressing_roll_rolls_each_targets_die_per_set():
    fire = {r.key: r for r in ore.rollables(ore.demo_sheet(), SETTINGS)}["suppress.1"]
    matched = 0
    for seed in range(200):
        result = ore.roll(fire, {"targets": 2}, random.Random(seed))
        facts = dict(result.facts)
        attacker = result.dice[:2]
        assert facts["sets"] == (attacker[0] == attacker[1])
        if facts["sets"]:
            matched += 1
            assert len(result.dice) == 4 and len(result.details) == 2
            hits = sum(die == attacker[0] for die in result.dice[2:])
            assert facts["targets_hit"] == hits
        else:
            assert result.details == () and result.outcome == "failure"
    assert matched


@settings(max_examples=40, deadline=None)
@given(count=st.integers(0, 10), targets=st.integers(1, 9))
def test_more_targets_are_more_likely_to_see_a_hit_but_never_more_than_a_set(count, targets):
    one, more = suppress_hit_chance(count, targets), suppress_hit_chance(count, targets + 1)
    assert 0 <= one <= more <= 1 - Fraction(sets_distribution(count)[0], 10**count)


# --- Willpower awards (L836-L842) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "cool", "command", "points"),
    [
        (awards.GOAL, None, None, 1),  # L840
        (awards.LIFE_OR_ENEMY, "3", "2", 5),  # L842: Cool + Command dice
        (awards.LIFE_OR_ENEMY, "0", "4", 4),
    ],
)
def test_a_willpower_award_gives_what_the_seed_prints(kind, cool, command, points):
    assert awards.willpower_award(kind, cool=cool, command=command) == points


def test_the_subjects_dice_are_read_from_its_sheet():
    assert awards.subject_dice(ore.demo_sheet()) == (3, 2)


@pytest.mark.parametrize(
    ("kind", "cool", "command", "field"),
    [
        ("saved_a_cat", None, None, "award"),
        (awards.LIFE_OR_ENEMY, "three", "2", "cool"),
        (awards.LIFE_OR_ENEMY, "2", "-1", "command"),
        (awards.LIFE_OR_ENEMY, "0", "0", "cool"),
    ],
)
def test_a_bad_award_is_refused_naming_the_field(kind, cool, command, field):
    with pytest.raises(InvalidEdit) as refused:
        awards.willpower_award(kind, cool=cool, command=command)
    assert refused.value.trait == field and refused.value.message


def test_an_award_may_carry_current_willpower_above_base():  # L838
    sheet = ore.demo_sheet()
    before = ore.derived(sheet, SETTINGS)["willpower"]
    edits = awards.award_edits(sheet, SETTINGS, 5)
    for trait, raw in edits.items():
        sheet = ore.apply_edit(sheet, trait, raw, SETTINGS)
    after = ore.derived(sheet, SETTINGS)["willpower"]
    assert after["current"] == before["current"] + 5
    assert after["current"] > after["base"]
