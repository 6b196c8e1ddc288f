"""Force rules shared by editing and checking: power totals and the 1E learning order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rulesets.weg_d6 import traits
from rulesets.weg_d6.data import (
    EDITION_1E,
    EDITION_RE,
    FORCE_SKILL_SLUGS,
    INITIAL_SET_OF_1E,
    LEARNED_FORCE_SKILL_PIPS,
    MAX_POWER_PICKS,
    POWER_BY_SLUG,
)


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


# --- R&E power picks: one power owed for each pip a Force skill rose (002:800) ------------
#
# Neither 002 (002:800-806) nor the digest (rules/weg_d6.md §5.1, §10) says what becomes of a
# pick when the power it taught is dropped, or of a power when the raise that owed it is
# refunded. The reading kept here: undoing a step restores the sheet as it was before it.
# An undone power gives its picks back; a lowered Force skill takes back the unused picks
# its pips brought; a raise whose pick taught a power is refunded only after that power.
# Whether a power forgotten on the sheet (not undone) gives its picks back is the GM's
# reading `forgotten_power_picks` (default: given back, as an undo would).
#
# In play the ledger is where points and picks come back. A power learned this adventure
# (its learning still in the one-pip window, so its purchase still the player's to undo)
# is dropped by that undo, not by the sheet's "remove", which would keep the points and
# leave an undo that can no longer run. A player never steps an R&E Force skill down in
# play (advancement.plain_play_refusals): a pip lowered and bought again would owe a second
# power for one pip's price. The GM's correction still lowers it; a pick that taught a
# power then goes with the pip and the power stays, holding none (edits._take_back_picks).


def picks_in_skill_order(picks: Iterable[str]) -> list[str]:
    """The picks as the sheet keeps them: control, sense, alter, at most MAX_POWER_PICKS.

    One order whatever the order of raises, so a pick given back leaves the list exactly
    as it was before the power took it.
    """
    kept = list(picks)[:MAX_POWER_PICKS]
    return sorted(kept, key=FORCE_SKILL_SLUGS.index)


def picks_spent(sheet: Mapping[str, Any]) -> Mapping[str, list[str]]:
    """The picks each learned power used up.

    A sheet stored at version 2 and not yet upgraded has no such record: none spent.
    """
    return sheet["force"].get("power_picks_spent", {})


def learning_this_adventure(sheet: Mapping[str, Any], slug: str) -> Mapping[str, Any] | None:
    """The record of the power's learning in this adventure's window, if it was learned
    (and not undone) since the last adventure ended; None otherwise."""
    trait = f"power.{slug}"
    for entry in reversed(sheet["interval"]):
        if entry["trait"] == trait:
            return entry
    return None


def powers_holding_a_pick(sheet: Mapping[str, Any], skill: str) -> list[str]:
    """The learned powers a pick of `skill` taught, in the order they were learned.

    An R&E power learned free this adventure before the picks were recorded (version 2)
    took picks nobody noted: one that may use `skill` counts as holding one of its picks,
    so the raise that owed it is not refunded behind its back. It gives none back when
    dropped (edits._give_back_picks): which one it took is not known.
    """
    spent = picks_spent(sheet)
    return [
        slug
        for slug in sheet["force"]["powers"]
        if skill in spent.get(slug, ())
        or (slug not in spent and _unrecorded_pick(sheet, slug, skill))
    ]


def _unrecorded_pick(sheet: Mapping[str, Any], slug: str, skill: str) -> bool:
    if sheet["edition"] != EDITION_RE:
        return False
    learning = learning_this_adventure(sheet, slug)
    if learning is None or learning["cost"]:
        return False
    custom = sheet["force"]["custom_powers"].get(slug)
    if custom is not None:
        return skill in custom["skills"]
    # Shift sense needs Sense or Alter as the GM reads it (003:1796, 003:2239): either.
    return skill in (("sense", "alter") if slug == "shift_sense" else POWER_BY_SLUG[slug].skills)


def force_skill_steps(low: int, high: int) -> int:
    """How many raises part two codes of a Force skill: each pip is one, and learning the
    skill (0D to 1D, 002:796) is one too."""
    if high <= low:
        return 0
    if low == 0:
        return 1 + max(0, high - LEARNED_FORCE_SKILL_PIPS)
    return high - low
