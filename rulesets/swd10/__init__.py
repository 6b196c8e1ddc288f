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
    health_track,
    next_costs,
    owned_merits,
    trait_label,
    trait_view,
    validate_sheet,
    xp_available,
    xp_spent,
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
    "health_track",
    "next_costs",
    "owned_merits",
    "trait_label",
    "trait_view",
    "validate_sheet",
    "xp_available",
    "xp_spent",
]
