"""The caps a sheet's schema puts on its lists, read from the one declaration.

`rows(item, most=N)` (and a keyed table's `max_length`) end up in the JSON Schema as
`maxItems` / `maxProperties`; import refuses a file past them. Edits ask `grown_past_cap`
after each change, so both refuse at the same number and a player's own export always
imports again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel

_MISSING = object()


@cache
def _schema(model: type[BaseModel]) -> dict:
    return model.model_json_schema(mode="validation")


def _resolve(schema: dict, defs: Mapping[str, dict]) -> Iterator[dict]:
    """The schema itself, or each branch of it: a reference, anyOf, oneOf or allOf."""
    if "$ref" in schema:
        yield from _resolve(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
        return
    branches = [*schema.get("anyOf", ()), *schema.get("oneOf", ()), *schema.get("allOf", ())]
    if not branches:
        yield schema
    for branch in branches:
        yield from _resolve(branch, defs)


def _noun(schema: dict, key: str) -> str:
    words = str(schema.get("title") or key.replace("_", " ")).split()
    return " ".join(word.upper() if word.lower() == "xp" else word.lower() for word in words)


def _grown(
    schema: dict, defs: Mapping[str, dict], before: Any, after: Any, key: str
) -> tuple[str, int] | None:
    if before == after:
        return None
    for branch in _resolve(schema, defs):
        if isinstance(after, list) and branch.get("type") == "array":
            old = before if isinstance(before, list) else []
            most = branch.get("maxItems")
            if most is not None and len(after) > most and len(after) > len(old):
                return _noun(branch, key), most
            items = branch.get("items")
            if isinstance(items, dict):
                for index, row in enumerate(after):
                    previous = old[index] if index < len(old) else _MISSING
                    found = _grown(items, defs, previous, row, key)
                    if found:
                        return found
        elif isinstance(after, dict) and branch.get("type") == "object":
            old = before if isinstance(before, dict) else {}
            most = branch.get("maxProperties")
            if most is not None and len(after) > most and len(after) > len(old):
                return _noun(branch, key), most
            properties = branch.get("properties", {})
            extra = branch.get("additionalProperties")
            for name, value in after.items():
                inner = properties.get(name, extra if isinstance(extra, dict) else None)
                if inner is not None:
                    found = _grown(inner, defs, old.get(name, _MISSING), value, name)
                    if found:
                        return found
    return None


def grown_past_cap(
    model: type[BaseModel], before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[str, int] | None:
    """The first list of `after` longer than its cap and than it was in `before`.

    Returns (what the list holds, in words; its cap), or None when every list fits.
    """
    schema = _schema(model)
    return _grown(schema, schema.get("$defs", {}), before, after, "rows")
