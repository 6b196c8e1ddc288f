"""Shared fixtures: people of the permission matrix and a SWd10 character to work on."""

from __future__ import annotations

import os

import pytest

# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls
# from such a thread unless told this is deliberate (live_server and fixtures need them).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "a-long-test-password-42"


@pytest.fixture
def make_user(django_user_model):
    def make(username: str):
        return django_user_model.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def player(make_user):
    return make_user("luke")


@pytest.fixture
def other_player(make_user):
    return make_user("mara")


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def swd10_character(player):
    from sheets.characters.services import character_create

    return character_create(owner=player, name="Kira Dane", system="swd10")


@pytest.fixture(autouse=True)
def fast_password_hashing(request):
    # Real hashing costs ~100 ms per user; these tests check behaviour, not hash strength.
    # The rules tests also run without Django (-p no:django), where there is nothing to set.
    if request.config.pluginmanager.hasplugin("django"):
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def password() -> str:
    return PASSWORD
