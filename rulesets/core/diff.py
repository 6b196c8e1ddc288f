"""What changed between two versions of a sheet, in the words a player reads.

Built on the contract's `trait_rows`, so one function serves every system: each row is
matched by its trait key and compared by what the sheet shows for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core.rows import TraitRow
from rulesets.core.ruleset import Ruleset
from rulesets.core.settings import resolve_settings


@dataclass(frozen=True)
class Change:
    key: str
    label: str
    before: str | None  # None: the row was added
    after: str | None  # None: the row was removed

    @property
    def kind(self) -> str:
        if self.before is None:
            return "added"
        if self.after is None:
            return "removed"
        return "changed"

    def __str__(self) -> str:
        if self.before is None:
            return f"added {self.label}: {self.after}"
        if self.after is None:
            return f"removed {self.label} (was {self.before})"
        return f"{self.label}: {self.before} → {self.after}"


def _shown(value: str) -> str:
    return value if value != "" else "—"


def sheet_changes(
    ruleset: Ruleset,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    chosen: Mapping[str, Any],
) -> list[Change]:
    """List the rows whose shown value differs, in the order the newer sheet prints them."""
    settings = resolve_settings(ruleset.SETTINGS, chosen)
    return row_changes(ruleset.trait_rows(before, settings), ruleset.trait_rows(after, settings))


def row_changes(before: Iterable[TraitRow], after: Iterable[TraitRow]) -> list[Change]:
    """`sheet_changes` for rows already asked of the engine (a caller keeping them)."""
    old = {row.key: row for row in before}
    new = {row.key: row for row in after}
    changes = []
    for key, row in new.items():
        previous = old.get(key)
        if previous is None:
            changes.append(Change(key, row.label, None, _shown(row.shown)))
        elif previous.shown != row.shown:
            changes.append(Change(key, row.label, _shown(previous.shown), _shown(row.shown)))
    changes.extend(
        Change(key, row.label, _shown(row.shown), None)
        for key, row in old.items()
        if key not in new
    )
    return changes
