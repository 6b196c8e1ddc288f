"""Personal access tokens as the services keep them: refused when made wrong, opening
nothing once unknown, revoked, expired or of a deactivated account, and counted by the
throttle on the token's own row."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from sheets.accounts import services as accounts
from sheets.accounts.models import AccessToken

pytestmark = pytest.mark.django_db


def test_the_service_refuses_what_the_form_would_let_through(player):
    with pytest.raises(accounts.TokenRefused) as refused:
        accounts.token_create(user=player, name="Bot\x00", scopes=["nope"], expiry="forever")
    assert refused.value.errors.keys() == {"name", "scopes", "expiry"}
    assert not AccessToken.objects.exists()


@pytest.mark.parametrize(
    "secret",
    ["", "dpat_", "dpat_unknown", "not-even-ours", "dpat_" + "x" * 200, "dpat_é", "dpat_\x00"],
)
def test_a_secret_datapad_never_made_opens_nothing(player, make_token, secret):
    make_token(player)
    with pytest.raises(accounts.TokenRefused, match="not one Datapad knows"):
        accounts.token_authenticate(secret)


def test_the_token_of_a_deactivated_account_opens_nothing(player, make_token):
    secret = make_token(player)
    player.is_active = False
    player.save()
    with pytest.raises(accounts.TokenRefused, match="not one Datapad knows"):
        accounts.token_authenticate(secret)


def test_a_live_token_opens_its_owners_account(player, make_token):
    secret = make_token(player)
    assert accounts.token_authenticate(secret).user == player


def test_the_throttle_counts_requests_in_a_minute_and_says_how_long_to_wait(
    settings, player, make_token
):
    settings.API_REQUESTS_PER_MINUTE = 2
    token = accounts.token_authenticate(make_token(player))
    assert accounts.token_count_request(token) == 0
    assert accounts.token_count_request(token) == 0
    wait = accounts.token_count_request(token)
    assert 1 <= wait <= accounts.THROTTLE_WINDOW
    row = AccessToken.objects.get()
    # The refused request is not counted, and the token was last used by the second.
    assert row.window_requests == 2
    AccessToken.objects.update(
        window_started_at=timezone.now() - timedelta(seconds=accounts.THROTTLE_WINDOW)
    )
    assert accounts.token_count_request(token) == 0
    assert AccessToken.objects.get().window_requests == 1
