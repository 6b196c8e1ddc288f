"""What the rule engine says of one sheet under its settings (rows, checks, derived values,
status), computed from the sheet alone and never stored: the one place the web layer asks
the engine, below the write service, history and the layouts that read it."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import quote

import orjson
from django.utils.http import RFC3986_SUBDELIMS

from rulesets.core import Report, Status, TraitRow, resolve_settings
from rulesets.core.rolls import Rollable
from rulesets.core.ruleset import Ruleset
from rulesets.registry import dice_ready


@dataclass
class SheetState:
    """What the engine says of one sheet under its settings: all computed, none stored."""

    ruleset: Ruleset
    sheet: Mapping[str, Any]
    settings: dict[str, Any]
    report: Report
    derived: dict
    status: Status
    rows: list[TraitRow]
    # The content the answers were computed from: the key they are kept by.
    key: bytes | str = ""

    @cached_property
    def rollables(self) -> tuple[Rollable, ...]:
        """Everything this sheet can roll (nothing while its system's dice are not there):
        the roll panel's choices and every row's roll link, worked out once per content."""
        if not dice_ready(self.ruleset.KEY):
            return ()
        return tuple(self.ruleset.rollables(self.sheet, self.settings))

    @cached_property
    def rollable_keys(self) -> tuple[tuple[str, str], ...]:
        """Each key this sheet can roll, with the same key quoted for a URL path: asked by
        every row an editor sees."""
        return tuple((r.key, quote(r.key, safe=URL_PATH_SAFE)) for r in self.rollables)


# What reverse() leaves unquoted in a path; "~" is among them, so it can stand in for a key.
URL_PATH_SAFE = RFC3986_SUBDELIMS + "/~:@"

# The engine's answers for the last few sheets, by content. One edit asks about the same
# two sheets, before and after its write, several times: the write service (a GM's rows at
# a table, the raises refused in play), the revision's change lines and the edit response
# each ask, and each answer is computed once. Across requests they rarely hit (the next
# edit makes a sheet never seen, often in another worker): a few are enough. `make bench`
# times the edit with them and without them (`states_not_kept`).
_STATES: OrderedDict[bytes | str, SheetState] = OrderedDict()
STATES_KEPT = 8
_keeping = [True]


def sheet_state(
    ruleset: Ruleset, sheet: Mapping[str, Any], chosen: Mapping[str, Any]
) -> SheetState:
    """Ask the engine everything about a sheet (the engines are pure functions: the
    answers for the last few sheets are kept by their content)."""
    settings = resolve_settings(ruleset.SETTINGS, chosen)
    content = content_key([ruleset.KEY, sheet, settings])
    state = _STATES.get(content) if _keeping[0] else None
    if state is None:
        state = _compute_state(ruleset, sheet, settings)
        state.key = content
        _STATES[content] = state
        _STATES.move_to_end(content)
        while len(_STATES) > STATES_KEPT:
            _STATES.popitem(last=False)
    return state


@contextmanager
def states_not_kept() -> Iterator[None]:
    """Compute every answer afresh while open: the edit path without the kept answers,
    which `make bench` times beside the same path with them."""
    _keeping[0] = False
    try:
        yield
    finally:
        _keeping[0] = True


def content_key(value: Any) -> bytes | str:
    """`value` as canonical JSON (keys sorted: PostgreSQL's jsonb gives a stored sheet back
    with its keys in another order than the edit wrote them), to key answers by content.

    orjson writes it in a seventh of the time json takes (some 30 us of an O.R.E. sheet,
    which an edit keys several times); what it refuses (an integer over 64 bits) goes to json,
    whose str can never equal orjson's bytes. Sheets hold no NaN (import refuses
    non-finite numbers, edits parse integers), which orjson would write as null.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS, default=str)
    except orjson.JSONEncodeError:
        return json.dumps(value, sort_keys=True, default=str)


def forget_sheet_states() -> None:
    """Empty the kept sheet states, as a process that never saw the sheet has them (the
    bench: the previous state was drawn in another worker)."""
    _STATES.clear()


def _compute_state(
    ruleset: Ruleset, sheet: Mapping[str, Any], settings: dict[str, Any]
) -> SheetState:
    return SheetState(
        ruleset=ruleset,
        sheet=sheet,
        settings=settings,
        report=ruleset.check(sheet, settings),
        derived=ruleset.derived(sheet, settings),
        status=ruleset.status(sheet, settings),
        rows=ruleset.trait_rows(sheet, settings),
    )
