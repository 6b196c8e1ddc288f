"""Turn a ruleset's trait rows into what the sheet shell prints; the same for every system.

A system's layout (`layouts/<key>.py`) only arranges: it names its sections in order,
the template of each section's body, and any extra context a section needs (catalog
choices for an "add" row, derived panels). Ranges, caps, costs, locks and notes all come
from the ruleset's `trait_rows`, so no rule is restated here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from rulesets.core import RowKind, Setting, Stage, TraitRow, Violation
from rulesets.core.diecode import DieCode
from rulesets.core.stage import STAGE_TRAIT
from rulesets.registry import system_info
from sheets.advancement.figures import ledger_trait
from sheets.characters.models import Character
from sheets.characters.state import SheetState
from sheets.permissions import CharacterAccess, gm_rows, stage_change_refusal, trait_refusal

NAME_TRAIT = "character.name"
SETTING_PREFIX = "setting."
# Whether the ledger keeps a trait depends only on the system's fixed patterns, and each
# row asks it: answered once per (system, trait, stage) rather than for every row drawn.
_ledger_trait = lru_cache(maxsize=4096)(ledger_trait)
# The lock on a row the ledger keeps (experience earned, points left, awards): the row
# shows the ledger's figure and links to the Advancement page, where it changes.
LEDGER_LOCK = "Awarded and spent on the ledger"


def trait_dom_id(trait: str) -> str:
    """The stable HTML id of a trait's element ("attr.wits" -> "trait-attr-wits")."""
    return "trait-" + trait.replace(".", "-")


@dataclass(frozen=True)
class Section:
    """One part of a sheet page.

    `body` is the template of what an edit may swap; `adds` the template of the "add"
    row that stays in place under it, so a queued add keeps its choice while the body
    is swapped. `prefixes` claim the refusals and violations of traits that have no row
    of their own ("merit.add", "merits"). A `side` section sits beside the sheet.
    """

    key: str
    title: str
    body: str = "rulesets/_rows.html"
    adds: str = ""
    # The "add" row is one of the ruleset's GM_EDITS (an experience award), not the player's.
    adds_by_gm: bool = False
    prefixes: tuple[str, ...] = ()
    side: bool = False
    # Redrawn whenever a derived value it prints changes: True for any of them, or the
    # keys of `derived` the section's templates read (a WEG attribute step changes the
    # totals the side panel prints, not the wound track's state).
    shows_derived: bool | tuple[str, ...] = False
    # Redrawn whenever this section's extra context changes (a list drawn from it).
    uses_extra: tuple[str, ...] = ()

    @property
    def dom_id(self) -> str:
        return f"section-{self.key}"


@dataclass(frozen=True)
class Dot:
    value: int
    filled: bool
    checked: bool
    # Below the row's minimum (a value in play never drops under creation's): drawn, filled,
    # but not a choice.
    disabled: bool = False


@dataclass(frozen=True)
class Field:
    """A trait row with what this request adds: its problems and a refused value."""

    row: TraitRow
    violations: tuple[Violation, ...] = ()
    error: str = ""
    submitted: str | None = None
    # This viewer may not set the trait (a GM row for a player at a table, a player's row
    # for its GM, anything on a shared page): the row is drawn locked, with a short reason.
    refused: bool = False

    @property
    def key(self) -> str:
        return self.row.key

    @property
    def dom_id(self) -> str:
        return trait_dom_id(self.row.key)

    @property
    def input_value(self) -> str:
        """What the input shows: the refused text typed, or the value as stored."""
        return self.stored_value if self.submitted is None else self.submitted

    @property
    def stored_value(self) -> str:
        """The value as stored, as its input shows it: what a refused row's input goes back
        to once its refusal is cleared (static/js/sheet.js)."""
        if self.row.kind is RowKind.CODE:
            return self.row.shown
        return "" if self.row.value is None else str(self.row.value)

    @property
    def dots(self) -> list[Dot]:
        """One dot per value from 1 to the maximum, and a "none" choice when 0 is allowed."""
        row = self.row
        value = row.value if isinstance(row.value, int) else 0
        low = row.minimum or 0
        first = 0 if low == 0 else 1
        # A stored value above today's maximum (a reading since changed) still shows.
        last = max(row.maximum or 0, value)
        return [Dot(n, n <= value, n == value, n < low) for n in range(first, last + 1)]

    @property
    def checked(self) -> bool:
        return bool(self.row.value)

    @property
    def code_range(self) -> str:
        row = self.row
        if row.kind is not RowKind.CODE or row.minimum is None or row.maximum is None:
            return ""
        return f"{DieCode.from_pips(row.minimum)} to {DieCode.from_pips(row.maximum)}"

    @property
    def has_problem(self) -> bool:
        return bool(self.error or self.violations)

    @property
    def ledger(self) -> bool:
        """The ledger keeps this row's figure: the row links to the Advancement page."""
        return self.row.locked == LEDGER_LOCK


@dataclass
class Part:
    """A section as drawn: its fields (in print order), grouped, and its own messages."""

    section: Section
    fields: list[Field] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)

    @property
    def groups(self) -> list[tuple[str, list[Field]]]:
        grouped: dict[str, list[Field]] = {}
        for item in self.fields:
            grouped.setdefault(item.row.group, []).append(item)
        return list(grouped.items())

    @property
    def signature(self) -> tuple:
        """The section's rows by key: an edit that changes it (a weapon added) changes the
        section as a whole."""
        return tuple(f.key for f in self.fields)


@dataclass(frozen=True)
class Reading:
    """One rule reading in force on this sheet, and whose choice it is."""

    setting: Setting
    value: Any
    value_label: str
    changed: bool
    default_label: str
    error: str = ""


class Layout:
    """A system's arrangement of its sheet page; subclasses set `sections`."""

    sections: tuple[Section, ...] = ()

    def extra(self, state: SheetState, character: Character) -> dict:
        """Return what this system's section templates need beyond the rows."""
        return {}

    def print_extra(self, state: SheetState, character: Character) -> dict:
        """Return what the print template needs beyond the page context."""
        return {}

    def section_for(self, row: TraitRow) -> str:
        return row.section

    def narrowed(self, old: Part, new: Part, before: dict, after: dict) -> Narrowed | None:
        """What of a changed section an edit may send instead of its whole body, worked out
        from the engine's answers laid out before and after the write (`before`, `after`),
        never from drawn markup; None sends the whole body. A system whose section body
        holds pieces with ids of their own (a hit location, a row's step buttons) answers
        for them."""
        return None


@dataclass(frozen=True)
class Narrowed:
    """A changed section sent in pieces: rows swapped one by one, each with the elements
    beside it that changed (its buttons), and other elements, each drawn already, marked
    to swap by its id."""

    fields: tuple[tuple[Field, tuple[str, ...]], ...] = ()
    pieces: tuple[str, ...] = ()


def _placement(layout: Layout, keys: set[str], trait: str | None) -> tuple[str, str]:
    """Say where a message about `trait` is shown: ("row", key), ("section", key) or ("", "")."""
    if trait is None:
        return "", ""
    if trait in keys:
        return "row", trait
    for section in layout.sections:
        if trait == section.key or any(trait.startswith(p) for p in section.prefixes):
            return "section", section.key
    return "", ""


@dataclass(frozen=True)
class Viewer:
    """What the person looking at the sheet may set on it, from the one rule
    (`sheets.permissions.trait_refusal`); `access` is None for a print, which sets nothing."""

    character: Character
    access: CharacterAccess | None
    reserved: frozenset[str]

    def refusal(self, trait: str) -> str:
        if self.access is None:
            return ""
        return trait_refusal(
            self.access, self.character, trait, set(self.reserved)
        ) or self._ledger_lock(trait)

    def _ledger_lock(self, trait: str) -> str:
        # The edit service refuses these for everyone (services._ledger_refusal): drawn
        # as an input, they would only invite a refusal.
        stage = self.character.sheet.get(STAGE_TRAIT) or "creation"
        return LEDGER_LOCK if _ledger_trait(self.character.system, trait, stage) else ""

    def may_set(self, trait: str) -> bool:
        return self.access is not None and not self.refusal(trait)

    def shown_reason(self, trait: str) -> str:
        """A short reason for a row this viewer may not set; the rule's own words are for
        a refused post."""
        if self.access is None or not self.refusal(trait):
            return ""
        if self.access.view and self._ledger_lock(trait):
            return LEDGER_LOCK
        if trait in self.reserved and not self.access.gm:
            return "Set by the GM at this table"
        if self.access.gm:
            return "The player's to set"
        return "Read-only"


def viewer_of(character: Character, state: SheetState, access: CharacterAccess | None) -> Viewer:
    reserved = gm_rows(state.rows) if character.campaign_id is not None else set()
    return Viewer(character, access, frozenset(reserved))


def _viewed(row: TraitRow, viewer: Viewer) -> tuple[TraitRow, bool]:
    """The row as this viewer may use it: locked, with a short reason, when they may not."""
    reason = viewer.shown_reason(row.key)
    if not reason:
        return row, False
    return (row if row.locked else replace(row, locked=reason)), True


def build_context(
    character: Character,
    layout: Layout,
    state: SheetState,
    *,
    errors: Mapping[str, str],
    submitted: Mapping[str, str],
    access: CharacterAccess | None = None,
) -> dict:
    """Lay out a whole sheet page: every section's fields with their problems.

    `access` is the viewer's: each row they may not set is drawn locked, and the flags
    `can_edit_player` (the player's traits, "add" rows, remove and advance buttons),
    `can_set_readings` and `can_edit` (any field at all) tell the templates what to offer.
    Without it (a print) nothing is locked for a viewer.
    """
    viewer = viewer_of(character, state, access)
    keys = {row.key for row in state.rows}
    by_trait: dict[str, list[Violation]] = {}
    parts = {section.key: Part(section) for section in layout.sections}
    unplaced: list[Violation] = []
    pool_keys = {f"pool.{pool.key}" for pool in state.report.pools}
    for violation in state.report.violations:
        where, key = _placement(layout, keys, violation.trait)
        if where == "row":
            by_trait.setdefault(key, []).append(violation)
        elif where == "section":
            parts[key].violations.append(violation)
        elif violation.trait not in pool_keys:
            unplaced.append(violation)
    stage_field: Field | None = None
    for row in state.rows:
        if row.key == STAGE_TRAIT:
            # The shell draws the finish-creation step itself, from this row: locked only
            # by the rules, for who may move the stage is `stage_refusal`'s answer.
            stage_field = Field(row, tuple(by_trait.get(row.key, ())), errors.get(row.key, ""))
            continue
        row, refused = _viewed(row, viewer)
        section = layout.section_for(row)
        if section not in parts:
            # A row of a section this layout does not draw is a layout bug; show it
            # rather than hide it.
            parts[section] = Part(Section(section, row.section.replace("_", " ").capitalize()))
        parts[section].fields.append(
            Field(
                row,
                tuple(by_trait.get(row.key, ())),
                errors.get(row.key, ""),
                submitted.get(row.key) if row.key in errors else None,
                refused,
            )
        )
    declared = {SETTING_PREFIX + s.key for s in state.ruleset.SETTINGS}
    stray: list[str] = []
    for trait, message in errors.items():
        if trait in keys or trait in (NAME_TRAIT, STAGE_TRAIT) or trait in declared:
            continue
        where, key = _placement(layout, keys, trait)
        if where == "section":
            parts[key].errors.append(message)
        else:
            stray.append(message)
    info = system_info(character.system)
    readings = [
        Reading(
            setting,
            state.settings[setting.key],
            setting.label_for(state.settings[setting.key]),
            state.settings[setting.key] != setting.default,
            setting.label_for(setting.default),
            errors.get(SETTING_PREFIX + setting.key, ""),
        )
        for setting in state.ruleset.SETTINGS
    ]
    # Tuples: an edit response compares them before and after, to send the budget only
    # when it changed.
    pools = tuple(
        (pool, tuple(v for v in state.report.violations if v.trait == f"pool.{pool.key}"))
        for pool in state.report.pools
    )
    # The name is a player's trait like any other: who may set it may set the player's.
    can_edit_player = viewer.may_set(NAME_TRAIT)
    can_set_readings = viewer.may_set(SETTING_PREFIX + "any")
    # The GM's actions that have no row (award experience, next in-game day): a pattern's
    # "*" stands for any row number, so row 0 asks the rule for all of them.
    gm_edits = state.ruleset.GM_EDITS
    can_gm_edits = bool(gm_edits) and all(
        viewer.may_set(pattern.replace("*", "0")) for pattern in gm_edits
    )
    return {
        "character": character,
        "access": access,
        "can_edit_player": can_edit_player,
        "can_set_readings": can_set_readings,
        "can_gm_edits": can_gm_edits,
        # A GM at the table sets the GM's rows, so the form stays for them.
        "can_edit": can_edit_player or any(viewer.may_set(key) for key in viewer.reserved),
        "system": info,
        "sheet": state.sheet,
        "state": state,
        "report": state.report,
        "status": state.status,
        "derived": state.derived,
        "parts": [parts[s.key] for s in layout.sections if not s.side]
        + [p for k, p in parts.items() if k not in {s.key for s in layout.sections}],
        "side_parts": [parts[s.key] for s in layout.sections if s.side],
        "pools": pools,
        "unplaced": tuple(unplaced),
        "stray_errors": stray,
        "name_error": errors.get(NAME_TRAIT, ""),
        "name_submitted": submitted.get(NAME_TRAIT) if NAME_TRAIT in errors else None,
        "stage_error": errors.get(STAGE_TRAIT, ""),
        "stage_field": stage_field,
        # The stage button is drawn only for whom the move is allowed (a print: nobody).
        "stage_refusal": stage_change_refusal(
            access or CharacterAccess(),
            character,
            Stage.CREATION if state.status.stage == Stage.PLAY else Stage.PLAY,
        ),
        "readings": readings,
        "readings_changed": sum(r.changed for r in readings),
        # A refused reading opens the panel, its message beside the field.
        "readings_open": any(r.error for r in readings),
        **layout.extra(state, character),
    }


def _prints_a_change(
    shows: bool | tuple[str, ...], before: Mapping[str, Any], after: Mapping[str, Any]
) -> bool:
    if isinstance(shows, bool):
        return shows
    return any(before.get(key) != after.get(key) for key in shows)


def changed_parts(layout: Layout, before: dict, after: dict) -> Changes:
    """Compare two laid-out pages, from the engine's rows and values (not their drawing):
    the fields to swap one by one, the sections that changed as a whole, and the pieces a
    layout narrows such a section to (`Layout.narrowed`).

    A section whose list of rows changed (a weapon added, a merit removed), whose messages
    changed, that prints a derived value that changed, or whose extra context changed has
    changed as a whole; in the other sections only the fields that differ are swapped.
    """
    old_parts = {p.section.key: p for p in before["parts"] + before["side_parts"]}
    changes = Changes()
    # Finishing creation or a new reading redraws every section, as the page would.
    everything = (
        before["status"].stage != after["status"].stage
        or before["state"].settings != after["state"].settings
    )
    old_derived, new_derived = before["derived"], after["derived"]
    derived_moved = old_derived != new_derived
    for part in after["parts"] + after["side_parts"]:
        old = old_parts.get(part.section.key)
        section = part.section
        if old is None or everything:
            changes.parts.append((part, None))
            continue
        if (
            old.signature != part.signature
            or old.errors != part.errors
            or old.violations != part.violations
            or (derived_moved and _prints_a_change(section.shows_derived, old_derived, new_derived))
            or any(before.get(name) != after.get(name) for name in section.uses_extra)
        ):
            narrowed = layout.narrowed(old, part, before, after)
            if narrowed is None:
                changes.parts.append((part, old))
            else:
                changes.fields.extend(narrowed.fields)
                changes.pieces.extend(narrowed.pieces)
            continue
        changes.fields.extend((f, ()) for f in changed_fields(old, part))
    return changes


def changed_fields(old: Part, new: Part) -> list[Field]:
    """The fields of a section that differ from the same section before: a row's value,
    its problems, a refused value typed, or whether this viewer may set it."""
    old_fields = {f.key: f for f in old.fields}
    return [f for f in new.fields if old_fields.get(f.key) != f]


@dataclass
class Changes:
    """What an edit response swaps (`changed_parts`): rows, each with the pieces beside it
    that changed; sections that changed as a whole, each with itself before the write (None:
    redrawn whole, as after a new reading); other pieces, drawn already."""

    fields: list[tuple[Field, tuple[str, ...]]] = field(default_factory=list)
    parts: list[tuple[Part, Part | None]] = field(default_factory=list)
    pieces: list[str] = field(default_factory=list)
