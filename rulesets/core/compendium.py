"""The compendium's entries: what a GM adds beside the seeds' catalogs, declared once.

Each system lists the kinds of entry it takes (`COMPENDIUM_KINDS` in
rulesets/<key>/compendium.py), each kind a pydantic model built from the field types
below. From that one declaration come the stored normal form (`validate_entry`), the
published JSON Schema (`entry_json_schema`), the generated form (`form_fields`) and the
reading of what the form sent (`entry_from_form`, `entry_to_form`), so that a new field
is one line in one place.

Form names are dotted paths: a nested part (a species' minimum) flattens to
"minimum.dexterity". A list is one "lines" input, one item a line, read by a small
grammar that each list declares (its `help` says how to write a line); a refusal names
the line. Die codes are stored as whole pips (3 pips = 1D) and shown as "4D+2".

Every refusal is an InvalidEntry whose `errors` maps form field names to plain messages,
all faults at once, so a page can print each beside its field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from rulesets.core.diecode import DieCode
from rulesets.core.edits import InvalidEdit, InvalidSheet, copy_sheet
from rulesets.core.parsing import (
    TEXT_LIMIT,
    clean_text,
    parse_choice,
    parse_code,
    parse_flag,
    parse_whole,
    storable,
)
from rulesets.core.schema import SheetModel, json_schema, text, whole

NAME_LIMIT = 80
DESCRIPTION_LIMIT = 2000
LINE_LIMIT = 200  # one line of a "lines" input
MOST_LINES = 40  # the lines of one list
REF_LIMIT = 120  # an entry's reference as a sheet records it
MOST_VERSIONS = 10**9
WIDGETS = ("text", "textarea", "number", "die_code", "choice", "checkbox", "lines")


class InvalidEntry(ValueError):
    """An entry (or a kind) was refused: form field name -> a plain message, every fault."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors: dict[str, str] = dict(errors)
        super().__init__("; ".join(f"{name}: {message}" for name, message in self.errors.items()))


@dataclass(frozen=True)
class LineGrammar:
    """How one list reads and writes its lines (one item a line).

    `parse` turns one stripped, non-empty line into an item or raises ValueError with a
    plain message; `format` writes an item back as the line `parse` reads to the same
    item. `help` tells a person how to write a line, with an example.
    """

    help: str
    parse: Callable[[str], Any]
    format: Callable[[Any], str]


@dataclass(frozen=True)
class Input:
    """The form facts a field type carries in its annotation (read by `form_fields`)."""

    widget: str  # one of WIDGETS, or "group" for a nested part
    label: str
    required: bool = True
    help: str = ""
    max_length: int | None = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    optional: bool = False  # an empty input stores None
    grammar: LineGrammar | None = None


@dataclass(frozen=True)
class FormField:
    """What a generated form needs, one per input.

    For a die_code, `minimum` and `maximum` are whole pips (3 pips = 1D); `help` says
    them as codes.
    """

    name: str  # dotted path, "minimum.dexterity", "damage"
    label: str
    widget: str  # "text" | "textarea" | "number" | "die_code" | "choice" | "checkbox" | "lines"
    required: bool
    max_length: int | None = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    help: str = ""


# --- field types ------------------------------------------------------------------------


def _one_line(limit: int, *, required: bool) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not str:
            raise PydanticCustomError("text", "expected text")
        # The form's cleaning, so that stored, imported and typed entries agree.
        value = " ".join(value.split())
        if not storable(value):
            raise PydanticCustomError("text_control", "holds a character that cannot be stored")
        if len(value) > limit:
            raise PydanticCustomError(
                "text_long", "is limited to {limit} characters", {"limit": limit}
            )
        if required and not value:
            raise PydanticCustomError("text_empty", "is required")
        return value

    return check


def _paragraph(limit: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not str:
            raise PydanticCustomError("text", "expected text")
        value = value.replace("\r\n", "\n").strip()
        if not storable(value, lines=True):
            raise PydanticCustomError("text_control", "holds a character that cannot be stored")
        if len(value) > limit:
            raise PydanticCustomError(
                "text_long", "is limited to {limit} characters", {"limit": limit}
            )
        return value

    return check


def line(label: str, limit: int = TEXT_LIMIT, *, required: bool = False, help: str = "") -> Any:
    """One line of text (runs of spaces collapse), at most `limit` characters."""
    schema = {"type": "string", "maxLength": limit} | ({"minLength": 1} if required else {})
    return Annotated[
        str,
        BeforeValidator(_one_line(limit, required=required)),
        WithJsonSchema(schema),
        Input("text", label, required=required, help=help, max_length=limit),
    ]


def paragraph(label: str, limit: int = DESCRIPTION_LIMIT, *, help: str = "") -> Any:
    """Free text over several lines, at most `limit` characters."""
    return Annotated[
        str,
        BeforeValidator(_paragraph(limit)),
        WithJsonSchema({"type": "string", "maxLength": limit}),
        Input("textarea", label, required=False, help=help, max_length=limit),
    ]


def _maybe(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else check(value)


def number(
    label: str, minimum: int, maximum: int, *, optional: bool = False, help: str = ""
) -> Any:
    """A whole number in [minimum, maximum]; with `optional`, also None (left blank)."""
    base = whole(minimum, maximum)
    said = help or f"a whole number from {minimum} to {maximum}" + (
        ", or blank" if optional else ""
    )
    form = Input(
        "number",
        label,
        required=not optional,
        help=said,
        minimum=minimum,
        maximum=maximum,
        optional=optional,
    )
    if not optional:
        return Annotated[base, form]
    schema = {"type": ["integer", "null"], "minimum": minimum, "maximum": maximum}
    return Annotated[
        int | None,
        BeforeValidator(_maybe(_whole_check(minimum, maximum))),
        WithJsonSchema(schema),
        form,
    ]


def _whole_check(minimum: int, maximum: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not int or not minimum <= value <= maximum:
            raise PydanticCustomError(
                "whole_range",
                "expected a whole number from {minimum} to {maximum}",
                {"minimum": minimum, "maximum": maximum},
            )
        return value

    return check


def code(
    label: str, minimum: int = 0, maximum: int = 3 * 30, *, optional: bool = False, help: str = ""
) -> Any:
    """A die code stored as whole pips in [minimum, maximum]; the form shows "4D+2"."""
    low, high = DieCode.from_pips(minimum), DieCode.from_pips(maximum)
    said = help or f"a die code such as 4D+1, from {low} to {high}" + (
        ", or blank" if optional else ""
    )
    form = Input(
        "die_code",
        label,
        required=not optional,
        help=said,
        minimum=minimum,
        maximum=maximum,
        optional=optional,
    )
    check = _code_check(minimum, maximum)
    schema: dict[str, Any] = {
        "type": ["integer", "null"] if optional else "integer",
        "minimum": minimum,
        "maximum": maximum,
        "description": "a die code in whole pips (3 pips = 1D): 14 is 4D+2",
    }
    return Annotated[
        int | None if optional else int,
        BeforeValidator(_maybe(check) if optional else check),
        WithJsonSchema(schema),
        form,
    ]


def _code_check(minimum: int, maximum: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not int or not minimum <= value <= maximum:
            raise PydanticCustomError(
                "code_range",
                "expected a die code from {low} to {high} (in pips, {minimum} to {maximum})",
                {
                    "low": str(DieCode.from_pips(minimum)),
                    "high": str(DieCode.from_pips(maximum)),
                    "minimum": minimum,
                    "maximum": maximum,
                },
            )
        return value

    return check


def choice(label: str, choices: Sequence[tuple[str, str]], *, help: str = "") -> Any:
    """One of fixed (value, label) pairs; the value is stored."""
    pairs = tuple((str(value), str(shown)) for value, shown in choices)
    values = tuple(value for value, _shown in pairs)

    def check(value: Any) -> Any:
        if type(value) is not str or value not in values:
            shown = ", ".join(shown for _v, shown in pairs[:8]) + (", …" if len(pairs) > 8 else "")
            raise PydanticCustomError("one_of", "choose one of {shown}", {"shown": shown})
        return value

    return Annotated[
        str,
        BeforeValidator(check),
        WithJsonSchema({"type": "string", "enum": list(values)}),
        Input("choice", label, required=True, help=help, choices=pairs),
    ]


def checkbox(label: str, *, help: str = "") -> Any:
    """Yes or no, stored as true or false."""

    def check(value: Any) -> Any:
        if type(value) is not bool:
            raise PydanticCustomError("flag", "expected true or false")
        return value

    return Annotated[
        bool,
        BeforeValidator(check),
        WithJsonSchema({"type": "boolean"}),
        Input("checkbox", label, required=False, help=help),
    ]


def lines(label: str, item: Any, grammar: LineGrammar, *, most: int = MOST_LINES) -> Any:
    """A list of at most `most` items, one a line in the form, read by `grammar`."""
    return Annotated[
        list[item],
        Field(max_length=most),
        Input(
            "lines",
            label,
            required=False,
            help=f"{grammar.help}; at most {most} lines",
            maximum=most,
            grammar=grammar,
        ),
    ]


def group(label: str) -> Input:
    """Mark a nested part: `minimum: Annotated[AttributeCodes, group("Minimum")]`."""
    return Input("group", label, required=True)


class EntryPart(BaseModel):
    """A nested part of an entry or one item of a list: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", strict=True, str_strip_whitespace=True)


class EntryBase(EntryPart):
    """Every entry: a name and the GM's own description (never a book's text)."""

    name: line("Name", NAME_LIMIT, required=True)  # type: ignore[valid-type]
    description: paragraph("Description", DESCRIPTION_LIMIT) = ""  # type: ignore[valid-type]

    def faults(self) -> dict[str, str]:
        """What the field types alone cannot say (a minimum above its maximum): form field
        name -> message. Checked once every field is valid."""
        return {}


@dataclass(frozen=True)
class EntryKind:
    key: str  # stable slug: "species", "weapon", "npc_template", …
    label: str  # "Species"
    plural: str  # "Species", "Weapons"
    schema: type[EntryBase]


# What a built-in entry says of its source where no seed prints it (a value the digest
# proposes, a well-known core-book number): said plainly to players, never an internal
# marker such as "OUTSIDE" or "digest §3 proposal".
DATAPAD_DEFAULT = "Datapad's default (no rule extract prints it)"
SEED_LINE = re.compile(r"[0-9]{3}:L?[0-9]+(?:-L?[0-9]+)?")


@dataclass(frozen=True)
class BuiltinEntry:
    """One entry of the seeds' own catalogs, read-only."""

    kind: str
    slug: str  # stable, unique per kind within a system
    data: dict  # valid against the kind's schema
    source: str  # the seed line, e.g. "003:L1234", or DATAPAD_DEFAULT

    @property
    def seed_line(self) -> bool:
        """Whether `source` is a line of a seed (else it is Datapad's default)."""
        return SEED_LINE.fullmatch(self.source) is not None

    @property
    def ref(self) -> str:
        """How a sheet's compendium mark names this entry."""
        return seed_ref(self.kind, self.slug)


def seed_ref(kind: str, slug: str) -> str:
    """The compendium mark's `ref` of a built-in entry: a table's own entries have others."""
    return f"seed:{kind}:{slug}"


def shown_source(source: str) -> str:
    """A catalog row's source as a player reads it: its seed line ("003:131", the first
    word of a longer note), or DATAPAD_DEFAULT where it names none."""
    first = source.split(" ")[0] if source else ""
    return first if SEED_LINE.fullmatch(first) else DATAPAD_DEFAULT


class CompendiumRef(SheetModel):
    """What a sheet records on an item picked from the compendium, beside the snapshot of
    what it needs (so the sheet keeps working when the entry is gone)."""

    kind: text(REF_LIMIT)  # type: ignore[valid-type]
    ref: text(REF_LIMIT)  # type: ignore[valid-type]
    version: whole(0, MOST_VERSIONS)  # type: ignore[valid-type]


# The `compendium` member of a sheet's picked item: absent from the stored sheet until
# something is picked, so every sheet and row stored before stays exactly as it was.
PickedFrom = Annotated[CompendiumRef | None, Field(exclude_if=lambda value: value is None)]


def picked_list(most: int) -> Any:
    """The refs of entries picked into a free-text field (a list, absent while empty)."""
    return Annotated[
        list[CompendiumRef], Field(max_length=most, exclude_if=lambda value: not value)
    ]


def carried_lines(most: int = MOST_LINES, limit: int = LINE_LIMIT) -> Any:
    """Lines of text a pick carries onto the sheet as words, not numbers (a species' special
    abilities): a list, absent from the stored sheet while empty, so a sheet stored before
    stays exactly as it was."""
    return Annotated[list[text(limit)], Field(max_length=most, exclude_if=lambda value: not value)]


def compendium_ref(kind: str, ref: str, version: int) -> dict:
    """The `compendium` member a pick writes on the picked item."""
    return CompendiumRef(kind=kind, ref=ref, version=version).model_dump(mode="json")


def refresh_marked(
    sheet: Mapping[str, Any],
    kind: str,
    ref: str,
    version: int,
    update: Callable[[dict], None] | None,
) -> dict:
    """A copy of the sheet in which every item picked from entry (kind, ref) is brought to
    `version`: `update(item)` rewrites the item's snapshot, then its mark names the new
    version. With `update` None (a kind copied once, a template's fill) nothing changes."""
    copied = copy_sheet(dict(sheet))
    if update is None:
        return copied

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            mark = value.get("compendium")
            if isinstance(mark, Mapping) and mark.get("kind") == kind and mark.get("ref") == ref:
                update(value)
                value["compendium"] = compendium_ref(kind, ref, version)
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(copied)
    return copied


def find_refs(sheet: Any) -> list[tuple[str, str, int]]:
    """Every (kind, ref, version) a sheet records, in the sheet's order, each once.

    A record is any object of exactly the CompendiumRef keys, wherever a system keeps it
    (on a picked row, or in a list beside a free-text field).
    """
    found: list[tuple[str, str, int]] = []
    keys = set(CompendiumRef.model_fields)

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            if set(value) == keys:
                triple = (value["kind"], value["ref"], value["version"])
                if triple not in found:
                    found.append(triple)
                return
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(sheet)
    return found


# --- line grammars ------------------------------------------------------------------------


def _text_item(limit: int) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        text_ = " ".join(raw.split())
        if len(text_) > limit:
            raise ValueError(f"is limited to {limit} characters")
        return text_

    return parse


def text_lines(example: str, limit: int = LINE_LIMIT) -> LineGrammar:
    """Each line one item of text, e.g. a special ability or a piece of equipment."""
    return LineGrammar(
        help=f"one a line, e.g. “{example}”",
        parse=_text_item(limit),
        format=str,
    )


def TextItem(limit: int = LINE_LIMIT) -> Any:
    """One item of a text list: one line, not empty."""
    return Annotated[
        str,
        BeforeValidator(_one_line(limit, required=True)),
        WithJsonSchema({"type": "string", "minLength": 1, "maxLength": limit}),
    ]


class NamedCode(EntryPart):
    """A name and a die code: "blaster 1D+1" (a favoured or template skill)."""

    name: line("Name", NAME_LIMIT, required=True)  # type: ignore[valid-type]
    code: code("Code", 0, 3 * 30)  # type: ignore[valid-type]


def _parse_named_code(raw: str) -> dict:
    head, _, last = raw.rpartition(" ")
    if not head.strip():
        raise ValueError(f"write a name and a die code, like “blaster 1D+1”; “{raw}” is not")
    try:
        pips = parse_code("line", last, label="the code", maximum=3 * 30)
    except InvalidEdit as error:
        raise ValueError(error.message) from None
    return {"name": " ".join(head.split()), "code": pips}


def named_code_lines(
    help: str = "a name and a die code a line, e.g. “blaster 1D+1”",
) -> LineGrammar:
    """Lines of "name code" (the code is the last word), for NamedCode items."""
    return LineGrammar(
        help=help,
        parse=_parse_named_code,
        format=lambda item: f"{item['name']} {DieCode.from_pips(item['code'])}",
    )


NAMED_CODE_LINES = named_code_lines()


class NamedNumber(EntryPart):
    """A name and a whole number: "Athletics 2" (an NPC's skill dice or ranks)."""

    name: line("Name", NAME_LIMIT, required=True)  # type: ignore[valid-type]
    number: number("Number", 0, 99)  # type: ignore[valid-type]


def _parse_named_number(raw: str) -> dict:
    head, _, last = raw.rpartition(" ")
    if not head.strip() or not re.fullmatch(r"[0-9]{1,2}", last):
        raise ValueError(
            f"write a name and a number from 0 to 99, like “Athletics 2”; “{raw}” is not"
        )
    return {"name": " ".join(head.split()), "number": int(last)}


def named_number_lines(help: str) -> LineGrammar:
    """Lines of "name number" (the number is the last word), for NamedNumber items."""
    return LineGrammar(
        help=help,
        parse=_parse_named_number,
        format=lambda item: f"{item['name']} {item['number']}",
    )


class NamedCount(EntryPart):
    """A name and how many: "medpac x2" (a template's equipment)."""

    name: line("Name", NAME_LIMIT, required=True)  # type: ignore[valid-type]
    count: number("Count", 1, 999)  # type: ignore[valid-type]


_COUNT = re.compile(r"^(?P<name>.*?)\s+[x×](?P<count>[0-9]{1,3})$", re.IGNORECASE)


def _parse_named_count(raw: str) -> dict:
    text_ = " ".join(raw.split())
    match = _COUNT.match(text_)
    name, count = (match["name"], int(match["count"])) if match else (text_, 1)
    if not 1 <= count <= 999:
        raise ValueError("a count runs from 1 to 999")
    return {"name": name, "count": count}


NAMED_COUNT_LINES = LineGrammar(
    help="a name a line, with “x2” at the end for more than one, e.g. “medpac x2”",
    parse=_parse_named_count,
    format=lambda item: item["name"] + (f" x{item['count']}" if item["count"] != 1 else ""),
)


# --- reading the declaration ---------------------------------------------------------------


@dataclass(frozen=True)
class _Leaf:
    path: str
    label: str
    input: Input


def _input_of(info: Any) -> Input | None:
    return next((m for m in info.metadata if isinstance(m, Input)), None)


def _leaves(model: type[BaseModel], prefix: str = "", label_prefix: str = "") -> Iterator[_Leaf]:
    for name, info in model.model_fields.items():
        form = _input_of(info)
        if form is None:
            continue
        path = f"{prefix}{name}"
        label = f"{label_prefix}{form.label}"
        if form.widget == "group":
            yield from _leaves(info.annotation, f"{path}.", f"{label}: ")
        else:
            yield _Leaf(path, label, form)


def form_fields(kind: EntryKind) -> list[FormField]:
    """The inputs of the kind's form, in the order of its declaration."""
    return [
        FormField(
            name=leaf.path,
            label=leaf.label,
            widget=leaf.input.widget,
            required=leaf.input.required,
            max_length=leaf.input.max_length,
            minimum=leaf.input.minimum,
            maximum=leaf.input.maximum,
            choices=leaf.input.choices,
            help=leaf.input.help,
        )
        for leaf in _leaves(kind.schema)
    ]


def _read(leaf: _Leaf, raw: str) -> Any:
    form, path, label = leaf.input, leaf.path, leaf.label
    widget = form.widget
    if widget == "text":
        value = clean_text(path, raw, label=label, limit=form.max_length or TEXT_LIMIT)
        if form.required and not value:
            raise InvalidEdit(path, f"{label} is required.")
        return value
    if widget == "textarea":
        return clean_text(path, raw, label=label, limit=form.max_length or TEXT_LIMIT, lines=True)
    if widget in ("number", "die_code"):
        if not raw.strip():
            if form.optional:
                return None
            raise InvalidEdit(path, f"{label} is required.")
        if widget == "number":
            return parse_whole(path, raw, label=label, minimum=form.minimum, maximum=form.maximum)
        return parse_code(path, raw, label=label, minimum=form.minimum or 0, maximum=form.maximum)
    if widget == "choice":
        return parse_choice(path, raw, form.choices, label=label)
    if widget == "checkbox":
        return parse_flag(path, raw, label=label)
    if widget == "lines":
        return _read_lines(leaf, raw)
    raise AssertionError(f"unknown widget {widget}")


def _read_lines(leaf: _Leaf, raw: str) -> list:
    grammar = leaf.input.grammar
    assert grammar is not None
    items, faults = [], []
    numbered = [(n, text_.strip()) for n, text_ in enumerate(raw.splitlines(), start=1)]
    written = [(n, text_) for n, text_ in numbered if text_]
    most = leaf.input.maximum or MOST_LINES
    if len(written) > most:
        raise InvalidEdit(
            leaf.path, f"{leaf.label}: at most {most} lines; there are {len(written)}."
        )
    for number_, text_ in written:
        if not storable(text_):
            faults.append(f"line {number_}: holds a character that cannot be stored")
            continue
        try:
            items.append(grammar.parse(text_))
        except ValueError as error:
            faults.append(f"line {number_}: {str(error).rstrip('.')}")
    if faults:
        shown = "; ".join(faults[:3]) + (
            f" (and {len(faults) - 3} more)" if len(faults) > 3 else ""
        )
        raise InvalidEdit(leaf.path, f"{leaf.label}: {shown}.")
    return items


def _set(data: dict, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for part in parents:
        data = data.setdefault(part, {})
    data[last] = value


def _get(data: Mapping, path: str) -> Any:
    value: Any = data
    for part in path.split("."):
        value = value[part]
    return value


def entry_from_form(kind: EntryKind, form: Mapping[str, str]) -> dict:
    """Read what a form sent into the entry's normal form, or raise InvalidEntry naming
    every field at fault. Inputs the kind does not have are ignored (a page's own)."""
    data: dict = {}
    errors: dict[str, str] = {}
    for leaf in _leaves(kind.schema):
        raw = form.get(leaf.path, "")
        try:
            _set(data, leaf.path, _read(leaf, "" if raw is None else str(raw)))
        except InvalidEdit as error:
            errors[leaf.path] = error.message
    try:
        entry = validate_entry(kind, data)
    except InvalidEntry as refused:
        for name, message in refused.errors.items():
            errors.setdefault(name, message)
    if errors:
        raise InvalidEntry(errors)
    return entry


def _shown(leaf: _Leaf, value: Any) -> str:
    widget = leaf.input.widget
    if value is None:
        return ""
    if widget == "die_code":
        return DieCode.from_pips(value).format()
    if widget == "checkbox":
        return "on" if value else ""
    if widget == "lines":
        grammar = leaf.input.grammar
        assert grammar is not None
        return "\n".join(grammar.format(item) for item in value)
    return str(value)


def entry_to_form(kind: EntryKind, data: Mapping) -> dict[str, str]:
    """The form's initial values for a stored entry (read back by `entry_from_form`)."""
    return {leaf.path: _shown(leaf, _get(data, leaf.path)) for leaf in _leaves(kind.schema)}


def blank_form(kind: EntryKind) -> dict[str, str]:
    """The form's initial values for a new entry: each field's default, or blank."""
    values: dict[str, str] = {}
    for leaf in _leaves(kind.schema):
        try:
            default = _get(_defaults(kind.schema), leaf.path)
        except KeyError:
            default = None
        values[leaf.path] = "" if default is None else _shown(leaf, default)
    return values


def _defaults(model: type[BaseModel]) -> dict:
    found: dict = {}
    for name, info in model.model_fields.items():
        form = _input_of(info)
        if form is not None and form.widget == "group":
            found[name] = _defaults(info.annotation)
        elif not info.is_required():
            found[name] = info.get_default(call_default_factory=True)
    return found


def _field_names(kind: EntryKind) -> dict[str, _Leaf]:
    return {leaf.path: leaf for leaf in _leaves(kind.schema)}


def _error_key(loc: tuple, leaves: Mapping[str, _Leaf]) -> tuple[str, str]:
    """The form field a pydantic error belongs to, and what to say before its message."""
    names: list[str] = []
    for index, part in enumerate(loc):
        if not isinstance(part, str):
            break
        names.append(part)
        path = ".".join(names)
        leaf = leaves.get(path)
        if leaf is None:
            continue
        rest = loc[index + 1 :]
        if leaf.input.widget == "lines" and rest and isinstance(rest[0], int):
            inner = ".".join(str(p) for p in rest[1:])
            return path, f"{leaf.label}: line {rest[0] + 1}" + (f" ({inner})" if inner else "")
        return path, leaf.label
    path = ".".join(str(part) for part in loc) or "entry"
    return path, path


def validate_entry(kind: EntryKind, data: Any) -> dict:
    """The normal form of a stored or imported entry, or InvalidEntry naming every fault."""
    if not isinstance(data, Mapping):
        raise InvalidEntry({"entry": "an entry must be a JSON object."})
    leaves = _field_names(kind)
    try:
        parsed = kind.schema.model_validate(dict(data))
    except ValidationError as error:
        errors: dict[str, str] = {}
        for item in error.errors(include_url=False):
            name, said = _error_key(tuple(item["loc"]), leaves)
            if item["type"] == "extra_forbidden":
                message = f"is not part of a {kind.label.lower()} entry"
            elif item["type"] == "missing":
                message = "is missing"
            else:
                message = item["msg"]
            errors.setdefault(name, f"{said}: {message}.")
        raise InvalidEntry(errors) from None
    except (RecursionError, ValueError, TypeError) as error:
        raise InvalidEntry(
            {"entry": f"the entry cannot be read ({type(error).__name__})."}
        ) from None
    faults = parsed.faults()
    if faults:
        raise InvalidEntry(faults)
    return parsed.model_dump(mode="json")


def entry_json_schema(kind: EntryKind) -> dict:
    """The published JSON Schema of one kind's entry (a member of the compendium file)."""
    return json_schema(kind.schema, title=kind.label)


def find_kind(kinds: Sequence[EntryKind], key: str) -> EntryKind:
    """The kind with this key, or InvalidEntry({"kind": …}) naming the kinds there are."""
    for kind in kinds:
        if kind.key == key:
            return kind
    known = ", ".join(kind.key for kind in kinds)
    shown = key if isinstance(key, str) and len(key) <= 40 else str(key)[:37] + "…"
    raise InvalidEntry({"kind": f"“{shown}” is not a kind of entry here; the kinds are {known}."})


def entry_slug(name: str) -> str:
    """A stable slug of a catalog name ("Blaster Pistol" -> "blaster-pistol")."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "entry"


def builtin(kind: str, name: str, source: str, /, **fields: Any) -> BuiltinEntry:
    """One built-in entry, its slug made from its name."""
    return BuiltinEntry(
        kind=kind, slug=entry_slug(name), data={"name": name, **fields}, source=source
    )


def normal_builtins(
    kinds: Sequence[EntryKind], entries: Sequence[BuiltinEntry]
) -> tuple[BuiltinEntry, ...]:
    """The built-in entries with their data in normal form (defaults filled in) and their
    source as a player reads it (`shown_source`), checked once when the system loads: a
    catalog row that is no valid entry fails loudly."""
    return tuple(
        BuiltinEntry(
            kind=entry.kind,
            slug=entry.slug,
            data=validate_entry(find_kind(kinds, entry.kind), entry.data),
            source=shown_source(entry.source),
        )
        for entry in entries
    )


# --- picking an entry onto a sheet, and bringing picked items to a new version ------------

PICK = "pick"  # the InvalidEntry key of a refusal about the sheet, not a field of the entry

# A system's pick of one kind: (sheet copy, entry in normal form, its mark, settings) -> the
# sheet with the entry on it, or InvalidEdit (see `refuse_pick`).
PickKind = Callable[[dict, dict, dict, Mapping[str, Any]], dict]
# A system's refresh of one kind: rewrite a picked item's snapshot from the entry, in place.
RefreshKind = Callable[[dict, Mapping[str, Any]], None]


def refuse_pick(message: str) -> InvalidEdit:
    """A refusal about the sheet (not a field of the entry), shown under the picker."""
    return InvalidEdit(PICK, message)


def seed_entry(
    builtins: Sequence[BuiltinEntry], kind: str, entry: Mapping[str, Any]
) -> BuiltinEntry | None:
    """The built-in entry that `entry` is to the letter, or None (a table's own)."""
    return next((b for b in builtins if b.kind == kind and b.data == entry), None)


def copies(*fields: str) -> RefreshKind:
    """A refresh that copies these fields of the entry onto the picked item as they are."""
    return lambda item, entry: item.update({field: entry[field] for field in fields})


def rewrites(row: Callable[[Mapping[str, Any]], dict]) -> RefreshKind:
    """A refresh that rewrites the picked item with `row(entry)`, the same function that
    wrote it when it was picked."""
    return lambda item, entry: item.update(row(entry))


def apply_lines(
    sheet: dict,
    items: Sequence[Mapping[str, Any]],
    field: str,
    edit: Callable[[dict, Mapping[str, Any]], dict],
) -> dict:
    """Apply `edit(sheet, item)` to each item of an entry's list in turn (a template's
    skills, a species' merits); a refusal names the list and the line ("Skills, line 2:
    …")."""
    for number_, item in enumerate(items, start=1):
        try:
            sheet = edit(sheet, item)
        except InvalidEdit as refused:
            raise refuse_pick(f"{field}, line {number_}: {refused.message}") from None
    return sheet


@dataclass(frozen=True)
class Picker:
    """How one system puts compendium entries on its sheets, declared as data: a pick for
    every kind, a refresh for each kind whose snapshot follows the entry's versions (the
    others were copied once, a template's fill), the system's sheet validation, and what
    to settle on a refreshed sheet (a derived row a snapshot feeds, such as wound boxes).

    `pick_entry`, `refresh_entry` and `entry_refs` answer the ruleset contract as they are,
    so a system's module binds them by name.
    """

    kinds: tuple[EntryKind, ...]
    picks: Mapping[str, PickKind]
    refresh: Mapping[str, RefreshKind]
    validate_sheet: Callable[[Any], dict]
    settle: Callable[[dict], None] | None = None

    def __post_init__(self) -> None:
        keys = {kind.key for kind in self.kinds}
        assert set(self.picks) == keys, sorted(keys ^ set(self.picks))
        assert set(self.refresh) <= keys, sorted(set(self.refresh) - keys)

    @property
    def copied_once(self) -> tuple[str, ...]:
        """The kinds whose picked copy never changes with the entry's versions."""
        return tuple(kind.key for kind in self.kinds if kind.key not in self.refresh)

    def pick_entry(
        self,
        sheet: Mapping[str, Any],
        kind: str,
        ref: str,
        version: int,
        data: Mapping[str, Any],
        settings: Mapping[str, Any],
    ) -> dict:
        """Return a new sheet with the entry picked onto it, each copy marked with
        {"kind", "ref", "version"}, or raise InvalidEntry (refusals about the sheet keyed
        "pick")."""
        entry = validate_entry(find_kind(self.kinds, kind), data)
        mark = compendium_ref(kind, ref, version)
        try:
            picked = self.picks[kind](copy_sheet(dict(sheet)), entry, mark, settings)
        except InvalidEdit as refused:
            raise InvalidEntry({PICK: refused.message}) from None
        return self.validate_sheet(picked)

    def refresh_entry(
        self,
        sheet: Mapping[str, Any],
        kind: str,
        ref: str,
        version: int,
        data: Mapping[str, Any],
        settings: Mapping[str, Any],
    ) -> dict:
        """Return the sheet with every item picked from entry `ref` brought to this version
        of it (what the GM's change would do to the sheet, before it is confirmed), or raise
        InvalidEntry. A kind copied once changes nothing."""
        entry = validate_entry(find_kind(self.kinds, kind), data)
        update = self.refresh.get(kind)
        refreshed = refresh_marked(
            sheet, kind, ref, version, None if update is None else lambda item: update(item, entry)
        )
        if self.settle is not None:
            self.settle(refreshed)
        try:
            return self.validate_sheet(refreshed)
        except InvalidSheet as refused:
            raise InvalidEntry({PICK: f"The sheet cannot take this version: {refused}"}) from None

    @staticmethod
    def entry_refs(sheet: Mapping[str, Any]) -> list[tuple[str, str, int]]:
        """The (kind, ref, version) of every compendium entry the sheet uses."""
        return find_refs(sheet)
