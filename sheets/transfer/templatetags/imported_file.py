"""The history page's line about the file a character was imported from, with its download
(issue: the original was kept but could not be had back). The history page is its
readers' alone (Need.RECORDS), the same who may download it."""

from __future__ import annotations

from typing import Any

from django import template

from sheets.transfer import formats
from sheets.transfer.imports import imported_file_of

register = template.Library()


@register.inclusion_tag("transfer/_imported_file.html")
def imported_file(character: Any) -> dict[str, Any]:
    kept = imported_file_of(character)
    reader = formats.BY_KEY.get(kept.format) if kept is not None else None
    return {
        "character": character,
        "kept": kept,
        "label": reader.LABEL if reader is not None else kept.format if kept else "",
    }
