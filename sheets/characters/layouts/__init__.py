"""Lay out a character's sheet page, its edit responses and its print, for any system.

Every system's page is the one shell `templates/rulesets/_sheet.html`; a system's module
`layouts/<key>.py` defines `LAYOUT`, a `base.Layout` naming its sections and their body
templates (`templates/rulesets/<key>/_*.html`). The rows come from the ruleset's
`trait_rows`. Print templates stay per system: `templates/rulesets/<key>/print.html` and
`static/css/print-<key>.css`.

The sheet form posts to `character_edit` with `version` and one of: `edit=<trait>=<raw>`
(a button), `only=<trait>` plus the field itself (a changed input, or an "add" row whose
extra inputs `<trait>.1`, `<trait>.2`... are joined with "|"), or `save=all`,
`save=readings` (no-JavaScript submit buttons, which skip "add" rows); `character.name`
renames and `setting.<key>` changes a rule reading.
"""

from __future__ import annotations

import importlib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.template.loader import get_template

from rulesets.registry import get_ruleset
from sheets.advancement.figures import engine_sheet, figures, keep_figures
from sheets.characters.layouts.base import (
    STATES_KEPT,
    Layout,
    build_context,
    changed_parts,
    forget_states,
    plain_context,
)
from sheets.characters.layouts.changed_html import Parsed, changed_elements, parsed
from sheets.characters.models import Character
from sheets.characters.state import sheet_state
from sheets.permissions import CharacterAccess

SHELL = "rulesets/_sheet.html"


@dataclass(frozen=True)
class Snapshot:
    """A character's name, sheet and readings before a write, to see what it changed."""

    name: str
    sheet: Mapping[str, Any]
    rule_settings: Mapping[str, Any]
    # What purchases waiting for the GM's consent held: the budget shows it.
    held: int = 0

    @classmethod
    def of(cls, character: Character) -> Snapshot:
        known = figures(character)
        return cls(
            character.name, engine_sheet(character, known), character.readings_in_force, known.held
        )


def layout_for(system: str) -> Layout:
    return importlib.import_module(f"sheets.characters.layouts.{system}").LAYOUT


def _context(
    character: Character,
    access: CharacterAccess | None,
    errors: Mapping[str, str] | None = None,
    submitted: Mapping[str, str] | None = None,
) -> dict:
    layout = layout_for(character.system)
    # The engine judges the sheet with the ledger's figures, which the sheet never stores
    # (summed once, kept on the instance for what else reads them).
    known = figures(keep_figures(character))
    state = sheet_state(
        get_ruleset(character.system), engine_sheet(character, known), character.readings_in_force
    )
    if not errors and not submitted:
        context = plain_context(character, layout, state, access)
    else:
        context = build_context(
            character, layout, state, errors=errors or {}, submitted=submitted or {}, access=access
        )
    # What purchases waiting for the GM's consent hold: still in the engine's unspent figure
    # (the sheet does not have them yet), no longer free to spend.
    return context | {"held": known.held}


def sheet_context(
    character: Character,
    *,
    access: CharacterAccess,
    errors: Mapping[str, str] | None = None,
    submitted: Mapping[str, str] | None = None,
) -> dict:
    """Build the context of a character's whole sheet page, as `access` may use it: what the
    viewer may not set is drawn locked (a shared page passes an access that sets nothing)."""
    return _context(character, access, errors, submitted)


def print_context(character: Character) -> dict:
    """Build the context of a character's print template (nobody edits a print)."""
    layout = layout_for(character.system)
    context = _context(character, None)
    # The awards as the ledger keeps them, oldest first: the sheet's experience log.
    awards = character.ledger.filter(kind="award", pending=False).order_by("created_at", "pk")
    return context | layout.print_extra(context["state"], character) | {"ledger_awards": awards}


def edit_context(
    character: Character,
    *,
    access: CharacterAccess,
    before: Snapshot,
    errors: Mapping[str, str] | None = None,
    submitted: Mapping[str, str] | None = None,
) -> dict:
    """Build an edit response: only the rows and sections the write (or refusal) changed."""
    layout = layout_for(character.system)
    ruleset = get_ruleset(character.system)
    after = sheet_context(character, access=access, errors=errors, submitted=submitted)
    old = plain_context(
        character, layout, sheet_state(ruleset, before.sheet, before.rule_settings), access
    )
    pair = (old.get("drawn_key"), after.get("drawn_key"))
    # What changed between two drawings is a function of the two: kept by their keys.
    found = _CHANGED.get(pair) if all(pair) else None
    if found is None:
        found = changed_parts(layout, old, after)
        if all(pair):
            # As many as the laid-out pages kept (base._BUILT), whose parts these are: more
            # would keep pages alive that are no longer kept themselves.
            _keep(_CHANGED, pair, found, most=STATES_KEPT)
    fields, parts = found
    # Finishing creation or a new reading redraws every section, as the page would.
    moved = old["status"].stage != after["status"].stage
    moved = moved or old["state"].settings != after["state"].settings
    old_parts = {} if moved else {p.section.key: p for p in old["parts"] + old["side_parts"]}
    return after | {
        "swapped_fields": fields,
        # Each with its part before the edit, to send only what changed in it.
        "swapped_parts": [(p, old_parts.get(p.section.key)) for p in parts],
        "sheet_before": old,
        "swap_name": before.name != character.name or "character.name" in (errors or {}),
        # The page already shows a title and a budget the write left as they were.
        "swap_title": before.name != character.name or old.get("subtitle") != after.get("subtitle"),
        "swap_budget": _budget(old, before.held) != _budget(after, after["held"]),
        "swap_stage": old["status"].stage != after["status"].stage
        or old["stage_field"] != after["stage_field"],
        "swap_readings": old["state"].settings != after["state"].settings
        or any(key.startswith("setting.") for key in errors or {}),
    }


def _budget(context: dict, held: int) -> tuple:
    """All the budget panel (`rulesets/_budget.html`) prints."""
    return context["pools"], context["unplaced"], context["status"], held


SECTION_BODY = "rulesets/_section_body.html"
# Section bodies an edit response drew, read once (changed_html.Parsed), by drawing
# (`drawn_key`: the sheet's content, the character, the viewer's access) and section: the
# next edit's "before" is, nearly always, this one's "after", so it is looked up instead of
# drawn and read again. Never stale: the key holds all a body reads (base.plain_context).
_BODIES: OrderedDict[tuple, Parsed] = OrderedDict()
_BODIES_KEPT = 256
# What an edit response sent of a section, by its drawings before and after (both keys
# above): a pure function of the two, so kept the same way.
_SENT: OrderedDict[tuple, tuple[str, ...]] = OrderedDict()
# The rows and sections that differ between two drawings (base.changed_parts), likewise.
_CHANGED: OrderedDict[tuple, tuple[list, list]] = OrderedDict()


def drawn_swaps(request: HttpRequest, context: dict) -> dict:
    """Draw the section bodies an edit response swaps, as little of each as will do.

    A section that comes out exactly as it was is left out: a section left alone keeps
    whatever its inputs hold. Of one that changed, only the elements that differ from its
    drawing before the write are sent (a wound box, one skill's row), each swapped by its
    id; the whole body goes when that is no smaller or the markup cannot be matched.
    """
    template = get_template(SECTION_BODY)
    bodies: list[str] = []
    drawn = context.get("drawn_key")
    before = context["sheet_before"]
    for part, old_part in context["swapped_parts"]:
        key = None if drawn is None else (drawn, part.section.key)
        # A sheet drawn before (a value set back as it was) is not drawn and read again.
        now = None if key is None else _BODIES.get(key)
        if old_part is None:
            # Redrawn whole (creation finished, a reading changed): nothing to compare.
            bodies.append(
                now.source
                if now
                else template.render(context | {"part": part, "oob": True}, request)
            )
            continue
        if now is None:
            now = parsed(template.render(context | {"part": part, "oob": True}, request))
        if key is not None:
            _keep(_BODIES, key, now)
        was_key = (before["drawn_key"], old_part.section.key) if before["drawn_key"] else None
        pair = (was_key, key) if was_key and key else None
        sent = _SENT.get(pair) if pair else None
        if sent is None:
            was = _BODIES.get(was_key) if was_key else None
            if was is None:
                was = template.render(context | before | {"part": old_part, "oob": True}, request)
            pieces = changed_elements(was, now)
            small = pieces is not None and sum(map(len, pieces)) < len(now.source)
            sent = tuple(pieces) if small else (now.source,)
            if pair:
                _keep(_SENT, pair, sent)
        bodies.extend(sent)
    return context | {"swapped_bodies": bodies}


def _keep(kept: OrderedDict, key: tuple, value: object, most: int = _BODIES_KEPT) -> None:
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)


def forget_drawings() -> None:
    """Empty every answer and drawing kept by content (sheet states, laid-out pages, rows,
    section bodies), as a process that never saw a sheet has them: for the bench's cold
    edits and the tests that compare a warm drawing with a fresh one."""
    from sheets.characters.templatetags.ore_sheet import forget_boxes
    from sheets.characters.templatetags.sheet_rows import forget_rows

    forget_rows()
    forget_boxes()
    _BODIES.clear()
    _SENT.clear()
    _CHANGED.clear()
    forget_states()
