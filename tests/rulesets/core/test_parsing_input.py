"""The one text cleaner and the number readers every system and form share."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.core import InvalidEdit
from rulesets.core.parsing import (
    ascii_number,
    clean_text,
    parse_notes,
    parse_row_index,
    parse_text,
    parse_whole,
    printable,
    storable,
)

UNSTORABLE = ["\x00", "\x01", "\x1b", "\x7f", "\x9b", "\ud800", "\udfff"]


@pytest.mark.parametrize("char", UNSTORABLE)
def test_one_line_text_refuses_control_characters_and_lone_surrogates(char):
    with pytest.raises(InvalidEdit, match="Player holds a character that cannot be stored") as e:
        parse_text("info.player", f"a{char}b", label="Player")
    assert e.value.trait == "info.player"


@pytest.mark.parametrize("char", UNSTORABLE)
def test_notes_refuse_them_too(char):
    with pytest.raises(InvalidEdit, match="cannot be stored"):
        parse_notes("info.notes", f"first\n{char}x", label="Notes")


def test_notes_keep_line_breaks_and_tabs_and_one_line_text_folds_them():
    assert parse_notes("n", " one\r\ntwo\tthree ", label="Notes") == "one\ntwo\tthree"
    # Control characters that are spaces to Python (vertical tab, NEL) fold into one.
    assert parse_text("t", " one\r\ntwo\tthree\x0bfour\x85five ", label="Text") == (
        "one two three four five"
    )


@pytest.mark.parametrize("text", ["Kira Dane", "Ñandú", "😀 Wookiee", "\u200b", "\ue000", "²"])
def test_ordinary_unicode_is_kept(text):
    assert clean_text("t", text, label="Text") == text


def test_the_length_is_capped_after_spaces_fold():
    assert clean_text("t", "a   b", label="Text", limit=3) == "a b"
    with pytest.raises(InvalidEdit, match=r"Text is limited to 3 characters\."):
        clean_text("t", "abcd", label="Text", limit=3)


def test_printable_replaces_what_cannot_be_stored():
    assert printable("a\x00b\ud800c\nd") == "a\ufffdb\ufffdc\ufffdd"
    assert storable(printable("".join(UNSTORABLE)))


@given(st.text(alphabet=st.characters(codec=None)))
def test_clean_text_either_refuses_or_returns_storable_text(text):
    try:
        cleaned = clean_text("t", text, label="Text", limit=10_000, lines=True)
    except InvalidEdit:
        assert not storable(text, lines=True)
    else:
        assert storable(cleaned, lines=True)
        cleaned.encode("utf-8")


@pytest.mark.parametrize(
    ("raw", "number"),
    [("0", 0), ("12", 12), (" 7 ", 7), ("9" * 18, int("9" * 18))],
)
def test_ascii_number_reads_plain_digits(raw, number):
    assert ascii_number(raw) == number


@pytest.mark.parametrize("raw", ["", " ", "-1", "+1", "1.0", "²", "٣", "1e3", "9" * 19, "9" * 4400])
def test_ascii_number_refuses_anything_else(raw):
    assert ascii_number(raw) is None


@pytest.mark.parametrize("raw", ["²", "٣", "１", "-1", "+0", "", "1 2", "0x1", "9" * 7])
def test_a_row_index_is_ascii_digits_only(raw):
    with pytest.raises(InvalidEdit, match="does not name a weapon row"):
        parse_row_index("weapon.x.name", raw, [{}, {}], noun="weapon")


def test_a_row_index_past_the_rows_names_the_row_from_one():
    assert parse_row_index("weapon.1.name", "1", [{}, {}], noun="weapon") == 1
    with pytest.raises(InvalidEdit, match=r"There is no weapon number 3 on this sheet\."):
        parse_row_index("weapon.2.name", "2", [{}, {}], noun="weapon")


# Digits too many to hold are out of range, not "not a number" (tests/web/test_newcomer_limits.py).
@pytest.mark.parametrize("raw", ["²", "٣", "1e400", "NaN"])
def test_a_whole_number_is_ascii_digits_only(raw):
    with pytest.raises(InvalidEdit, match="is not a whole number"):
        parse_whole("attr.x", raw, label="Strength")
