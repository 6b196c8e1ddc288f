"""The table is its creator's: a co-GM they made cannot demote them to player."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sheets.campaigns.models import Membership, Role

pytestmark = pytest.mark.django_db


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def co_gm(table, gm, other_player):
    """The creator makes `other_player` a co-GM, through the member's button."""
    member = table.memberships.get(user=other_player)
    made = _logged_in(gm).post(
        reverse("campaign_member_role", args=[table.pk, member.pk]), {"role": "gm"}
    )
    assert made.status_code == 302
    return other_player


def _role(table, user) -> str:
    return Membership.objects.get(campaign=table, user=user).role


def test_a_co_gm_cannot_demote_the_creator_who_may_step_down_and_be_made_gm_again(table, gm, co_gm):
    creator = table.memberships.get(user=gm)
    url = reverse("campaign_member_role", args=[table.pk, creator.pk])
    refused = _logged_in(co_gm).post(url, {"role": "player"})
    assert refused.status_code == 400
    assert "Only the GM who started this table can change their own role." in (
        refused.content.decode()
    )
    assert _role(table, gm) == Role.GM
    # The creator steps down by their own choice; the GM left may make them a GM again.
    assert _logged_in(gm).post(url, {"role": "player"}).status_code == 302
    assert _role(table, gm) == Role.PLAYER
    assert _logged_in(co_gm).post(url, {"role": "gm"}).status_code == 302
    assert _role(table, gm) == Role.GM


def test_the_co_gm_has_no_button_on_the_creators_line_and_the_creator_still_demotes_them(
    table, gm, co_gm
):
    creator = table.memberships.get(user=gm)
    own = table.memberships.get(user=co_gm)
    body = _logged_in(co_gm).get(reverse("campaign_detail", args=[table.pk])).content.decode()
    assert reverse("campaign_member_role", args=[table.pk, creator.pk]) not in body
    # Their own line still has it: a co-GM may step down.
    assert reverse("campaign_member_role", args=[table.pk, own.pk]) in body
    demoted = _logged_in(gm).post(
        reverse("campaign_member_role", args=[table.pk, own.pk]), {"role": "player"}
    )
    assert demoted.status_code == 302
    assert _role(table, co_gm) == Role.PLAYER
