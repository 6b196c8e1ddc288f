"""The GM's campaign page costs the same number of queries for 5 sheets as for 50."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.advancement.services import award
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db


def _table_with(sheets: int, gm, make_user, tag: str):
    """A table where each sheet has its own player, a change by that player, and, for
    every other sheet, a later change by the GM (so authors differ row to row)."""
    campaign = campaign_create(user=gm, name=f"Table {tag}", system="swd10")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    demo = get_ruleset("swd10").demo_sheet()
    for index in range(sheets):
        player = make_user(f"p{tag}_{index}")
        campaign_join(user=player, token=link.token)
        character = character_create(owner=player, name=f"Hero {index}", system="swd10", sheet=demo)
        character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
        character = character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"character.name": f"Hero {index}!"},
            expected_version=character.version,
        )
        if index % 2:
            award(user=gm, character_id=character.pk, amount="5", reason="Session 1")
    return campaign


def _queries_for_page(client, campaign) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("campaign_detail", args=[campaign.pk]))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_dashboard_makes_the_same_queries_for_5_sheets_as_for_50(client, gm, make_user):
    small = _table_with(5, gm, make_user, "s")
    large = _table_with(50, gm, make_user, "l")
    client.force_login(gm)
    _queries_for_page(client, small)  # warm: session, content types, template loading

    small_count, small_page = _queries_for_page(client, small)
    large_count, large_page = _queries_for_page(client, large)

    assert small_page.count("<tr>") - 1 == 5
    assert large_page.count("<tr>") - 1 == 50
    # The rows carry each sheet's last change and its author, read through subqueries.
    assert "by pl_0" in large_page and "by gm_yoda" in large_page
    assert small_count == large_count
