"""The price of a change, with a line a player can read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Cost:
    """An amount in a unit (XP, CP, points) and how it was reached.

    A multi-step raise keeps each step so the sheet can show "12 + 16 = 28 XP".
    """

    amount: int
    unit: str
    explanation: str
    steps: tuple[Cost, ...] = ()

    @classmethod
    def total(cls, steps: Iterable[Cost], *, unit: str, label: str) -> Cost:
        """Sum single steps into one cost whose explanation shows the addition."""
        parts = tuple(steps)
        amount = sum(step.amount for step in parts)
        if not parts:
            return cls(0, unit, f"{label}: no change, 0 {unit}")
        if len(parts) == 1:
            return parts[0]
        sums = " + ".join(str(step.amount) for step in parts)
        return cls(amount, unit, f"{label}: {sums} = {amount} {unit}", parts)

    def __str__(self) -> str:
        return self.explanation
