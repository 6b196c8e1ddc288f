"""WEG d6 rules a roll meets at the table (issue 27, items 4, 5 and 6): the Character Points a
roll takes by what it is for (002:483-489), the Wild Die's complication beside the chance of
success under each reading (002:420-424), and a 1E power not yet mastered at +5 difficulty
(003:1802-1804). Odds are checked against brute-force enumeration on small codes."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import weg_d6
from rulesets.core import resolve_settings
from rulesets.core.rolls import InvalidRoll, Rollable, dice_readings, parse_roll_options
from rulesets.weg_d6 import dice
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE
from rulesets.weg_d6.dice import Spec, complication_chances, purposes_for, read_roll

DEFAULTS = resolve_settings(weg_d6.SETTINGS, {})


def rollable(
    key: str = "skill.blaster",
    pips: int = 12,
    *,
    edition: str = EDITION_RE,
    custom: bool = False,
    points: int = 10,
) -> Rollable:
    facts = {
        "edition": edition,
        "can_act": True,
        "wound": "Healthy",
        "wound_dice": 0,
        "character_points": points,
        "force_points": 1,
        "purposes": purposes_for(key, custom=custom),
        "specialization": key.startswith("spec."),
    }
    return Rollable(key, key.partition(".")[2].replace("_", " ").capitalize(), pips,
                    tuple(sorted(facts.items())))  # fmt: skip


def chosen(wild_one: str = "complication", cp_die: str = "wild", **picked) -> dict:
    readings = resolve_settings(weg_d6.SETTINGS, {dice.WILD_ONE: wild_one, dice.CP_DIE: cp_die})
    return dice_readings(readings, weg_d6.DICE_READINGS) | picked


def form(found: Rollable, **raw: str) -> dict:
    """What the roll page does with a form: parse against the options offered, add readings."""
    return parse_roll_options(weg_d6.roll_options(found, DEFAULTS), raw) | chosen()


# --- item 4: Character Points per roll, by what the roll is for (002:483-489) -------------


@pytest.mark.parametrize(
    ("key", "purpose", "most"),
    [
        ("skill.blaster", "use", 2),  # 002:483: a skill use, attacks included
        ("attr.strength", "use", 2),  # 002:483: an attribute use
        ("attr.dexterity", "use", 2),
        ("attr.dexterity", "dodge", 5),  # 002:485
        ("attr.dexterity", "parry", 5),  # 002:485
        ("skill.dodge", "dodge", 5),  # 002:485: dodging
        ("skill.melee_parry", "parry", 5),  # 002:485: parrying
        ("skill.brawling_parry", "parry", 5),
        ("skill.lightsaber", "use", 2),  # a lightsaber attack is a use
        ("skill.lightsaber", "parry", 5),  # 002:485: lightsaber parries
        ("skill.starship_piloting", "dodge", 5),  # 002:485: starship dodges
        ("skill.repulsorlift_operation", "dodge", 5),  # 002:485: vehicle dodges
        ("skill.starship_piloting", "use", 2),
        ("attr.perception", "resist_force", 5),  # 002:485: Perception against a power
        ("force.control", "resist_force", 5),  # 002:485: control against a power
        ("force.control", "use", 2),
        ("spec.blaster_pistol", "use", 5),  # 002:485: specializations
    ],
)
def test_a_roll_takes_as_many_character_points_as_its_purpose_allows(key, purpose, most):
    found = rollable(key)
    spec = read_roll(found, chosen(purpose=purpose, character_points=most))
    assert spec.cp_dice == most
    with pytest.raises(InvalidRoll) as refused:
        read_roll(found, chosen(purpose=purpose, character_points=most + 1))
    assert refused.value.option == "character_points"
    assert f"at most {most}" in refused.value.message.lower()


@pytest.mark.parametrize(
    ("key", "offered"),
    [
        ("skill.blaster", None),  # one purpose: nothing to choose
        ("skill.dodge", None),
        ("spec.blaster_pistol", None),  # 5 whatever it is for
        ("attr.dexterity", ("use", "dodge", "parry")),
        ("attr.perception", ("use", "resist_force")),
        ("force.control", ("use", "resist_force")),
        ("skill.lightsaber", ("use", "parry")),
    ],
)
def test_the_roller_says_what_the_roll_is_for_where_the_limit_depends_on_it(key, offered):
    options = {option.key: option for option in weg_d6.roll_options(rollable(key), DEFAULTS)}
    if offered is None:
        assert "purpose" not in options
    else:
        assert tuple(value for value, _label in options["purpose"].choices) == offered
        assert options["purpose"].source == "002:483-485"
        assert options["character_points"].maximum == 5


def test_a_dodge_skill_takes_five_without_choosing_and_says_so():
    options = {o.key: o for o in weg_d6.roll_options(rollable("skill.dodge"), DEFAULTS)}
    assert options["character_points"].maximum == 5
    assert "Up to 5 on a dodge" in options["character_points"].help


def test_a_custom_skill_may_be_a_use_a_dodge_or_a_parry():
    found = rollable("skill.swoop_dodge", custom=True)
    assert found.fact("purposes") == ("use", "dodge", "parry")
    assert read_roll(found, chosen(purpose="dodge", character_points=5)).cp_dice == 5


def test_a_purpose_the_rule_does_not_know_is_refused_with_the_purposes_it_knows():
    found = rollable("attr.dexterity")
    with pytest.raises(InvalidRoll) as refused:
        parse_roll_options(weg_d6.roll_options(found, DEFAULTS), {"purpose": "sneeze"})
    assert refused.value.option == "purpose"
    assert "choose one of" in refused.value.message
    with pytest.raises(InvalidRoll) as refused:
        read_roll(found, chosen(purpose="sneeze"))
    assert refused.value.option == "purpose"


def test_a_purpose_the_trait_is_not_rolled_for_is_refused_by_name():
    with pytest.raises(InvalidRoll) as refused:
        weg_d6.odds(rollable("skill.astrogation"), chosen(purpose="dodge", character_points=5))
    assert refused.value.option == "purpose"
    assert "Astrogation is not rolled for a dodge" in refused.value.message


def test_character_points_and_a_force_point_never_share_a_round():  # 002:487
    with pytest.raises(InvalidRoll, match="not both"):
        read_roll(rollable("skill.dodge"), chosen(character_points=1, force_point=True))


def test_first_edition_spends_no_character_points_on_a_roll():
    found = rollable("skill.dodge", edition=EDITION_1E)
    assert "character_points" not in {o.key for o in weg_d6.roll_options(found, DEFAULTS)}
    with pytest.raises(InvalidRoll, match="1st edition"):
        read_roll(found, chosen(character_points=1))


def test_the_sheet_rollables_carry_their_purposes():
    sheet = copy.deepcopy(weg_d6.demo_sheet())
    sheet["stage"] = "play"
    found = {r.key: r for r in weg_d6.rollables(sheet, DEFAULTS)}
    assert found["attr.dexterity"].fact("purposes") == ("use", "dodge", "parry")
    assert found["attr.knowledge"].fact("purposes") == ("use",)
    assert found["skill.dodge"].fact("purposes") == ("dodge",)


def test_the_roll_says_what_its_character_points_were_for():
    result = weg_d6.roll(
        rollable("attr.dexterity"),
        form(rollable("attr.dexterity"), purpose="parry", character_points="4"),
        random.Random(3),
    )
    assert "Character Points for: a parry (a lightsaber's too)" in result.details
    assert weg_d6.roll_ledger_spend(rollable("attr.dexterity"), {"character_points": 4}) == 4


def test_the_unwired_copy_of_the_rule_is_gone():
    from rulesets.weg_d6 import data, rules

    assert not hasattr(rules, "roll_spend_problems")
    assert not hasattr(data, "CP_LIMIT_PER_ROLL")


# --- item 5: the Wild Die's complication (002:420-424) ------------------------------------


def brute_complication(spec: Spec) -> tuple[Fraction, Fraction]:
    """Enumerate every face: the normal dice, the plain Character Point dice, the Wild Die's
    first face, then each open-ended Character Point die face by face until the total is
    sure to pass. Returns P(first Wild Die face is 1) and P(that and total ≥ difficulty)."""
    normal = spec.dice - 1
    open_count = spec.cp_dice if spec.cp_wild else 0
    plain = 0 if spec.cp_wild else spec.cp_dice

    def chains(total: int, left: int) -> Fraction:
        if left == 0 or total >= spec.difficulty:
            return Fraction(int(total >= spec.difficulty))
        chance = Fraction(0)
        for face in range(1, 7):
            again = face == 6  # rolled again: as many dice still to go
            chance += Fraction(1, 6) * chains(total + face, left if again else left - 1)
        return chance

    one = succeeds = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=normal + plain + 1):
        weight = Fraction(1, 6 ** len(faces))
        if faces[-1] != 1:  # the last face is the Wild Die's first
            continue
        one += weight
        succeeds += weight * chains(sum(faces) + spec.pips, open_count)
    return one, succeeds


SMALL = [
    Spec(n, pips, True, "complication", cp, cp_wild, difficulty)
    for n in (1, 2, 3)
    for pips in (0, 2)
    for cp, cp_wild in ((0, True), (1, True), (2, True), (1, False))
    for difficulty in (1, 4, 9, 15, 22)
]


@pytest.mark.parametrize("spec", SMALL, ids=str)
def test_the_complication_odds_equal_brute_force_enumeration(spec):
    assert complication_chances(spec) == brute_complication(spec)


@pytest.mark.parametrize(
    ("reading", "labels", "chances"),
    [
        (
            "complication",
            ("A complication (a 1 on the Wild Die)", "Success with a complication"),
            None,
        ),
        (
            "subtract",
            (
                "A complication: none under this reading",
                "A 1 on the Wild Die, taken off with the highest die",
            ),
            (Fraction(0), Fraction(1, 6)),
        ),
        ("count", ("A complication: none under this reading (a 1 counts)",), (Fraction(0),)),
    ],
)
def test_the_odds_show_the_complication_beside_success_under_each_reading(reading, labels, chances):
    odds = weg_d6.odds(rollable(pips=9), chosen(reading, difficulty=10))
    assert tuple(side.label for side in odds.beside) == labels
    assert all(side.source == "002:422" for side in odds.beside)
    if chances is not None:
        assert tuple(side.chance for side in odds.beside) == chances


def test_three_dice_against_ten_have_a_complication_one_roll_in_six_and_its_success_exactly():
    # 3D: two normal dice and the Wild Die showing 1; 2d6 + 1 ≥ 10 needs 9+ on 2d6: 10 of 36.
    odds = weg_d6.odds(rollable(pips=9), chosen("complication", difficulty=10))
    complication, with_success = (side.chance for side in odds.beside)
    assert complication == Fraction(1, 6)
    assert with_success == Fraction(1, 6) * Fraction(10, 36)
    assert with_success < odds.success


def test_first_edition_has_no_wild_die_and_no_complication_line():
    assert weg_d6.odds(rollable(pips=9, edition=EDITION_1E), chosen(difficulty=10)).beside == ()


@settings(max_examples=60, deadline=None)
@given(
    pips=st.integers(3, 45),
    difficulty=st.integers(1, 60),
    cp=st.integers(0, 2),
    cp_die=st.sampled_from(["wild", "plain"]),
)
def test_success_with_a_complication_is_a_part_of_both_chances(pips, difficulty, cp, cp_die):
    odds = weg_d6.odds(
        rollable(pips=pips),
        chosen("complication", cp_die, difficulty=difficulty, character_points=cp),
    )
    complication, with_success = (side.chance for side in odds.beside)
    assert complication == Fraction(1, 6)
    assert 0 <= with_success <= min(complication, odds.success)


def test_a_complication_rolled_is_in_the_details_and_the_facts():
    found = rollable(pips=6)
    seen = False
    for seed in range(60):
        result = weg_d6.roll(found, chosen("complication"), random.Random(seed))
        if result.dice[1] == 1:  # the Wild Die's first face follows the one normal die
            assert "Wild Die 1: a complication" in result.details
            assert dict(result.facts)["complication"] is True
            seen = True
    assert seen


# --- item 6, in part: a 1E power not yet mastered (003:1802-1804) --------------------------


@pytest.mark.parametrize("key", ["force.control", "force.sense", "force.alter"])
def test_a_first_edition_force_skill_offers_the_unmastered_power_with_its_source(key):
    options = {o.key: o for o in weg_d6.roll_options(rollable(key, edition=EDITION_1E), DEFAULTS)}
    assert options["unmastered"].source == "003:1802-1804"
    assert options["unmastered"].kind == "flag"


@pytest.mark.parametrize(("difficulty", "as_rolled"), [(10, 15), (15, 20), (21, 26)])
def test_a_power_not_yet_mastered_adds_five_to_the_difficulty(difficulty, as_rolled):
    found = rollable("force.sense", 9, edition=EDITION_1E)
    plain = read_roll(found, chosen(difficulty=difficulty))
    unmastered = read_roll(found, chosen(difficulty=difficulty, unmastered=True))
    assert (plain.difficulty, unmastered.difficulty) == (difficulty, as_rolled)
    odds = weg_d6.odds(found, chosen(difficulty=difficulty, unmastered=True))
    assert odds.success == weg_d6.odds(found, chosen(difficulty=as_rolled)).success
    assert "+5 for a power not yet mastered" in odds.note


@pytest.mark.parametrize(
    ("key", "edition"),
    [("skill.blaster", EDITION_1E), ("force.sense", EDITION_RE)],
)
def test_the_unmastered_power_is_refused_where_the_rule_does_not_apply(key, edition):
    found = rollable(key, edition=edition)
    assert "unmastered" not in {o.key for o in weg_d6.roll_options(found, DEFAULTS)}
    with pytest.raises(InvalidRoll) as refused:
        weg_d6.odds(found, chosen(unmastered=True))
    assert refused.value.option == "unmastered"
