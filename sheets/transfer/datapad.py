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
      "entries": [{"ref": "entry:12", "kind": "species", "name": "Twi'lek", "version": 2,
                   "data": {...}}, ...],
      "exported_at": "2026-11-22T10:00:00+00:00"
    }

Version 1 files (no ledger, history or adventure) still import. The ledger keeps its
entries' dates, authors' names and which purchase each refund undoes; the history keeps
every revision (sheets/history/revisions.py), so the imported character's versions and diffs are the
exported one's, and one more revision says who imported it.

"entries" (optional) carries the compendium entries the sheet picked from a book (the
rulebook's own, "seed:..." refs, need none), each at the version the sheet took. An import
lands outside any table, so the entries go to the importer's own book of the system, the
one the sheet then picks from: an entry of the same kind and name already there is used
(matched by name, not added twice; its version is kept on the sheet when the data are the
same, else 0, so the sheet says the book's entry differs from what it took), any other is
added. A ref the file does not carry becomes "gone:<ref>": the sheet keeps its snapshot and
never points at an unrelated entry of this Datapad.
"""

from __future__ import annotations

import copy
import json
from typing import Any, NoReturn

import orjson
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from pydantic import ValidationError

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.core.compendium import InvalidEntry, find_kind, validate_entry
from rulesets.core.parsing import printable, storable
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.advancement.models import LedgerEntry, Training
from sheets.characters.models import Character
from sheets.characters.services import NAME_MAX_LENGTH, clean_name
from sheets.compendium.models import Book, CompendiumEntry, EntryVersion
from sheets.compendium.records import entry_create
from sheets.history.models import Revision
from sheets.history.revisions import (
    CHANGES_KEPT,
    HistoryBroken,
    change_lines,
    diff_ops,
    kept_lines,
    record_revision,
    revert_ops,
    state_at,
)
from sheets.transfer.records import (
    MOST_AMOUNT,
    MOST_ENTRIES,
    MOST_REVISIONS,
    EntryRecord,
    RevisionRecord,
    describe,
    moment,
)

FORMAT = "datapad-character"
SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)
_KEYS_V1 = {"format", "schema_version", "system", "name", "rule_settings", "sheet", "exported_at"}
_KEYS = _KEYS_V1 | {"adventure", "ledger", "history", "entries"}
# The compendium entries a file carries (at most one per entry a sheet records).
MOST_FILE_ENTRIES = 200
_ENTRY_KEYS = ("ref", "kind", "name", "version", "data")
ENTRIES_SCHEMA = {
    "type": "array",
    "maxItems": MOST_FILE_ENTRIES,
    "description": "the compendium entries the sheet picked, each at the version it took",
    "items": {
        "type": "object",
        "additionalProperties": False,
        "required": list(_ENTRY_KEYS),
        "properties": {
            "ref": {"type": "string", "pattern": "^entry:[0-9]{1,18}$"},
            "kind": {"type": "string", "maxLength": 40},
            "name": {"type": "string", "minLength": 1, "maxLength": 80},
            "version": {"type": "integer", "minimum": 1},
            "data": {"type": "object", "description": "the entry as its kind's schema holds it"},
        },
    },
}


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


def _full_export(character: Character) -> dict[str, Any]:
    """The whole file: every revision, however many."""
    revisions = character.revisions.select_related("author").order_by("version")
    entries = list(character.ledger.select_related("author", "training").order_by("pk"))
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
                "unchanged": entry.unchanged,
                "training": _training_of(entry),
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
        "entries": _entries_of(character),
        "exported_at": timezone.now().isoformat(timespec="seconds"),
    }


# What a WEG purchase's training keeps (a raise waiting for its end among them).
TRAINING_FIELDS = (
    "days",
    "full_days",
    "minimum_days",
    "extra",
    "unit",
    "taught",
    "explanation",
    "source",
    "days_done",
    "finished",
    "note",
    "holds_raise",
    "new_value",
    "ended_version",
    "refunded",
)


def _training_of(entry: LedgerEntry) -> dict | None:
    found = getattr(entry, "training", None)
    if found is None:
        return None
    return {name: getattr(found, name) for name in TRAINING_FIELDS}


def _entries_of(character: Character) -> list[dict]:
    """The stored entries the sheet records, each as the version it took (a hidden entry is
    its GMs' secret and stays out: the sheet's snapshot has what it needs)."""
    refs = get_ruleset(character.system).entry_refs(character.sheet)
    wanted = {}
    for kind, ref, version in refs:
        where, _, pk = ref.partition(":")
        if where == "entry" and pk.isdigit() and len(pk) <= 18:
            wanted.setdefault(int(pk), (kind, ref, version))
    found = CompendiumEntry.objects.filter(pk__in=wanted, hidden=False)
    taken = {
        (v.entry_id, v.version): v
        for v in EntryVersion.objects.filter(entry__in=found).only("entry", "version", "data")
    }
    entries = []
    for entry in found.order_by("pk"):
        kind, ref, version = wanted[entry.pk]
        then = taken.get((entry.pk, version))
        data = then.data if then is not None else entry.data
        shown = version if then is not None else entry.version
        entries.append(
            {
                "ref": ref,
                "kind": entry.kind,
                "name": data.get("name", entry.name),
                "version": max(shown, 1),
                "data": data,
            }
        )
    return entries[:MOST_FILE_ENTRIES]


def file_bytes(data: Any) -> bytes:
    """A character file as the export sends it (indented, so a person can read it).

    orjson writes what json.dumps(indent=2) writes, some ten times faster: the export
    measures every revision of a long history. What it refuses (a lone surrogate stored
    before text was checked, a number past 64 bits) json writes, escaped, so such a sheet
    still exports, and its import says what is wrong.
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        return json.dumps(data, indent=2).encode()


def export_character(character: Character) -> dict[str, Any]:
    """The character file of `character`, small enough to be imported again.

    Every write adds a revision, so a long-played sheet's history outgrows the import's
    size limit (some 1,800 saves of a 2 KB note make 8 MB). The newest revisions then go
    in whole; the oldest but the first are merged into one revision, which turns the first
    version into the last one merged. The versions the ledger names stay as they were.
    """
    data = _full_export(character)
    history = data["history"]
    limit = settings.CHARACTER_IMPORT_MAX_BYTES
    if len(history) <= MOST_REVISIONS and len(file_bytes(data)) <= limit:
        return data
    envelope = len(file_bytes(data | {"history": []}))
    sizes = [_size_in_file(file_bytes(revision)) for revision in history]
    # The first revision, the merged one and the newest kept; the merged one is about the
    # size of the sheet twice over.
    room = limit - envelope - sizes[0] - 2 * len(file_bytes(data["sheet"])) - 4096
    kept, used = 0, 0
    while kept < len(history) - 2 and kept < MOST_REVISIONS - 2 and used + sizes[-1 - kept] <= room:
        used += sizes[-1 - kept]
        kept += 1
    while True:
        data["history"] = _compacted(character, history, kept)
        if len(file_bytes(data)) <= limit or kept == 0:
            return data
        # The merged revision came out larger than thought: keep fewer.
        kept = kept * 9 // 10


def _size_in_file(dumped: bytes) -> int:
    # Two levels into the file, each line of a revision is four spaces further in.
    return len(dumped) + 4 * dumped.count(b"\n") + 6


def _compacted(character: Character, history: list[dict], kept: int) -> list[dict]:
    """The first revision, one merging the next ones, and the newest `kept` revisions."""
    first, merged, newest = (
        history[0],
        history[1 : len(history) - kept],
        history[len(history) - kept :],
    )
    if not merged:
        return history
    last = merged[-1]
    try:
        before = state_at(character, first["version"])
        after = state_at(character, last["version"])
    except HistoryBroken:
        # A history that does not lead back cannot be merged; its newest part still can go.
        return newest
    try:
        lines = change_lines(character.system, before, after, character.readings_in_force)
    except HistoryBroken:
        lines = []
    authors = {revision["author"] for revision in merged}
    summary = (
        f"Versions {merged[0]['version']} to {last['version']}, merged in an exported file "
        f"({len(merged)} revisions)"
    )
    return [
        first,
        {
            "version": last["version"],
            "created_at": last["created_at"],
            "author": authors.pop() if len(authors) == 1 else "",
            "summary": summary[:200],
            "ops": diff_ops(before, after),
            "changes": kept_lines(lines),
            "changes_more": max(0, len(lines) - CHANGES_KEPT),
        },
        *newest,
    ]


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
    carried = _file_entries(data.get("entries", []), system)
    with transaction.atomic():
        sheet = _rehomed(sheet, ruleset, _entries_into_book(owner, system, carried))
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
        # The file's sheet as the engine reads it is its normal form, the one stored: the
        # defaults validation filled in change nothing a player reads (and the engine,
        # which reads only whole sheets, is never asked about the file's raw one).
        record_revision(
            character,
            owner,
            "Imported from a file",
            exported if history else {},
            judged=(sheet, sheet),
        )
    return character


def _file_entries(raw: Any, system: str) -> list[dict]:
    """The file's compendium entries, each valid for its kind; ImportRefused names a fault."""
    if not isinstance(raw, list) or len(raw) > MOST_FILE_ENTRIES:
        raise ImportRefused(f"“entries” must be a list of at most {MOST_FILE_ENTRIES} entries.")
    kinds = get_ruleset(system).COMPENDIUM_KINDS
    checked = []
    for number, item in enumerate(raw, start=1):
        where = f"compendium entry {number}"
        if not isinstance(item, dict) or set(item) != set(_ENTRY_KEYS):
            raise ImportRefused(f"{where}: it holds exactly {', '.join(_ENTRY_KEYS)}.")
        ref, version = item["ref"], item["version"]
        where_, _, pk = str(ref).partition(":")
        if where_ != "entry" or not pk.isdigit() or len(pk) > 18:
            raise ImportRefused(f"{where}: “ref” must be “entry:” and a number.")
        if type(version) is not int or not 1 <= version <= MOST_AMOUNT:
            raise ImportRefused(f"{where}: “version” must be a whole number from 1.")
        try:
            kind = find_kind(kinds, str(item["kind"]))
            clean = validate_entry(kind, item["data"])
        except InvalidEntry as refused:
            faults = "; ".join(f"{key}: {message}" for key, message in refused.errors.items())
            raise ImportRefused(f"{where}: {faults}") from None
        checked.append({"ref": ref, "kind": kind.key, "version": version, "data": clean})
    return checked


def _entries_into_book(
    owner: AbstractBaseUser, system: str, carried: list[dict]
) -> dict[str, tuple[str, int]]:
    """Put the file's entries in the importer's own book (see the module's note); return
    each file ref's new (ref, version)."""
    book = Book(system=system, owner=owner)
    moved: dict[str, tuple[str, int]] = {}
    for item in carried:
        name = item["data"]["name"]
        same = next(
            (
                entry
                for entry in book.entries().filter(kind=item["kind"])
                if entry.name.casefold() == name.casefold()
            ),
            None,
        )
        if same is None:
            try:
                same = entry_create(user=owner, book=book, kind=item["kind"], data=item["data"])
            except InvalidEntry as refused:
                raise ImportRefused(
                    f"compendium entry “{name}”: " + " ".join(refused.errors.values())
                ) from None
        moved[item["ref"]] = (same.ref, same.version if same.data == item["data"] else 0)
    return moved


def _rehomed(sheet: dict, ruleset: Any, moved: dict[str, tuple[str, int]]) -> dict:
    """The sheet with each stored entry's ref it records pointing at this Datapad's entry
    (`moved`), or marked gone: never at whatever entry has the same number here."""
    keys = {"kind", "ref", "version"}

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == keys and str(value["ref"]).startswith("entry:"):
                ref, version = moved.get(value["ref"], (f"gone:{value['ref']}", value["version"]))
                return {"kind": value["kind"], "ref": ref, "version": version}
            return {key: walk(inner) for key, inner in value.items()}
        if isinstance(value, list):
            return [walk(inner) for inner in value]
        return value

    if not any(ref.startswith("entry:") for _, ref, _ in ruleset.entry_refs(sheet)):
        return sheet
    return ruleset.validate_sheet(walk(sheet))


def _record(model: type, item: Any, where: str) -> Any:
    """`item` checked against its declared shape; ImportRefused names the faults in it."""
    try:
        return model.model_validate(item)
    except ValidationError as error:
        raise ImportRefused(f"{where}: {describe(error)}.") from None


def _history(raw: Any) -> list[dict]:
    """The file's revisions, checked, oldest first; ImportRefused names the first fault."""
    if not isinstance(raw, list) or len(raw) > MOST_REVISIONS:
        raise ImportRefused(f"“history” must be a list of at most {MOST_REVISIONS} revisions.")
    revisions, previous = [], 0
    for number, item in enumerate(raw, start=1):
        where = f"history revision {number}"
        record = _record(RevisionRecord, item, where)
        if record.version <= previous:
            raise ImportRefused(
                f"{where}: “version” must be a whole number from {previous + 1} "
                f"(the versions go up)."
            )
        revisions.append(
            {
                "version": record.version,
                "created_at": moment(record.created_at),
                "author": record.author,
                "summary": record.summary,
                # Checked, never cleaned: the operations are stored as the file wrote them.
                "ops": item["ops"],
                "changes": record.changes,
                "changes_more": record.changes_more,
            }
        )
        previous = record.version
    return revisions


def _state_fault(state: dict) -> str:
    """What makes a rebuilt state no state a character could have had ("" when none)."""
    name = state.get("name")
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > NAME_MAX_LENGTH
        or not storable(name)
    ):
        # A restore writes it back as the character's name.
        return f"its name is not text of 1 to {NAME_MAX_LENGTH} characters"
    if not isinstance(state.get("settings"), dict):
        return "its rule readings are not an object"
    if not isinstance(state.get("sheet"), dict):
        return "its sheet is not an object"
    return ""


def _check_leads_back(exported: dict, history: list[dict]) -> None:
    """Every version the history names can be rebuilt from the file's sheet.

    Each earlier state must still be a name, readings and a sheet: the history page, its
    diff and restore read them. (Their sheets are judged by today's schema when read.)
    """
    state = copy.deepcopy(exported)
    for position in range(len(history) - 1, -1, -1):
        revision = history[position]
        try:
            revert_ops(state, revision["ops"])
        except HistoryBroken:
            raise ImportRefused(
                f"The history in the file does not lead back from its sheet (at version "
                f"{revision['version']})."
            ) from None
        # Before version 1 there is nothing (a creation reverts to empty), and no page asks.
        fault = _state_fault(state) if revision["version"] > 1 else ""
        if fault:
            raise ImportRefused(
                f"The history in the file leads back to a version {revision['version'] - 1} "
                f"where {fault}."
            )


def _ledger(raw: Any, last_version: int) -> list[dict]:
    """The file's ledger entries, checked, in order; refunds name an earlier entry."""
    if not isinstance(raw, list) or len(raw) > MOST_ENTRIES:
        raise ImportRefused(f"“ledger” must be a list of at most {MOST_ENTRIES} entries.")
    entries: dict[int, dict] = {}
    undone: set[int] = set()
    for number, item in enumerate(raw, start=1):
        where = f"ledger entry {number}"
        record = _record(EntryRecord, item, where)
        if record.id in entries:
            raise ImportRefused(f"{where}: id {record.id} is used twice.")
        undoes = record.undoes
        if undoes is not None and (undoes not in entries or undoes in undone):
            raise ImportRefused(f"{where} undoes an entry that is not earlier in the file.")
        if record.version > max(last_version, 1):
            raise ImportRefused(
                f"{where}: “version” must be a whole number from 1 to {max(last_version, 1)} "
                "(a version of the history)."
            )
        entries[record.id] = record.model_dump(exclude={"id"}) | {
            "created_at": moment(record.created_at)
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
                if key not in ("id", "undoes", "author", "created_at", "training")
            },
            # The file's author is a name from elsewhere, no account here: none is kept.
            # Its points count at a table once that table's GM accepts them.
            imported=True,
        )
        if item.get("training") is not None:
            Training.objects.create(
                entry=stored[item["id"]],
                character=character,
                trait_label=item["trait_label"],
                **item["training"],
            )
    # created_at is set on creation; the file's dates are put back afterwards.
    for item in ledger:
        stored[item["id"]].created_at = item["created_at"]
    LedgerEntry.objects.bulk_update(stored.values(), ["created_at"])
