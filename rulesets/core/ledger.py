"""What a character's advancement ledger tells an engine, passed in explicitly.

The ledger (sheets/characters/models.py LedgerEntry) is the one record of XP, Character
Points and the 1o3d10 points: awards, purchases, refunds and a GM's corrections. The sheet
stores none of these figures, so nothing can disagree with the entries; a system's
`advancement.with_ledger` lays them over a copy of the sheet for its checks and status.
"""

from __future__ import annotations

from dataclasses import dataclass

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

    @property
    def balance(self) -> int:
        return self.earned - self.spent
