"""Read the raw text a form submits into a trait's value, the same way in every system.

Every parser takes the trait key first, so a refusal names the field it belongs to, and
raises InvalidEdit with a message a player can read. Row numbers in messages count from 1,
though trait keys index rows from 0 ("weapon.0.name" is the first weapon).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any, TypeVar

from rulesets.core.diecode import DieCode, DieCodeError
from rulesets.core.edits import InvalidEdit

YES = frozenset({"1", "true", "on", "yes", "y"})
NO = frozenset({"0", "false", "off", "no", "n", ""})
TEXT_LIMIT = 200
NOTES_LIMIT = 4000

# ASCII digits only: str.isdigit() accepts "²", which int() then refuses.
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")
DIGITS = re.compile(r"[+-]?[0-9]+")
ROW_NUMBER = re.compile(r"[0-9]{1,6}")

E = TypeVar("E", bound=Enum)


def parse_flag(trait: str, raw: Any, *, label: str = "") -> bool:
    """Read yes/no (a checkbox sends "on"; an empty value is no); refuse anything else."""
    text = str(raw).strip().lower()
    if text in YES:
        return True
    if text in NO:
        return False
    what = f"{label}: " if label else ""
    raise InvalidEdit(trait, f"{what}“{_shown(raw)}” is not yes or no.")


def parse_whole(
    trait: str,
    raw: Any,
    *,
    label: str,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    """Read a whole number, within [minimum, maximum] when given."""
    text = str(raw).strip()
    if not WHOLE_NUMBER.fullmatch(text):
        if not DIGITS.fullmatch(text):
            raise InvalidEdit(trait, f"{label}: “{_shown(raw)}” is not a whole number.")
        # A whole number longer than any trait holds is out of range, and said so with the
        # range; it never reaches int(), which refuses 4,300 digits.
        digits = text.lstrip("+-").lstrip("0") or "0"
        if len(digits) > 9:
            raise InvalidEdit(trait, _too_long(text, label=label, minimum=minimum, maximum=maximum))
        text = ("-" if text.startswith("-") else "") + digits
    value = int(text)
    check_range(trait, value, label=label, minimum=minimum, maximum=maximum)
    return value


def _too_long(text: str, *, label: str, minimum: int | None, maximum: int | None) -> str:
    shown = _shown(text)
    low = text.startswith("-")
    if minimum is not None and maximum is not None:
        return f"{label} runs from {minimum} to {maximum}; {shown} is outside it."
    if low and minimum is not None:
        return f"{label} is at least {minimum}; {shown} is too low."
    if not low and maximum is not None:
        return f"{label} is at most {maximum}; {shown} is too high."
    return f"{label}: {shown} is out of range (9 digits at most)."


def check_range(
    trait: str, value: int, *, label: str, minimum: int | None, maximum: int | None
) -> None:
    """Refuse a value outside [minimum, maximum], naming the range."""
    low_out = minimum is not None and value < minimum
    high_out = maximum is not None and value > maximum
    if not (low_out or high_out):
        return
    if minimum is not None and maximum is not None:
        raise InvalidEdit(
            trait, f"{label} runs from {minimum} to {maximum}; {value} is outside it."
        )
    if low_out:
        raise InvalidEdit(trait, f"{label} is at least {minimum}; {value} is too low.")
    raise InvalidEdit(trait, f"{label} is at most {maximum}; {value} is too high.")


def parse_code(
    trait: str, raw: Any, *, label: str, minimum: int = 0, maximum: int | None = None
) -> int:
    """Read a die code ("4D+2", "4d", "+1D+1") into whole pips, within [minimum, maximum]."""
    try:
        code = DieCode.parse(str(raw))
    except DieCodeError as error:
        raise InvalidEdit(trait, f"{label}: {error}") from None
    pips = code.total_pips
    if pips < minimum:
        lowest = DieCode.from_pips(minimum)
        raise InvalidEdit(trait, f"{label} is at least {lowest}; “{_shown(raw)}” is too low.")
    if maximum is not None and pips > maximum:
        highest = DieCode.from_pips(maximum)
        raise InvalidEdit(trait, f"{label} is at most {highest}; “{_shown(raw)}” is too high.")
    return pips


def clean_text(
    trait: str, raw: Any, *, label: str, limit: int = TEXT_LIMIT, lines: bool = False
) -> str:
    """The one cleaner of typed text, for every system's traits and every name.

    One line has its runs of spaces collapsed; with `lines`, line breaks and tabs are
    kept. Control characters and lone surrogates are refused: PostgreSQL cannot store a
    NUL or a surrogate, and the others only break pages and PDFs. Then the length is capped.
    """
    text = str(raw).replace("\r\n", "\n").strip() if lines else " ".join(str(raw).split())
    if not storable(text, lines=lines):
        raise InvalidEdit(trait, f"{label} holds a character that cannot be stored.")
    if len(text) > limit:
        raise InvalidEdit(trait, f"{label} is limited to {limit} characters.")
    return text


def parse_text(trait: str, raw: Any, *, label: str, limit: int = TEXT_LIMIT) -> str:
    """Read one line of text: spaces collapsed, control characters refused, length capped."""
    return clean_text(trait, raw, label=label, limit=limit)


def parse_notes(trait: str, raw: Any, *, label: str, limit: int = NOTES_LIMIT) -> str:
    """Read free text that may span lines: line breaks kept, other control characters refused."""
    return clean_text(trait, raw, label=label, limit=limit, lines=True)


def storable(text: str, *, lines: bool = False) -> bool:
    """Whether `text` holds no control character (but line breaks and tabs with `lines`)
    and no lone surrogate."""
    allowed = "\n\t" if lines else ""
    return not any(_UNSTORABLE[ord(char)] and char not in allowed for char in text)


def printable(text: str) -> str:
    """`text` with every character that `storable` refuses replaced by "�": for text the
    server writes itself from what was typed, such as a revision's summary."""
    return "".join("\ufffd" if _UNSTORABLE[ord(char)] else char for char in text)


class _Unstorable(dict):
    """Code point -> refused? Control characters (Cc) and surrogates (Cs), looked up once."""

    def __missing__(self, point: int) -> bool:
        refused = unicodedata.category(chr(point)) in {"Cc", "Cs"}
        self[point] = refused
        return refused


_UNSTORABLE = _Unstorable()


def parse_choice(
    trait: str, raw: Any, choices: Iterable[tuple[str, str]] | type[E], *, label: str
) -> Any:
    """Read one of a fixed set of values; an Enum class or (value, label) pairs."""
    text = str(raw).strip()
    if isinstance(choices, type) and issubclass(choices, Enum):
        for member in choices:
            if text == str(member.value):
                return member
        allowed = ", ".join(str(member.value) for member in choices)
    else:
        pairs = list(choices)
        for value, shown in pairs:
            if text in (str(value), shown):
                return value
        allowed = ", ".join(shown for _value, shown in pairs)
    raise InvalidEdit(trait, f"{label}: choose one of {allowed}; “{_shown(raw)}” is not one.")


# Ids and versions fit a 64-bit database integer: 18 digits always do.
ID_NUMBER = re.compile(r"[0-9]{1,18}")


def ascii_number(raw: Any) -> int | None:
    """A form's id or version ("12") as a whole number, or None for anything else: empty,
    signed, "²" or other non-ASCII digits, or too long for the database (or for int())."""
    text = str(raw).strip()
    return int(text) if ID_NUMBER.fullmatch(text) else None


def parse_row_index(trait: str, raw: Any, rows: Sequence[Any], *, noun: str) -> int:
    """Read the 0-based row index in a trait key ("weapon.2.name" → 2) for a list of rows."""
    text = str(raw).strip()
    if not ROW_NUMBER.fullmatch(text):
        raise InvalidEdit(trait, f"“{_shown(raw)}” does not name a {noun} row.")
    index = int(text)
    if index >= len(rows):
        raise InvalidEdit(trait, f"There is no {noun} number {index + 1} on this sheet.")
    return index


def _shown(raw: Any) -> str:
    """Quote what was typed, cut short, so a refusal never echoes a whole upload."""
    text = str(raw)
    return text if len(text) <= 40 else text[:37] + "…"
