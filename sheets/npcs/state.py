"""What the sheet page says of an NPC: its system's NPC budget in place of the player's
creation budget (rulesets/<key>/npcs.py), laid out by the same shell as any sheet."""

from __future__ import annotations

from dataclasses import replace

from rulesets.core import Report, Status
from rulesets.core.npcs import npc_rules
from sheets.characters.models import Character
from sheets.characters.state import SheetState
from sheets.npcs.models import Npc


def npc_state(character: Character, state: SheetState) -> SheetState:
    """`state` judged as an NPC's when `character` is one; as it is otherwise."""
    # The mark is read with the row (`character_for` selects it); an unsaved sheet, like
    # the print warm-up's (Django's documented `_state.adding`), has none and asks nothing.
    if character._state.adding:
        return state
    try:
        quick = character.npc.quick
    except Npc.DoesNotExist:
        return state
    report = npc_rules(character.system).npc_report(
        state.sheet, character.readings_in_force, quick=quick
    )
    judged = Report(pools=list(report.pools), violations=list(report.violations))
    status = Status.from_report(
        judged,
        stage=state.status.stage,
        unspent=state.status.unspent,
        unit=state.status.unit,
    )
    return replace(state, report=judged, status=status)
