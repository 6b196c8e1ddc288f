"""Finishing creation, the same step in every system.

Every sheet stores `stage` ("creation" or "play") at its top level, and every system
moves between them through the one trait key STAGE_TRAIT. What a system keeps when
creation ends (SWd10's baseline, 1o3d10's base values, O.R.E.'s creation spend) is its
own `freeze` function; going back clears it with `reopen`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesets.core.parsing import parse_choice
from rulesets.core.rows import Stage

STAGE_TRAIT = "stage"
STAGE_CHOICES = ((Stage.CREATION.value, "Creation"), (Stage.PLAY.value, "In play"))


def change_stage(
    sheet: dict[str, Any],
    raw: Any,
    *,
    freeze: Callable[[dict[str, Any]], None],
    reopen: Callable[[dict[str, Any]], None],
) -> None:
    """Move `sheet` (a copy the caller owns) to the stage `raw` names.

    Asking for the stage the sheet is already in changes nothing, so a repeated click
    never freezes twice.
    """
    stage = parse_choice(STAGE_TRAIT, raw, STAGE_CHOICES, label="Stage")
    if stage == sheet.get("stage"):
        return
    if stage == Stage.PLAY:
        freeze(sheet)
    else:
        reopen(sheet)
    sheet["stage"] = stage


def stage_of(sheet: dict[str, Any]) -> Stage:
    return Stage(sheet.get("stage", Stage.CREATION.value))
