"""1o3d10 advancement on the ledger: the house-rule XP lives in the ledger.

Prices are the house rules in force (`xp_per_stat_rank`, `xp_per_skill_rank`, digest §3);
`xp_earned` stays in the schema for older files, is stored as 0, and the ledger's earned
figure is laid over a copy whenever the engine prices or checks the sheet.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import ledger as plain
from rulesets.core.ledger import LedgerFigures

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
LEDGER_TRAITS = ("xp.earned",)
PLAY_LEDGER_TRAITS: tuple[str, ...] = ()
# Engine edits that are paid raises, run on the ledger (none: raises are bought by row).
PAID_EDITS: tuple[str, ...] = ()
CONSENT_TRAITS: tuple[str, ...] = ()
# Whether a purchase must say why in the story.
REASON_REQUIRED = False


def unit(sheet: Mapping[str, Any]) -> str:
    return UNIT


def stored_earned(sheet: Mapping[str, Any]) -> int:
    return int(sheet.get("xp_earned", 0) or 0)


def stored_awards(sheet: Mapping[str, Any]) -> list[tuple[int, str]]:
    """What the sheet kept as earned, as awards with their notes (it keeps no notes)."""
    earned = stored_earned(sheet)
    return [(earned, "")] if earned > 0 else []


def without_earned(sheet: Mapping[str, Any]) -> dict:
    return copy.deepcopy(dict(sheet)) | {"xp_earned": 0}


def with_ledger(sheet: Mapping[str, Any], figures: LedgerFigures) -> dict:
    # Shallow: engines never change the sheet they are given (apply_edit copies first).
    return dict(sheet) | {"xp_earned": figures.earned}


def carried_at_finish(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    """Creation points left over are not XP in 1o3d10 (digest §3)."""
    return 0
