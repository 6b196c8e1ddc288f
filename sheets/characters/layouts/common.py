"""Pieces every system's layout shares."""

from __future__ import annotations


def trait_dom_id(trait: str) -> str:
    """The stable HTML id of a trait's element ("attr.wits" -> "trait-attr-wits")."""
    return "trait-" + trait.replace(".", "-")


class HasTraitId:
    """Give a layout row with a `trait` attribute the id its htmx swaps target."""

    trait: str

    @property
    def dom_id(self) -> str:
        return trait_dom_id(self.trait)
