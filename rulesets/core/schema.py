"""One declared shape per sheet: blank sheets, validation and the published JSON Schema.

Each system declares its sheet once as pydantic v2 models built from the field types
below. Pydantic is chosen over dataclasses because it gives, from that one declaration,
strict validation of types and values with the path of every fault, defaults for a blank
sheet and a JSON Schema for the character file format.

Stored sheets carry `schema_version`. When a shape changes, the system raises its
SCHEMA_VERSION and adds a step to its MIGRATIONS (version n -> n + 1); `upgrade_sheet`
replays the steps, and a Django data migration upgrades the sheets already stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from rulesets.core.edits import InvalidSheet
from rulesets.core.parsing import TEXT_LIMIT

M = TypeVar("M", bound=BaseModel)
Migration = Callable[[dict], dict]


class SheetModel(BaseModel):
    """Base of every sheet part: unknown keys are refused, values are never coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=False)


def whole(minimum: int, maximum: int) -> Any:
    """A whole number in [minimum, maximum] (true and false are not numbers)."""

    def check(value: Any) -> Any:
        if type(value) is not int or not minimum <= value <= maximum:
            raise PydanticCustomError(
                "whole_range",
                "expected a whole number from {minimum} to {maximum}",
                {"minimum": minimum, "maximum": maximum},
            )
        return value

    return Annotated[
        int,
        BeforeValidator(check),
        WithJsonSchema({"type": "integer", "minimum": minimum, "maximum": maximum}),
    ]


def text(limit: int = TEXT_LIMIT, *, lines: bool = False) -> Any:
    """Text of at most `limit` characters, without control characters (but line breaks)."""

    def check(value: Any) -> Any:
        if type(value) is not str:
            raise PydanticCustomError("text", "expected text")
        if len(value) > limit:
            raise PydanticCustomError(
                "text_long", "expected at most {limit} characters", {"limit": limit}
            )
        allowed = "\n\t" if lines else ""
        if any(
            (ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF or ord(c) == 127) and c not in allowed
            for c in value
        ):
            raise PydanticCustomError(
                "text_control", "text holds a character that cannot be stored"
            )
        return value

    return Annotated[
        str, BeforeValidator(check), WithJsonSchema({"type": "string", "maxLength": limit})
    ]


def one_of(values: Any) -> Any:
    """One of a fixed set of strings (catalog slugs, stage names)."""
    allowed = tuple(v.value if isinstance(v, Enum) else v for v in values)

    def check(value: Any) -> Any:
        if type(value) is not str or value not in allowed:
            shown = ", ".join(a or '""' for a in allowed[:8]) + (", …" if len(allowed) > 8 else "")
            raise PydanticCustomError("one_of", "expected one of {shown}", {"shown": shown})
        return value

    return Annotated[
        str, BeforeValidator(check), WithJsonSchema({"type": "string", "enum": list(allowed)})
    ]


def flag() -> Any:
    """Yes or no, as JSON true or false."""

    def check(value: Any) -> Any:
        if type(value) is not bool:
            raise PydanticCustomError("flag", "expected true or false")
        return value

    return Annotated[bool, BeforeValidator(check), WithJsonSchema({"type": "boolean"})]


def rows(item: Any, *, most: int) -> Any:
    """A list of at most `most` rows (the same cap edits keep)."""
    return Annotated[list[item], Field(max_length=most)]


def validate_with(model: type[M], data: Any) -> dict:
    """Validate `data` against `model`; return its normal form or raise InvalidSheet.

    The message names every field at fault by its path: "attributes.strength: expected
    a whole number from 1 to 5".
    """
    if not isinstance(data, Mapping):
        raise InvalidSheet("the sheet must be a JSON object.")
    try:
        parsed = model.model_validate(dict(data))
    except ValidationError as error:
        raise InvalidSheet(_describe(error)) from None
    except (RecursionError, ValueError, TypeError) as error:
        raise InvalidSheet(f"the sheet cannot be read ({type(error).__name__}).") from None
    return parsed.model_dump(mode="json")


def _describe(error: ValidationError, most: int = 5) -> str:
    faults = []
    for item in error.errors(include_url=False)[:most]:
        path = ".".join(str(part) for part in item["loc"]) or "(the sheet)"
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "is not part of this sheet"
        elif item["type"] == "missing":
            message = "is missing"
        faults.append(f"{path}: {message}")
    more = error.error_count() - len(faults)
    return "; ".join(faults) + (f" (and {more} more)" if more > 0 else "")


def json_schema(model: type[BaseModel], *, title: str) -> dict:
    """The published JSON Schema of a sheet (the `sheet` member of a character file)."""
    schema = model.model_json_schema(mode="validation")
    schema["title"] = title
    return schema


def upgrade_sheet(
    data: Mapping[str, Any], *, current: int, migrations: Mapping[int, Migration]
) -> dict:
    """Bring a sheet of an older schema version up to `current`.

    A sheet without `schema_version` is version 0, the shape stored before versions
    existed. Raises InvalidSheet for a version from the future or one with no path.
    """
    sheet = dict(data)
    version = sheet.get("schema_version", 0)
    if type(version) is not int or version < 0:
        raise InvalidSheet("schema_version: expected a whole number.")
    if version > current:
        raise InvalidSheet(
            f"schema_version: the sheet is version {version}; this Datapad reads up to {current}."
        )
    while version < current:
        step = migrations.get(version)
        if step is None:
            raise InvalidSheet(f"schema_version: no way to upgrade a version {version} sheet.")
        sheet = step(sheet)
        version += 1
        sheet["schema_version"] = version
    return sheet
