"""Who may see what: anonymous visitors log in first; a player never reaches another's sheet."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

GET_PAGES = [
    "character_sheet",
    "character_pdf",
    "character_export",
    "character_history",
    "character_remove",
]
POST_PAGES = ["character_edit", "character_copy", "character_remove"]


@pytest.mark.parametrize("name", GET_PAGES)
def test_anonymous_visitors_are_sent_to_log_in(client, swd10_character, name):
    response = client.get(reverse(name, args=[swd10_character.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", ["character_list", "character_new", "character_import"])
def test_anonymous_visitors_cannot_reach_the_character_pages(client, name):
    assert client.get(reverse(name))["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", GET_PAGES)
def test_another_player_gets_not_found_for_every_page(client, other_player, swd10_character, name):
    client.force_login(other_player)
    assert client.get(reverse(name, args=[swd10_character.pk])).status_code == 404


@pytest.mark.parametrize("name", POST_PAGES)
def test_another_player_cannot_change_the_sheet(client, other_player, swd10_character, name):
    client.force_login(other_player)
    response = client.post(
        reverse(name, args=[swd10_character.pk]),
        {"edit": "attr.strength=5", "version": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 404
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["attributes"]["strength"] == 1
    assert swd10_character.version == 1
    assert other_player.characters.count() == 0


@pytest.mark.parametrize("name", GET_PAGES)
def test_the_owner_reaches_every_page(player_client, swd10_character, name):
    assert player_client.get(reverse(name, args=[swd10_character.pk])).status_code == 200


def test_a_missing_character_is_not_found(player_client):
    assert player_client.get(reverse("character_sheet", args=[999999])).status_code == 404
