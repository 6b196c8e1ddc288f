"""Without the stream the roll log polls: a poll with nothing new is answered from one
read. When the stream says the sheet changed, the page fetches what changed since the
version it shows, through the selector, as an edit's answer would bring it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sheets.characters.services import character_apply_edits, gm_note_save
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _queries(client, url: str, **headers) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    return len(queries), response


def _poll(table, after: int, seen: str = "") -> str:
    return reverse("campaign_roll_log", args=[table.pk]) + f"?after={after}&seen={seen}"


def test_a_poll_with_nothing_new_costs_one_read_more_than_a_logged_in_page_needs(
    client, player, table, swd10_character, roll
):
    entry = roll(player, swd10_character)
    client.force_login(player)
    client.get(reverse("home"))  # the session's first read, paid once
    counted, response = _queries(client, _poll(table, entry.pk, str(entry.pk)), **HTMX)
    assert response.status_code == 204
    # The session and the user, as any logged-in page reads them, and the one read.
    assert counted == 3


def test_a_poll_brings_what_is_new_and_a_stranger_is_refused_not_told_nothing(
    client, player, other_gm, table, swd10_character, roll
):
    first = roll(player, swd10_character)
    second = roll(player, swd10_character)
    client.force_login(player)
    response = client.get(_poll(table, first.pk, str(first.pk)), headers=HTMX)
    assert response.status_code == 200
    assert f'id="roll-entry-{second.pk}"' in response.content.decode()
    client.force_login(other_gm)
    assert client.get(_poll(table, second.pk, str(second.pk)), headers=HTMX).status_code == 404


def test_a_gms_secret_roll_is_no_news_to_a_players_poll(
    client, gm, player, table, swd10_character, roll
):
    shown = roll(player, swd10_character)
    roll(gm, swd10_character, secret=True)
    client.force_login(player)
    response = client.get(_poll(table, shown.pk, str(shown.pk)), headers=HTMX)
    assert response.status_code == 204
    assert RollEntry.objects.filter(secret=True).count() == 1


def test_the_changes_since_a_version_are_the_rows_that_moved_the_version_and_who(
    client, gm, player, table, swd10_character
):
    shown = swd10_character.version
    character_apply_edits(
        user=gm, character_id=swd10_character.pk, edits={"power": "2"}, expected_version=shown
    )
    client.force_login(player)
    url = reverse("live_sheet_changes", args=[swd10_character.pk]) + f"?since={shown}"
    response = client.get(url, headers=HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert f'id="sheet-version" value="{shown + 1}"' in body
    assert f'id="sheet-live-since" value="{shown + 1}"' in body
    assert 'id="trait-power"' in body
    assert f"Changed by {gm.username}." in body
    # Only what moved: the name row and the other traits stay as the page has them.
    assert 'id="trait-character-name"' not in body


def test_no_changes_since_the_version_shown_is_an_empty_answer(client, player, swd10_character):
    client.force_login(player)
    url = reverse("live_sheet_changes", args=[swd10_character.pk])
    response = client.get(url + f"?since={swd10_character.version}", headers=HTMX)
    assert response.status_code == 204


def test_the_changes_never_carry_the_gms_note_to_the_player(
    client, gm, player, other_gm, table, swd10_character
):
    shown = swd10_character.version
    gm_note_save(user=gm, character_id=swd10_character.pk, text="Kira is an Imperial plant")
    character_apply_edits(
        user=gm, character_id=swd10_character.pk, edits={"power": "2"}, expected_version=shown
    )
    url = reverse("live_sheet_changes", args=[swd10_character.pk]) + f"?since={shown}"
    client.force_login(player)
    assert "Imperial plant" not in client.get(url, headers=HTMX).content.decode()
    client.force_login(other_gm)
    assert client.get(url, headers=HTMX).status_code == 404
    client.logout()
    assert client.get(url, headers=HTMX).status_code == 302
