"""R&E power picks (002:800-804) survive every way back: a power forgotten or refunded gives
back the picks it used, and a Force skill raise whose pick already taught a power is not
refunded behind that power's back.

002 and the digest (rules/weg_d6.md §5.1) say nothing about a dropped power, so undoing a
purchase restores the sheet as it was before it: the picks come back. In play a power
learned this adventure is dropped by that undo, not by the sheet's "remove"; an R&E
player's plain edit never steps a Force skill down; the GM's correction does, and a pick
that taught a power goes with its pip.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, InvalidSheet, resolve_settings
from rulesets.weg_d6 import advancement, costs, traits

SETTINGS = resolve_settings(weg.SETTINGS, {})


def jedi(control: int = 6, sense: int = 6, alter: int = 6, points: int = 200) -> dict:
    """A Force-sensitive R&E character in play, taught, with Character Points to spend."""
    sheet = weg.apply_edit(weg.demo_sheet(), "stage", "play", SETTINGS)
    sheet = weg.apply_edit(sheet, "points.character", str(points), SETTINGS)
    sheet["force"].update(sensitive=True, control=control, sense=sense, alter=alter)
    sheet["teacher"]["present"] = True
    return sheet


def refund(sheet: dict, trait: str, old_value: int) -> dict:
    """Undo a purchase as the ledger does (sheets/advancement/services.py `_refund`): the
    engine's undo edits, then the purchase forgotten. The ledger pays the points back."""
    for edit, raw in advancement.undo_edits(sheet, trait, old_value):
        sheet = weg.apply_edit(sheet, edit, raw, SETTINGS)
    return advancement.forget_purchase(sheet, trait)


def without_points(sheet: dict) -> dict:
    """The sheet apart from the points, which the ledger (not the sheet) gives back."""
    rest = copy.deepcopy(sheet)
    rest["points"]["character"] = 0
    return rest


def raised(sheet: dict, skill: str, chosen: dict = SETTINGS) -> dict:
    """The sheet after a paid one-step raise of a Force skill (a pick comes with it)."""
    up = costs.step_up(f"force.{skill}", sheet["force"][skill])
    return weg.apply_edit(sheet, f"advance.force.{skill}", traits.code_text(up), chosen)


def next_adventure(sheet: dict) -> dict:
    """The sheet once the GM ended the adventure: its purchases are no longer the player's
    to undo, and the sheet may forget a power."""
    return weg.apply_edit(sheet, "interval.close", "", SETTINGS)


def test_forgetting_a_power_taught_with_a_pick_gives_the_pick_back() -> None:  # 002:800
    owed = raised(jedi(), "control")
    assert owed["force"]["power_picks"] == ["control"]
    taught = weg.apply_edit(owed, "advance.power", "control_pain", SETTINGS)
    assert taught["force"]["power_picks"] == []
    forgotten = weg.apply_edit(next_adventure(taught), "power.remove", "control_pain", SETTINGS)
    assert forgotten["force"]["power_picks"] == ["control"]
    assert "control_pain" not in forgotten["force"]["powers"]
    assert weg.advance_cost(forgotten, "power.control_pain", 1, SETTINGS).amount == 0


def test_refunding_a_power_taught_with_a_pick_restores_the_sheet_before_it() -> None:
    owed = raised(jedi(), "control")
    taught = weg.apply_edit(owed, "advance.power", "control_pain", SETTINGS)
    assert without_points(refund(taught, "power.control_pain", 0)) == without_points(owed)


def test_a_two_skill_power_paid_half_in_cp_gives_back_only_its_pick() -> None:  # 002:802-804
    owed = raised(jedi(), "sense")
    taught = weg.apply_edit(owed, "advance.power", "farseeing", SETTINGS)
    # One count taught free with the Sense pip, the other paid 5 CP.
    assert taught["interval"][-1]["cost"] == 5
    assert taught["points"]["character"] == owed["points"]["character"] - 5
    back = refund(taught, "power.farseeing", 0)
    assert back["force"]["power_picks"] == ["sense"]
    assert without_points(back) == without_points(owed)


def test_a_power_paid_in_full_gives_no_pick_back() -> None:  # 002:802
    sheet = jedi()
    taught = weg.apply_edit(sheet, "advance.power", "control_pain", SETTINGS)
    forgotten = weg.apply_edit(next_adventure(taught), "power.remove", "control_pain", SETTINGS)
    assert forgotten["force"]["power_picks"] == []


@pytest.mark.parametrize(
    ("skill", "power", "message"),
    [
        (
            None,
            "control_pain",
            "learned this adventure for 5 Character Points: undo it on the "
            "Advancement page to get them back.",
        ),
        (
            "control",
            "control_pain",
            "learned this adventure with a Control pick: undo it on "
            "the Advancement page to get the pick back.",
        ),
        (
            "sense",
            "farseeing",
            "learned this adventure for 5 Character Points and a Sense "
            "pick: undo it on the Advancement page to get them back.",
        ),
    ],
)
def test_in_play_a_power_learned_this_adventure_is_dropped_by_its_undo_only(
    skill: str | None, power: str, message: str
) -> None:
    sheet = raised(jedi(), skill) if skill else jedi()
    taught = weg.apply_edit(sheet, "advance.power", power, SETTINGS)
    with pytest.raises(InvalidEdit, match=message) as refused:
        weg.apply_edit(taught, "power.remove", power, SETTINGS)
    assert refused.value.trait == "power.remove"
    # The ledger's undo takes it out of the adventure's window first, then drops it.
    assert without_points(refund(taught, f"power.{power}", 0)) == without_points(sheet)
    # During creation the sheet is the player's to set: no ledger, no undo to point to.
    creating = weg.apply_edit(taught, "stage", "creation", SETTINGS)
    assert power not in weg.apply_edit(creating, "power.remove", power, SETTINGS)["force"]["powers"]


def test_in_play_a_1e_power_learned_this_adventure_is_undone_for_its_skill_point() -> None:
    sheet = jedi()
    sheet["edition"] = "1e"
    sheet["teacher"]["present"] = False  # learned by experiment: 1 SP (003:1798)
    taught = weg.apply_edit(sheet, "advance.power", "control_pain", SETTINGS)
    with pytest.raises(
        InvalidEdit, match="for 1 skill point: undo it on the Advancement page to get it back"
    ):
        weg.apply_edit(taught, "power.remove", "control_pain", SETTINGS)


def test_forgetting_a_purchase_the_window_no_longer_holds_changes_nothing() -> None:
    sheet = jedi()
    assert weg.apply_edit(sheet, "interval.forget", "power.control_pain", SETTINGS) == sheet
    taught = weg.apply_edit(sheet, "advance.power", "control_pain", SETTINGS)
    assert weg.apply_edit(taught, "interval.forget", "force.control", SETTINGS) == taught


def test_a_pick_comes_back_even_after_the_adventure_ended() -> None:
    owed = raised(jedi(), "alter")
    taught = weg.apply_edit(owed, "advance.power", "telekinesis", SETTINGS)
    forgotten = weg.apply_edit(next_adventure(taught), "power.remove", "telekinesis", SETTINGS)
    assert forgotten["force"]["power_picks"] == ["alter"]


def test_refunding_a_force_raise_takes_back_its_unused_pick() -> None:
    before = jedi()
    owed = raised(before, "control")
    assert without_points(refund(owed, "force.control", 6)) == without_points(before)


def test_stepping_a_force_skill_down_takes_back_the_pick_its_pip_brought() -> None:
    owed = raised(jedi(), "control")
    stepped = weg.apply_edit(owed, "force.control", "2D", SETTINGS)
    assert stepped["force"]["power_picks"] == []
    # A pick of another skill is not touched.
    owed = raised(raised(jedi(), "control"), "sense")
    stepped = weg.apply_edit(owed, "force.control", "2D", SETTINGS)
    assert stepped["force"]["power_picks"] == ["sense"]


def test_a_correction_through_a_pick_that_taught_a_power_takes_the_pick_with_the_pip() -> None:
    """The GM's correction (the only plain lowering left in play): the power stays, holding
    no pick, so dropping it later gives back none that no pip owes."""
    owed = raised(raised(jedi(), "control"), "sense")
    taught = weg.apply_edit(owed, "advance.power", "farseeing", SETTINGS)  # both picks
    corrected = weg.apply_edit(taught, "force.control", "2D", SETTINGS)
    assert "farseeing" in corrected["force"]["powers"]
    assert corrected["force"]["power_picks_spent"] == {"farseeing": ["sense"]}
    assert weg.validate_sheet(corrected) == corrected
    forgotten = weg.apply_edit(next_adventure(corrected), "power.remove", "farseeing", SETTINGS)
    assert forgotten["force"]["power_picks"] == ["sense"]
    # An unused pick goes first, before one a power holds.
    spare = raised(next_adventure(taught), "control")  # 2D+2
    corrected = weg.apply_edit(spare, "force.control", "2D+1", SETTINGS)
    assert corrected["force"]["power_picks"] == []
    assert corrected["force"]["power_picks_spent"] == {"farseeing": ["control", "sense"]}


@pytest.mark.parametrize("edition", ["2e_re", "1e"])
def test_a_players_plain_edit_in_play_never_steps_a_re_force_skill_down(edition: str) -> None:
    before = jedi()
    before["edition"] = edition
    after = weg.apply_edit(before, "force.sense", "1D", SETTINGS)
    raised_up = weg.apply_edit(before, "force.alter", "3D", SETTINGS)
    refusals = advancement.plain_play_refusals(before, after)
    if edition == "1e":
        assert refusals == {}  # 1E pips owe no power: a lowering is a lowering
    else:
        assert refusals == {
            "force.sense": "In play, Sense goes down only by undoing its purchase on the "
            "Advancement page or by the GM's correction: each pip bought owes a power (002:800)."
        }
    assert advancement.plain_play_refusals(before, raised_up) == {}
    creating = weg.apply_edit(before, "stage", "creation", SETTINGS)
    lowered = weg.apply_edit(creating, "force.sense", "1D", SETTINGS)
    assert advancement.plain_play_refusals(creating, lowered) == {}


def test_in_play_an_re_force_skill_offers_no_step_down() -> None:
    rows = {row.key: row for row in weg.trait_rows(jedi(), SETTINGS)}
    assert rows["force.control"].down == "" and rows["force.control"].up == "2D+1"
    creating = weg.apply_edit(jedi(), "stage", "creation", SETTINGS)
    rows = {row.key: row for row in weg.trait_rows(creating, SETTINGS)}
    assert rows["force.control"].down == "1D+2"


def test_refunding_a_force_raise_whose_pick_taught_a_power_is_refused() -> None:
    owed = raised(jedi(), "control")
    taught = weg.apply_edit(owed, "advance.power", "control_pain", SETTINGS)
    with pytest.raises(InvalidEdit, match="Control pain"):
        refund(taught, "force.control", 6)
    # Power first, then the raise: both come undone and the sheet is as it was.
    back = refund(refund(taught, "power.control_pain", 0), "force.control", 6)
    assert without_points(back) == without_points(jedi())


def test_a_learned_skill_refunded_to_0d_takes_back_the_power_its_first_die_owed() -> None:
    before = jedi(alter=0)
    owed = raised(before, "alter")  # 0D → 1D brings one power (002:796)
    assert owed["force"]["power_picks"] == ["alter"]
    assert without_points(refund(owed, "force.alter", 0)) == without_points(before)


def test_becoming_a_droid_forgets_the_picks_powers_used() -> None:
    taught = weg.apply_edit(raised(jedi(), "control"), "advance.power", "control_pain", SETTINGS)
    droid = weg.apply_edit(taught, "info.kind", "droid", SETTINGS)
    assert droid["force"]["power_picks"] == []
    assert droid["force"]["power_picks_spent"] == {}
    assert weg.validate_sheet(droid) == droid


def test_a_sheet_names_the_picks_of_a_power_it_has_learned_only() -> None:
    sheet = weg.validate_sheet(jedi())
    sheet["force"]["power_picks_spent"] = {"telekinesis": ["alter"]}
    with pytest.raises(InvalidSheet, match=r"power_picks_spent\.telekinesis"):
        weg.validate_sheet(sheet)


def test_a_version_2_sheet_upgrades_to_3_with_no_pick_spent_and_gives_none_back() -> None:
    old = raised(jedi(), "control")
    old = weg.apply_edit(old, "advance.power", "control_pain", SETTINGS)
    old["schema_version"] = 2
    del old["force"]["power_picks_spent"]
    upgraded = weg.validate_sheet(old)
    assert upgraded["schema_version"] == weg.SCHEMA_VERSION >= 3
    assert upgraded["force"]["power_picks_spent"] == {}
    # Which picks the power took was not kept then: dropping it gives none back, and
    # a version 2 sheet read before its upgrade behaves the same.
    for sheet in (upgraded, old):
        with pytest.raises(InvalidEdit, match="learned this adventure: undo it"):
            weg.apply_edit(sheet, "power.remove", "control_pain", SETTINGS)
        forgotten = weg.apply_edit(next_adventure(sheet), "power.remove", "control_pain", SETTINGS)
        assert forgotten["force"]["power_picks"] == []
        # Learned free this adventure, it took a Control pick nobody noted: the raise
        # that owed it waits for it, as for a power on record.
        with pytest.raises(InvalidEdit, match="Control pain"):
            refund(sheet, "force.control", 6)
        back = refund(refund(sheet, "power.control_pain", 0), "force.control", 6)
        assert back["force"]["control"] == 6 and back["force"]["power_picks"] == []
        # Once the adventure ended nothing says which pick it took: a correction lowering
        # Control leaves it be.
        corrected = weg.apply_edit(next_adventure(sheet), "force.control", "2D", SETTINGS)
        assert corrected["force"]["power_picks_spent"] == {}
        assert "control_pain" in corrected["force"]["powers"]


# --- invariant: buy, then undo the purchases newest first, and the sheet is as before ------

PURCHASES = [
    "force.control",
    "force.sense",
    "force.alter",
    "power.control_pain",
    "power.life_sense",
    "power.telekinesis",
    "power.farseeing",
    "power.affect_mind",
    "interval.close",
]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(PURCHASES), max_size=12),
    st.sampled_from([0, 3, 6]),
    st.sampled_from(["each", "one"]),
)
def test_undoing_purchases_newest_first_restores_every_earlier_sheet(
    plan: list[str], start: int, counting: str
) -> None:
    chosen = {**SETTINGS, "multi_skill_power_count": counting}
    sheet = jedi(control=6, sense=start, alter=start, points=500)
    # Each purchase: the sheet before it, how to refund it, and whether an adventure
    # closed since (which empties the one-pip window the sheet before still had).
    bought: list[tuple[dict, str, int, bool]] = []
    for step in plan:
        kind, _, what = step.partition(".")
        try:
            if kind == "interval":
                sheet = weg.apply_edit(sheet, step, "", chosen)
                bought = [(before, trait, old, True) for before, trait, old, _ in bought]
                continue
            if kind == "power":
                after, old = weg.apply_edit(sheet, "advance.power", what, chosen), 0
            else:
                after, old = raised(sheet, what, chosen), sheet["force"][what]
        except InvalidEdit:
            continue  # a purchase the rules refuse here (one pip, no skill, no points)
        bought.append((sheet, step, old, False))
        sheet = after
    for before, trait, old, closed_since in reversed(bought):
        for edit, raw in advancement.undo_edits(sheet, trait, old):
            sheet = weg.apply_edit(sheet, edit, raw, chosen)
        sheet = advancement.forget_purchase(sheet, trait)
        expected = without_points(before)
        got = without_points(sheet)
        if closed_since:
            got["interval"] = expected["interval"]
        assert got == expected
