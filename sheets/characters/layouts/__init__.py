"""Turn a stored sheet into what a system's templates print: rows, dots, pools, messages.

The contract between the generic views and one system (`swd10.py` is the example):

- `sheets/characters/layouts/<key>.py` defines
  `sheet_context(character, *, errors, submitted, only) -> dict` (the template context;
  `errors` maps trait -> refusal message, `submitted` trait -> raw text typed, `only` the
  traits an htmx edit touched, so the layout may skip the rest) and
  `edit_fragments(context, edits) -> dict` (extra context naming what the edit response
  swaps out of band).
- `templates/rulesets/<key>/sheet.html` extends base.html and defines the partials
  `sheet` (the whole sheet, root `id="sheet"`, showing `conflict` when set) and
  `edit-response` (out-of-band swaps: `#sheet-version`, the edited rows or fields, the
  budget panel, and any refusal message beside its field).
- `templates/rulesets/<key>/print.html` plus `static/css/print-<key>.css` print the sheet.
- The sheet form posts to `character_edit` with `version` and one of: `edit=<trait>=<raw>`
  (a button), `only=<trait>` plus the field itself (a changed input, or an "add" row whose
  extra inputs `<trait>.1`, `<trait>.2`... are joined with "|"), or `save=all`,
  `save=details`, `save=readings` (no-JavaScript submit buttons, which skip "add" rows);
  `character.name` renames and `setting.<key>` changes a rule reading.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping

from sheets.characters.models import Character


def sheet_context(
    character: Character,
    *,
    errors: Mapping[str, str] | None = None,
    submitted: Mapping[str, str] | None = None,
    only: Collection[str] | None = None,
) -> dict:
    """Build the template context of a character's sheet.

    `errors` maps a trait to the message of a refused edit, `submitted` to the raw value
    the player typed, so a refused field shows what was typed beside why it was refused.
    `only` names the traits an htmx edit touched: the layout may then skip the rest.
    """
    module = importlib.import_module(f"sheets.characters.layouts.{character.system}")
    return module.sheet_context(
        character, errors=errors or {}, submitted=submitted or {}, only=only
    )


def edit_fragments(context: dict, edits: Mapping[str, str]) -> dict:
    """Name the parts of the sheet an htmx edit response must swap, for the edited traits."""
    module = importlib.import_module(f"sheets.characters.layouts.{context['character'].system}")
    return module.edit_fragments(context, edits)
