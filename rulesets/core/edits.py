"""Errors a ruleset raises when an edit or an imported sheet cannot be accepted."""

from __future__ import annotations


class InvalidEdit(ValueError):
    """An edit was refused; `trait` says which field, `message` why, in plain words."""

    def __init__(self, trait: str, message: str) -> None:
        super().__init__(message)
        self.trait = trait
        self.message = message


class InvalidSheet(ValueError):
    """A whole sheet (an import) does not have the shape its system expects."""
