"""The character page's Foundry link for the sheet's system (issue 29). It leads to the
export's page, which lists what the file cannot hold: that list follows the sheet's content,
so the sheet page, which an edit redraws only in part, does not carry it."""

from __future__ import annotations

from typing import Any

from django import template

from sheets.transfer.formats.foundry_exports import exporter_of_system

register = template.Library()


@register.inclusion_tag("transfer/_foundry_export.html")
def foundry_export(character: Any) -> dict[str, Any]:
    return {"exporter": exporter_of_system(character.system), "character": character}
