"""GM notes belong to the table that wrote them: a sheet that moves to another table takes
no note along, and the first table's GMs still read theirs in the table's records."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sheets.campaigns.services import invitation_create
from sheets.characters.models import GMNote

pytestmark = pytest.mark.django_db

SECRET = "Qvx-kyber-5520: her brother sold the crew out"


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def moved(table, other_table, gm, other_gm, player, player_client, swd10_character):
    """The GM writes a note on Kira; her player takes her out and to the other GM's table,
    all through the requests the browser sends."""
    kira = swd10_character
    gm_client = _logged_in(gm)
    saved = gm_client.post(reverse("gm_note_save", args=[kira.pk]), {"text": SECRET})
    assert saved.status_code == 302
    left = player_client.post(reverse("character_leave_campaign", args=[kira.pk]))
    assert left.status_code == 302
    token = invitation_create(user=other_gm, campaign_id=other_table.pk).token
    joined = player_client.post(reverse("campaign_join", args=[token]))
    assert joined.status_code == 302
    brought = player_client.post(
        reverse("campaign_bring", args=[other_table.pk]), {"character": str(kira.pk)}
    )
    assert brought.status_code == 302
    kira.refresh_from_db()
    assert kira.campaign_id == other_table.pk
    return kira


def test_the_new_tables_gm_does_not_read_the_old_tables_note_until_the_sheet_comes_back(
    moved, table, other_gm, gm, player_client
):
    page = _logged_in(other_gm).get(reverse("character_sheet", args=[moved.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "GM notes" in body  # the new GM's own (empty) box is there
    assert SECRET not in body
    # Back at the first table, its GM finds the note on the sheet again.
    left = player_client.post(reverse("character_leave_campaign", args=[moved.pk]))
    assert left.status_code == 302
    back = player_client.post(
        reverse("campaign_bring", args=[table.pk]), {"character": str(moved.pk)}
    )
    assert back.status_code == 302
    page = _logged_in(gm).get(reverse("character_sheet", args=[moved.pk]))
    assert SECRET in page.content.decode()


def test_the_new_gm_writes_their_own_note_and_the_old_one_is_kept(moved, table, other_gm, gm):
    client = _logged_in(other_gm)
    saved = client.post(reverse("gm_note_save", args=[moved.pk]), {"text": "Pays in spice."})
    assert saved.status_code == 302
    assert dict(GMNote.objects.filter(character=moved).values_list("campaign", "text")) == {
        table.pk: SECRET,
        moved.campaign_id: "Pays in spice.",
    }
    old_records = _logged_in(gm).get(reverse("campaign_detail", args=[table.pk])).content
    assert "Pays in spice." not in old_records.decode()


def test_the_old_tables_gm_still_reads_the_note_in_the_tables_records_its_players_do_not(
    moved, table, gm, player
):
    page = _logged_in(gm).get(reverse("campaign_detail", args=[table.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "GM notes on characters who left" in body
    assert SECRET in body and "Kira Dane" in body
    players_page = _logged_in(player).get(reverse("campaign_detail", args=[table.pk]))
    assert players_page.status_code == 200
    assert SECRET not in players_page.content.decode()
