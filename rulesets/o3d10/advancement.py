"""1o3d10 advancement on the ledger: the house-rule XP lives in the ledger.

Prices are the house rules in force (`xp_per_stat_rank`, `xp_per_skill_rank`, digest §3);
`xp_earned` stays in the schema for older files, is stored as 0, and the ledger's earned
figure is laid over a copy whenever the engine prices or checks the sheet.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core.ledger import LedgerFigures

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
    return copy.deepcopy(dict(sheet)) | {"xp_earned": figures.earned}


def carried_at_finish(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    """Creation points left over are not XP in 1o3d10 (digest §3)."""
    return 0


def next_value(sheet: Mapping[str, Any], trait: str, current: int) -> int:
    return current + 1


def purchase_edit(sheet: Mapping[str, Any], trait: str, new_value: int) -> tuple[str, str]:
    return trait, str(new_value)


def undo_edits(sheet: Mapping[str, Any], trait: str, old_value: int) -> list[tuple[str, str]]:
    return [(trait, str(old_value))]


def adventure_end_edits(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    return []


def needs_teacher(trait: str) -> bool:
    return False


def forget_purchase(sheet: Mapping[str, Any], trait: str) -> dict:
    return dict(sheet)


def shown_without_row(sheet: Mapping[str, Any], trait: str) -> str:
    """How a bought trait with no row of its own shows (every purchase here has a row)."""
    return ""


def consent_choices(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Nothing here is bought with the GM's consent (see CONSENT_TRAITS)."""
    return []
