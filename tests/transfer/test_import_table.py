"""An import may land at a table its importer sits at: the preview judges the sheet by that
table's house rules, and the character joins it as a sheet its owner brings (through
campaigns.services.character_bring): a draft, its points from elsewhere waiting for the
GM's acceptance. Every refused choice is said beside the field, with nothing stored."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sheets.advancement.models import LedgerEntry
from sheets.advancement.services import waiting_entries
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    campaign_leave,
    campaign_settings_save,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character, ReviewState
from sheets.characters.services import character_create
from sheets.transfer.datapad import export_character, file_bytes
from sheets.transfer.models import ImportedFile, PendingImport
from tests.transfer.test_import_pages import fixture_bytes, preview_url, upload

pytestmark = pytest.mark.django_db

# The OD6S actor's Medicine rests on First aid 3D: the default reading asks 5D of it
# (advanced_prerequisite_dice); this table asks 3D, so it breaks no rule there.
PREREQUISITE = "(A) Medicine rests on First aid 5D"


@pytest.fixture
def weg_table(gm, player):
    campaign = campaign_create(user=gm, name="Hoth Base", system="weg_d6")
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    campaign, _broken, saved = campaign_settings_save(
        user=gm,
        campaign_id=campaign.pk,
        submitted={"advanced_prerequisite_dice": "3"},
        expected_version=campaign.version,
        confirmed=True,
    )
    assert saved
    return campaign


def upload_to(client, raw: bytes, table, name: str = "tavi.json"):
    return client.post(
        reverse("character_import"),
        {
            "file": SimpleUploadedFile(name, raw, "application/json"),
            "campaign": "" if table is None else str(table.pk),
        },
    )


def test_the_upload_page_offers_the_tables_one_sits_at(player_client, weg_table, table, other_gm):
    campaign_create(user=other_gm, name="Not Yours", system="weg_d6")
    page = player_client.get(reverse("character_import")).content.decode()
    assert "Hoth Base" in page and "Outer Rim" in page
    assert "Not Yours" not in page


def test_the_preview_judges_by_the_chosen_tables_rules(player_client, weg_table):
    off = player_client.get(preview_url(upload(player_client, fixture_bytes("od6s_system.json"))))
    assert PREREQUISITE in off.content.decode()
    assert "Judged by the default rule readings" in off.content.decode()

    url = preview_url(upload_to(player_client, fixture_bytes("od6s_system.json"), weg_table))
    page = player_client.get(url).content.decode()
    assert PREREQUISITE not in page
    assert "Judged by the house rules of “Hoth Base”" in page
    assert "Import this character to “Hoth Base”" in page
    assert Character.objects.count() == 0


def test_confirmed_it_joins_the_table_as_a_brought_sheet(player_client, player, weg_table):
    raw = fixture_bytes("od6s_system.json")
    url = preview_url(upload_to(player_client, raw, weg_table))
    response = player_client.post(url, {"action": "confirm"})
    character = Character.objects.get()
    assert response["Location"] == reverse("character_sheet", args=[character.pk])
    assert character.campaign == weg_table and character.owner == player
    assert character.review_state == ReviewState.DRAFT
    assert bytes(ImportedFile.objects.get(character=character).raw) == raw
    # As a sheet brought from elsewhere: every point the file brought waits for the GM.
    income = LedgerEntry.objects.filter(character=character, amount__gt=0)
    assert set(waiting_entries(character)) == set(income.filter(kind__in=["award"]))
    assert waiting_entries(character).exists()
    assert all(entry.needs_acceptance for entry in waiting_entries(character))
    # The same sheet imported off-table and brought by hand waits for the same points.
    player_client.post(preview_url(upload(player_client, raw)), {"action": "confirm"})
    twin = Character.objects.exclude(pk=character.pk).get()
    character_bring(user=player, campaign_id=weg_table.pk, character_id=twin.pk)
    twin.refresh_from_db()
    assert twin.campaign == weg_table
    assert sorted(e.amount for e in waiting_entries(twin)) == sorted(
        e.amount for e in waiting_entries(character)
    )


def test_the_table_is_chosen_and_changed_on_the_preview(player_client, weg_table):
    url = preview_url(upload(player_client, fixture_bytes("od6s_system.json")))
    assert "Hoth Base" in player_client.get(url).content.decode()
    response = player_client.post(url, {"action": "table", "campaign": str(weg_table.pk)})
    assert response.status_code == 302
    assert PendingImport.objects.get().campaign == weg_table
    assert PREREQUISITE not in player_client.get(url).content.decode()
    player_client.post(url, {"action": "table", "campaign": ""})
    assert PendingImport.objects.get().campaign is None
    player_client.post(url, {"action": "confirm"})
    assert Character.objects.get().campaign is None


@pytest.mark.parametrize("raw_choice", ["abc", "-1", "1e3", "٣", "9" * 40, "0", "1 OR 1=1"])
def test_a_choice_that_names_no_table_is_refused_beside_the_field(
    player_client, weg_table, raw_choice
):
    url = preview_url(upload(player_client, fixture_bytes("od6s_system.json")))
    response = player_client.post(url, {"action": "table", "campaign": raw_choice})
    assert response.status_code == 400
    assert 'id="id_campaign_error"' in response.content.decode()
    assert "Choose one of the tables you sit at" in response.content.decode()
    assert PendingImport.objects.get().campaign is None


def test_another_persons_table_is_refused_as_none_at_all(player_client, weg_table, other_gm):
    theirs = campaign_create(user=other_gm, name="Secret Sith Table", system="weg_d6")
    url = preview_url(upload(player_client, fixture_bytes("od6s_system.json")))
    response = player_client.post(url, {"action": "table", "campaign": str(theirs.pk)})
    assert response.status_code == 400
    # Nothing tells the table exists, nor its name.
    assert "Secret Sith Table" not in response.content.decode()
    assert PendingImport.objects.get().campaign is None
    # At the upload too: nothing is kept.
    PendingImport.objects.all().delete()
    refused = upload_to(player_client, fixture_bytes("od6s_system.json"), theirs)
    assert refused.status_code == 400
    assert "Choose one of the tables you sit at" in refused.content.decode()
    assert not PendingImport.objects.exists() and not Character.objects.exists()


def test_a_table_of_another_system_is_refused(player_client, table, weg_table):
    refused = upload_to(player_client, fixture_bytes("od6s_system.json"), table)
    assert refused.status_code == 400
    assert "“Outer Rim” plays Star Wars Storytelling (d10)" in refused.content.decode()
    assert not PendingImport.objects.exists()
    # And the preview offers only the tables of the file's system.
    url = preview_url(upload(player_client, fixture_bytes("od6s_system.json")))
    page = player_client.get(url).content.decode()
    assert "Hoth Base" in page and "Outer Rim" not in page


def test_a_table_left_before_confirming_stores_nothing(player_client, player, weg_table):
    url = preview_url(upload_to(player_client, fixture_bytes("od6s_system.json"), weg_table))
    campaign_leave(user=player, campaign_id=weg_table.pk)
    page = player_client.get(url).content.decode()
    assert "You no longer sit at “Hoth Base”" in page
    assert PREREQUISITE in page  # judged by the default readings again
    response = player_client.post(url, {"action": "confirm"})
    assert response.status_code == 400
    assert "You no longer sit at the table you chose" in response.content.decode()
    assert not Character.objects.exists() and not ImportedFile.objects.exists()
    assert PendingImport.objects.count() == 1


def test_a_datapad_file_joins_the_chosen_table_or_nothing_is_stored(
    player_client, player, table, weg_table
):
    spare = character_create(owner=player, name="Ione Vel", system="swd10")
    raw = file_bytes(export_character(spare))
    spare.delete()
    refused = upload_to(player_client, raw, weg_table, "ione.datapad.json")
    assert refused.status_code == 400
    assert "this table plays West End Games d6" in refused.content.decode()
    assert not Character.objects.filter(name="Ione Vel").exists()

    response = upload_to(player_client, raw, table, "ione.datapad.json")
    imported = Character.objects.get(name="Ione Vel")
    assert response["Location"] == reverse("character_sheet", args=[imported.pk])
    assert imported.campaign == table and imported.review_state == ReviewState.DRAFT
