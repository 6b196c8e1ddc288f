"""Star Wars Storytelling (d10), "SWd10": White Wolf style dots (seed 000)."""

from __future__ import annotations

from rulesets.swd10.rules import (
    SETTINGS,
    advance_cost,
    apply_edit,
    blank_sheet,
    check,
    demo_sheet,
    derived,
    next_costs,
    trait_label,
    validate_sheet,
)

KEY = "swd10"
NAME = "Star Wars Storytelling (d10)"
SUMMARY = "White Wolf style dots: attributes 6/4/3, abilities 11/7/4, merits, flaws and the Force."

__all__ = [
    "KEY",
    "NAME",
    "SETTINGS",
    "SUMMARY",
    "advance_cost",
    "apply_edit",
    "blank_sheet",
    "check",
    "demo_sheet",
    "derived",
    "next_costs",
    "trait_label",
    "validate_sheet",
]
