"""`{% sheet_row field %}`: one sheet row, drawn once per content and kept (and a WEG code
row's step buttons, `{% code_steps field %}`, and the budget panel, `{% sheet_budget %}`,
the same way).

A sheet page has a hundred rows and an edit changes one or two of them, but a section an
edit swaps is drawn whole, before the write and after it, to find what changed. A row's
markup is a function of the row as laid out (`Field`, a frozen value: the trait row, its
problems, a refused value typed), the character it links to and its roll page, so each
process keeps the last few thousand drawn rows by exactly that: an unchanged row costs a
look-up instead of a template render. Such a key never goes stale; a template edited under
`runserver` shows in rows drawn after the next restart.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django import template
from django.template import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from sheets.rolls.templatetags.rolls import roll_url

if TYPE_CHECKING:  # a row is drawn from a laid-out Field; the layouts import these tags
    from sheets.characters.layouts.base import Field

register = template.Library()

# About 600 bytes a row: some 5 MB a process, enough for every row of a busy table's
# sheets (50 sheets of up to 150 rows) so a round of edits over all of them still hits.
ROWS_KEPT = 8192
ROW_TEMPLATE = "rulesets/_row.html"
STEPS_TEMPLATE = "rulesets/weg_d6/_steps.html"
BUDGET_TEMPLATE = "rulesets/_budget.html"


@register.simple_tag(takes_context=True)
def sheet_row(context: Context, field: Field, oob: bool = False) -> SafeString:
    """The row's markup as `rulesets/_row.html` draws it; `oob` marks it to swap by its id."""
    character = context.get("character")
    return _kept(
        ROW_TEMPLATE,
        field=field,
        oob=oob,
        character_pk=getattr(character, "pk", None),
        roll_url=roll_url(context, field.key),
    )


@register.simple_tag(takes_context=True)
def code_steps(context: Context, field: Field) -> SafeString:
    """A WEG code row's step buttons (`rulesets/weg_d6/_steps.html`), kept the same way."""
    return _kept(
        STEPS_TEMPLATE,
        field=field,
        can_edit_player=bool(context.get("can_edit_player")),
        play=bool(context.get("play")),
    )


@register.simple_tag(takes_context=True)
def sheet_budget(context: Context, oob: bool = False) -> SafeString:
    """The budget panel (`rulesets/_budget.html`), kept the same way by all it prints."""
    return _kept(
        BUDGET_TEMPLATE,
        status=context.get("status"),
        pools=context.get("pools"),
        unplaced=context.get("unplaced"),
        held=context.get("held"),
        oob=bool(oob),
    )


def _kept(template_name: str, **values: Any) -> SafeString:
    key = tuple(values.items())
    try:
        return _drawn(template_name, key)
    except TypeError:  # a value that cannot be hashed: drawn, not kept
        return _draw(template_name, key)


def _draw(template_name: str, values: tuple[tuple[str, Any], ...]) -> SafeString:
    return mark_safe(get_template(template_name).template.render(Context(dict(values))))


_drawn = lru_cache(maxsize=ROWS_KEPT)(_draw)


def forget_rows() -> None:
    _drawn.cache_clear()
