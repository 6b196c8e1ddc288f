"""A compendium book as one JSON file: export, reading an upload, and the published schema.

The format (its JSON Schema, built from the same declarations, is served at
/schema/compendium-file.json):

    {
      "format": "datapad-compendium",
      "version": 1,
      "system": "weg_d6",
      "exported_at": "2026-11-27T10:00:00+00:00",
      "entries": [
        {"kind": "weapon", "hidden": false, "data": {"name": "Hold-out blaster", ...}},
        ...
      ]
    }

Each entry's `data` is what its kind's schema in the system's ruleset declares
(`rulesets/core/compendium.py`, `entry_json_schema`); the name is part of it. A file names
one rule system: it imports only into a book of that system. A reader of version 1 refuses
a later version rather than guess at it.

This module reads the file's shape only. Whether each entry is valid for its kind, and
what it adds or replaces in a book, is the compendium's import plan
(`sheets/compendium/services.py`).
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils import timezone

from rulesets.core.compendium import entry_json_schema
from rulesets.core.parsing import printable
from rulesets.registry import SYSTEMS, get_ruleset

FORMAT = "datapad-compendium"
VERSION = 1
READABLE_VERSIONS = (1,)
# A book of a thousand entries fits; an upload above is refused by its size before it is
# parsed. The preview carries the file compressed in its confirm form, whose fields Django
# takes up to 2.5 MB (DATA_UPLOAD_MAX_MEMORY_SIZE).
FILE_MAX_BYTES = 2 * 1024 * 1024
MOST_ENTRIES = 2000
_KEYS = {"format", "version", "system", "exported_at", "entries"}
_ENTRY_KEYS = {"kind", "data", "hidden"}
# A whole number in an entry is small; a longer one is refused before Python converts it.
LONGEST_WHOLE_NUMBER = 20


class FileRefused(ValueError):
    """The file cannot be read as a compendium of this book; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


class StoredEntry(Protocol):
    kind: str
    data: dict
    hidden: bool


@dataclass(frozen=True)
class FileEntry:
    """One entry as the file holds it; `fault` says why its shape cannot be read."""

    position: int  # 1-based, as a person counts the entries of the file
    kind: str
    data: dict
    hidden: bool
    fault: str = ""

    @property
    def name(self) -> str:
        name = self.data.get("name")
        return name if isinstance(name, str) else ""


def export_book(*, system: str, entries: Iterable[StoredEntry]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "system": system,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        "entries": [
            {"kind": entry.kind, "hidden": entry.hidden, "data": entry.data} for entry in entries
        ],
    }


def file_bytes(document: dict[str, Any]) -> bytes:
    return json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8")


def pack(raw: bytes) -> str:
    """The uploaded file, carried by the preview's confirm button (compressed, as text)."""
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")


def unpack(packed: str) -> bytes:
    """The file `pack` carried, or FileRefused; never more than the size limit."""
    try:
        squeezed = base64.b64decode(str(packed).encode("ascii"), validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(squeezed, FILE_MAX_BYTES + 1)
    except (ValueError, binascii.Error, zlib.error, UnicodeEncodeError):
        raise FileRefused("The confirmation lost its file: upload the file again.") from None
    if len(raw) > FILE_MAX_BYTES or inflater.unconsumed_tail:
        raise too_large(len(raw))
    return raw


def size_label(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{-(-size // 1024)} KB"


def too_large(size: int) -> FileRefused:
    return FileRefused(
        f"The file is {size_label(size)}; a compendium file is at most "
        f"{size_label(FILE_MAX_BYTES)}."
    )


def _whole_number(digits: str) -> int:
    if len(digits.lstrip("-")) > LONGEST_WHOLE_NUMBER:
        raise ValueError(f"a number of {len(digits)} digits")
    return int(digits)


def _parsed(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused("This is not a compendium file: it is not UTF-8 text.") from None
    try:
        return json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as broken:
        raise FileRefused(
            f"This is not a compendium file: its JSON is broken at line {broken.lineno}, "
            f"column {broken.colno} ({broken.msg})."
        ) from None
    except (ValueError, RecursionError):
        raise FileRefused("This is not a compendium file: its JSON cannot be read.") from None


def read_book_file(raw: bytes, *, system: str) -> list[FileEntry]:
    """The entries of a compendium file for a book of `system`, or FileRefused.

    A file that is not one, of another system or of a later version is refused whole; an
    entry whose shape is wrong is kept with its fault, so the import plan lists it.
    """
    if len(raw) > FILE_MAX_BYTES:
        raise too_large(len(raw))
    document = _parsed(raw)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise FileRefused(
            f'This is not a Datapad compendium file (its "format" is not "{FORMAT}").'
        )
    version = document.get("version")
    if type(version) is not int:
        raise FileRefused('The file does not say which version of the format it is ("version").')
    if version > VERSION:
        raise FileRefused(
            f"The file is version {version} of the compendium format, written by a newer "
            f"Datapad; this one reads version {VERSION}."
        )
    if version not in READABLE_VERSIONS:
        raise FileRefused(f"Version {version} of the compendium format is not one Datapad reads.")
    unknown = sorted(set(document) - _KEYS)
    if unknown:
        raise FileRefused(f"The file holds fields the format does not know: {', '.join(unknown)}.")
    theirs = document.get("system")
    if theirs != system:
        name = SYSTEMS[theirs].name if isinstance(theirs, str) and theirs in SYSTEMS else None
        mine = SYSTEMS[system].name
        raise FileRefused(
            f"The file holds {name} entries; this book is {mine}."
            if name
            else f"The file names no rule system Datapad knows; this book is {mine}."
        )
    entries = document.get("entries")
    if not isinstance(entries, list):
        raise FileRefused('The file has no list of "entries".')
    if len(entries) > MOST_ENTRIES:
        raise FileRefused(
            f"The file holds {len(entries)} entries; a compendium file holds at most "
            f"{MOST_ENTRIES}."
        )
    return [_entry(position, item) for position, item in enumerate(entries, start=1)]


def _entry(position: int, item: Any) -> FileEntry:
    if not isinstance(item, dict):
        return FileEntry(position, "", {}, False, "This entry is not an object.")
    kind, data, hidden = item.get("kind"), item.get("data"), item.get("hidden", False)
    unknown = sorted(str(key) for key in set(item) - _ENTRY_KEYS)
    fault = ""
    if unknown:
        fault = f"This entry holds fields the format does not know: {', '.join(unknown)}."
    elif not isinstance(kind, str) or not kind:
        fault = 'This entry does not say its "kind".'
    elif not isinstance(data, dict):
        fault = 'This entry has no "data" object.'
    elif type(hidden) is not bool:
        fault = '"hidden" is true or false.'
    return FileEntry(
        position,
        kind if isinstance(kind, str) else "",
        data if isinstance(data, dict) else {},
        hidden if type(hidden) is bool else False,
        fault,
    )


def compendium_file_schema() -> dict[str, Any]:
    """Describe the file `export_book` writes: the envelope, then each system's kinds."""
    definitions: dict[str, Any] = {}
    variants = []
    for key, info in SYSTEMS.items():
        kinds = []
        for kind in get_ruleset(key).COMPENDIUM_KINDS:
            schema = entry_json_schema(kind)
            prefix = f"{key}.{kind.key}"
            # Each kind's definitions move to the root under its own prefix, so their
            # references still resolve from the file's root.
            schema = json.loads(json.dumps(schema).replace('"#/$defs/', f'"#/$defs/{prefix}.'))
            for name, definition in schema.pop("$defs", {}).items():
                definitions[f"{prefix}.{name}"] = definition
            kinds.append(
                {
                    "title": f"{info.name}: {kind.label}",
                    "properties": {"kind": {"const": kind.key}, "data": schema},
                }
            )
        variants.append(
            {
                "title": info.name,
                "properties": {
                    "system": {"const": key},
                    "entries": {"items": {"oneOf": kinds} if kinds else False},
                },
            }
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Datapad compendium file",
        "type": "object",
        "required": ["format", "version", "system", "entries"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "system": {"enum": list(SYSTEMS)},
            "exported_at": {"type": "string"},
            "entries": {
                "type": "array",
                "maxItems": MOST_ENTRIES,
                "items": {
                    "type": "object",
                    "required": ["kind", "data"],
                    "additionalProperties": False,
                    "properties": {
                        "kind": {"type": "string"},
                        "hidden": {"type": "boolean"},
                        "data": {"type": "object"},
                    },
                },
            },
        },
        "oneOf": variants,
        "$defs": definitions,
    }
