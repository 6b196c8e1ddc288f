"""Personal access tokens on the settings page: made with a name, scopes and a life, the
secret shown once and stored only as a digest, revoked by their owner alone."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from sheets.accounts import services as accounts
from sheets.accounts.models import AccessToken

pytestmark = pytest.mark.django_db

CREATE = reverse("access_token_create")
SETTINGS = reverse("account_settings")


def _secret_on(page: str) -> str:
    start = page.index('id="new-token-secret"')
    value = page.rindex('value="', 0, start) + len('value="')
    return page[value : page.index('"', value)]


def test_a_token_is_made_on_the_settings_page_and_its_secret_shown_once(player_client, player):
    response = player_client.post(
        CREATE, {"name": "Dice bot", "scopes": ["table:read", "rolls:write"], "expiry": "30"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    secret = _secret_on(page)
    assert secret.startswith(accounts.TOKEN_PREFIX)
    assert "shown this once" in page
    token = AccessToken.objects.get()
    assert token.user == player
    assert token.name == "Dice bot"
    assert token.scope_set == {"table:read", "rolls:write"}
    # Only its digest is kept: nothing stored holds the secret itself.
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(AccessToken.objects.values()))
    assert timedelta(days=29) < token.expires_at - timezone.now() <= timedelta(days=30)
    # The page drawn afterwards lists the token by its name and first characters only.
    later = player_client.get(SETTINGS).content.decode()
    assert secret not in later
    assert "Dice bot" in later
    assert token.prefix in later
    assert secret.startswith(token.prefix)


def test_a_token_may_last_until_revoked(player_client):
    player_client.post(
        CREATE, {"name": "VTT module", "scopes": ["characters:read"], "expiry": "never"}
    )
    token = AccessToken.objects.get()
    assert token.expires_at is None
    assert "no expiry" in player_client.get(SETTINGS).content.decode()


@pytest.mark.parametrize(
    ("posted", "field", "message"),
    [
        ({"name": "", "scopes": ["table:read"], "expiry": "30"}, "name", "This field is required."),
        (
            {"name": "   ", "scopes": ["table:read"], "expiry": "30"},
            "name",
            "This field is required.",
        ),
        ({"name": "x" * 101, "scopes": ["table:read"], "expiry": "30"}, "name", "at most 100"),
        ({"name": "Bot", "expiry": "30"}, "scopes", "Tick at least one thing"),
        (
            {"name": "Bot", "scopes": ["admin"], "expiry": "30"},
            "scopes",
            "not one of the available",
        ),
        (
            {"name": "Bot", "scopes": ["table:read"], "expiry": "7"},
            "expiry",
            "not one of the available",
        ),
    ],
)
def test_a_token_form_with_a_fault_is_refused_beside_the_field_and_makes_nothing(
    player_client, posted, field, message
):
    response = player_client.post(CREATE, posted)
    assert response.status_code == 400
    page = response.content.decode()
    assert f'id="token-{field}-error"' in page
    assert message in page
    assert 'id="new-token-secret"' not in page
    assert not AccessToken.objects.exists()


def test_a_person_holds_a_limited_number_of_live_tokens(player_client, player, make_token):
    for number in range(accounts.MOST_TOKENS):
        make_token(player, name=f"Bot {number}")
    response = player_client.post(
        CREATE, {"name": "One more", "scopes": ["table:read"], "expiry": "30"}
    )
    assert response.status_code == 400
    assert "revoke one you no longer use" in response.content.decode()
    assert AccessToken.objects.count() == accounts.MOST_TOKENS
    # A revoked token leaves room for a new one.
    accounts.token_revoke(user=player, token_id=AccessToken.objects.first().pk)
    again = player_client.post(
        CREATE, {"name": "One more", "scopes": ["table:read"], "expiry": "30"}
    )
    assert again.status_code == 200


def test_its_owner_revokes_a_token_and_it_opens_nothing_any_more(player_client, player, make_token):
    secret = make_token(player)
    token = AccessToken.objects.get()
    response = player_client.post(reverse("access_token_revoke", args=[token.pk]))
    assert response.status_code == 302
    assert response["Location"] == f"{SETTINGS}#tokens"
    token.refresh_from_db()
    assert token.revoked_at is not None
    page = player_client.get(SETTINGS).content.decode()
    assert "is revoked" in page
    assert f'id="token-{token.pk}"' not in page
    with pytest.raises(accounts.TokenRefused, match="revoked"):
        accounts.token_authenticate(secret)


def test_nobody_else_revokes_a_token_or_learns_it_exists(client, player, other_player, make_token):
    make_token(player)
    token = AccessToken.objects.get()
    client.force_login(other_player)
    response = client.post(reverse("access_token_revoke", args=[token.pk]))
    assert response.status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_an_expired_token_shows_as_expired_and_opens_nothing(player_client, player, make_token):
    secret = make_token(player, expiry="30")
    AccessToken.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    assert "expired" in player_client.get(SETTINGS).content.decode()
    with pytest.raises(accounts.TokenRefused, match="expired"):
        accounts.token_authenticate(secret)
