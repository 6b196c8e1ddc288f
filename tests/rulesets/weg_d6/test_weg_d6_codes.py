"""Die codes as whole pips: typing them in, printing them, and refusing bad ones (003:91-99)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import DieCode, InvalidEdit, resolve_settings
from rulesets.core.parsing import parse_code
from rulesets.weg_d6.traits import code_text

SETTINGS = resolve_settings(weg.SETTINGS, {})


@pytest.mark.parametrize(
    ("raw", "pips"),
    [
        ("4D+2", 14),  # 003:93
        ("4d+2", 14),
        ("4D", 12),
        ("+1D+1", 4),  # a modifier typed as a code
        ("0D", 0),  # 003:1010
        (" 2D+1 ", 7),
    ],
)
def test_it_reads_every_written_form_of_a_code_into_pips(raw: str, pips: int) -> None:
    assert parse_code("attr.dexterity", raw, label="Dexterity") == pips


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("4D+7", "at most 2"),  # a stored code carries 0-2 pips (003:97)
        ("D4", "not a die code"),
        ("-1D", "too low"),
        ("four", "not a die code"),
        ("", "not a die code"),
    ],
)
def test_it_refuses_a_bad_code_with_a_plain_message(raw: str, words: str) -> None:
    with pytest.raises(InvalidEdit) as refused:
        weg.apply_edit(weg.blank_sheet(SETTINGS), "attr.dexterity", raw, SETTINGS)
    assert words in refused.value.message
    assert refused.value.trait == "attr.dexterity"


def test_it_prints_pips_the_way_the_books_do() -> None:
    assert [code_text(p) for p in (0, 1, 12, 14, 30)] == ["0D", "0D+1", "4D", "4D+2", "10D"]


def test_improving_carries_pips_into_dice_but_play_never_does() -> None:
    # 2D+1 added to 1D+2 makes 4D when improving (003:97) ...
    assert DieCode.from_pips(7 + 5).format() == "4D"
    # ... while in play 4D+2 with +0D+4 rolls as 4D+6 (003:99).
    assert (DieCode(4, 2) + DieCode(0, 4)).format() == "4D+6"


@given(st.integers(min_value=0, max_value=180))
def test_parsing_a_printed_code_gives_back_the_same_pips(pips: int) -> None:
    assert parse_code("skill.blaster", code_text(pips), label="Blaster") == pips


@given(
    st.integers(-20, 20),
    st.integers(-2, 2),
    st.integers(-20, 20),
    st.integers(-2, 2),
    st.integers(-20, 20),
    st.integers(-2, 2),
)
def test_adding_codes_in_play_is_associative(a, b, c, d, e, f) -> None:
    x, y, z = DieCode(a, b), DieCode(c, d), DieCode(e, f)
    assert (x + y) + z == x + (y + z)


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_adding_stored_codes_with_carry_is_associative(x: int, y: int, z: int) -> None:
    def add(p: int, q: int) -> int:
        return DieCode.from_pips(p).improved(q).total_pips

    assert add(add(x, y), z) == add(x, add(y, z))
