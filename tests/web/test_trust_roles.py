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


def test_a_co_gm_cannot_demote_the_tables_creator(table, gm, co_gm):
    creator = table.memberships.get(user=gm)
    response = _logged_in(co_gm).post(
        reverse("campaign_member_role", args=[table.pk, creator.pk]), {"role": "player"}
    )
    assert response.status_code == 400
    assert "Only the GM who started this table can change their own role." in (
        response.content.decode()
    )
    assert _role(table, gm) == Role.GM


def test_the_co_gm_is_not_offered_the_button_on_the_creators_line(table, gm, co_gm):
    creator = table.memberships.get(user=gm)
    body = _logged_in(co_gm).get(reverse("campaign_detail", args=[table.pk])).content.decode()
    assert reverse("campaign_member_role", args=[table.pk, creator.pk]) not in body
    # Their own line still has it: a co-GM may step down.
    own = table.memberships.get(user=co_gm)
    assert reverse("campaign_member_role", args=[table.pk, own.pk]) in body


def test_the_creator_may_step_down_by_their_own_choice(table, gm, co_gm):
    creator = table.memberships.get(user=gm)
    response = _logged_in(gm).post(
        reverse("campaign_member_role", args=[table.pk, creator.pk]), {"role": "player"}
    )
    assert response.status_code == 302
    assert _role(table, gm) == Role.PLAYER


def test_once_the_creator_stepped_down_the_gm_left_may_make_them_a_gm_again(table, gm, co_gm):
    creator = table.memberships.get(user=gm)
    url = reverse("campaign_member_role", args=[table.pk, creator.pk])
    assert _logged_in(gm).post(url, {"role": "player"}).status_code == 302
    assert _logged_in(co_gm).post(url, {"role": "gm"}).status_code == 302
    assert _role(table, gm) == Role.GM


def test_the_creator_still_demotes_a_co_gm(table, gm, co_gm):
    member = table.memberships.get(user=co_gm)
    response = _logged_in(gm).post(
        reverse("campaign_member_role", args=[table.pk, member.pk]), {"role": "player"}
    )
    assert response.status_code == 302
    assert _role(table, co_gm) == Role.PLAYER
