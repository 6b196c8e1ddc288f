"""The character page's Foundry download: the link for the sheet's system, and what the
file cannot hold, listed before anyone downloads it (issue 29)."""

from __future__ import annotations

from typing import Any

from django import template

from rulesets.registry import get_ruleset
from sheets.advancement.figures import advancement_for, figures
from sheets.transfer.formats.foundry_exports import exporter_of_system

register = template.Library()


@register.inclusion_tag("transfer/_foundry_export.html")
def foundry_export(character: Any) -> dict[str, Any]:
    exporter = exporter_of_system(character.system)
    if exporter is None:
        return {"exporter": None}
    # As the download writes it: in play, the points left to spend are the ledger's balance.
    sheet = get_ruleset(character.system).validate_sheet(character.sheet)
    sheet = advancement_for(character.system).with_ledger(sheet, figures(character))
    return {
        "exporter": exporter,
        "character": character,
        "lost": exporter.export(sheet, character.name).lost,
    }
