"""What Foundry VTT's actor files share, whatever the game system: the two document shapes.

Foundry up to v9 keeps an actor's data under `data`, v10 and later under `system` with
`_stats` (CHARACTER-FORMATS.md §4). An "Export Data" file names its system in
`_stats.systemId` (v10+) or `flags.exportSource.systemId`.
"""

from __future__ import annotations

from typing import Any


def is_actor(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("type"), str)
        and "name" in data
        and (isinstance(data.get("system"), dict) or isinstance(data.get("data"), dict))
    )


def system_id(data: dict) -> str:
    flags = data.get("flags")
    export = flags.get("exportSource") if isinstance(flags, dict) else None
    for holder in (data.get("_stats"), export):
        if isinstance(holder, dict) and isinstance(holder.get("systemId"), str):
            return holder["systemId"]
    return ""


def body(document: dict) -> dict:
    """A document's own data, in either shape."""
    found = document.get("system")
    if not isinstance(found, dict):
        found = document.get("data")
    return found if isinstance(found, dict) else {}


def field(holder: dict, key: str) -> Any:
    """`holder[key].value` (or `.content`, `.score`) when an object, else the value itself."""
    value = holder.get(key)
    if isinstance(value, dict):
        for inner in ("value", "content", "score"):
            if inner in value:
                return value[inner]
        return None
    return value
