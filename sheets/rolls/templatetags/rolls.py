"""Template tags that put rolls on pages other views draw: the sheet and the campaign.

They read the viewer and the permission decided by those pages' views (`access`, the
campaign loaded through campaign_for), so the sheet and campaign views need no change.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django import template
from django.urls import reverse

from sheets.campaigns.models import Campaign
from sheets.characters.state import URL_PATH_SAFE, SheetState
from sheets.permissions import campaign_role
from sheets.rolls.context import RollLog, RollMenu, log_for_character, table_roll_log
from sheets.rolls.hits import HIT_SYSTEMS
from sheets.rolls.services import rollables_of, table_log

register = template.Library()


def roll_links(character: Any, state: SheetState | None = None) -> dict[str, str]:
    """The roll page of each key this sheet can roll, worked out once per request (every
    row asks). `state` is the sheet's kept engine answers, which hold its rollable keys."""
    if state is None:
        keys = tuple((r.key, quote(r.key, safe=URL_PATH_SAFE)) for r in rollables_of(character))
    else:
        keys = state.rollable_keys
    cached = character.__dict__.get("_roll_links")
    if cached is None or cached[0] != keys:
        # One reverse for the page, then each key as reverse() would quote it.
        head, tail = reverse("character_roll", args=[character.pk, "~"]).rsplit("~", 1)
        cached = (keys, {key: f"{head}{quoted}{tail}" for key, quoted in keys})
        # On the instance, not in a module cache: it lives exactly as long as the request.
        character.__dict__["_roll_links"] = cached
    return cached[1]


def roll_url(context: template.Context, key: str) -> str:
    """The roll page of a trait the viewer may roll from this page; "" otherwise. Each
    sheet row asks (`sheet_row`), and draws a small die linking there."""
    character = context.get("character")
    access = context.get("access")
    if character is None or access is None or not access.edit or context.get("shared_token"):
        return ""
    return roll_links(character, context.get("state")).get(key, "")


@register.simple_tag(takes_context=True)
def sheet_roll_menu(context: template.Context) -> dict | None:
    """The sheet's Roll panel without its log: what the sheet can roll (for its owner or
    GM). An edit response draws it alone when its choices changed (layouts.edit_context)."""
    character = context.get("character")
    access = context.get("access")
    if character is None or access is None or not access.view:
        return None
    hits = access.edit and character.system in HIT_SYSTEMS and not context.get("shared_token")
    # The sheet page's kept engine answers hold the rollables: read, not worked out again.
    state = context.get("state")
    rollables = state.rollables if isinstance(state, SheetState) else rollables_of(character)
    return {
        "menu": RollMenu.of(rollables) if access.edit else RollMenu(),
        # A hit entered by hand (an NPC's attack the table rolled elsewhere).
        "hit_url": reverse("character_hit", args=[character.pk]) if hits else "",
        "hit_label": "Apply damage" if character.system == "o3d10" else "Mark wounds from a hit",
    }


@register.simple_tag(takes_context=True)
def sheet_rolls(context: template.Context) -> dict | None:
    """The sheet's Roll panel: what it can roll (for its owner or GM) and its log."""
    panel = sheet_roll_menu(context)
    if panel is None:
        return None
    character, access = context["character"], context["access"]
    return panel | {"log": log_for_character(context["user"], character, access)}


@register.simple_tag(takes_context=True)
def campaign_rolls(context: template.Context, campaign: Campaign) -> RollLog:
    """The table's log for the campaign page, as this member may read it."""
    user = context["user"]
    role = campaign_role(user, campaign)
    return table_roll_log(campaign, role, list(table_log(user, campaign, role=role)))
