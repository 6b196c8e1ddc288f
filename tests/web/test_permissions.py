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


# At a table: its GM reads the sheet and its files; a GM of another table finds nothing.
READ_PAGES = ["character_sheet", "character_pdf", "character_export", "character_history"]
OWNER_POSTS = [
    "character_copy",
    "character_submit",
    "character_share_create",
    "character_leave_campaign",
]
GM_POSTS = ["character_approve", "character_request_changes", "gm_note_save"]


@pytest.mark.parametrize("name", READ_PAGES)
def test_the_tables_gm_reads_every_page_of_a_members_sheet(client, gm, table, name):
    client.force_login(gm)
    assert client.get(reverse(name, args=[table.characters.get().pk])).status_code == 200


@pytest.mark.parametrize("name", [*READ_PAGES, "character_remove"])
def test_a_gm_of_another_table_finds_nothing(client, other_gm, other_table, table, name):
    client.force_login(other_gm)
    response = client.get(reverse(name, args=[table.characters.get().pk]))
    assert response.status_code == 404
    assert b"Kira Dane" not in response.content


@pytest.mark.parametrize("name", OWNER_POSTS)
def test_the_gm_may_not_do_the_owners_acts(client, gm, table, name):
    character = table.characters.get()
    client.force_login(gm)
    assert client.post(reverse(name, args=[character.pk]), {"version": 1}).status_code == 403
    character.refresh_from_db()
    assert character.campaign_id == table.pk and character.review_state == "draft"
    assert character.shares.count() == 0 and gm.characters.count() == 0


def test_the_gm_does_not_reach_the_delete_page(client, gm, table):
    client.force_login(gm)
    response = client.get(reverse("character_remove", args=[table.characters.get().pk]))
    assert response.status_code == 403


@pytest.mark.parametrize("name", GM_POSTS)
def test_another_player_of_the_table_finds_nothing_to_review(client, other_player, table, name):
    client.force_login(other_player)
    character = table.characters.get()
    response = client.post(reverse(name, args=[character.pk]), {"version": 1, "comment": "x"})
    assert response.status_code == 404
    assert not character.reviews.exists()


@pytest.mark.parametrize("name", OWNER_POSTS + GM_POSTS)
def test_anonymous_posts_are_sent_to_log_in(client, table, name):
    response = client.post(reverse(name, args=[table.characters.get().pk]), {"version": 1})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
