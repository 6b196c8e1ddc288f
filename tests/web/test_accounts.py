"""Accounts: sign up, log in, log out and change password, with Django's auth."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_signing_up_logs_the_new_player_in(client, password):
    response = client.post(
        reverse("signup"),
        {"username": "rey", "password1": password, "password2": password},
    )
    assert response["Location"] == reverse("character_list")
    assert client.get(reverse("character_list")).status_code == 200
    assert get_user_model().objects.filter(username="rey").exists()


def test_a_mismatched_password_is_refused_beside_the_field(client, password):
    response = client.post(
        reverse("signup"), {"username": "rey", "password1": password, "password2": "other-pass-1"}
    )
    assert response.status_code == 400
    assert "didn’t match" in response.content.decode()
    assert not get_user_model().objects.filter(username="rey").exists()


def test_logging_in_and_out(client, player, password):
    response = client.post(reverse("login"), {"username": "luke", "password": password})
    assert response["Location"] == reverse("character_list")
    client.post(reverse("logout"))
    assert client.get(reverse("character_list")).status_code == 302


def test_changing_the_password(client, player, password):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "n3w-secret-phrase",
            "new_password2": "n3w-secret-phrase",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    player.refresh_from_db()
    assert player.check_password("n3w-secret-phrase")


def test_the_demo_command_loads_a_legal_character_per_ready_system(client):
    from rulesets.core import resolve_settings
    from rulesets.registry import get_ruleset, ready_systems

    call_command("load_demo")
    call_command("load_demo")  # a second run adds nothing
    demo = get_user_model().objects.get(username="demo")
    characters = list(demo.characters.all())
    assert sorted(c.system for c in characters) == sorted(i.key for i in ready_systems())
    for character in characters:
        ruleset = get_ruleset(character.system)
        report = ruleset.check(character.sheet, resolve_settings(ruleset.SETTINGS, {}))
        assert report.ok, (character.system, report.errors)
    assert client.login(username="demo", password="demo-pass")
