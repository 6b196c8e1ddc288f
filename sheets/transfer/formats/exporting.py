"""What every exporter to another tool's file shares: the file and what it cannot hold.

An exporter is pure: a validated sheet dict goes in, the other tool's document comes out
with the list of what that document has no place for (shown to the person downloading it,
and checked by the round-trip tests, which read the document back with the format's own
reader and find exactly these differences).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Lost:
    """One part of the sheet the file does not bring back, in words and as sheet paths."""

    what: str
    why: str
    # The sheet's dotted paths that differ after the file is read back.
    paths: tuple[str, ...] = ()


@dataclass
class Export:
    format_key: str
    label: str
    suffix: str
    document: dict
    lost: list[Lost] = field(default_factory=list)

    def lose(self, what: str, why: str, *paths: str) -> None:
        self.lost.append(Lost(what, why, paths))

    def file_bytes(self) -> bytes:
        return json.dumps(self.document, indent=2, ensure_ascii=False).encode()


def cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
