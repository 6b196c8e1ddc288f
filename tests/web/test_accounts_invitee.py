"""A logged-out invitee keeps the invitation through log-in and through sign-up; `next` only
ever leads to a page of this site."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from sheets.campaigns.services import campaign_create, invitation_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def join_url(gm) -> str:
    campaign = campaign_create(user=gm, name="Outer Rim", system="swd10")
    token = invitation_create(user=gm, campaign_id=campaign.pk).token
    return reverse("campaign_join", args=[token])


def sign_up(client, password, **extra):
    return client.post(
        reverse("signup"),
        {"username": "rey", "password1": password, "password2": password, **extra},
    )


def test_the_login_page_offers_sign_up_with_the_invitation_kept(client, join_url):
    to_login = client.get(join_url)
    assert to_login.status_code == 302
    text = client.get(to_login["Location"]).content.decode()
    assert f'href="{reverse("signup")}?next=%2Fcampaigns%2Fjoin%2F' in text


def test_signing_up_from_an_invitation_lands_back_on_it(client, password, join_url):
    form = client.get(reverse("signup"), {"next": join_url}).content.decode()
    assert f'<input type="hidden" name="next" value="{join_url}">' in form
    response = sign_up(client, password, next=join_url)
    assert response["Location"] == join_url
    page = client.get(join_url)
    assert page.status_code == 200 and "Join the table" in page.content.decode()


def test_a_refused_sign_up_keeps_the_invitation_for_the_next_try(client, password, join_url):
    refused = client.post(
        reverse("signup"),
        {"username": "rey", "password1": password, "password2": "other", "next": join_url},
    )
    assert refused.status_code == 400
    assert f'name="next" value="{join_url}"' in refused.content.decode()
    assert sign_up(client, password, next=join_url)["Location"] == join_url


def test_logging_in_from_an_invitation_lands_back_on_it(client, player, password, join_url):
    response = client.post(
        reverse("login"), {"username": player.username, "password": password, "next": join_url}
    )
    assert response["Location"] == join_url


@pytest.mark.parametrize(
    "unsafe",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example",
        "javascript:alert(1)",
        "http://testserver/campaigns/",
        "campaigns/",
        "/\x00campaigns/",
        "/" + "x" * 3000,
    ],
)
def test_a_next_leading_anywhere_but_a_page_here_is_dropped(client, password, unsafe):
    form = client.get(reverse("signup"), {"next": unsafe}).content.decode()
    assert 'name="next"' not in form
    response = sign_up(client, password, next=unsafe)
    assert response["Location"] == reverse("character_list")
    assert get_user_model().objects.filter(username="rey").exists()
