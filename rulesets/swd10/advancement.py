"""SWd10 advancement on the ledger: XP earned lives in the ledger, not on the sheet.

The sheet's `info.experience` (000:L394, what the Storyteller awards) stays in the schema
for files written before the ledger; it is stored as 0 and the ledger's earned XP is laid
over a copy whenever the engine prices or checks the sheet.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import ledger as plain
from rulesets.core.ledger import LedgerFigures
from rulesets.swd10.data import MERIT_BY_SLUG, MERITS, Category, Kind

# The plain answers, shared with the other systems (rulesets/core/ledger.py).
next_value = plain.next_value
adventure_end_edits = plain.adventure_end_edits
needs_teacher = plain.needs_teacher
forget_purchase = plain.forget_purchase


UNIT = "XP"
# What a plain edit may no longer set: the GM awards XP on the ledger instead.
LEDGER_TRAITS = ("info.experience",)
# What a plain edit may no longer set in play (none beyond raises, which the web layer
# refuses for every system).
PLAY_LEDGER_TRAITS: tuple[str, ...] = ()
# Merits bought in play wait for the Storyteller's consent (000:L394; the GM's at a table).
# Engine edits that are paid raises, run on the ledger (none: raises are bought by row).
PAID_EDITS: tuple[str, ...] = ()
CONSENT_TRAITS = ("merit.add",)
REASON_REQUIRED = False


def unit(sheet: Mapping[str, Any]) -> str:
    return UNIT


def stored_earned(sheet: Mapping[str, Any]) -> int:
    """The XP a sheet written before the ledger kept as earned."""
    return int(sheet.get("info", {}).get("experience", 0) or 0)


def stored_awards(sheet: Mapping[str, Any]) -> list[tuple[int, str]]:
    """What the sheet kept as earned, as awards with their notes (it keeps no notes)."""
    earned = stored_earned(sheet)
    return [(earned, "")] if earned > 0 else []


def without_earned(sheet: Mapping[str, Any]) -> dict:
    new = copy.deepcopy(dict(sheet))
    if "info" in new:
        new["info"]["experience"] = 0
    return new


def with_ledger(sheet: Mapping[str, Any], figures: LedgerFigures) -> dict:
    """A copy of the sheet whose earned XP is the ledger's, for checks and prices."""
    # Only the part that changes is copied: engines never change the sheet they are given.
    return dict(sheet) | {"info": dict(sheet.get("info", {}), experience=figures.earned)}


def carried_at_finish(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    """SWd10 creation leaves nothing to carry into XP: dots unspent are lost (000:L288)."""
    return 0


def purchase_edit(sheet: Mapping[str, Any], trait: str, new_value: int) -> tuple[str, str]:
    """The edit that makes a bought raise: the trait set to its new dots."""
    return trait, str(new_value)


def undo_edits(sheet: Mapping[str, Any], trait: str, old_value: int) -> list[tuple[str, str]]:
    """The edits that take a refunded raise (or a merit bought in play) back."""
    if trait.startswith("merit.add="):
        index = _merit_index(sheet, trait)
        return [] if index is None else [(f"merit.{index}.remove", "yes")]
    return [(trait, str(old_value))]


def consent_choices(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The merits one can ask to buy in play: merits, not flaws, and no race merit, which
    comes with the species (L320 prices a merit at value × 3)."""
    return [
        (merit.slug, f"{merit.name} ({merit.cost_label})")
        for merit in MERITS
        if merit.kind is Kind.MERIT and merit.category is not Category.RACE
    ]


def consent_edit(slug: Any, value: Any, choice: Any) -> tuple[str, str]:
    """The sheet edit that adds the merit asked for."""
    return "merit.add", f"{str(slug).strip()}|{str(value).strip()}|{str(choice).strip()}"


def consent_entry(bought: Mapping[str, Any]) -> tuple[str, str, str]:
    """What the ledger records of a merit just added: the edit that adds it again (its
    key), its label and its value."""
    row = bought["merits"][-1]
    merit = MERIT_BY_SLUG[row["slug"]]
    label = merit.name + (f" ({row['choice']})" if row["choice"] else "")
    return f"merit.add={row['slug']}|{row['value']}|{row['choice']}", label, str(row["value"])


def _merit_index(sheet: Mapping[str, Any], trait: str) -> int | None:
    slug, value, choice = trait.removeprefix("merit.add=").split("|", 2)
    for index in range(len(sheet["merits"]) - 1, -1, -1):
        row = sheet["merits"][index]
        if (row["slug"], str(row["value"]), row["choice"]) == (slug, value, choice):
            return index
    return None


def shown_without_row(sheet: Mapping[str, Any], trait: str) -> str:
    """A merit bought in play shows its value while the sheet has it."""
    if not trait.startswith("merit.add="):
        return ""
    index = _merit_index(sheet, trait)
    return "" if index is None else str(sheet["merits"][index]["value"])
