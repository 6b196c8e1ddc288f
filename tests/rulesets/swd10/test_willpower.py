"""SWd10 Willpower and Power pools (issue 13 item 4): at creation permanent Willpower is
Wits + 1 (L296) and the current pool is full; in play it is spent and bought with XP (L314);
current Power starts empty and fills in battle (L100)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.swd10 as swd10

DEFAULTS = {s.key: s.default for s in swd10.SETTINGS}


def edited(sheet: dict, *edits: tuple[str, str]) -> dict:
    for trait, value in edits:
        sheet = swd10.apply_edit(sheet, trait, value, DEFAULTS)
    return sheet


def pools(sheet: dict) -> tuple[int, int, int, int]:
    return (sheet["willpower"], sheet["willpower_current"], sheet["power"], sheet["power_current"])


def rows(sheet: dict) -> dict:
    return {row.key: row for row in swd10.trait_rows(sheet, DEFAULTS)}


def test_raising_wits_at_creation_raises_both_willpowers_and_stays_legal():
    sheet = edited(swd10.blank_sheet(DEFAULTS), ("attr.wits", "2"))
    assert pools(sheet) == (3, 3, 1, 0)
    codes = {v.code for v in swd10.check(sheet, DEFAULTS).violations}
    assert "willpower_at_creation" not in codes


def test_lowering_wits_at_creation_lowers_willpower_with_it():
    sheet = edited(swd10.blank_sheet(DEFAULTS), ("attr.wits", "4"), ("attr.wits", "2"))
    assert pools(sheet)[:2] == (3, 3)


def test_current_power_keeps_what_the_player_marked_while_wits_moves():
    sheet = edited(swd10.blank_sheet(DEFAULTS), ("power_current", "1"), ("attr.wits", "3"))
    assert pools(sheet) == (4, 4, 1, 1)
    assert edited(swd10.blank_sheet(DEFAULTS), ("attr.wits", "3"))["power_current"] == 0


def test_a_stale_sheet_is_put_right_by_its_next_edit():
    # Stored before the fix: Willpower set by hand, current left behind.
    stale = swd10.blank_sheet(DEFAULTS)
    stale["attributes"]["wits"] = 2
    stale["willpower_current"] = 2
    assert {v.code for v in swd10.check(stale, DEFAULTS).errors} == {"willpower_at_creation"}
    assert pools(edited(stale, ("info.nature", "Survivor")))[:2] == (3, 3)


def test_at_creation_the_willpower_rows_are_locked_and_say_why():
    found = rows(edited(swd10.blank_sheet(DEFAULTS), ("attr.wits", "2")))
    assert found["willpower"].locked == "At creation Willpower is Wits + 1 (3); it follows Wits."
    assert found["willpower_current"].locked.startswith("At creation current Willpower is full")
    assert found["power_current"].locked == ""
    assert "full rest empties it" in found["power_current"].note
    assert found["power_current"].source == "000:L100"


def test_in_play_the_willpower_rows_open_and_wits_no_longer_moves_willpower():
    sheet = edited(swd10.demo_sheet(), ("stage", "play"), ("info.experience", "100"))
    found = rows(sheet)
    assert found["willpower"].locked == "" and found["willpower_current"].locked == ""
    sheet = edited(sheet, ("attr.wits", "3"))  # bought with XP; Willpower has its own price
    assert pools(sheet)[:2] == (3, 3)


def test_in_play_a_bought_willpower_refills_a_full_pool_but_not_a_spent_one():
    sheet = edited(swd10.demo_sheet(), ("stage", "play"), ("info.experience", "100"))
    assert pools(edited(sheet, ("willpower", "4")))[:2] == (4, 4)
    spent = edited(sheet, ("willpower_current", "1"))
    assert pools(edited(spent, ("willpower", "4")))[:2] == (4, 1)


def test_reopening_creation_puts_willpower_back_on_wits():
    sheet = edited(swd10.demo_sheet(), ("stage", "play"), ("willpower_current", "1"))
    assert pools(edited(sheet, ("stage", "creation")))[:2] == (3, 3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=6))
def test_at_creation_willpower_is_always_wits_plus_one_and_full(wits_values):
    sheet = swd10.blank_sheet(DEFAULTS)
    for wits in wits_values:
        sheet = edited(sheet, ("attr.wits", str(wits)))
    assert sheet["willpower"] == sheet["willpower_current"] == wits_values[-1] + 1
    assert swd10.derived(sheet, DEFAULTS)["willpower_at_creation"] == sheet["willpower"]
