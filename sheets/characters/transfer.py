"""JSON export and import of one character.

The format (documented in README.md, "Character files"):

    {
      "format": "datapad-character",
      "schema_version": 1,
      "system": "swd10",
      "name": "Kira Dane",
      "rule_settings": {"attribute_free_dot": true},
      "sheet": { ... the system's sheet ... },
      "exported_at": "2026-11-22T10:00:00+00:00"
    }
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.core.parsing import printable
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.characters.models import Character
from sheets.characters.services import character_create, clean_name

FORMAT = "datapad-character"
SCHEMA_VERSION = 1
_KEYS = {"format", "schema_version", "system", "name", "rule_settings", "sheet", "exported_at"}


# A whole number in a sheet is small; a longer one is refused before Python converts it
# (which takes time quadratic in its length, and past 4,300 digits raises).
LONGEST_WHOLE_NUMBER = 20


class ImportRefused(ValueError):
    """The file cannot become a character; the message says why in plain words."""

    def __init__(self, message: str) -> None:
        # Messages quote the file; a lone surrogate there could not even be sent back.
        super().__init__(printable(message))


def size_label(size: int) -> str:
    """A file size the way people say it: "300 KB", "64.0 MB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{-(-size // 1024)} KB"


def too_large(size: int) -> ImportRefused:
    limit = settings.CHARACTER_IMPORT_MAX_BYTES
    return ImportRefused(
        f"The file is {size_label(size)}; a character file is at most {size_label(limit)}."
    )


def export_character(character: Character) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "system": character.system,
        "name": character.name,
        "rule_settings": character.readings_in_force,
        "sheet": character.sheet,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
    }


def _not_a_number(name: str) -> NoReturn:
    raise ImportRefused(f"The file holds {name}, which is not a number a sheet can store.")


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > LONGEST_WHOLE_NUMBER:
        raise ImportRefused(f"The file holds a number too large for a sheet ({text[:12]}…).")
    return int(text)


def _decimal_number(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        _not_a_number(text[:20])
    return value


def _parse(raw: bytes) -> dict[str, Any]:
    if len(raw) > settings.CHARACTER_IMPORT_MAX_BYTES:
        raise too_large(len(raw))
    try:
        data = json.loads(
            raw.decode("utf-8"),
            parse_constant=_not_a_number,
            parse_int=_whole_number,
            parse_float=_decimal_number,
        )
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ImportRefused(f"The file is not valid JSON ({error}).") from None
    except RecursionError:
        raise ImportRefused("The file is too deeply nested to be a character file.") from None
    except ImportRefused:
        raise
    except ValueError as error:
        raise ImportRefused(f"The file cannot be read ({error}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused("This is not a Datapad character file (its “format” is missing).")
    if data.get("schema_version") != SCHEMA_VERSION:
        shown = json.dumps(data.get("schema_version"))[:40]
        raise ImportRefused(
            f"This file uses schema version {shown}; this Datapad reads version {SCHEMA_VERSION}."
        )
    unknown = set(data) - _KEYS
    if unknown:
        raise ImportRefused(f"Unknown fields in the file: {', '.join(sorted(unknown))}.")
    return data


def _in_sheet(message: str) -> str:
    return "; ".join(f"sheet.{fault}" for fault in message.split("; "))


def import_character(*, owner: AbstractBaseUser, raw: bytes) -> Character:
    """Create a character from an exported file, or raise ImportRefused and create nothing."""
    data = _parse(raw)
    system = data.get("system")
    if not isinstance(system, str) or system not in SYSTEMS:
        raise ImportRefused(f"Unknown rule system {str(system)[:40]!r}.")
    if not SYSTEMS[system].ready:
        raise ImportRefused(f"{SYSTEMS[system].name} is not available yet.")
    ruleset = get_ruleset(system)
    chosen = data.get("rule_settings", {})
    if not isinstance(chosen, dict):
        raise ImportRefused("“rule_settings” must be a JSON object.")
    declared = {s.key: s for s in ruleset.SETTINGS}
    settings_clean = {}
    for key, value in chosen.items():
        if key not in declared:
            raise ImportRefused(f"Unknown rule reading “{key}” for {SYSTEMS[system].name}.")
        try:
            settings_clean[key] = declared[key].coerce(value)
        except ValueError as error:
            raise ImportRefused(str(error)) from None
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ImportRefused("“name” must be text: the character's name.")
    try:
        name = clean_name(name)
    except InvalidEdit as error:
        raise ImportRefused(str(error)) from None
    try:
        sheet = ruleset.validate_sheet(data.get("sheet"))
    except (InvalidEdit, InvalidSheet) as error:
        # Name the field at fault by its path in the file: "sheet.attributes.strength: ...".
        raise ImportRefused(_in_sheet(str(error))) from None
    return character_create(
        owner=owner,
        name=name,
        system=system,
        sheet=sheet,
        rule_settings=settings_clean,
        summary="Imported from a file",
    )
