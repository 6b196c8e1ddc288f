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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.template.loader import get_template

from rulesets.core.diff import Change, sheet_changes
from rulesets.registry import get_ruleset
from sheets.advancement.figures import engine_sheet, figures, keep_figures
from sheets.characters.layouts import o3d10, ore, swd10, weg_d6
from sheets.characters.layouts.base import Layout, build_context, changed_parts
from sheets.characters.layouts.changed_html import changed_elements
from sheets.characters.layouts.compendium import with_picker
from sheets.characters.models import Character, ReviewState
from sheets.characters.services import last_approval
from sheets.characters.state import SheetState, sheet_state
from sheets.npcs.state import npc_state
from sheets.permissions import CharacterAccess

SHELL = "rulesets/_sheet.html"
SECTION_BODY = "rulesets/_section_body.html"
# Each system's layout, by its key: one module a system, imported once.
# Each with the compendium section beside its sheet (layouts/compendium.py).
LAYOUTS: dict[str, Layout] = {
    "swd10": with_picker(swd10.LAYOUT),
    "ore": with_picker(ore.LAYOUT),
    "weg_d6": with_picker(weg_d6.LAYOUT),
    "o3d10": with_picker(o3d10.LAYOUT),
}


@dataclass(frozen=True)
class Snapshot:
    """A character's name, sheet and readings as the write service found them, before it
    changed anything: what an edit response compares the written sheet with."""

    name: str
    sheet: Mapping[str, Any]
    rule_settings: Mapping[str, Any]
    # What purchases waiting for the GM's consent held: the budget shows it.
    held: int = 0
    version: int = 0

    @classmethod
    def of(cls, character: Character) -> Snapshot:
        known = figures(character)
        return cls(
            character.name,
            engine_sheet(character, known),
            character.readings_in_force,
            known.held,
            character.version,
        )

    def state(self, system: str) -> SheetState:
        """What the engine says of the sheet as it was (the write service asked already,
        for the revision's change lines: `sheet_state` keeps the answer for this request)."""
        return sheet_state(get_ruleset(system), self.sheet, self.rule_settings)


def layout_for(system: str) -> Layout:
    return LAYOUTS[system]


def _context(
    character: Character,
    access: CharacterAccess | None,
    errors: Mapping[str, str] | None = None,
    submitted: Mapping[str, str] | None = None,
) -> dict:
    # The engine judges the sheet with the ledger's figures, which the sheet never stores
    # (summed once, kept on the instance for what else reads them).
    known = figures(keep_figures(character))
    state = sheet_state(
        get_ruleset(character.system), engine_sheet(character, known), character.readings_in_force
    )
    # An NPC is judged by its system's NPC budget, not the player's (sheets/npcs/state.py).
    state = npc_state(character, state)
    context = build_context(
        character,
        layout_for(character.system),
        state,
        errors=errors or {},
        submitted=submitted or {},
        access=access,
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
    """Build an edit response: only what the write (or the refusal) changed on the page.

    The sheet before and after are laid out from the engine's answers and compared as
    such: which rows changed, which sections changed as a whole (`base.changed_parts`).
    Nothing else of the page is drawn twice.
    """
    layout = layout_for(character.system)
    after = sheet_context(character, access=access, errors=errors, submitted=submitted)
    old = build_context(
        character,
        layout,
        npc_state(character, before.state(character.system)),
        errors={},
        submitted={},
        access=access,
    )
    changes = changed_parts(layout, old, after)
    return after | {
        "swapped_fields": changes.fields,
        "swapped_parts": changes.parts,
        "swapped_pieces": changes.pieces,
        "sheet_before": old,
        "swap_name": before.name != character.name or "character.name" in (errors or {}),
        # The page already shows a title and a budget the write left as they were.
        "swap_title": before.name != character.name or old.get("subtitle") != after.get("subtitle"),
        "swap_budget": _budget(old, before.held) != _budget(after, after["held"]),
        "swap_stage": old["status"].stage != after["status"].stage
        or old["stage_field"] != after["stage_field"],
        "swap_readings": old["state"].settings != after["state"].settings
        or any(key.startswith("setting.") for key in errors or {}),
        # The roll panel beside the sheet is no section: its choices follow the sheet (a
        # stat in a pool's label, a roll offered only while bleeding).
        "swap_roll_menu": _roll_menu(old) != _roll_menu(after),
    }


def review_status(character: Character, access: CharacterAccess) -> dict:
    """Where the review stands, whether the owner may submit this version, and what changed
    since the last approval, in the labels a player reads (redrawn after every edit)."""
    can_submit = (
        access.owner
        and character.campaign_id is not None
        and not (
            character.review_state == ReviewState.SUBMITTED
            and character.review_version == character.version
        )
    )
    none: dict = {"approved_version": None, "approval_changes": [], "can_submit": can_submit}
    if not character.changed_since_approval:
        return none
    approval = last_approval(character)
    if approval is None:
        return none
    ruleset = get_ruleset(character.system)
    changes = sheet_changes(ruleset, approval.sheet, character.sheet, character.readings_in_force)
    if approval.name != character.name:
        changes.insert(0, Change("character.name", "Name", approval.name, character.name))
    return none | {"approved_version": approval.version, "approval_changes": changes}


def _budget(context: dict, held: int) -> tuple:
    """All the budget panel (`rulesets/_budget.html`) prints."""
    return context["pools"], context["unplaced"], context["status"], held


def _roll_menu(context: dict) -> tuple:
    """All the roll panel (`rolls/_roll_menu.html`) prints of the sheet: each choice."""
    return tuple((r.key, r.label, r.group, r.source) for r in context["state"].rollables)


def drawn_swaps(request: HttpRequest, context: dict) -> dict:
    """Draw the section bodies an edit response swaps whole, as little of each as will do.

    A section the engine's answers say changed as a whole (its extra values, the derived
    values it prints) and that its layout does not narrow itself (`Layout.narrowed`) is
    drawn after the write and, that section alone, before it: only the elements that
    differ are sent (a wound box's row, one panel line), each swapped by its id, or the
    whole body when that is no smaller or the markup cannot be matched. A section that
    comes out exactly as it was is left out.
    """
    template = get_template(SECTION_BODY)
    before = context["sheet_before"]
    bodies: list[str] = []
    for part, old_part in context["swapped_parts"]:
        now = template.render(context | {"part": part, "oob": True}, request)
        if old_part is None:
            # Redrawn whole (creation finished, a reading changed): nothing to compare.
            bodies.append(now)
            continue
        was = template.render(context | before | {"part": old_part, "oob": True}, request)
        pieces = changed_elements(was, now)
        small = pieces is not None and sum(map(len, pieces)) < len(now)
        bodies.extend(pieces if small else [now])
    return context | {"swapped_bodies": bodies}
