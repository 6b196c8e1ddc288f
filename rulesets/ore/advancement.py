"""O.R.E. advancement on the ledger: experience awards live in the ledger.

Purchases in play cost XP at the creation prices (001:L826). The sheet's `xp_awards` rows
stay in the schema for older files and are stored empty; the ledger's awards are laid over
a copy as one row. Points left when creation ends carry over as XP (001:L768): finishing
creation writes them to the ledger as an award.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import ledger as plain
from rulesets.core.ledger import LedgerFigures
from rulesets.ore.data import POWER_BY_SLUG, STUNT_BY_SLUG

# The plain answers, shared with the other systems (rulesets/core/ledger.py).
next_value = plain.next_value
purchase_edit = plain.purchase_edit
undo_edits = plain.undo_edits
adventure_end_edits = plain.adventure_end_edits
needs_teacher = plain.needs_teacher
forget_purchase = plain.forget_purchase
shown_without_row = plain.shown_without_row
consent_choices = plain.consent_choices


UNIT = "XP"
LEDGER_TRAITS = ("xp.*",)
# The creation budget decides what carries over, so it is fixed once creation ends.
PLAY_LEDGER_TRAITS = ("character_points",)
# Engine edits that are paid raises, run on the ledger (none: raises are bought by row).
PAID_EDITS: tuple[str, ...] = ()
CONSENT_TRAITS: tuple[str, ...] = ()
# Whether a purchase must say why in the story (001:L826: XP is spent on what the character did).
REASON_REQUIRED = True


def unit(sheet: Mapping[str, Any]) -> str:
    return UNIT


def stored_earned(sheet: Mapping[str, Any]) -> int:
    return sum(int(award.get("amount", 0) or 0) for award in sheet.get("xp_awards", []))


def stored_awards(sheet: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Each award row the sheet kept, with its note: each becomes its own ledger award."""
    found = []
    for award in sheet.get("xp_awards", []):
        amount = int(award.get("amount", 0) or 0)
        if amount > 0:
            found.append((amount, str(award.get("note", "") or "")))
    return found


def without_earned(sheet: Mapping[str, Any]) -> dict:
    return copy.deepcopy(dict(sheet)) | {"xp_awards": []}


def with_ledger(sheet: Mapping[str, Any], figures: LedgerFigures) -> dict:
    """A copy whose awards are the ledger's; the carried-over points are already counted
    by the engine from the creation budget, so they are left out here."""
    awarded = figures.earned - figures.carried
    rows = [{"amount": awarded, "note": "Ledger"}] if awarded else []
    # Shallow: engines never change the sheet they are given (apply_edit copies first).
    return dict(sheet) | {"xp_awards": rows}


def carried_at_finish(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    """Creation points left unspent, which become XP (001:L768)."""
    spent = sheet.get("creation_spent")
    if spent is None:
        return 0
    return max(0, sheet["character_points"] - spent)


def consent_needed(sheet: Mapping[str, Any], trait: str) -> str:
    """Why buying `trait` waits for the GM's permission, "" when it does not: every Force
    power but Force Sense, and every stunt, until the GM has given it (L774)."""
    kind, _, rest = trait.partition(".")
    slug = rest.partition(".")[0]
    if kind == "power" and slug in POWER_BY_SLUG:
        power = POWER_BY_SLUG[slug]
        if power.needs_permission and not sheet["powers"][slug]["approved"]:
            return f"{power.label} needs the GM's permission (L774)."
    if kind == "stunt" and slug in STUNT_BY_SLUG:
        owned = sheet["stunts"].get(slug)
        if not (owned and owned["approved"]):
            return f"{STUNT_BY_SLUG[slug].label} needs the GM's permission (L774)."
    return ""


def consent_grants(trait: str) -> list[tuple[str, str]]:
    """The edits that record the permission a consented purchase carries: the GM who
    approves it (the owner, off-table) gives it for the power or stunt bought (L774)."""
    kind, _, rest = trait.partition(".")
    return [(f"{kind}.{rest.partition('.')[0]}.approved", "yes")]
