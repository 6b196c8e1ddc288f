"""Revisions: what each write changed, down to one row of a list, and older versions rebuilt.

A revision stores operations, never whole lists:

    {"op": "set", "path": ["sheet", "attributes", "dexterity"], "before": 3, "after": 4}
    {"op": "insert", "path": ["sheet", "xp_awards", 12], "value": {"amount": 5, "note": ""}}
    {"op": "remove", "path": ["sheet", "merits", 2], "value": {"slug": "ambidextrous", ...}}

A path walks the stored state {"name", "settings", "sheet"}: text steps are keys of an
object, whole numbers are positions in a list. A "set" without "before" added the key; one
without "after" removed it. Applied in order, a revision's operations turn the version
before it into its own version; undone in reverse order, they turn it back, so any version
is the current state with the later revisions undone.

Beside the operations a revision keeps the changes in the words a player reads ("Dexterity:
3 → 4"), computed once when it is written, so the history page reads them instead of
rebuilding every version it lists.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.core.caps import grown_past_cap
from rulesets.core.diff import Change, row_changes
from rulesets.core.parsing import printable
from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.characters.state import sheet_state
from sheets.history.models import Revision
from sheets.live.bus import sheet_written

Op = dict[str, Any]
Step = str | int

# A revision keeps this many labelled changes, each value cut to SHOWN_LENGTH: what the
# history page shows of it. A restore may change hundreds of rows, and removing a row of
# a list renumbers every row after it; the diff page shows all of them in full. So a
# revision's size depends on one row at most, never on the length of a list.
CHANGES_KEPT = 8
SHOWN_LENGTH = 60
LABEL_LENGTH = 80


class HistoryBroken(Exception):
    """The stored revisions do not lead back to the version asked for."""


# Operations ------------------------------------------------------------------------------


def diff_ops(before: Any, after: Any, path: tuple[Step, ...] = ()) -> list[Op]:
    """List the operations that turn `before` into `after`, one row of a list at most each."""
    if before == after:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        ops: list[Op] = []
        for key in [*before, *(k for k in after if k not in before)]:
            where = [*path, key]
            if key not in after:
                ops.append({"op": "set", "path": where, "before": before[key]})
            elif key not in before:
                ops.append({"op": "set", "path": where, "after": after[key]})
            else:
                ops.extend(diff_ops(before[key], after[key], (*path, key)))
        return ops
    if isinstance(before, list) and isinstance(after, list) and path:
        return _diff_rows(before, after, path)
    return [{"op": "set", "path": list(path), "before": before, "after": after}]


def _diff_rows(before: list, after: list, path: tuple[Step, ...]) -> list[Op]:
    """Rows added, removed or changed, after setting aside the rows equal at both ends.

    An edit adds, removes or changes one row, so what remains between the equal ends is
    that one row; the rare rest pairs rows in order and adds or removes the surplus.
    """
    shorter = min(len(before), len(after))
    start = 0
    while start < shorter and before[start] == after[start]:
        start += 1
    end = 0
    while end < shorter - start and before[-1 - end] == after[-1 - end]:
        end += 1
    old = before[start : len(before) - end]
    new = after[start : len(after) - end]
    paired = min(len(old), len(new))
    ops: list[Op] = []
    for offset in range(paired):
        ops.extend(diff_ops(old[offset], new[offset], (*path, start + offset)))
    for offset in range(paired, len(new)):
        ops.append({"op": "insert", "path": [*path, start + offset], "value": new[offset]})
    for offset in range(paired, len(old)):
        # Each removal closes the gap, so the next surplus row sits at the same place.
        ops.append({"op": "remove", "path": [*path, start + paired], "value": old[offset]})
    return ops


def _container(state: Any, steps: Iterable[Step]) -> Any:
    for step in steps:
        if isinstance(step, str) and isinstance(state, dict) and step not in state:
            # Revisions migrated from the old format name leaves of objects made later.
            state[step] = {}
        state = state[step]
    return state


def _apply(state: dict, op: Op, *, forward: bool) -> None:
    *parents, last = op["path"]
    try:
        container = _container(state, parents)
        kind = op["op"]
        if kind == "set":
            side = "after" if forward else "before"
            if side in op:
                container[last] = copy.deepcopy(op[side])
            elif isinstance(container, dict):
                # Already gone is as good: an exported file holds its table's readings
                # where the history wrote the character's own.
                container.pop(last, None)
            else:
                del container[last]
        elif (kind == "insert") == forward:
            if not 0 <= last <= len(container):
                raise IndexError(last)
            container.insert(last, copy.deepcopy(op["value"]))
        else:
            container.pop(last)
    except (KeyError, IndexError, TypeError, AttributeError) as error:
        raise HistoryBroken(f"A revision does not fit the sheet at {op['path']!r}.") from error


def apply_ops(state: dict, ops: Iterable[Op]) -> None:
    """Replay a revision's operations on the version before it (in place)."""
    for op in ops:
        _apply(state, op, forward=True)


def revert_ops(state: dict, ops: list[Op]) -> None:
    """Undo a revision's operations on its own version (in place)."""
    for op in reversed(ops):
        _apply(state, op, forward=False)


def check_ops(ops: Any) -> list[Op]:
    """Return `ops` when each is a well-formed operation, or raise ValueError saying which."""
    if not isinstance(ops, list):
        raise ValueError("“ops” must be a list.")
    for number, op in enumerate(ops, start=1):
        if not isinstance(op, dict):
            raise ValueError(f"operation {number} is not an object.")
        path = op.get("path")
        if (
            not isinstance(path, list)
            or not path
            or not isinstance(path[0], str)
            or any(type(step) not in (str, int) for step in path)
        ):
            raise ValueError(f"operation {number} has no path of keys and row numbers.")
        kind = op.get("op")
        allowed = {"set": {"op", "path", "before", "after"}}.get(kind, {"op", "path", "value"})
        if kind not in ("set", "insert", "remove") or set(op) - allowed:
            raise ValueError(f"operation {number} is not a set, insert or remove.")
        if kind == "set" and not {"before", "after"} & set(op):
            raise ValueError(f"operation {number} sets nothing.")
        if kind != "set" and ("value" not in op or type(path[-1]) is not int):
            raise ValueError(f"operation {number} names no row.")
    return ops


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, inner in value.items():
            flat |= _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
        return flat
    return {prefix: value}


def changes_between(before: dict, after: dict) -> tuple[dict, dict]:
    """The dotted paths whose value differs, lists taken whole, with their two values."""
    old, new = _flatten(before), _flatten(after)
    changed = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    return {k: old.get(k) for k in changed}, {k: new.get(k) for k in changed}


def touched_paths(ops: Iterable[Op]) -> set[str]:
    """The dotted paths `changes_between` names for the same write.

    Two people at one sheet merge when they touched different paths; a list counts as one
    path, since a row added by one moves the rows the other is changing.
    """
    paths: set[str] = set()
    for op in ops:
        path = op["path"]
        row = next((i for i, step in enumerate(path) if type(step) is int), None)
        if row is not None:
            paths.add(".".join(str(step) for step in path[:row]))
            continue
        dotted = ".".join(str(step) for step in path)
        for side in ("before", "after"):
            if side in op:
                paths |= _flatten(op[side], dotted).keys()
    return paths


# Revisions of a character ------------------------------------------------------------------


def revision_state(character: Character) -> dict:
    return {
        "name": character.name,
        "settings": character.rule_settings,
        "sheet": character.sheet,
    }


def changed_paths(character: Character, since_version: int) -> set[str] | None:
    """The stored paths written after `since_version`; None when that version is unknown."""
    if not 1 <= since_version <= character.version:
        return None
    paths: set[str] = set()
    for ops in Revision.objects.filter(character=character, version__gt=since_version).values_list(
        "ops", flat=True
    ):
        paths |= touched_paths(ops)
    return paths


def _reading(setting: Any, chosen: Mapping, key: str) -> str:
    """A rule reading as the readings panel words it; "default" when none is chosen."""
    if key not in chosen:
        return "default"
    return setting.label_for(chosen[key]) if setting else str(chosen[key])


def change_lines(
    system: str,
    before: Mapping,
    after: Mapping,
    chosen: Mapping,
    judged: tuple[Mapping, Mapping] | None = None,
) -> list[list]:
    """The changes between two stored states as [label, before, after] (None: absent).

    `judged` are the two sheets as their engine judges them, when the caller has them (an
    edit: each with the ledger's figures, the same on both sides): the rows are then read
    from the answers the edit's own checks and its response ask for, not computed again
    from the stored sheets."""
    lines: list[list] = []
    if before.get("name") != after.get("name"):
        lines.append(["Name", before.get("name"), after.get("name")])
    ruleset = get_ruleset(system)
    declared = {setting.key: setting for setting in ruleset.SETTINGS}
    old, new = before.get("settings") or {}, after.get("settings") or {}
    for key in sorted(old.keys() | new.keys()):
        if old.get(key) != new.get(key):
            setting = declared.get(key)
            label = f"Rule reading: {setting.label}" if setting else f"Rule reading “{key}”"
            lines.append([label, _reading(setting, old, key), _reading(setting, new, key)])
    if before.get("sheet") != after.get("sheet"):
        # Through the sheet cache: the edit response asks the engine about the same two
        # sheets, so the write and the response share one answer for each. (Imported
        # here: the layouts import the ledger, which imports this module.)
        old_sheet, new_sheet = judged or (before["sheet"], after["sheet"])
        old_rows = _judged_rows(ruleset, old_sheet, chosen)
        new_rows = _judged_rows(ruleset, new_sheet, chosen)
        lines.extend(
            [change.label, change.before, change.after]
            for change in row_changes(old_rows, new_rows)
        )
    return lines


def _judged_rows(ruleset: Any, sheet: Any, chosen: Mapping) -> list:
    """The engine's rows of a sheet rebuilt from the history.

    The engine reads whole sheets. A version rebuilt from an imported history is the file's
    sheet as it was written, which may leave out what today's schema fills by default (or
    be of an older shape): when the engine cannot read it, it reads its normal form, and
    a version no schema accepts is a history that does not fit, said as such.
    """
    try:
        return sheet_state(ruleset, sheet, chosen).rows
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        try:
            normal = ruleset.validate_sheet(sheet)
        except (InvalidSheet, InvalidEdit) as error:
            raise HistoryBroken(
                f"A version of this history does not fit today's sheet ({error})."
            ) from None
        return sheet_state(ruleset, normal, chosen).rows


def _cut(value: str | None, limit: int) -> str | None:
    if value is None or len(value) <= limit:
        return value
    return value[: limit - 1] + "…"


def kept_lines(lines: list[list]) -> list[list]:
    """The change lines a revision keeps: the first few, values cut short."""
    return [
        [_cut(label, LABEL_LENGTH), _cut(old, SHOWN_LENGTH), _cut(new, SHOWN_LENGTH)]
        for label, old, new in lines[:CHANGES_KEPT]
    ]


def as_changes(lines: Iterable[list]) -> list[Change]:
    """Stored change lines as the diff's Change, which says them the way a player reads."""
    return [Change("", str(label), old, new) for label, old, new in lines]


def edit_summary(lines: list[list]) -> str:
    """An edit in a line, from its changes as a player reads them: "Strength → 3;
    Attentive added"; what does not fit in a summary is counted."""
    said = []
    for label, before, after in lines:
        if after is None:
            said.append(f"{label} removed")
        elif before is None:
            said.append(f"{label} added" + (f" ({_cut(after, 30)})" if after else ""))
        else:
            said.append(f"{label} → {_cut(after, 40)}")
    shown = []
    for part in said:
        if len("; ".join([*shown, part])) > 170:
            break
        shown.append(part)
    more = len(said) - len(shown)
    return "; ".join(shown) + (f" and {more} more" if more else "")


def record_revision(
    character: Character,
    author: AbstractBaseUser | None,
    summary: str,
    before: dict,
    judged: tuple[Mapping, Mapping] | None = None,
) -> Revision:
    """Store what the write just saved changed, from the state `before` it (`judged`: see
    change_lines)."""
    after = revision_state(character)
    # A new character has no earlier sheet to compare with: "Created" says it all.
    lines = (
        change_lines(character.system, before, after, character.readings_in_force, judged)
        if before
        else []
    )
    if judged is not None and lines:
        # An edit's own summary quotes what the form sent ("New merit or flaw →
        # attentive||"): a player reads what it changed, in the sheet's words.
        summary = edit_summary(lines)
    # Every new version has its revision: open pages of this sheet hear of it after commit.
    sheet_written(character.pk, character.campaign_id)
    return Revision.objects.create(
        character=character,
        author=author,
        version=character.version,
        # The summary may quote what was typed, part of which the edit may not have read.
        summary=printable(summary[:200]),
        ops=diff_ops(before, after),
        changes=kept_lines(lines),
        changes_more=max(0, len(lines) - CHANGES_KEPT),
    )


def state_at(character: Character, version: int) -> dict:
    """The stored state {"name", "settings", "sheet"} of `character` at `version`.

    Rebuilt from the current state by undoing every later revision, newest first.
    """
    if not 1 <= version <= character.version:
        raise HistoryBroken(f"{character.name} has no version {version}.")
    state = copy.deepcopy(revision_state(character))
    later = character.revisions.filter(version__gt=version).order_by("-version")
    for ops in later.values_list("ops", flat=True):
        revert_ops(state, ops)
    return state


def enforce_caps(system: str, before: Mapping, after: Mapping, trait: str) -> None:
    """Refuse an edit that grows a list past the cap its system's schema declares.

    Import validates against the same schema, so what an edit can make always imports.
    A list already past its cap (stored before caps) may shrink, never grow.
    """
    grown = grown_past_cap(get_ruleset(system).SCHEMA, before, after)
    if grown is not None:
        noun, most = grown
        raise InvalidEdit(trait, f"A sheet holds at most {most} {noun}; remove one first.")
