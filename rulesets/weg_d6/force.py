"""Force rules shared by editing and checking: power totals and the 1E learning order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.weg_d6 import traits
from rulesets.weg_d6.data import EDITION_1E, FORCE_SKILL_SLUGS, INITIAL_SET_OF_1E


def power_total_applies(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    return sheet["edition"] == EDITION_1E or settings["power_total_editions"] == "both"


def counted_skills(
    sheet: Mapping[str, Any], slug: str, settings: Mapping[str, Any]
) -> tuple[str, ...]:
    """The skills whose power total a power takes a place in.

    A power counts against every skill it uses (003:1798), except, under the GM's reading
    "initial_power_slots", a 1E power of a skill's traditional set (003:1778-1796): it
    counts against that skill alone once the skill is learned. That reading lets the
    traditional Alter set, with control another's pain (Control + Alter) and shift sense,
    stand beside the Control and Sense sets at 1D.
    """
    listed_under = INITIAL_SET_OF_1E.get(slug)
    if (
        listed_under is not None
        and sheet["edition"] == EDITION_1E
        and settings["initial_power_slots"] == "own_skill"
        and slug not in sheet["force"]["custom_powers"]
        and sheet["force"][listed_under]
    ):
        return (listed_under,)
    return tuple(traits.power_skills(sheet, slug, settings))


def power_totals(
    sheet: Mapping[str, Any], settings: Mapping[str, Any]
) -> dict[str, tuple[int, int | None]]:
    """Powers counted against each skill, and how many it may hold: 3 per die + 1 per pip
    (003:1798); the total is None when the sheet's edition has no such cap.
    """
    used = dict.fromkeys(FORCE_SKILL_SLUGS, 0)
    for slug in sheet["force"]["powers"]:
        for skill in counted_skills(sheet, slug, settings):
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


def overfilled_by(sheet: Mapping[str, Any], slug: str, settings: Mapping[str, Any]) -> list[str]:
    """The skills whose power total one more power `slug` would break; [] when it fits."""
    totals = power_totals(sheet, settings)
    full = []
    for skill in counted_skills(sheet, slug, settings):
        used, total = totals[skill]
        if total is not None and used + 1 > total:
            full.append(skill)
    return full
