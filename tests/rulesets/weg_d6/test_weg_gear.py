"""WEG weapons and gear from the seeds' numbers: the 1E melee chart (003:2694-2706) and the
equipment 003 describes (003:1082-1120) as built-in entries; the combat ranges as a roll
option (003:2680-2684, point-blank under 3 m, 003:2706); a lightsaber's damage with Control
(003:2706); availability fees (003:1076-1078); improving a weapon or armor (1E 003:1006-1070,
the digest's cases S4 and S5; R&E 002:372-395)."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.rolls import InvalidRoll, parse_roll_options
from rulesets.weg_d6 import gear
from rulesets.weg_d6.dice import read_roll

SETTINGS = resolve_settings(weg.SETTINGS, {})
BUILT = {(e.kind, e.data["name"]): e for e in weg.builtin_entries()}


@pytest.mark.parametrize(
    ("name", "damage", "adds", "difficulty", "source"),
    [
        ("Hands", 0, True, "very_easy", "003:2702"),
        ("Gaderffii", 3, True, "very_easy", "003:2703"),
        ("Spear", 4, True, "easy", "003:2703"),
        ("Vibroaxe", 6, True, "moderate", "003:2704"),
        ("Vibroblade", 5, True, "moderate", "003:2704"),
        ("Lightsaber", 15, False, "difficult", "003:2705-2706"),
    ],
)
def test_the_melee_chart_is_built_in(name, damage, adds, difficulty, source):
    entry = BUILT[("weapon", name)]
    assert (entry.data["damage"], entry.data["adds_strength"]) == (damage, adds)
    assert (entry.data["difficulty"], entry.source) == (difficulty, source)


@pytest.mark.parametrize(
    "name",
    ["Macrobinoculars", "Pocket computer (datapad)", "Recording rod", "Emergency space suit",
     "Utility space suit", "High-quality space suit", "Syntherope", "Glow rod", "Chronometer",
     "Breath mask"],
)  # fmt: skip
def test_the_equipment_003_describes_is_built_in_with_its_line(name):
    entry = BUILT[("equipment", name)]
    assert entry.source.startswith("003:1") and entry.data["description"]


def _sheet(**changes) -> dict:
    sheet = copy.deepcopy(weg.demo_sheet())
    sheet.update(changes)
    return sheet


def _rollable(sheet: dict, key: str):
    return next(r for r in weg.rollables(sheet, SETTINGS) if r.key == key)


@pytest.mark.parametrize(
    ("range_", "asked", "difficulty"),
    [("", 10, 10), ("point_blank", 10, 3), ("point_blank", 4, 4), ("short", 10, 10),
     ("medium", 10, 11), ("long", 18, 18), ("long", 25, 16)],
)  # fmt: skip
def test_a_range_sets_the_difficulty_inside_its_band(range_, asked, difficulty):
    blaster = _rollable(_sheet(), "skill.blaster")
    chosen = parse_roll_options(
        weg.roll_options(blaster, SETTINGS), {"range": range_, "difficulty": str(asked)}
    )
    assert read_roll(blaster, chosen).difficulty == difficulty


def test_only_ranged_skills_take_a_range():
    keys = {o.key for o in weg.roll_options(_rollable(_sheet(), "attr.dexterity"), SETTINGS)}
    assert "range" not in keys
    with pytest.raises(InvalidRoll):
        read_roll(_rollable(_sheet(), "attr.dexterity"), {"range": "short"})


def test_a_lightsaber_adds_the_wielders_control_to_its_damage():
    sheet = _sheet(weapons=[{"name": "Lightsaber", "damage": "5D", "range": "", "ammo": ""}])
    sheet["force"]["control"] = 7
    damage = _rollable(sheet, "weapon.0.damage")
    assert damage.dice == 15 + 7 and damage.source == "003:2706"
    sheet["force"]["control"] = 0
    assert _rollable(sheet, "weapon.0.damage").dice == 15


@pytest.mark.parametrize(
    ("code", "price", "percent", "fee"),
    [("F", 1000, None, 50), ("2, R", 1000, None, 100), ("R", 1000, 100, 1000), ("F", 200, 15, 30)],
)
def test_an_availability_code_asks_its_fee(code, price, percent, fee):
    assert gear.availability_fee(code, price, percent).credits == fee


def test_a_code_without_f_or_r_asks_no_fee_and_a_fee_outside_the_range_is_refused():
    assert gear.availability_fee("2", 1000) is None
    with pytest.raises(InvalidEdit):
        gear.availability_fee("F", 1000, 20)


@given(price=st.integers(0, 10**7), percent=st.integers(1, 15))
def test_a_fee_is_its_percentage_exactly(price, percent):
    assert gear.availability_fee("F", price, percent).credits == Fraction(price * percent, 100)


def test_the_fourth_pip_on_a_blaster_is_the_digests_case_s4():
    step = gear.weapon_improvement_1e("5D", "4D")
    assert (step.skill_points, step.credits, step.time, step.technology) == (
        5, 50, "1 day", "Difficult"
    )  # fmt: skip


def test_a_melee_weapon_improves_its_own_code_not_strength():
    step = gear.weapon_improvement_1e("STR+1D+2", "STR+1D+2")
    assert (step.skill_points, step.technology) == (1, "Very Easy")


def test_armor_with_dexterity_cancelled_is_the_digests_case_s5():
    total = 0
    for already, code in enumerate(("1D", "1D+1")):
        armor, dexterity = gear.armor_improvement_1e(code, already=already, cancel_dexterity=True)
        total += armor.skill_points + dexterity
    assert total == 16


@pytest.mark.parametrize(
    ("level", "increase", "percent", "difficulty"),
    [(1, "+1", 15, "Easy"), (3, "+1D", 30, "Difficult"), (5, "+1D+2", 50, "Heroic")],
)
def test_an_r_and_e_weapon_modification_is_a_share_of_its_value(
    level, increase, percent, difficulty
):
    step = gear.weapon_modification_re(level, 2000)
    assert (step.increase, step.percent, step.difficulty) == (increase, percent, difficulty)
    assert step.credits == 2000 * percent // 100
    with pytest.raises(InvalidEdit):
        gear.weapon_modification_re(6, 2000)


@given(stock=st.integers(0, 20), added=st.integers(0, 8))
def test_each_pip_costs_the_codes_dice_and_the_roll_never_eases(stock, added):
    from rulesets.core import DieCode

    base = str(DieCode.from_pips(stock))
    first = gear.weapon_improvement_1e(str(DieCode.from_pips(stock + added)), base)
    assert first.skill_points == max(DieCode.from_pips(stock + added).dice, 1)
    assert first.credits == 10 * first.skill_points
    if added:
        before = gear.weapon_improvement_1e(str(DieCode.from_pips(stock + added - 1)), base)
        order = ("Very Easy", "Easy", "Moderate", "Difficult", "Very Difficult")
        assert order.index(first.technology) >= order.index(before.technology)


@pytest.mark.parametrize(
    ("damage", "stock", "value", "worker", "credits", "difficulty"),
    [
        ("4D", None, 500, "self", 75, 6),  # +1: Easy, 15%
        ("4D+2", "4D", 500, "self", 150, 16),  # +1D: Difficult, 30%
        ("4D+1", "4D", 333, "hired", 167, 11),  # +2: Moderate, 25% doubled, rounded up
        ("5D+1", "4D", 100, "self", 50, 31),  # +1D+2: Heroic, 50%
    ],
)
def test_an_r_and_e_weapon_row_is_priced_on_its_value(
    damage, stock, value, worker, credits, difficulty
):
    sheet = _sheet(weapons=[{"name": "Blaster", "damage": damage, "range": "", "ammo": ""}])
    if stock:
        sheet["weapons"][0]["stock"] = stock
    step = gear.modification_step(sheet, 0, value, worker)
    assert (step.credits, step.difficulty, step.skill_points) == (credits, difficulty, 0)


@given(value=st.integers(1, 10**6), pips=st.integers(0, 4))
def test_a_bought_pip_and_its_undo_leave_the_credits_and_the_weapon(value, pips):
    from rulesets.core import DieCode

    damage = str(DieCode.from_pips(12 + pips))
    sheet = _sheet(weapons=[{"name": "Blaster", "damage": damage, "range": "", "ammo": ""}])
    if pips:  # a weapon keeps its stock code from its first improvement on
        sheet["weapons"][0]["stock"] = "4D"
    sheet["gear"]["credits"] = 10**7
    step = gear.modification_step(sheet, 0, value)
    for works in (True, False):
        after = gear.bought(sheet, step, works=works)
        back = gear.unbought(
            after,
            0,
            from_damage=step.from_damage,
            to_damage=step.to_damage if works else step.from_damage,
            credits=step.credits,
        )
        assert back["gear"] == sheet["gear"] and back["weapons"] == sheet["weapons"]
