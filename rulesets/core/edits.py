"""Errors a ruleset raises when an edit or an imported sheet cannot be accepted."""

from __future__ import annotations

from typing import Any


class InvalidEdit(ValueError):
    """An edit was refused; `trait` says which field, `message` why, in plain words."""

    def __init__(self, trait: str, message: str) -> None:
        super().__init__(message)
        self.trait = trait
        self.message = message


class InvalidSheet(ValueError):
    """A whole sheet (an import) does not have the shape its system expects."""


def copy_sheet(value: Any) -> Any:
    """A deep copy of a sheet: JSON data (dicts, lists, text, numbers, booleans) only.

    Every edit copies the sheet before changing it, so that an engine never changes the
    sheet it was given; copy.deepcopy takes several times as long, keeping a memo for
    shared and cyclic objects that JSON data never holds.
    """
    if isinstance(value, dict):
        return {key: copy_sheet(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_sheet(item) for item in value]
    return value
