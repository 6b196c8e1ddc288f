"""`{% sheet_row field %}`: one sheet row (and a WEG code row's step buttons,
`{% code_steps field %}`, and the budget panel, `{% sheet_budget %}`).

Each is drawn from exactly the values it prints, in a context of its own: a row from its
laid-out `Field` (the trait row, its problems, a refused value typed), the character it
links to and its roll page. So a row reads the same wherever it is drawn, on the page or
alone in an edit response that swaps it by its id, and a template cannot come to depend
on something else of the page unnoticed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template
from django.template import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from rulesets.core.verdict import budget_verdict
from sheets.rolls.templatetags.rolls import roll_url

if TYPE_CHECKING:  # a row is drawn from a laid-out Field; the layouts import these tags
    from sheets.characters.layouts.base import Field

register = template.Library()

ROW_TEMPLATE = "rulesets/_row.html"
STEPS_TEMPLATE = "rulesets/weg_d6/_steps.html"
BUDGET_TEMPLATE = "rulesets/_budget.html"


@register.simple_tag(takes_context=True)
def sheet_row(context: Context, field: Field, oob: bool = False) -> SafeString:
    """The row's markup as `rulesets/_row.html` draws it; `oob` marks it to swap by its id."""
    character = context.get("character")
    return draw(
        ROW_TEMPLATE,
        field=field,
        oob=oob,
        character_pk=getattr(character, "pk", None),
        roll_url=roll_url(context, field.key),
    )


@register.simple_tag(takes_context=True)
def code_steps(context: Context, field: Field, oob: bool = False) -> SafeString:
    """A WEG code row's step buttons (`rulesets/weg_d6/_steps.html`)."""
    return steps_of(field, bool(context.get("can_edit_player")), bool(context.get("play")), oob=oob)


def steps_of(field: Field, can_edit_player: bool, play: bool, *, oob: bool = False) -> SafeString:
    """A code row's step buttons, from the row and the two flags they read; `oob` marks
    them to swap by their ids (an edit response sends them beside their row)."""
    return draw(STEPS_TEMPLATE, field=field, can_edit_player=can_edit_player, play=play, oob=oob)


def step_button(
    name: str, field: Field, can_edit_player: bool, play: bool, *, oob: bool = True
) -> SafeString:
    """One of a code row's buttons alone ("down", "up", "remove", "advance": the partials of
    `_steps.html`), marked to swap by its id."""
    return draw(
        f"{STEPS_TEMPLATE}#{name}",
        field=field,
        can_edit_player=can_edit_player,
        play=play,
        oob_button=oob,
    )


@register.simple_tag(takes_context=True)
def sheet_budget(context: Context, oob: bool = False) -> SafeString:
    """The budget panel (`rulesets/_budget.html`), from all it prints."""
    status, pools, unplaced = context.get("status"), context.get("pools"), context.get("unplaced")
    return draw(
        BUDGET_TEMPLATE,
        status=status,
        pools=pools,
        unplaced=unplaced,
        verdict=budget_verdict(status, pools or (), unplaced or ()) if status else None,
        held=context.get("held"),
        oob=bool(oob),
    )


def draw(template_name: str, **values: Any) -> SafeString:
    return mark_safe(get_template(template_name).template.render(Context(values)))
