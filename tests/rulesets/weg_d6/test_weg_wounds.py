"""WEG wounds from the seeds' numbers: R&E stabilising (002:559), stun (002:561) and rest
(002:565); 1E's damage summary (003:472), stun (003:433-448), medpacs (003:2695-2698, 464)
and the mortal wound roll (003:2125), its odds against the 36 throws counted by hand."""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.rolls import InvalidRoll
from rulesets.weg_d6 import wounds

SETTINGS = resolve_settings(weg.SETTINGS, {})


def sheet(edition: str, wound: str) -> dict:
    found = copy.deepcopy(weg.demo_sheet())
    found["edition"], found["wound"] = edition, wound
    return found


@pytest.mark.parametrize(
    ("chart", "result"),
    [
        ("healthy", "healthy"),
        ("stunned", "stunned"),
        ("wounded", "unconscious"),
        ("wounded_twice", "unconscious"),
        ("incapacitated", "unconscious"),
        ("mortally_wounded", "unconscious"),
        ("killed", "unconscious"),
    ],
)
def test_in_r_and_e_a_stun_weapon_knocks_out_instead_of_anything_worse_than_stunned(chart, result):
    assert wounds.stun_result_re(chart) == result


@pytest.mark.parametrize(
    ("damage", "strength", "stun", "wound", "stuns", "unconscious"),
    [
        (4, 10, False, None, 0, False),  # 2xDR < SR: nothing at all (003:452)
        (5, 10, False, None, 1, False),  # DR < SR: stun -1D
        (5, 10, True, None, 0, False),  # on stun: no effect
        (10, 10, False, "wounded", 0, False),  # DR >= SR
        (10, 10, True, None, 1, False),  # -1D
        (20, 10, False, "incapacitated", 0, False),  # DR >= 2xSR
        (20, 10, True, None, 2, False),  # 2D
        (30, 10, False, "mortally_wounded", 0, False),  # DR >= 3xSR
        (30, 10, True, None, 0, True),  # unconscious
    ],
)
def test_the_1e_damage_summary(damage, strength, stun, wound, stuns, unconscious):
    hit = wounds.hit_1e(damage, strength, stun=stun)
    assert (hit.wound, hit.stuns, hit.unconscious) == (wound, stuns, unconscious)


@pytest.mark.parametrize(("damage", "strength"), [(-1, 5), (5, "x"), (True, 5)])
def test_a_hit_without_whole_totals_is_refused(damage, strength):
    with pytest.raises(InvalidEdit):
        wounds.hit_1e(damage, strength, stun=False)


@pytest.mark.parametrize(
    ("edition", "current", "hit", "after"),
    [
        ("1e", "healthy", "wounded", "wounded"),
        ("1e", "wounded", "wounded", "incapacitated"),  # 003:1840
        ("2e_re", "wounded", "wounded", "wounded_twice"),  # 002:555
        ("2e_re", "wounded_twice", "wounded", "incapacitated"),  # 002:557
        ("2e_re", "incapacitated", "wounded", "mortally_wounded"),
        ("1e", "mortally_wounded", "wounded", "mortally_wounded"),
        ("1e", "wounded", None, "wounded"),
    ],
)
def test_a_wound_on_a_wound(edition, current, hit, after):
    assert wounds.worse_wound(current, hit, edition) == after


@pytest.mark.parametrize(
    ("stuns", "dexterity", "stamina", "immobile", "unconscious"),
    [
        (0, 3, 3, False, False),
        (3, 3, 4, True, False),
        (2, 3, 4, False, False),
        (4, 3, 4, True, True),
    ],
)
def test_1e_stuns_against_dexterity_and_stamina_dice(
    stuns, dexterity, stamina, immobile, unconscious
):
    # 003:446: a 3D stun total immobilises a Gambler with Dexterity 3D+2.
    state = wounds.stun_state_1e(stuns, dexterity, stamina)
    assert (state.penalty_dice, state.immobile, state.unconscious) == (stuns, immobile, unconscious)


@pytest.mark.parametrize(
    ("wound", "used", "point", "difficulty"),
    [("wounded", 0, None, 6), ("wounded", 0, 9, 9), ("incapacitated", 1, None, 14),
     ("mortally_wounded", 2, 20, 26)],
)  # fmt: skip
def test_the_1e_medpac_difficulty(wound, used, point, difficulty):
    assert wounds.medpac_difficulty(wound, used, point) == difficulty


@pytest.mark.parametrize(
    ("wound", "used", "point"), [("healthy", 0, None), ("wounded", 0, 11), ("wounded", -1, None)]
)
def test_a_medpac_outside_its_scale_is_refused(wound, used, point):
    with pytest.raises(InvalidEdit):
        wounds.medpac_difficulty(wound, used, point)


# The 36 throws of 2D reaching each total, counted: 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 ways.
WAYS_AT_LEAST = {2: 36, 3: 35, 4: 33, 5: 30, 6: 26, 7: 21, 8: 15, 9: 10, 10: 6, 11: 3, 12: 1}


@pytest.mark.parametrize("rounds", range(1, 15))
def test_the_mortal_wound_roll_lives_on_2d_at_least_the_rounds(rounds):
    ways = 36 if rounds <= 2 else WAYS_AT_LEAST.get(rounds, 0)
    assert wounds.mortal_survival(rounds) == Fraction(ways, 36)


def test_the_mortal_roll_is_on_the_roll_panel_only_while_mortally_wounded_in_1e():
    keys = {r.key for r in weg.rollables(sheet("1e", "mortally_wounded"), SETTINGS)}
    assert wounds.MORTAL_KEY in keys
    assert wounds.MORTAL_KEY not in {r.key for r in weg.rollables(sheet("1e", "wounded"), SETTINGS)}
    re_keys = {r.key for r in weg.rollables(sheet("2e_re", "healthy"), SETTINGS)}
    assert wounds.STUN_MINUTES_KEY in re_keys and wounds.MORTAL_KEY not in re_keys


def test_the_mortal_rolls_odds_and_roll_agree():
    mortal = next(
        r for r in weg.rollables(sheet("1e", "mortally_wounded"), SETTINGS)
        if r.key == wounds.MORTAL_KEY
    )  # fmt: skip
    odds = weg.odds(mortal, {"rounds": 8})
    assert odds.success == Fraction(15, 36) == sum(b.chance for b in odds.bars if b.success)
    rng = random.Random(5)
    for _ in range(50):
        result = weg.roll(mortal, {"rounds": 8}, rng)
        assert result.success is (result.total >= 8)
    with pytest.raises(InvalidRoll):
        weg.odds(mortal, {"rounds": 0})


def test_the_stun_minutes_are_2d():
    knocked = next(
        r for r in weg.rollables(sheet("2e_re", "healthy"), SETTINGS)
        if r.key == wounds.STUN_MINUTES_KEY
    )  # fmt: skip
    bars = weg.odds(knocked, {}).bars
    assert bars[0].label == "2 minutes" and sum(b.chance for b in bars) == 1
    assert 2 <= weg.roll(knocked, {}, random.Random(2)).total <= 12


@pytest.mark.parametrize(
    ("edition", "wound", "sources"),
    [
        ("2e_re", "mortally_wounded", {"002:559", "002:561"}),
        ("2e_re", "wounded_twice", {"002:565", "002:561"}),
        ("2e_re", "healthy", {"002:561"}),
        ("1e", "mortally_wounded", {"003:2125", "003:2695-2698, 003:464", "003:433-448"}),
        ("1e", "wounded", {"003:2695-2698, 003:464", "003:433-448"}),
    ],
)
def test_the_wound_track_offers_what_the_level_allows(edition, wound, sources):
    assert {item.source for item in wounds.advice(sheet(edition, wound))} == sources


@pytest.mark.parametrize(
    ("before", "rolls", "after"),
    [
        ("healthy", "4|10", "healthy"),  # twice the damage below Strength: nothing (003:452)
        ("healthy", "6|10", "stunned"),  # below Strength: stunned
        ("healthy", "10|10", "wounded"),
        ("stunned", "10|10", "wounded"),
        ("wounded", "12|10", "incapacitated"),  # a second wound (003:1840)
        ("healthy", "20|10", "incapacitated"),
        ("wounded", "30|10", "mortally_wounded"),
        ("incapacitated", "10|10", "mortally_wounded"),
        ("wounded", "6|10", "wounded"),
    ],
)
def test_a_1e_hit_marks_the_track_by_the_damage_summary(before, rolls, after):
    hurt = sheet("1e", before)
    assert weg.apply_edit(hurt, "wound.hit", rolls, SETTINGS)["wound"] == after


@pytest.mark.parametrize(("edition", "rolls"), [("1e", "12"), ("1e", "x|3"), ("2e_re", "12|10")])
def test_a_hit_without_two_rolls_or_outside_1e_is_refused(edition, rolls):
    with pytest.raises(InvalidEdit):
        weg.apply_edit(sheet(edition, "healthy"), "wound.hit", rolls, SETTINGS)
