"""The invitation panel a new GM meets: where it sits, and what a double click makes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.campaigns.models import Invitation
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm_client(client, gm):
    client.force_login(gm)
    return client


def test_a_form_sent_twice_makes_one_invitation_link_and_other_terms_make_another(gm_client, gm):
    campaign = campaign_create(user=gm, name="Twice", system="swd10")
    url = reverse("campaign_invite", args=[campaign.pk])
    for _ in range(2):
        response = gm_client.post(url, {"max_uses": "3"}, headers={"HX-Request": "true"})
        assert response.status_code == 200
    assert Invitation.objects.filter(campaign=campaign).count() == 1
    assert response.content.decode().count('class="link-field"') == 1
    # Only a twin is held back: a link on other terms is a link of its own.
    gm_client.post(url, {"max_uses": "5"})
    assert sorted(
        Invitation.objects.filter(campaign=campaign).values_list("max_uses", flat=True)
    ) == [3, 5]


def test_the_invitations_come_first_while_the_gm_sits_alone_then_go_to_the_side(
    gm_client, gm, player
):
    response = gm_client.post(
        reverse("campaign_new"), {"name": "Fresh", "system": "swd10"}, follow=True
    )
    text = response.content.decode()
    said = text.index("Invite your players below")
    assert said < text.index('id="invitations"') < text.index('id="dashboard"')

    campaign = response.context["campaign"]
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    text = gm_client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert text.count('id="invitations"') == 1
    assert text.index('id="house-rules"') < text.index('id="invitations"')
