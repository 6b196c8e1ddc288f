"""What every reader of another tool's file shares: refusals, notes, numbers, codes, text.

A reader is pure: bytes already parsed to JSON go in, a sheet dict of one system comes out
with notes on what was placed and what was not. Nothing here touches the database; the
import service (sheets/transfer/imports.py) stores what a person confirmed.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from rulesets.core.diecode import DieCode, DieCodeError
from rulesets.core.parsing import printable

# Another tool's character is a few kilobytes; a portrait as a data URL makes it larger.
# The original file is kept beside the character, so its size is bounded here.
FOREIGN_MAX_BYTES = 2 * 1024 * 1024
# A value a file may hold for a count (points, credits, pips): beyond it, the file is wrong.
MOST_COUNT = 999_999_999
# How many rows of one list (items, attribs, skills) a reader looks at.
MOST_ROWS = 2000


class FormatRefused(ValueError):
    """The file cannot become a character; the message says why in plain words."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


class NeedsMinimums(Exception):
    """The file's attributes count up from a species minimum this Datapad does not know."""

    def __init__(self, species: str) -> None:
        super().__init__(species)
        self.species = species


@dataclass(frozen=True)
class Placed:
    """One value as it lands on the sheet: where, what, and where in the file it came from."""

    where: str
    value: str
    source: str = ""


@dataclass(frozen=True)
class Dropped:
    """One value that found no place, and why."""

    what: str
    why: str


@dataclass
class Notes:
    placed: list[Placed] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    # Fields of a newer version of the tool this reader does not know.
    unknown: list[str] = field(default_factory=list)

    def place(self, where: str, value: Any, source: str = "") -> None:
        self.placed.append(Placed(where, str(value), source))

    def drop(self, what: str, why: str) -> None:
        self.dropped.append(Dropped(what, why))

    def unknown_keys(self, where: str, data: Any, known: set[str] | frozenset[str]) -> None:
        if isinstance(data, dict):
            for key in sorted(set(data) - set(known), key=str)[:40]:
                self.unknown.append(f"{where}.{key}" if where else str(key))


@dataclass
class Reading:
    """What a reader made of a file: the sheet (validated) and its notes."""

    format_key: str
    format_label: str
    system: str
    name: str
    sheet: dict
    notes: Notes
    # The species the file names, when the reader asked the compendium for it.
    species: str = ""


def obj(value: Any, where: str) -> dict:
    """`value` when it is a JSON object; a missing one (None) is empty."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FormatRefused(f"{where} must be a JSON object.")
    return value


def items(value: Any, where: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise FormatRefused(f"{where} must be a list.")
    if len(value) > MOST_ROWS:
        raise FormatRefused(
            f"{where} holds {len(value)} rows; a character has at most {MOST_ROWS}."
        )
    return value


def number(value: Any, where: str, low: int = 0, high: int = MOST_COUNT, *, empty: int = 0) -> int:
    """A whole number from a number or a numeral string; "" and None are `empty`."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return empty
    if isinstance(value, bool):
        raise FormatRefused(f"{where}: {str(value).lower()} is not a number.")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or not value.is_integer():
            raise FormatRefused(f"{where}: {value} is not a whole number.")
        value = int(value)
    if isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"[+-]?\d{1,12}", text):
            raise FormatRefused(f"{where}: “{text[:40]}” is not a whole number.")
        value = int(text)
    if not isinstance(value, int):
        raise FormatRefused(f"{where} must be a whole number.")
    if not low <= value <= high:
        raise FormatRefused(f"{where}: {value} is out of range ({low} to {high}).")
    return value


def code_pips(value: Any, where: str) -> int:
    """Whole pips from a die code ("4D+2", "1D+3" read as 2D) or a number of pips."""
    if isinstance(value, str) and re.search(r"[dD]", value):
        try:
            return DieCode.parse(value, allow_extra_pips=True).total_pips
        except DieCodeError as error:
            raise FormatRefused(f"{where}: {error}") from None
    if isinstance(value, str) and value.strip() and not re.fullmatch(r"\s*[+-]?\d+\s*", value):
        raise FormatRefused(f"{where}: “{value[:40]}” is not a die code; write it like 4D+2.")
    return number(value, where, -MOST_PIPS, MOST_PIPS)


MOST_PIPS = 3 * 99


def shown(pips: int) -> str:
    return DieCode.from_pips(pips).format()


_TAG = re.compile(r"<[^>]{0,2000}>")
_BREAK = re.compile(r"<\s*(br|/p|/div|/li|/h\d)\s*/?\s*>", re.IGNORECASE)


def plain(value: Any, *, html_text: bool = False) -> str:
    """Text a sheet can store: HTML tags and entities read as text when the field is HTML,
    control characters replaced, lines kept."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        return ""
    text = value
    if html_text:
        text = _TAG.sub("", _BREAK.sub("\n", text))
        text = html.unescape(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ch if ch in "\n\t" else printable(ch) for ch in text)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return "\n".join(lines).strip("\n").strip()


def line(value: Any, limit: int, notes: Notes, what: str, *, html_text: bool = False) -> str:
    """One line of text, cut at `limit` with a note when longer."""
    text = " ".join(plain(value, html_text=html_text).split())
    if len(text) > limit:
        notes.drop(f"{what} past {limit} characters", "longer than the sheet's field: cut")
        text = text[:limit].rstrip()
    return text


def block(value: Any, limit: int, notes: Notes, what: str, *, html_text: bool = False) -> str:
    """Several lines of text, cut at `limit` with a note when longer."""
    text = plain(value, html_text=html_text)
    if len(text) > limit:
        notes.drop(f"{what} past {limit} characters", "longer than the sheet's field: cut")
        text = text[:limit].rstrip()
    return text


def size_text(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{-(-size // 1024)} KB"
