"""GM notes: written and read by the GMs of the table, never shown to the player anywhere."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from sheets.characters.models import GMNote
from sheets.characters.services import (
    character_apply_edits,
    gm_note_save,
    share_link_create,
)

pytestmark = pytest.mark.django_db

SECRET = "Zqx-holocron-7731: the bounty is on her, not on the ship"


@pytest.fixture
def kira(table, gm):
    character = table.characters.get()
    gm_note_save(user=gm, character_id=character.pk, text=SECRET)
    return character


@pytest.fixture
def gm_client(gm):
    client = Client()
    client.force_login(gm)
    return client


def test_the_gm_reads_and_saves_the_notes_on_the_sheet(gm_client, kira):
    url = reverse("character_sheet", args=[kira.pk])
    assert SECRET in gm_client.get(url).content.decode()
    response = gm_client.post(reverse("gm_note_save", args=[kira.pk]), {"text": "Owes Jabba."})
    assert response.status_code == 302
    assert GMNote.objects.get(character=kira).text == "Owes Jabba."
    assert "Owes Jabba." in gm_client.get(url).content.decode()


def test_a_note_too_long_is_refused_beside_the_box_and_the_old_one_stays(gm_client, kira):
    response = gm_client.post(reverse("gm_note_save", args=[kira.pk]), {"text": "x" * 20001})
    assert response.status_code == 400
    assert "GM notes are at most 20000 characters." in response.content.decode()
    assert GMNote.objects.get(character=kira).text == SECRET


def test_the_player_cannot_write_the_notes(player_client, kira):
    response = player_client.post(reverse("gm_note_save", args=[kira.pk]), {"text": "mine"})
    assert response.status_code == 403
    assert SECRET not in response.content.decode()
    assert GMNote.objects.get(character=kira).text == SECRET


def test_the_gm_of_another_table_finds_no_notes(client, other_gm, other_table, kira):
    client.force_login(other_gm)
    response = client.post(reverse("gm_note_save", args=[kira.pk]), {"text": "mine"})
    assert response.status_code == 404
    assert GMNote.objects.get(character=kira).text == SECRET


def _bodies_the_player_gets(client, character, gm) -> dict[str, str]:
    """Every page, fragment, file and redraw the player can get of their character."""
    sheet = reverse("character_sheet", args=[character.pk])
    edit = reverse("character_edit", args=[character.pk])
    htmx = {"HTTP_HX_REQUEST": "true"}
    bodies = {
        "sheet": client.get(sheet).content.decode(),
        "sheet as htmx": client.get(sheet, **htmx).content.decode(),
        "history": client.get(reverse("character_history", args=[character.pk])).content.decode(),
        "list": client.get(reverse("character_list")).content.decode(),
        "export": client.get(reverse("character_export", args=[character.pk])).content.decode(),
    }
    character.refresh_from_db()
    bodies["edit fragment"] = client.post(
        edit, {"edit": "attr.strength=2", "version": character.version}, **htmx
    ).content.decode()
    character.refresh_from_db()
    refused = client.post(edit, {"edit": "attr.strength=99", "version": character.version})
    assert refused.status_code == 400
    bodies["refused page"] = refused.content.decode()
    bodies["refused fragment"] = client.post(
        edit, {"edit": "power=9", "version": character.version}, **htmx
    ).content.decode()
    assert "only the GM sets this" in bodies["refused fragment"]
    # The GM changes a GM row: the player's next edit merges and redraws the whole sheet.
    character.refresh_from_db()
    seen = character.version
    character_apply_edits(
        user=gm, character_id=character.pk, edits={"power": "2"}, expected_version=seen
    )
    bodies["merged redraw"] = client.post(
        edit, {"edit": "attr.wits=2", "version": seen}, **htmx
    ).content.decode()
    # An edit of the same trait from an old version: the conflict redraws the whole sheet.
    bodies["conflict redraw"] = client.post(
        edit, {"edit": "attr.wits=3", "version": seen}, **htmx
    ).content.decode()
    bodies["conflict page"] = client.post(
        edit, {"edit": "attr.wits=3", "version": seen}
    ).content.decode()
    bodies["submit refused"] = client.post(
        reverse("character_submit", args=[character.pk]), {"version": 1}
    ).content.decode()
    pdf = client.get(reverse("character_pdf", args=[character.pk])).content
    bodies["pdf"] = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    link = share_link_create(user=character.owner, character_id=character.pk)
    anonymous = Client()
    bodies["shared page"] = anonymous.get(
        reverse("shared_sheet", args=[link.token])
    ).content.decode()
    shared_pdf = anonymous.get(reverse("shared_pdf", args=[link.token])).content
    bodies["shared pdf"] = "\n".join(
        page.extract_text() for page in PdfReader(io.BytesIO(shared_pdf)).pages
    )
    return bodies


def test_no_page_fragment_pdf_or_export_shows_the_notes_to_the_player(player_client, gm, kira):
    bodies = _bodies_the_player_gets(player_client, kira, gm)
    assert "merged redraw" in bodies and "Also shows changes by gm_yoda" in bodies["merged redraw"]
    assert "This sheet was changed elsewhere" in bodies["conflict redraw"]
    assert "Kira Dane" in bodies["pdf"] and "Kira Dane" in bodies["shared page"]
    for where, body in bodies.items():
        assert "Zqx-holocron" not in body, where
        assert "GM notes" not in body, where
        assert reverse("gm_note_save", args=[kira.pk]) not in body, where
