"""Share links: a read-only sheet and its PDF for anyone holding the link, until revoked."""

from __future__ import annotations

import io
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from sheets.characters.models import ShareLink
from sheets.characters.services import share_link_create

pytestmark = pytest.mark.django_db


class Controls(HTMLParser):
    """The named form controls a visitor could use: not disabled, nor in a disabled fieldset."""

    def __init__(self) -> None:
        super().__init__()
        self.fieldsets: list[bool] = []
        self.enabled: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "fieldset":
            self.fieldsets.append("disabled" in a)
        elif tag in ("input", "select", "textarea", "button") and a.get("name"):
            usable = "disabled" not in a and not any(self.fieldsets)
            if usable:
                self.enabled.append(a["name"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "fieldset" and self.fieldsets:
            self.fieldsets.pop()


def enabled_controls(html: str) -> list[str]:
    """The enabled controls of the page's content: the top bar's theme switch is the
    visitor's own, not the sheet's."""
    parser = Controls()
    parser.feed(html.split("<main>", 1)[-1])
    return parser.enabled


def make_link(player_client, character) -> ShareLink:
    response = player_client.post(reverse("character_share_create", args=[character.pk]))
    assert response.status_code == 302
    return ShareLink.objects.get(character=character)


def test_the_owner_makes_a_link_and_sees_it_on_the_sheet(player_client, swd10_character):
    link = make_link(player_client, swd10_character)
    text = player_client.get(reverse("character_sheet", args=[swd10_character.pk])).content
    assert reverse("shared_sheet", args=[link.token]) in text.decode()


def test_anyone_with_the_link_sees_the_sheet_read_only(player_client, swd10_character):
    link = make_link(player_client, swd10_character)
    response = Client().get(reverse("shared_sheet", args=[link.token]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Kira Dane" in text and "A read-only copy" in text
    # No form posts anywhere: no sheet form, no review, no notes, no share controls.
    assert "<form" not in text.split("<main>")[1]
    assert enabled_controls(text) == []
    for url in (
        reverse("character_edit", args=[swd10_character.pk]),
        reverse("character_sheet", args=[swd10_character.pk]),
        reverse("character_export", args=[swd10_character.pk]),
        reverse("character_submit", args=[swd10_character.pk]),
    ):
        assert url not in text
    assert reverse("shared_pdf", args=[link.token]) in text


def test_the_shared_pdf_is_the_sheets_pdf(player_client, swd10_character):
    link = make_link(player_client, swd10_character)
    response = Client().get(reverse("shared_pdf", args=[link.token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "Kira Dane" in text


def test_a_revoked_link_opens_nothing(player_client, swd10_character):
    link = make_link(player_client, swd10_character)
    response = player_client.post(
        reverse("character_share_revoke", args=[swd10_character.pk, link.pk])
    )
    assert response.status_code == 302
    anonymous = Client()
    assert anonymous.get(reverse("shared_sheet", args=[link.token])).status_code == 404
    assert anonymous.get(reverse("shared_pdf", args=[link.token])).status_code == 404
    text = player_client.get(reverse("character_sheet", args=[swd10_character.pk])).content
    assert link.token not in text.decode()


def test_an_unknown_token_is_not_found(client):
    assert client.get(reverse("shared_sheet", args=["no-such-token"])).status_code == 404


def test_only_the_owner_shares_or_revokes(client, gm, table):
    character = table.characters.get()
    client.force_login(gm)
    assert client.post(reverse("character_share_create", args=[character.pk])).status_code == 403
    link = share_link_create(user=character.owner, character_id=character.pk)
    response = client.post(reverse("character_share_revoke", args=[character.pk, link.pk]))
    assert response.status_code == 403
    link.refresh_from_db()
    assert link.revoked_at is None
    assert not ShareLink.objects.exclude(pk=link.pk).exists()


def test_another_player_cannot_see_or_revoke_links(client, other_player, swd10_character):
    link = share_link_create(user=swd10_character.owner, character_id=swd10_character.pk)
    client.force_login(other_player)
    response = client.post(reverse("character_share_revoke", args=[swd10_character.pk, link.pk]))
    assert response.status_code == 404
    link.refresh_from_db()
    assert link.revoked_at is None


def test_revoking_a_link_of_another_character_is_refused_with_a_message(
    player_client, player, swd10_character
):
    from sheets.characters.services import character_create

    other = character_create(owner=player, name="Other", system="swd10")
    link = share_link_create(user=player, character_id=other.pk)
    response = player_client.post(
        reverse("character_share_revoke", args=[swd10_character.pk, link.pk]), follow=True
    )
    assert "No such share link on this character." in response.content.decode()
    link.refresh_from_db()
    assert link.revoked_at is None


@pytest.mark.parametrize("system", ["swd10", "ore", "weg_d6", "o3d10"])
def test_every_systems_shared_page_offers_no_control(player, system):
    from rulesets.registry import get_ruleset
    from sheets.characters.services import character_create

    character = character_create(
        owner=player, name="Shown", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    link = share_link_create(user=player, character_id=character.pk)
    response = Client().get(reverse("shared_sheet", args=[link.token]))
    assert response.status_code == 200
    assert enabled_controls(response.content.decode()) == []
