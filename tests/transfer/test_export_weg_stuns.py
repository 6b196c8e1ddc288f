"""1E stun results (sheet["stuns"], 003:438) have no place in an OD6S actor: an export lists
them as lost, and the sheet comes back the same less exactly that."""

from __future__ import annotations

from rulesets.weg_d6 import blank_sheet, validate_sheet, wounds
from sheets.transfer.formats import foundry_od6s_export
from tests.transfer.test_export_foundry import unexplained_and_unfounded


def test_kept_stun_results_are_listed_as_not_held():
    sheet = blank_sheet({})
    sheet["edition"] = "1e"
    sheet["wound"] = "stunned"
    sheet["stuns"] = [wounds.stun_entry(2, False, (3, 4)), wounds.stun_entry(1, False, None)]
    sheet = validate_sheet(sheet)
    exported = foundry_od6s_export.export(sheet, "Stunned")
    assert any(lost.paths == ("stuns",) or "stuns" in lost.paths for lost in exported.lost)
    assert "2 stun results still counting (1E, 003:438)" in [lost.what for lost in exported.lost]
    assert unexplained_and_unfounded(sheet, exported) == (set(), set())
