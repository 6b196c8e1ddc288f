"""1E stun results kept on the sheet (003:438-448, 003:1842, 003:1855): what they do now is
derived from the stored list, read at a scene round or with none."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.weg_d6 import wounds

SETTINGS: dict = {}


def first_edition(dexterity: int = 11, strength: int = 12, stamina: int | None = None) -> dict:
    sheet = weg.blank_sheet({})
    sheet["edition"] = "1e"
    sheet["attributes"]["dexterity"] = dexterity
    sheet["attributes"]["strength"] = strength
    if stamina is not None:
        sheet["skills"]["stamina"] = stamina
    return weg.validate_sheet(sheet)


def hit(sheet: dict, damage: int, strength: int, when: str = "", stun: bool = True) -> dict:
    raw = f"{damage}|{strength}" + ("|stun" if stun else "") + (f"|{when}" if when else "")
    return weg.apply_edit(sheet, "wound.hit", raw, SETTINGS)


def test_the_seeds_example_two_one_stuns_in_round_six_and_a_two_stun_in_round_seven() -> None:
    # 003:440: 1 + 1 in round six, 2 in round seven: 4D off for the rest of round seven.
    sheet = first_edition(dexterity=15, strength=15)  # 5D each: neither threshold reached
    sheet = hit(sheet, 10, 10, "@4.6")
    sheet = hit(sheet, 10, 10, "@4.6")
    sheet = hit(sheet, 20, 10, "@4.7")
    assert wounds.stuns_now(sheet, (4, 7)).count == 4
    # Round eight: round six's fall away, round seven's still count.
    assert wounds.stuns_now(sheet, (4, 8)).count == 2
    assert wounds.stuns_now(sheet, (4, 9)).count == 0


def test_stuns_of_one_round_reaching_dexterity_dice_immobilise_not_pips() -> None:
    # 003:444: 3 stuns in a round immobilise Dexterity 3D+2 (3 dice, pips not counted).
    sheet = first_edition(dexterity=11, strength=15)
    sheet = hit(sheet, 20, 10, "@1.2")
    sheet = hit(sheet, 10, 10, "@1.2")
    state = wounds.stuns_now(sheet, (1, 2))
    assert (state.count, state.immobile, state.unconscious) == (3, True, False)
    # Dexterity rolls are refused, others lose 3D, Strength loses nothing (003:438, 003:446).
    rollables = {r.key: r for r in weg.rollables(sheet, {})}
    assert rollables["attr.dexterity"].fact("can_act", True) is False
    assert rollables["attr.knowledge"].fact("wound_dice") == 3
    assert rollables["attr.strength"].fact("wound_dice") == 0


def test_stuns_split_over_two_rounds_do_not_immobilise() -> None:
    sheet = first_edition(dexterity=11, strength=15)
    sheet = hit(sheet, 20, 10, "@1.2")
    sheet = hit(sheet, 10, 10, "@1.3")
    state = wounds.stuns_now(sheet, (1, 3))
    assert (state.count, state.immobile) == (3, False)


@pytest.mark.parametrize(
    ("stamina", "strength", "stuns", "out"),
    [
        (None, 6, 2, True),  # untrained: Strength's 2D is stamina's (003:448, 003:2487)
        (None, 8, 1, False),
        (11, 6, 2, False),  # stamina 3D+2: three dice
        (11, 6, 3, True),
    ],
)
def test_stuns_reaching_stamina_dice_knock_out_and_stay_out(stamina, strength, stuns, out) -> None:
    sheet = first_edition(dexterity=15, strength=strength, stamina=stamina)
    for _ in range(stuns):
        sheet = hit(sheet, 10, 10, "@2.1")
    assert wounds.stuns_now(sheet, (2, 1)).unconscious is out
    # Knocked out stays out after the rounds pass, until the stun is over.
    assert wounds.stuns_now(sheet, (2, 5)).unconscious is out


def test_three_times_strength_knocks_out_and_stun_over_clears() -> None:
    sheet = hit(first_edition(), 30, 10)  # 003:436, outside a scene
    assert wounds.stuns_now(sheet).unconscious
    rollables = {r.key: r for r in weg.rollables(sheet, {})}
    assert rollables["attr.strength"].fact("can_act", True) is False
    over = weg.apply_edit(sheet, "wound.stun_over", "", SETTINGS)
    assert over["stuns"] == [] and over["wound"] == "healthy"


def test_remain_conscious_gives_one_round_at_one_stun() -> None:
    sheet = hit(first_edition(), 30, 10, "@3.4")
    woke = weg.apply_edit(sheet, "wound.woke", "@3.5", SETTINGS)
    now = wounds.stuns_now(woke, (3, 5))
    assert (now.count, now.unconscious, now.woke) == (1, False, True)  # 003:1855
    assert wounds.stuns_now(woke, (3, 6)).unconscious
    with pytest.raises(InvalidEdit):
        weg.apply_edit(first_edition(), "wound.woke", "@3.5", SETTINGS)


def test_a_normal_hit_below_strength_is_a_stun_result_too() -> None:
    sheet = hit(first_edition(), 9, 10, stun=False)  # 003:472: DR < SR, stun −1D
    assert wounds.stuns_now(sheet).count == 1
    assert sheet["wound"] == "stunned"
    # The Stunned level does not take its 1D off again.
    rollables = {r.key: r for r in weg.rollables(sheet, {})}
    assert rollables["attr.knowledge"].fact("wound_dice") == 1


def test_another_scenes_stuns_are_over_and_a_new_hit_prunes_them() -> None:
    sheet = hit(first_edition(dexterity=15, strength=15), 20, 10, "@1.3")
    assert wounds.stuns_now(sheet, (2, 1)).count == 0
    sheet = hit(sheet, 10, 10, "@2.1")
    assert [e["scene"] for e in sheet["stuns"]] == [2]


@pytest.mark.parametrize("bad", ["@x.1", "@1", "@0.1", "1.2"])
def test_a_bad_scene_round_is_refused(bad) -> None:
    with pytest.raises(InvalidEdit):
        hit(first_edition(), 10, 10, bad)


def test_r_and_e_keeps_no_stun_results() -> None:
    sheet = weg.blank_sheet({})
    with pytest.raises(InvalidEdit):
        weg.apply_edit(sheet, "wound.stun_over", "", SETTINGS)


def test_the_stored_list_is_checked() -> None:
    sheet = first_edition()
    sheet["stuns"] = [{"stuns": 3, "unconscious": False, "scene": None, "round": None}]
    with pytest.raises(InvalidSheet):
        weg.validate_sheet(sheet)


@given(
    results=st.lists(st.tuples(st.integers(1, 2), st.integers(1, 12)), max_size=8),
    now=st.integers(1, 14),
)
def test_only_this_round_and_the_last_count(results, now) -> None:
    sheet = first_edition(dexterity=18, strength=18)
    sheet["skills"]["stamina"] = 36
    sheet["stuns"] = [wounds.stun_entry(n, False, (1, r)) for n, r in results]
    expected = sum(n for n, r in results if now - 1 <= r <= now)
    state = wounds.stuns_now(sheet, (1, now))
    assert state.count == (0 if state.unconscious else expected)
    assert state.unconscious == (expected >= 12)


@pytest.mark.parametrize(("reading", "out_later"), [("until_over", True), ("with_stuns", False)])
def test_how_long_a_knockout_lasts_is_a_reading(reading, out_later) -> None:
    # 003:436, 003:448 give no time: by default out until the stun is marked over.
    settings = {wounds.KNOCKOUT_READING: reading}
    sheet = weg.apply_edit(first_edition(), "wound.hit", "30|10|stun|@5.2", settings)
    assert wounds.stuns_now(sheet, (5, 3), settings).unconscious
    assert wounds.stuns_now(sheet, (5, 4), settings).unconscious is out_later
    assert [s.key for s in wounds.STUN_SETTINGS] == [wounds.KNOCKOUT_READING]
    assert wounds.STUN_SETTINGS[0].default == "until_over"


@pytest.mark.parametrize(
    ("round_now", "kept_rounds"),
    [(7, [6, 6, 7]), (8, [7]), (9, [])],  # 003:440: a stun counts its round and the next
)
def test_the_scenes_next_round_drops_the_stuns_that_passed(round_now, kept_rounds) -> None:
    sheet = first_edition(dexterity=15, strength=15)
    for damage, when in ((10, "@4.6"), (10, "@4.6"), (20, "@4.7")):
        sheet = hit(sheet, damage, 10, when)
    settled = weg.apply_edit(sheet, "wound.settle", f"@4.{round_now}", SETTINGS)
    assert [entry["round"] for entry in settled["stuns"]] == kept_rounds
    # The codes read from the sheet alone now agree with the scene's round.
    assert wounds.stuns_now(settled).count == wounds.stuns_now(sheet, (4, round_now)).count


def test_a_character_awake_for_one_round_is_out_again_when_the_round_moves_on() -> None:
    sheet = first_edition(dexterity=15, strength=6)  # stamina 2D: two stuns knock out
    sheet = hit(sheet, 20, 10, "@2.3")
    assert wounds.stuns_now(sheet, (2, 3)).unconscious
    sheet = weg.apply_edit(sheet, "wound.woke", "@2.4", SETTINGS)
    assert not wounds.stuns_now(sheet, (2, 4)).unconscious
    settled = weg.apply_edit(sheet, "wound.settle", "@2.5", SETTINGS)
    assert wounds.stuns_now(settled).unconscious  # 003:1855: one round, then out again
