"""`{% wound_boxes location may_mark %}`: an O.R.E. hit location's wound boxes as buttons.

Marking a wound box is the commonest click in an O.R.E. fight, and its response redraws
the wound table, some fifty boxes: built here in one pass rather than through eight
template variables a box.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def wound_boxes(location: Mapping[str, Any], may_mark: bool) -> SafeString:
    boxes = tuple(
        (
            box["key"],
            box["dom_id"],
            box["state"],
            box["label"],
            box["state_label"],
            box["next_label"],
            box["mark"],
        )
        for box in location["box_rows"]
    )
    return _drawn_boxes(boxes, bool(may_mark))


# A location's boxes are drawn from these words alone: an edit redraws the wound table, in
# which every location but the one clicked reads as it did, so each is drawn once per
# content (escaping some fifty boxes' attributes cost more than the rest of the table).
@lru_cache(maxsize=1024)
def _drawn_boxes(boxes: tuple[tuple[str, ...], ...], may_mark: bool) -> SafeString:
    disabled = mark_safe("" if may_mark else " disabled")
    return format_html_join(
        "",
        '<button type="submit" name="edit" value="{}=cycle" id="{}" class="box box-{}"'
        ' aria-label="{}: {}; click for {}"{}>{}</button>',
        (
            (key, dom_id, state, label, state_label, next_label, disabled, mark)
            for key, dom_id, state, label, state_label, next_label, mark in boxes
        ),
    )


def forget_boxes() -> None:
    _drawn_boxes.cache_clear()
