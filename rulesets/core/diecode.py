"""WEG-style die codes ("4D+2"): a count of dice plus a pip modifier.

Sheets store codes as whole pips (3 pips = 1D) so that improving a code carries pips
into dice. A code in play is kept as written (a 4D+6 roll stays 4D+6), which is why the
type keeps dice and pips apart instead of normalising on construction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PIPS_PER_DIE = 3

_CODE = re.compile(
    r"""^\s*
    (?P<sign>[+-])?\s*
    (?P<dice>\d{1,3})\s*[dD]\s*
    (?:(?P<pip_sign>[+-])\s*(?P<pips>\d{1,3}))?
    \s*$""",
    re.VERBOSE,
)


class DieCodeError(ValueError):
    """A die code could not be read; the message says why in plain words."""


@dataclass(frozen=True, order=True)
class DieCode:
    """A die code: `dice` D plus `pips` (either may be negative for a penalty)."""

    dice: int
    pips: int = 0

    @classmethod
    def from_pips(cls, total: int) -> DieCode:
        """Build the normal form of a whole-pip total (7 pips -> 2D+1, -4 pips -> -1D-1)."""
        sign = -1 if total < 0 else 1
        dice, pips = divmod(abs(total), PIPS_PER_DIE)
        return cls(sign * dice, sign * pips)

    @classmethod
    def parse(cls, text: str, *, allow_extra_pips: bool = False) -> DieCode:
        """Read "4D+2", "4d+2", "4D", "+1D+1" or "-1D".

        A stored code never carries more than 2 pips (3 pips make a die), so "4D+7" is
        refused unless `allow_extra_pips` is set for a code in play.
        """
        match = _CODE.match(text or "")
        if match is None:
            raise DieCodeError(f"“{text}” is not a die code; write it like 4D, 4D+2 or +1D+1.")
        sign = -1 if match["sign"] == "-" else 1
        dice = int(match["dice"])
        pips = int(match["pips"] or 0)
        if match["pip_sign"] == "-":
            pips = -pips
        if not allow_extra_pips and abs(pips) >= PIPS_PER_DIE:
            raise DieCodeError(
                f"“{text}” has {abs(pips)} pips; a code carries at most 2 "
                f"(3 pips make 1D, so write {cls.from_pips(dice * PIPS_PER_DIE + pips)})."
            )
        return cls(sign * dice, pips)

    @property
    def total_pips(self) -> int:
        return self.dice * PIPS_PER_DIE + self.pips

    def normalised(self) -> DieCode:
        return DieCode.from_pips(self.total_pips)

    def improved(self, pips: int = 1) -> DieCode:
        """Raise the code by `pips`, carrying every third pip into a die."""
        return DieCode.from_pips(self.total_pips + pips)

    def __add__(self, other: DieCode) -> DieCode:
        # Codes in play add without carrying: 4D+2 plus +0D+2 rolls as 4D+4.
        return DieCode(self.dice + other.dice, self.pips + other.pips)

    def __neg__(self) -> DieCode:
        return DieCode(-self.dice, -self.pips)

    def format(self, *, signed: bool = False) -> str:
        """Print the code the way the rulebooks do: 4D+2, 4D, +1D+1 (signed), -1D-1."""
        text = f"{self.dice}D" + (f"{self.pips:+d}" if self.pips else "")
        if signed and self.dice >= 0:
            return "+" + text
        return text

    def __str__(self) -> str:
        return self.format()
