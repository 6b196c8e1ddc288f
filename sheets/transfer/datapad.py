"""JSON export and import of one character, with its ledger and its history.

The format (documented in README.md, "Character files"):

    {
      "format": "datapad-character",
      "schema_version": 2,
      "system": "swd10",
      "name": "Kira Dane",
      "rule_settings": {"attribute_free_dot": true},
      "sheet": { ... the system's sheet ... },
      "adventure": 1,
      "ledger": [{"id": 1, "kind": "award", "amount": 10, "unit": "XP", ...}, ...],
      "history": [{"version": 1, "summary": "Created", "ops": [...], ...}, ...],
      "exported_at": "2026-11-22T10:00:00+00:00"
    }

Version 1 files (no ledger, history or adventure) still import. The ledger keeps its
entries' dates, authors' names and which purchase each refund undoes; the history keeps
every revision (sheets/history/revisions.py), so the imported character's versions and diffs are the
exported one's, and one more revision says who imported it.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.core.parsing import printable
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import clean_name
from sheets.history.models import Revision
from sheets.history.revisions import (
    CHANGES_KEPT,
    HistoryBroken,
    check_ops,
    record_revision,
    revert_ops,
)

FORMAT = "datapad-character"
SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)
_KEYS_V1 = {"format", "schema_version", "system", "name", "rule_settings", "sheet", "exported_at"}
_KEYS = _KEYS_V1 | {"adventure", "ledger", "history"}
_REVISION_KEYS = {"version", "created_at", "author", "summary", "ops", "changes", "changes_more"}
_ENTRY_KEYS = {
    "id",
    "kind",
    "amount",
    "unit",
    "trait",
    "trait_label",
    "from_value",
    "to_value",
    "reason",
    "teacher",
    "author",
    "created_at",
    "version",
    "undoes",
    "adventure",
    "pending",
    "carried",
}
# Far above what play makes (a write a minute for years), far below what would strain a
# request: the file's size limit bounds them too.
MOST_REVISIONS = 20_000
MOST_ENTRIES = 20_000
MOST_AMOUNT = 10**9


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
    revisions = character.revisions.select_related("author").order_by("version")
    entries = list(character.ledger.select_related("author").order_by("pk"))
    number = {entry.pk: index for index, entry in enumerate(entries, start=1)}
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "system": character.system,
        "name": character.name,
        "rule_settings": character.readings_in_force,
        "sheet": character.sheet,
        "adventure": character.adventure,
        "ledger": [
            {
                "id": number[entry.pk],
                "kind": entry.kind,
                "amount": entry.amount,
                "unit": entry.unit,
                "trait": entry.trait,
                "trait_label": entry.trait_label,
                "from_value": entry.from_value,
                "to_value": entry.to_value,
                "reason": entry.reason,
                "teacher": entry.teacher,
                "author": entry.author.get_username() if entry.author else "",
                "created_at": entry.created_at.isoformat(),
                "version": entry.version,
                "undoes": number.get(entry.undoes_id),
                "adventure": entry.adventure,
                "pending": entry.pending,
                "carried": entry.carried,
            }
            for entry in entries
        ],
        "history": [
            {
                "version": revision.version,
                "created_at": revision.created_at.isoformat(),
                "author": revision.author.get_username()
                if revision.author
                else revision.author_name,
                "summary": revision.summary,
                "ops": revision.ops,
                "changes": revision.changes,
                "changes_more": revision.changes_more,
            }
            for revision in revisions
        ],
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
    version = data.get("schema_version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        shown = json.dumps(version)[:40]
        raise ImportRefused(
            f"This file uses schema version {shown}; this Datapad reads versions "
            f"{READABLE_VERSIONS[0]} to {READABLE_VERSIONS[-1]}."
        )
    unknown = set(data) - (_KEYS_V1 if version == 1 else _KEYS)
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
    adventure = data.get("adventure", 1)
    if type(adventure) is not int or not 1 <= adventure <= MOST_AMOUNT:
        raise ImportRefused("“adventure” must be a whole number from 1.")
    history = _history(data.get("history", []))
    last = history[-1]["version"] if history else 0
    ledger = _ledger(data.get("ledger", []), last)
    # The state the history ends at: what the file holds, before this Datapad cleaned it.
    exported = {"name": data.get("name", ""), "settings": chosen, "sheet": data.get("sheet")}
    if history:
        _check_leads_back(exported, history)
    with transaction.atomic():
        character = Character.objects.create(
            owner=owner,
            name=name,
            system=system,
            sheet=sheet,
            rule_settings=settings_clean,
            adventure=adventure,
            version=last + 1,
        )
        Revision.objects.bulk_create(
            Revision(
                character=character,
                author_name=revision["author"],
                created_at=revision["created_at"],
                version=revision["version"],
                summary=revision["summary"],
                ops=revision["ops"],
                changes=revision["changes"],
                changes_more=revision["changes_more"],
            )
            for revision in history
        )
        _store_ledger(character, ledger)
        record_revision(character, owner, "Imported from a file", exported if history else {})
    return character


def _text(value: Any, what: str, limit: int, *, lines: bool = False) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ImportRefused(f"{what} must be text of at most {limit} characters.")
    if printable(value) != value or any(ord(c) < 32 and not (lines and c in "\n\t") for c in value):
        raise ImportRefused(f"{what} holds a character that cannot be stored.")
    return value


def _whole(value: Any, what: str, minimum: int, maximum: int = MOST_AMOUNT) -> int:
    if type(value) is not int or not minimum <= value <= maximum:
        raise ImportRefused(f"{what} must be a whole number from {minimum} to {maximum}.")
    return value


def _moment(value: Any, what: str) -> datetime:
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None or moment.tzinfo is None:
        raise ImportRefused(f"{what} must be a date and time with its offset (ISO 8601).")
    return moment


def _history(raw: Any) -> list[dict]:
    """The file's revisions, checked, oldest first; ImportRefused names the first fault."""
    if not isinstance(raw, list) or len(raw) > MOST_REVISIONS:
        raise ImportRefused(f"“history” must be a list of at most {MOST_REVISIONS} revisions.")
    revisions, previous = [], 0
    for number, item in enumerate(raw, start=1):
        where = f"history revision {number}"
        if not isinstance(item, dict) or set(item) - _REVISION_KEYS or "ops" not in item:
            raise ImportRefused(f"{where} is not a revision (version, summary, ops…).")
        version = _whole(item.get("version"), f"{where}: “version”", previous + 1)
        try:
            ops = check_ops(item["ops"])
        except ValueError as error:
            raise ImportRefused(f"{where}: {error}") from None
        changes = item.get("changes", [])
        if not isinstance(changes, list) or len(changes) > CHANGES_KEPT:
            raise ImportRefused(f"{where}: “changes” is a list of at most {CHANGES_KEPT}.")
        for line in changes:
            if not isinstance(line, list) or len(line) != 3:
                raise ImportRefused(f"{where}: a change is [label, before, after].")
            _text(line[0], f"{where}: a change's label", 200)
            for value in line[1:]:
                if value is not None:
                    _text(value, f"{where}: a changed value", 2000, lines=True)
        revisions.append(
            {
                "version": version,
                "created_at": _moment(item.get("created_at"), f"{where}: “created_at”"),
                "author": _text(item.get("author", ""), f"{where}: “author”", 150),
                "summary": _text(item.get("summary", ""), f"{where}: “summary”", 200),
                "ops": ops,
                "changes": changes,
                "changes_more": _whole(item.get("changes_more", 0), f"{where}: “changes_more”", 0),
            }
        )
        previous = version
    return revisions


def _check_leads_back(exported: dict, history: list[dict]) -> None:
    state = copy.deepcopy(exported)
    try:
        for revision in reversed(history):
            revert_ops(state, revision["ops"])
    except HistoryBroken:
        raise ImportRefused(
            f"The history in the file does not lead back from its sheet (at version "
            f"{revision['version']})."
        ) from None


def _ledger(raw: Any, last_version: int) -> list[dict]:
    """The file's ledger entries, checked, in order; refunds name an earlier entry."""
    if not isinstance(raw, list) or len(raw) > MOST_ENTRIES:
        raise ImportRefused(f"“ledger” must be a list of at most {MOST_ENTRIES} entries.")
    kinds = set(LedgerEntry.Kind.values)
    entries: dict[int, dict] = {}
    undone: set[int] = set()
    for number, item in enumerate(raw, start=1):
        where = f"ledger entry {number}"
        if not isinstance(item, dict) or set(item) - _ENTRY_KEYS:
            raise ImportRefused(f"{where} is not a ledger entry (kind, amount, unit…).")
        ident = _whole(item.get("id"), f"{where}: “id”", 1)
        if ident in entries:
            raise ImportRefused(f"{where}: id {ident} is used twice.")
        undoes = item.get("undoes")
        if undoes is not None and (undoes not in entries or undoes in undone):
            raise ImportRefused(f"{where} undoes an entry that is not earlier in the file.")
        if item.get("kind") not in kinds:
            raise ImportRefused(f"{where}: “kind” is one of {', '.join(sorted(kinds))}.")
        for flag in ("pending", "carried"):
            if type(item.get(flag, False)) is not bool:
                raise ImportRefused(f"{where}: “{flag}” is true or false.")
        entries[ident] = {
            "kind": item["kind"],
            "amount": _whole(item.get("amount"), f"{where}: “amount”", -MOST_AMOUNT),
            "unit": _text(item.get("unit", ""), f"{where}: “unit”", 20),
            "trait": _text(item.get("trait", ""), f"{where}: “trait”", 200),
            "trait_label": _text(item.get("trait_label", ""), f"{where}: “trait_label”", 200),
            "from_value": _text(item.get("from_value", ""), f"{where}: “from_value”", 100),
            "to_value": _text(item.get("to_value", ""), f"{where}: “to_value”", 100),
            "reason": _text(item.get("reason", ""), f"{where}: “reason”", 500, lines=True),
            "teacher": _text(item.get("teacher", ""), f"{where}: “teacher”", 100),
            "author": _text(item.get("author", ""), f"{where}: “author”", 150),
            "created_at": _moment(item.get("created_at"), f"{where}: “created_at”"),
            "version": _whole(item.get("version"), f"{where}: “version”", 1, max(last_version, 1)),
            "undoes": undoes,
            "adventure": _whole(item.get("adventure", 1), f"{where}: “adventure”", 1),
            "pending": item.get("pending", False),
            "carried": item.get("carried", False),
        }
        if undoes is not None:
            undone.add(undoes)
    if sum(entry["amount"] for entry in entries.values()) < 0:
        raise ImportRefused("The ledger in the file spends more than it was given.")
    return [{"id": ident} | entry for ident, entry in entries.items()]


def _store_ledger(character: Character, ledger: list[dict]) -> None:
    stored: dict[int, LedgerEntry] = {}
    for item in ledger:
        stored[item["id"]] = LedgerEntry.objects.create(
            character=character,
            undoes=stored.get(item["undoes"]) if item["undoes"] is not None else None,
            **{
                key: value
                for key, value in item.items()
                if key not in ("id", "undoes", "author", "created_at")
            },
            # The file's author is a name from elsewhere, no account here: none is kept.
        )
    # created_at is set on creation; the file's dates are put back afterwards.
    for item in ledger:
        stored[item["id"]].created_at = item["created_at"]
    LedgerEntry.objects.bulk_update(stored.values(), ["created_at"])
