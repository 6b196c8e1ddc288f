"""WEG gear beyond a weapon's damage: armor, an additive code whose pips cost the wearer
Dexterity unless bought back (003:1026-1040), and the gear readings (a failed R&E
modification's credits, the vibroaxe's damage)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.core import InvalidEdit
from rulesets.weg_d6 import gear, settings

VEST = "Blast vest (armor: +1D physical, +0D+1 energy, torso)"


def _sheet(edition="1e", equipment=VEST, credits=1000):
    return {"edition": edition, "gear": {"credits": credits, "equipment": equipment}}


def test_armor_lines_are_read_with_each_code_and_the_dexterity_penalty():
    pieces = gear.armor_pieces(
        _sheet(equipment=f"Glow rod\n{VEST}\nHelmet (armor: 0D-1 Dexterity)")
    )
    assert [(p.line, p.name, p.codes, p.dexterity) for p in pieces] == [
        (1, "Blast vest", {"physical": 3, "energy": 1}, 0),
        (2, "Helmet", {}, 1),
    ]


def test_the_companion_example_armor_one_d_to_one_d_two_with_dexterity_kept_costs_16():
    # 003:1040: ([1+3]+[1+3]) for the armor and the same for the Dexterity bought back.
    sheet, total = _sheet(), 0
    for done in range(2):
        step = gear.armor_step(sheet, 0, "physical", already=done, bought_back=done,
                               keep_dexterity=True)  # fmt: skip
        total += step.skill_points
        sheet = gear.armor_bought(sheet, step, works=True, paid=step.credits)
    assert total == 16
    assert gear.armor_pieces(sheet)[0].codes["physical"] == 5
    assert gear.armor_pieces(sheet)[0].dexterity == 0
    assert sheet["gear"]["credits"] == 1000 - 160  # 10 credits a point (003:1022)


@pytest.mark.parametrize(
    ("already", "technology", "difficulty"),
    [(0, "Very Easy", 3), (1, "Easy", 6), (2, "Moderate", 11), (3, "Difficult", 16),
     (4, "Very Difficult", 21), (9, "Very Difficult", 21)],
)  # fmt: skip
def test_an_armor_pip_without_dexterity_kept_costs_four_and_a_pip_of_dexterity(
    already, technology, difficulty
):
    step = gear.armor_step(_sheet(), 0, "physical", already=already)
    assert (step.skill_points, step.credits, step.dexterity) == (4, 40, 1)  # 003:1028
    assert (step.technology, step.difficulty) == (technology, difficulty)  # 003:1062
    after = gear.armor_bought(_sheet(), step, works=True, paid=step.credits)
    assert after["gear"]["equipment"] == (
        "Blast vest (armor: +1D+1 physical, +0D+1 energy, 0D-1 Dexterity, torso)"
    )
    back = gear.armor_unbought(after, 0, "physical", from_code="+1D", to_code="+1D+1",
                               dexterity=1, credits=40)  # fmt: skip
    assert back["gear"] == _sheet()["gear"]


def test_a_failed_armor_roll_takes_the_credits_and_leaves_the_line():
    step = gear.armor_step(_sheet(), 0, "energy")
    after = gear.armor_bought(_sheet(), step, works=False, paid=step.credits)
    assert after["gear"]["equipment"] == VEST and after["gear"]["credits"] == 1000 - step.credits


@pytest.mark.parametrize(
    ("level", "percent", "difficulty"),
    [(1, 15, "Easy"), (2, 25, "Moderate"), (3, 30, "Difficult"), (4, 35, "Very Difficult"),
     (5, 50, "Heroic")],
)  # fmt: skip
def test_r_and_e_armor_is_priced_on_the_weapons_chart(level, percent, difficulty):
    step = gear.armor_step(_sheet("2e_re"), 0, "physical", already=level - 1, value=1000)
    assert (step.percent, step.credits, step.technology) == (percent, 10 * percent, difficulty)
    assert step.skill_points == 0 and step.dexterity == 0


def test_r_and_e_armor_past_the_chart_or_under_the_off_reading_is_refused():
    with pytest.raises(InvalidEdit, match="002:264"):
        gear.armor_step(_sheet("2e_re"), 0, "physical", already=5, value=1000)
    with pytest.raises(InvalidEdit, match="reading"):
        gear.armor_step(_sheet("2e_re"), 0, "physical", value=1000,
                        settings={gear.ARMOR_READING: "off"})  # fmt: skip


def test_an_armor_line_changed_since_cannot_be_undone():
    with pytest.raises(InvalidEdit, match="changed since"):
        gear.armor_unbought(_sheet(), 0, "physical", from_code="+1D", to_code="+1D+1",
                            dexterity=1, credits=40)  # fmt: skip


def test_the_gear_readings_are_among_the_systems_settings_with_the_seeds_defaults():
    keys = {s.key: s for s in settings.SETTINGS}
    assert keys[gear.VIBROAXE_READING].default == "chart"
    assert keys[gear.FAILURE_READING].default == "spent"
    assert keys[gear.MONTH_READING].default == "adventure"
    assert keys[gear.ARMOR_READING].default == "weapon"


@pytest.mark.parametrize(("reading", "pips"), [("chart", 6), ("dedelin", 5)])
def test_the_vibroaxe_reading_gives_the_chart_or_dedelins_code(reading, pips):
    # 003:2704 STR+2D; 003:2487 STR+1D+2.
    assert gear.vibroaxe_pips({gear.VIBROAXE_READING: reading}) == pips


@given(st.integers(0, 10**7), st.sampled_from(sorted(gear.FAILURE_SHARES)))
def test_a_failed_modification_never_costs_more_than_its_price_nor_less_than_nothing(
    credits, reading
):
    spent = gear.failed_credits(credits, {gear.FAILURE_READING: reading})
    assert 0 <= spent <= credits
    assert spent == {"spent": credits, "kept": 0}.get(reading, spent)
