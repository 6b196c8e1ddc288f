"""`{% location_row location may_mark %}`: an O.R.E. hit location's row of the wound table,
its wound boxes as buttons.

Marking a wound box is the commonest click in an O.R.E. fight: its response sends the
clicked location's row alone (`layouts.ore`), drawn here from the location's values in one
pass rather than through a dozen template variables a location and eight a box.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.template.defaultfilters import capfirst
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def location_row(location: Mapping[str, Any], may_mark: bool, oob: bool = False) -> SafeString:
    """The location's row; `oob` marks it to swap by its id, inside the <template> htmx
    unwraps (a table row read outside its table is dropped)."""
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
    words = tuple(str(location[key]) for key in _LOCATION_WORDS)
    row = _drawn_row(words, boxes, bool(may_mark), bool(oob))
    return format_html("<template>{}</template>", row) if oob else row


_LOCATION_WORDS = ("status", "slug", "heights", "source", "label", "clear", "ar", "explanation")


def _drawn_row(
    words: tuple[str, ...], boxes: tuple[tuple[str, ...], ...], may_mark: bool, oob: bool
) -> SafeString:
    status, slug, heights, source, label, clear, ar, explanation = words
    clear_button = (
        format_html(
            '<button type="submit" name="edit" value="{}=yes" class="link"'
            ' aria-label="Clear every box of the {}">clear</button>',
            clear,
            label,
        )
        if status != "unhurt" and may_mark
        else ""
    )
    return format_html(
        '<tr class="location {}" id="location-{}" data-status="{}"{}>'
        '<td class="heights">{}</td><th scope="row" title="Source: {}">{}</th>'
        # The line break stands for the space a browser draws between the boxes and "clear".
        '<td class="boxes">{}\n{}</td><td class="ar">{}</td>'
        '<td class="state"><strong>{}</strong> <small>{}</small></td></tr>',
        status,
        slug,
        status,
        mark_safe(' hx-swap-oob="true"' if oob else ""),
        heights,
        source,
        label,
        _drawn_boxes(boxes, may_mark),
        clear_button,
        ar,
        capfirst(status),
        explanation,
    )


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
