"""What a character's advancement ledger tells an engine, passed in explicitly.

The ledger (sheets/characters/models.py LedgerEntry) is the one record of XP, Character
Points and the 1o3d10 points: awards, purchases, refunds and a GM's corrections. The sheet
stores none of these figures, so nothing can disagree with the entries; a system's
`advancement.with_ledger` lays them over a copy of the sheet for its checks and status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# An award made when creation ends from what creation leaves unspent (O.R.E. unspent
# points, WEG's starting Character Points): its entry names this as its trait.
CARRIED_TRAIT = "creation.carried"


@dataclass(frozen=True)
class LedgerFigures:
    """Sums over one character's ledger entries, in the system's unit."""

    # Awards and corrections: what the character was given.
    earned: int = 0
    # Purchases less refunds: what raises cost and still cost.
    spent: int = 0
    # The part of `earned` that creation carried over (see CARRIED_TRAIT).
    carried: int = 0
    # The part of `spent` that purchases waiting for the GM's consent hold: counted as
    # spent, so nothing else can spend it while the GM decides.
    held: int = 0
    # Awards from elsewhere (off-table, another table, an import) that wait for the GM of
    # the table the sheet sits at: left out of `earned` until that GM accepts them.
    waiting: int = 0

    @property
    def balance(self) -> int:
        return self.earned - self.spent

    @property
    def charged(self) -> int:
        """What was spent for good: `spent` without what waits for approval."""
        return self.spent - self.held


# The plain answers of a system's advancement module: a raise is one step of its own row,
# undone by setting the row back. A system imports the ones it keeps and writes the rest.


def next_value(sheet: Mapping[str, Any], trait: str, current: int) -> int:
    return current + 1


def purchase_edit(sheet: Mapping[str, Any], trait: str, new_value: int) -> tuple[str, str]:
    return trait, str(new_value)


def undo_edits(sheet: Mapping[str, Any], trait: str, old_value: int) -> list[tuple[str, str]]:
    return [(trait, str(old_value))]


def adventure_end_edits(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    return []


def needs_teacher(trait: str) -> bool:
    return False


def forget_purchase(sheet: Mapping[str, Any], trait: str) -> dict:
    return dict(sheet)


def shown_without_row(sheet: Mapping[str, Any], trait: str) -> str:
    """How a bought trait with no row of its own shows (by default every purchase has a row)."""
    return ""


def consent_choices(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What may be bought only with the GM's consent (by default nothing)."""
    return []
