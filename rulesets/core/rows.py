"""What a ruleset tells the web layer about each trait and about a sheet as a whole.

A layout prints `TraitRow`s and never restates a rule: the range, the choices, the cost of
the next step, whether the trait is locked and who may set it all come from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rulesets.core.cost import Cost
from rulesets.core.parsing import NOTES_LIMIT, TEXT_LIMIT
from rulesets.core.report import Report


class Stage(StrEnum):
    # Every sheet is in one of these: creation spends the creation budgets, play spends
    # XP or Character Points. The trait key that moves between them is STAGE_TRAIT.
    CREATION = "creation"
    PLAY = "play"


class Setter(StrEnum):
    """Who may set a trait inside a campaign."""

    PLAYER = "player"
    # What the seeds reserve to the Storyteller or GM (SWd10 Power, O.R.E. power
    # permission, 1o3d10 Force sensitivity...): only a GM sets it at a table.
    GM = "gm"


class RowKind(StrEnum):
    DOTS = "dots"  # a small whole number drawn as dots (SWd10)
    NUMBER = "number"  # a whole number typed or stepped
    CODE = "code"  # a die code stored in pips (WEG), minimum and maximum in pips
    DICE = "dice"  # a count of dice (O.R.E.)
    TEXT = "text"
    NOTES = "notes"  # free text over several lines
    FLAG = "flag"  # yes or no
    CHOICE = "choice"  # one of `choices`


@dataclass(frozen=True)
class TraitRow:
    """One trait of one sheet, as a player sees and edits it.

    `key` is the trait key `apply_edit` takes. For the numeric kinds, `minimum` and
    `maximum` are exactly what `apply_edit` accepts for this sheet now; for a choice,
    `choices` lists the (value, label) pairs it accepts. For text and notes, `maximum` is
    the most characters `apply_edit` accepts (the page's maxlength): a row that names none
    takes the parsers' defaults, TEXT_LIMIT for a line and NOTES_LIMIT for notes.
    """

    key: str
    label: str
    section: str
    value: Any
    shown: str
    kind: RowKind
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    next_cost: Cost | None = None
    # Why the trait cannot be changed now, in plain words; empty when it can.
    locked: str = ""
    setter: Setter = Setter.PLAYER
    source: str = ""
    # A sub-heading inside the section ("Physical"), for layouts that group rows.
    group: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if self.maximum is None and self.kind in (RowKind.TEXT, RowKind.NOTES):
            limit = TEXT_LIMIT if self.kind is RowKind.TEXT else NOTES_LIMIT
            object.__setattr__(self, "maximum", limit)

    @property
    def editable(self) -> bool:
        return not self.locked


@dataclass(frozen=True)
class Status:
    """What a GM's list of sheets shows for any system: one line per character."""

    stage: Stage
    legal: bool
    errors: int
    warnings: int
    # XP or Character Points earned and not yet spent; None where the sheet keeps none.
    unspent: int | None
    unit: str

    @classmethod
    def from_report(cls, report: Report, *, stage: str, unspent: int | None, unit: str) -> Status:
        return cls(
            stage=Stage(stage),
            legal=report.ok,
            errors=len(report.errors),
            warnings=len(report.warnings),
            unspent=unspent,
            unit=unit,
        )
