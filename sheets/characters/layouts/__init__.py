"""Turn a stored sheet into what a system's templates print: rows, dots, pools, messages.

Each system has a module here with `sheet_context(character, ...)`; the views and the PDF
renderer only call `sheet_context` below.
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
