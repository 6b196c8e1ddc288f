"""Budget pools: how much a rule allows, how much the sheet spends, what is left."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pool:
    """One creation or advancement budget, e.g. Physical attributes: 6 allowed, 4 spent."""

    key: str
    label: str
    allowed: int
    spent: int
    unit: str = "dots"
    source: str = ""
    # A most one may take (flaws, powers a skill holds), not a budget to spend: what it
    # leaves is no point left unspent.
    cap: bool = False

    @property
    def left(self) -> int:
        return self.allowed - self.spent

    @property
    def over(self) -> bool:
        return self.spent > self.allowed

    @property
    def exact(self) -> bool:
        return self.spent == self.allowed
