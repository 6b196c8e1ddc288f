"""Other tools' character files: which format a file is, and its reader.

The upload never asks which tool a file came from: `recognise` tries each format's
signature (the fields its tool always writes) and names the format, or says plainly what
the file is not. Each reader is a module of this package with KEY, LABEL, SYSTEM,
`detect(data)` and `read(data, **answers) -> Reading`.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from sheets.transfer.formats import (
    cthunline,
    foundry,
    foundry_od6s,
    foundry_wod20,
    roll20_d6,
    swd6_builder,
    swd6_sheet,
)
from sheets.transfer.formats.base import (
    FOREIGN_MAX_BYTES,
    FormatRefused,
    NeedsMinimums,
    Reading,
    size_text,
)

READERS: tuple[ModuleType, ...] = (
    foundry_od6s,
    foundry_wod20,
    swd6_builder,
    swd6_sheet,
    cthunline,
    roll20_d6,
)
BY_KEY = {reader.KEY: reader for reader in READERS}
DATAPAD_LABEL = "Datapad character files (.datapad.json)"
# Longer numbers are refused before Python converts them (quadratic in their length).
LONGEST_NUMBER = 20

__all__ = [
    "BY_KEY",
    "READERS",
    "FormatRefused",
    "NeedsMinimums",
    "Reading",
    "known",
    "parse",
    "read",
    "recognise",
]


def known() -> str:
    """The formats Datapad reads, as a sentence's list."""
    return "; ".join([DATAPAD_LABEL, *(reader.LABEL for reader in READERS)])


def _refuse_constant(name: str) -> Any:
    raise FormatRefused(f"The file holds {name}, which is not a number a sheet can store.")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > LONGEST_NUMBER:
        raise FormatRefused(f"The file holds a number too large for a sheet ({text[:12]}…).")
    return int(text)


def _decimal(text: str) -> float:
    if len(text) > 40:
        raise FormatRefused(f"The file holds a number too long for a sheet ({text[:12]}…).")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        _refuse_constant(text[:20])
    return value


def parse(raw: bytes) -> Any:
    """The JSON of an upload, or FormatRefused saying why it is none."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FormatRefused(
            f"The file is not text (not UTF-8 JSON): not a file Datapad knows; it knows: {known()}."
        ) from None
    try:
        return json.loads(
            text, parse_constant=_refuse_constant, parse_int=_whole, parse_float=_decimal
        )
    except json.JSONDecodeError as error:
        raise FormatRefused(f"The file is not valid JSON ({error}).") from None
    except RecursionError:
        raise FormatRefused("The file is too deeply nested to be a character file.") from None
    except ValueError as error:
        if isinstance(error, FormatRefused):
            raise
        raise FormatRefused(f"The file cannot be read ({error}).") from None


def recognise(data: Any) -> ModuleType:
    """The reader of `data`'s format, or FormatRefused naming what it is instead."""
    for reader in READERS:
        if reader.detect(data):
            return reader
    if foundry.is_actor(data):
        game = foundry.system_id(data)
        what = (
            f"of the “{game[:40]}” game system"
            if game
            else "of a game system Datapad does not read"
        )
        raise FormatRefused(
            f"This is a Foundry VTT actor {what}. Datapad imports Foundry actors of OD6S (into "
            "WEG d6) and of World of Darkness 20th (into SWd10)."
        )
    if cthunline.is_record(data):
        raise FormatRefused(
            f"This is a cthunline character of “{str(data['gameId'])[:40]}”. Datapad imports "
            "cthunline's Star Wars D6 (starWarsD6) characters."
        )
    if roll20_d6.is_export(data):
        raise FormatRefused(
            "This is a Roll20 character of another character sheet. Datapad imports characters "
            "of Roll20's D6StarWars sheet."
        )
    if isinstance(data, dict) and data.get("format") == "datapad-compendium":
        raise FormatRefused("This is a compendium file: import it on a compendium's page.")
    raise FormatRefused(f"This is not a file Datapad knows; it knows: {known()}.")


def read(raw: bytes, answers: dict | None = None) -> Reading:
    """Read an upload of a known foreign format into a sheet, or refuse it.

    `answers` are what the person importing gave when asked (a species' limits). A reader's
    own mistakes on a hostile file are refusals too: nothing it raises reaches the page as
    a server error.
    """
    if len(raw) > FOREIGN_MAX_BYTES:
        raise FormatRefused(
            f"The file is {size_text(len(raw))}; a file of another tool is at most "
            f"{size_text(FOREIGN_MAX_BYTES)}."
        )
    data = parse(raw)
    reader = recognise(data)
    try:
        return reader.read(data, **(answers or {}))
    except (FormatRefused, NeedsMinimums):
        raise
    except RecursionError:
        raise FormatRefused("The file is too deeply nested to be a character file.") from None
