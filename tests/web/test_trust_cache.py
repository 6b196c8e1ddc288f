"""Every answer about one player's sheet says how it may be cached: private, not stored.
Share links included, which no session reads, and every file, however it was asked for."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sheets.characters.services import share_link_create, share_link_revoke

pytestmark = pytest.mark.django_db


def _private_and_not_stored(response) -> bool:
    control = response.get("Cache-Control", "")
    return "private" in control and "no-store" in control


@pytest.fixture
def link(player, swd10_character):
    return share_link_create(user=player, character_id=swd10_character.pk)


def test_the_share_links_page_and_pdf_are_private_and_not_stored_as_every_file(
    link, player_client, swd10_character
):
    anonymous = Client()
    page = anonymous.get(reverse("shared_sheet", args=[link.token]))
    pdf = anonymous.get(reverse("shared_pdf", args=[link.token]))
    assert page.status_code == 200 and pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert _private_and_not_stored(page), page.get("Cache-Control")
    assert _private_and_not_stored(pdf), pdf.get("Cache-Control")
    # The owner's own files say the same.
    for name in ("character_pdf", "character_export"):
        response = player_client.get(reverse(name, args=[swd10_character.pk]))
        assert response.status_code == 200, name
        assert "attachment" in response["Content-Disposition"], name
        assert _private_and_not_stored(response), (name, response.get("Cache-Control"))


def test_the_share_links_pdf_is_private_for_a_logged_in_visitor_too(other_player, link):
    client = Client()
    client.force_login(other_player)
    pdf = client.get(reverse("shared_pdf", args=[link.token]))
    assert pdf.status_code == 200
    assert _private_and_not_stored(pdf), pdf.get("Cache-Control")


def test_a_revoked_links_answer_is_not_stored_either(player, swd10_character, link):
    share_link_revoke(user=player, character_id=swd10_character.pk, link_id=link.pk)
    gone = Client().get(reverse("shared_pdf", args=[link.token]))
    assert gone.status_code == 404
    assert _private_and_not_stored(gone), gone.get("Cache-Control")
