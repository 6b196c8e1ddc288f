"""Shared rule types every system builds on: die codes, budgets, reports, costs, dice,
settings, parsing, rows and the sheet schema helpers."""

from __future__ import annotations

from rulesets.core.budget import Pool
from rulesets.core.cost import Cost
from rulesets.core.dice import roll
from rulesets.core.diecode import DieCode, DieCodeError
from rulesets.core.edits import InvalidEdit, InvalidSheet
from rulesets.core.report import Report, Severity, Violation
from rulesets.core.rows import RowKind, Setter, Stage, Status, TraitRow
from rulesets.core.settings import Setting, resolve_settings

__all__ = [
    "Cost",
    "DieCode",
    "DieCodeError",
    "InvalidEdit",
    "InvalidSheet",
    "Pool",
    "Report",
    "RowKind",
    "Setter",
    "Setting",
    "Severity",
    "Stage",
    "Status",
    "TraitRow",
    "Violation",
    "resolve_settings",
    "roll",
]
