"""The questions every system's module answers; the web layer only talks through these.

A system module (rulesets/<key>/__init__.py) exposes:

- KEY, NAME, SUMMARY: stable key, display name, one-line description;
- SETTINGS: tuple[Setting, ...], the readings a GM may change, with seed defaults;
- blank_sheet(settings) -> dict: a new, JSON-serialisable sheet;
- apply_edit(sheet, trait, raw, settings) -> dict: a NEW sheet with one trait changed,
  or InvalidEdit(trait, message); the given sheet is never mutated;
- check(sheet, settings) -> Report: every pool and every violation, all at once;
- derived(sheet, settings) -> dict: values computed from the sheet, never stored;
- advance_cost(sheet, trait, new_value, settings) -> Cost: price of a raise, explained;
- validate_sheet(data) -> dict: the normal form of an imported sheet, or InvalidSheet.

All functions are pure and deterministic; dice take an injected random.Random.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from rulesets.core.cost import Cost
from rulesets.core.report import Report
from rulesets.core.settings import Setting


class Ruleset(Protocol):
    KEY: str
    NAME: str
    SUMMARY: str
    SETTINGS: tuple[Setting, ...]

    def blank_sheet(self, settings: Mapping[str, Any]) -> dict: ...

    def apply_edit(
        self, sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any]
    ) -> dict: ...

    def check(self, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Report: ...

    def derived(self, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict: ...

    def advance_cost(
        self, sheet: Mapping[str, Any], trait: str, new_value: int, settings: Mapping[str, Any]
    ) -> Cost: ...

    def validate_sheet(self, data: Any) -> dict: ...
