"""Accounts: sign up, log in, log out and change password, with Django's auth."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpRequest
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


def test_the_demo_command_loads_legal_characters_for_every_ready_system(client):
    from rulesets.core import resolve_settings
    from rulesets.registry import get_ruleset, ready_systems
    from sheets.advancement.figures import engine_sheet

    call_command("load_demo")
    call_command("load_demo")  # a second run adds nothing
    demo = get_user_model().objects.get(username="demo")
    characters = list(demo.characters.all())
    # One complete character per ready system, plus WEG's 1st-edition Force user and droid.
    assert sorted({c.system for c in characters}) == sorted(i.key for i in ready_systems())
    assert {c.name for c in characters if c.system == "weg_d6"} >= {"Ven Aurel", "R2-K5"}
    for character in characters:
        ruleset = get_ruleset(character.system)
        # Judged as the app judges it: with the ledger's figures laid over the sheet.
        sheet = engine_sheet(character)
        report = ruleset.check(sheet, resolve_settings(ruleset.SETTINGS, {}))
        assert report.ok, (character.system, report.errors)
    # The login throttle (django-axes) needs a request to count attempts against.
    assert client.login(request=HttpRequest(), username="demo", password="demo-pass")
