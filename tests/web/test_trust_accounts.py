"""The password change is throttled like the log-in, and an over-long user name at log-in
is refused on the form before it reaches the throttle."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-password-77"


def _change(client, old: str, address: str = "10.4.4.4"):
    return client.post(
        reverse("password_change"),
        {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        REMOTE_ADDR=address,
    )


def test_wrong_old_passwords_lock_the_password_change_even_for_the_right_one(
    player_client, player, password
):
    # Below the limit, each wrong one is told so beside its field.
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        refused = _change(player_client, "wrong-guess")
        assert refused.status_code == 200
        assert "Your old password was entered incorrectly" in refused.content.decode()
    assert _change(player_client, "wrong-guess").status_code == 429
    locked = _change(player_client, password)
    assert locked.status_code == 429
    body = locked.content.decode()
    assert "Changing the password is blocked" in body
    assert 'name="old_password"' in body  # the form itself, the message beside its field
    player.refresh_from_db()
    assert player.check_password(password)
    assert not player.check_password(NEW_PASSWORD)


def test_wrong_old_passwords_count_against_the_log_in_too(client, player, password):
    client.force_login(player)
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        _change(client, "wrong-guess", address=f"10.5.{attempt}.1")
    client.logout()
    login = client.post(
        reverse("login"),
        {"username": player.username, "password": password},
        REMOTE_ADDR="10.6.6.6",
    )
    assert login.status_code == 429
    assert "Too many failed log-ins" in login.content.decode()


def test_an_over_long_user_name_is_refused_on_the_form_before_the_throttle(client, password):
    response = client.post(reverse("login"), {"username": "x" * 300, "password": password})
    assert response.status_code == 200
    assert "A user name is at most 150 characters" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Nothing reached django-axes' table (a 255-character column: PostgreSQL refused it).
    assert not AccessAttempt.objects.exists()
    # A name of the longest length an account may have is still counted.
    client.post(reverse("login"), {"username": "y" * 150, "password": password})
    assert AccessAttempt.objects.get().username == "y" * 150
