"""The history and the ledger of a character file, declared once as pydantic models.

The sheet has its schema in its system (`rulesets/<key>/sheet.py`); these are the same kind
of declaration for the rest of the file, so the history and the ledger are held to the same
rigour: exact types, no coercion, text that can be stored (no NUL, no lone surrogate, no
control character but line breaks and tabs), known operations only. The published JSON
Schema (sheets/transfer/schema.py) is generated from them, so the two cannot drift apart.

Validation refuses and never cleans: what passes is stored as the file wrote it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any

from django.utils.dateparse import parse_datetime
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from rulesets.core.schema import flag, one_of, text, whole
from sheets.history.revisions import CHANGES_KEPT

# Far above what play makes (a write a minute for years), far below what would strain a
# request: the file's size limit bounds them too.
MOST_REVISIONS = 20_000
MOST_ENTRIES = 20_000
MOST_AMOUNT = 10**9
# A stored state is {"name", "settings", "sheet"}: every path starts at one of them.
ROOTS = ("name", "settings", "sheet")
# A sheet nests a few levels deep (sheet, list, row, field); a value of an operation is a
# part of one. Deeper is no sheet, and would only strain the database's JSON.
DEEPEST_VALUE = 32
LONGEST_STEP = 200
MOST_STEPS = 32
KINDS = ("award", "purchase", "refund", "correction")

# What `rulesets.core.parsing.storable(..., lines=True)` refuses, as one pattern: control
# characters (C0, DEL, C1) but line feed and tab, and lone surrogates. A regular
# expression, since a history may hold megabytes of text.
_UNSTORABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _fault(error_type: str, message: str, **context: Any) -> PydanticCustomError:
    return PydanticCustomError(error_type, message, context)


def _check_text(value: str) -> None:
    if _UNSTORABLE.search(value):
        raise _fault("text_control", "text holds a character that cannot be stored")


def _check_stored(value: Any) -> Any:
    """A JSON value whose every text (keys too) can be stored, nested at most DEEPEST_VALUE."""
    # A stack, not recursion: the file decides how deep it goes.
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > DEEPEST_VALUE:
            raise _fault("too_deep", "nested deeper than a sheet goes")
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                _check_text(key)
                stack.append((inner, depth + 1))
        elif item is not None and type(item) not in (bool, int, float):
            raise _fault("json", "expected a JSON value")
    return value


# Any JSON value a sheet may hold: what an operation sets, inserts or removes.
Stored = Annotated[Any, BeforeValidator(_check_stored), WithJsonSchema({})]


def _check_path(value: Any) -> Any:
    if type(value) is not list or not 1 <= len(value) <= MOST_STEPS:
        raise _fault("path", "expected a list of 1 to {most} keys and row numbers", most=MOST_STEPS)
    if value[0] not in ROOTS:
        raise _fault("path_root", "expected a path starting at name, settings or sheet")
    for step in value[1:]:
        if type(step) is str:
            if len(step) > LONGEST_STEP:
                raise _fault("path_step", "a key is at most {most} characters", most=LONGEST_STEP)
            _check_text(step)
        elif type(step) is not int or not 0 <= step <= MOST_AMOUNT:
            raise _fault("path_step", "expected keys (text) and row numbers (from 0)")
    return value


Path = Annotated[
    list,
    BeforeValidator(_check_path),
    WithJsonSchema(
        {
            "type": "array",
            "minItems": 1,
            "maxItems": MOST_STEPS,
            "prefixItems": [{"enum": list(ROOTS)}],
            "items": {
                "anyOf": [
                    {"type": "string", "maxLength": LONGEST_STEP},
                    {"type": "integer", "minimum": 0},
                ]
            },
        }
    ),
]


def _check_moment(value: Any) -> Any:
    try:
        moment = parse_datetime(value) if type(value) is str else None
        # The database keeps it in UTC: a moment that cannot be said there cannot be kept.
        if moment is not None and moment.tzinfo is not None:
            moment.astimezone(UTC)
    except (ValueError, OverflowError):
        moment = None
    if moment is None or moment.tzinfo is None:
        raise _fault("moment", "expected a date and time with its offset (ISO 8601)")
    return value


Moment = Annotated[
    str,
    BeforeValidator(_check_moment),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]


def moment(value: str) -> datetime:
    """The datetime of a Moment already checked."""
    parsed = parse_datetime(value)
    assert parsed is not None
    return parsed


def _check_change(value: Any) -> Any:
    if type(value) is not list or len(value) != 3:
        raise _fault("change", "expected [label, before, after]")
    label, *values = value
    if type(label) is not str or len(label) > 200:
        raise _fault("change", "a change's label is text of at most 200 characters")
    _check_text(label)
    for shown in values:
        if shown is None:
            continue
        if type(shown) is not str or len(shown) > 2000:
            raise _fault("change", "a changed value is text of at most 2000 characters or null")
        _check_text(shown)
    return value


ChangeLine = Annotated[
    list,
    BeforeValidator(_check_change),
    WithJsonSchema(
        {
            "type": "array",
            "prefixItems": [
                {"type": "string", "maxLength": 200},
                {"type": ["string", "null"], "maxLength": 2000},
                {"type": ["string", "null"], "maxLength": 2000},
            ],
            "minItems": 3,
            "maxItems": 3,
            "description": "[label, before, after] as a player reads them",
        }
    ),
]


def _a_list(value: Any) -> Any:
    if type(value) is not list:
        raise _fault("list", "expected a list")
    return value


class Part(BaseModel):
    """A part of the file: unknown keys refused; each field's validator is exact."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, data: Any) -> Any:
        if type(data) is not dict:
            raise _fault("object", "expected an object")
        return data


def _no_default(schema: dict) -> None:
    schema.pop("default", None)


class Operation(Part):
    """One step of a revision (sheets/history/revisions.py): a set, an insert or a remove.

    A set without "before" added the key, one without "after" removed it; an insert or a
    remove names a row by its number and carries the row as "value".
    """

    op: one_of(("set", "insert", "remove"))
    path: Path
    # None stands for "not given" here (model_fields_set tells absent from null), which the
    # published schema does not say: a JSON null is a value like any other.
    before: Stored = Field(default=None, json_schema_extra=_no_default)
    after: Stored = Field(default=None, json_schema_extra=_no_default)
    value: Stored = Field(default=None, json_schema_extra=_no_default)

    @model_validator(mode="after")
    def _fits_its_kind(self) -> Operation:
        given = self.model_fields_set
        if self.op == "set":
            if "value" in given:
                raise _fault("op", "a set has “before” and “after”, no “value”")
            if not {"before", "after"} & given:
                raise _fault("op", "a set sets nothing")
        else:
            if {"before", "after"} & given or "value" not in given:
                raise _fault("op", "an insert or a remove has a “value”, no “before” or “after”")
            if len(self.path) < 2 or type(self.path[-1]) is not int:
                raise _fault("op", "an insert or a remove names a row by its number")
        return self


class RevisionRecord(Part):
    """One revision of the history: the version it made and what it changed."""

    version: whole(1, MOST_AMOUNT)
    created_at: Moment
    author: text(150) = ""
    summary: text(200) = ""
    ops: Annotated[list[Operation], BeforeValidator(_a_list)]
    changes: Annotated[
        list[ChangeLine], BeforeValidator(_a_list), Field(max_length=CHANGES_KEPT)
    ] = []
    changes_more: whole(0, MOST_AMOUNT) = 0


def _check_undoes(value: Any) -> Any:
    if value is not None and (type(value) is not int or not 1 <= value <= MOST_AMOUNT):
        raise _fault("undoes", "expected the id of an earlier entry, or null")
    return value


def _check_version(value: Any) -> Any:
    if value is not None and (type(value) is not int or not 1 <= value <= MOST_AMOUNT):
        raise _fault("version", "expected a version of the history, or null")
    return value


class TrainingRecord(Part):
    """The training a purchase needs (WEG), as the ledger keeps it: a raise that waits for
    its end (`holds_raise`) reaches the sheet only then, so a file without it would have
    paid for a raise that never comes."""

    days: whole(0, MOST_AMOUNT)
    full_days: whole(0, MOST_AMOUNT)
    minimum_days: whole(0, MOST_AMOUNT)
    extra: whole(0, MOST_AMOUNT) = 0
    unit: text(10) = "day"
    taught: flag() = False
    explanation: text(500) = ""
    source: text(40) = ""
    days_done: whole(0, MOST_AMOUNT) = 0
    finished: flag() = False
    note: text(500) = ""
    holds_raise: flag() = False
    new_value: whole(0, MOST_AMOUNT) = 0
    ended_version: Annotated[
        int | None,
        BeforeValidator(_check_version),
        WithJsonSchema(
            {"type": ["integer", "null"], "minimum": 1, "description": "the version it ended at"}
        ),
    ] = None
    refunded: whole(0, MOST_AMOUNT) = 0


class EntryRecord(Part):
    """One entry of the ledger, as `export_character` writes it."""

    id: whole(1, MOST_AMOUNT)
    kind: one_of(KINDS)
    amount: whole(-MOST_AMOUNT, MOST_AMOUNT)
    unit: text(20) = ""
    trait: text(200) = ""
    trait_label: text(200) = ""
    from_value: text(100) = ""
    to_value: text(100) = ""
    reason: text(500, lines=True) = ""
    teacher: text(100) = ""
    author: text(150) = ""
    created_at: Moment
    version: whole(1, MOST_AMOUNT)
    undoes: Annotated[
        int | None,
        BeforeValidator(_check_undoes),
        WithJsonSchema(
            {"type": ["integer", "null"], "minimum": 1, "description": "the id it undoes"}
        ),
    ] = None
    adventure: whole(1, MOST_AMOUNT) = 1
    pending: flag() = False
    carried: Annotated[
        flag(),
        WithJsonSchema(
            {"type": "boolean", "description": "carries over what the sheet held before its ledger"}
        ),
    ] = False
    # WEG: the attribute improvement roll kept the old code (002:53).
    unchanged: flag() = False
    training: TrainingRecord | None = None


def describe(error: ValidationError, most: int = 3) -> str:
    """The faults of a part, each by its path inside the part: "ops.2.op: expected …".

    Row numbers count from 1, as a person counts the operations of a revision.
    """
    faults = []
    for item in error.errors(include_url=False)[:most]:
        steps = [str(step + 1) if type(step) is int else str(step) for step in item["loc"]]
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "is not part of a character file"
        elif item["type"] == "missing":
            message = "is missing"
        faults.append(f"{'.'.join(steps)}: {message}" if steps else message)
    more = error.error_count() - len(faults)
    return "; ".join(faults) + (f" (and {more} more)" if more > 0 else "")
