"""Force rules shared by editing and checking: power totals and the 1E learning order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.weg_d6 import traits
from rulesets.weg_d6.data import EDITION_1E, FORCE_SKILL_SLUGS


def power_total_applies(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    return sheet["edition"] == EDITION_1E or settings["power_total_editions"] == "both"


def power_totals(
    sheet: Mapping[str, Any], settings: Mapping[str, Any]
) -> dict[str, tuple[int, int | None]]:
    """Powers using each skill, and how many it may hold: 3 per die + 1 per pip (003:1798).

    A power using several skills counts against each of them; the total is None when the
    sheet's edition has no such cap.
    """
    used = dict.fromkeys(FORCE_SKILL_SLUGS, 0)
    for slug in sheet["force"]["powers"]:
        for skill in traits.power_skills(sheet, slug, settings):
            used[skill] += 1
    capped = power_total_applies(sheet, settings)
    return {
        skill: (used[skill], sheet["force"][skill] if capped else None)
        for skill in FORCE_SKILL_SLUGS
    }


def force_order_problem(sheet: Mapping[str, Any], skill: str, settings: Mapping[str, Any]) -> str:
    """Control or Sense come first and Alter last in 1E (003:1762); "" when fine."""
    if skill != "alter":
        return ""
    force = sheet["force"]
    if settings["alter_order"] == "after_both":
        ready = force["control"] > 0 and force["sense"] > 0
        need = "both Control and Sense"
    else:
        ready = force["control"] > 0 or force["sense"] > 0
        need = "Control or Sense"
    return "" if ready else f"Alter is taught last, after {need}."
