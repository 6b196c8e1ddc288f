"""Importing another tool's file through the page: the preview first, nothing stored until
confirmed, the original file kept beside the character, its history starting with the
format's name; and every refusal a message beside the field with nothing stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sheets.characters.models import Character
from sheets.compendium.models import Book
from sheets.compendium.services import entry_create
from sheets.transfer.models import ImportedFile, PendingImport

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).parent.parent / "fixtures" / "formats"


def upload(client, raw: bytes, name: str = "actor.json"):
    return client.post(
        reverse("character_import"),
        {"file": SimpleUploadedFile(name, raw, "application/json")},
    )


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def preview_url(response) -> str:
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


def test_an_od6s_upload_shows_its_preview_and_stores_nothing_yet(player_client):
    url = preview_url(upload(player_client, fixture_bytes("od6s_system.json")))
    page = player_client.get(url).content.decode()
    assert "Import preview: Tavi Renn" in page
    assert "Foundry VTT OD6S actor" in page and "West End Games d6" in page
    assert "Skill Blaster" in page and "4D+2" in page
    assert "has no place in a WEG sheet: kept in Equipment" in page
    assert "Rules the sheet breaks" in page and "(A) Medicine is 1D+2" in page
    assert Character.objects.count() == 0
    assert PendingImport.objects.count() == 1


def test_confirming_writes_the_character_its_file_and_its_first_revision(player_client, player):
    raw = fixture_bytes("od6s_system.json")
    url = preview_url(upload(player_client, raw, "tavi.json"))
    response = player_client.post(url, {"action": "confirm"})
    character = Character.objects.get()
    assert response["Location"] == reverse("character_sheet", args=[character.pk])
    assert (character.owner, character.name, character.system) == (player, "Tavi Renn", "weg_d6")
    assert character.sheet["skills"]["blaster"] == 14
    kept = ImportedFile.objects.get(character=character)
    assert (bytes(kept.raw), kept.size, kept.format, kept.filename) == (
        raw,
        len(raw),
        "foundry_od6s",
        "tavi.json",
    )
    assert list(character.revisions.values_list("summary", flat=True)) == [
        "Imported from Foundry VTT OD6S actor"
    ]
    assert not PendingImport.objects.exists()
    # The same upload cannot be confirmed twice.
    assert player_client.post(url, {"action": "confirm"}).status_code == 404
    assert Character.objects.count() == 1


def test_cancelling_stores_nothing_and_forgets_the_upload(player_client):
    url = preview_url(upload(player_client, fixture_bytes("cthunline.json")))
    response = player_client.post(url, {"action": "cancel"})
    assert response["Location"] == reverse("character_import")
    assert not PendingImport.objects.exists() and not Character.objects.exists()
    assert player_client.get(url).status_code == 404


def test_another_person_cannot_see_or_confirm_someone_elses_upload(
    player_client, client, other_player
):
    url = preview_url(upload(player_client, fixture_bytes("od6s_system.json")))
    client.force_login(other_player)
    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "confirm"}).status_code == 404
    assert not Character.objects.exists()


def test_the_confirmed_sheet_is_the_one_the_server_read_whatever_the_client_posts(player_client):
    url = preview_url(upload(player_client, fixture_bytes("valthoron.json")))
    player_client.post(
        url, {"action": "confirm", "sheet": json.dumps({"attributes": {}}), "name": "Evil"}
    )
    character = Character.objects.get()
    assert character.name == "Keth Orlan"
    assert character.sheet["attributes"]["dexterity"] == 10


@pytest.mark.parametrize(
    "name",
    [
        "od6s_data.json",
        "builder.swd6.json",
        "valthoron.json",
        "cthunline.json",
        "roll20_d6starwars.json",
        "wod20_pc.json",
        "wod20_legacy.json",
    ],
)
def test_every_known_format_imports_through_the_same_upload_field(player_client, name):
    url = preview_url(upload(player_client, fixture_bytes(name)))
    assert player_client.get(url).status_code == 200
    player_client.post(url, {"action": "confirm"})
    character = Character.objects.get()
    assert character.revisions.get().summary.startswith("Imported from ")
    assert ImportedFile.objects.get().character == character


def test_a_wod20_actor_becomes_an_swd10_character_with_what_has_no_place_listed(player_client):
    url = preview_url(upload(player_client, fixture_bytes("wod20_pc.json")))
    page = player_client.get(url).content.decode()
    assert "Star Wars Storytelling (d10)" in page
    assert "ability Drive 1: no SWd10 place" in page
    player_client.post(url, {"action": "confirm"})
    assert Character.objects.get().system == "swd10"


def test_a_builder_species_found_in_the_compendium_needs_no_question(player_client, player):
    entry_create(
        user=player,
        book=Book(system="weg_d6", owner=player),
        kind="species",
        data={
            "name": "Ithorian",
            "minimum": dict.fromkeys(
                ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"), 3
            ),
            "maximum": dict.fromkeys(
                ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"), 12
            ),
            "move": 10,
            "move_max": 12,
        },
    )
    url = preview_url(upload(player_client, fixture_bytes("builder_ithorian.swd6.json")))
    page = player_client.get(url).content.decode()
    assert "species of Your own book" in page
    player_client.post(url, {"action": "confirm"})
    sheet = Character.objects.get().sheet
    assert sheet["species"] == "custom" and sheet["custom_species"]["name"] == "Ithorian"
    assert sheet["attributes"]["dexterity"] == 3 + 3 + 1
    assert sheet["custom_species"]["compendium"]["kind"] == "species"


def test_a_builder_species_the_compendium_lacks_asks_for_its_minimums(player_client):
    url = preview_url(upload(player_client, fixture_bytes("builder_ithorian.swd6.json")))
    page = player_client.get(url).content.decode()
    assert "“Ithorian”, which none of your compendiums holds" in page
    assert "Import this character" not in page
    # Confirming before answering stores nothing.
    refused = player_client.post(url, {"action": "confirm"})
    assert refused.status_code == 400 and "Give the minimums" in refused.content.decode()
    assert not Character.objects.exists()
    minimums = {
        f"min_{slug}": "1D+1"
        for slug in ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")
    }
    bad = player_client.post(url, {"action": "minimums", **minimums, "min_strength": "strong"})
    assert bad.status_code == 400
    assert "“strong” is not a die code" in bad.content.decode()
    assert player_client.post(url, {"action": "minimums", **minimums}).status_code == 302
    assert "Import this character" in player_client.get(url).content.decode()
    player_client.post(url, {"action": "confirm"})
    assert Character.objects.get().sheet["attributes"]["dexterity"] == 4 + 3 + 1


@pytest.mark.parametrize(
    ("name_or_raw", "message"),
    [
        ("foundry_dnd5e.json", "Foundry VTT actor of the “dnd5e” game system"),
        (
            b'{"hello": "world"}',
            "This is not a file Datapad knows; it knows: Datapad character files",
        ),
        (
            b'{"Name": "X", "Stats": [{"Type": "Attribute", "Name": "Dexterity", '
            b'"Starting": "3D"}]}',
            "is not a whole number",
        ),
        (
            b'{"gameId": "starWarsD6", "data": {"attributes": {"dexterity": {"value": "4Q"}}}}',
            "is not a die code",
        ),
        (
            b'{"name": "A", "type": "character", "system": {"attributes": '
            b'{"agi": {"base": 99999}, "kno": {}, "mec": {}}}}',
            "out of range",
        ),
    ],
)
def test_a_bad_file_is_refused_beside_the_field_and_nothing_is_kept(
    player_client, name_or_raw, message
):
    raw = fixture_bytes(name_or_raw) if isinstance(name_or_raw, str) else name_or_raw
    response = upload(player_client, raw)
    assert response.status_code == 400
    text = response.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert message in text
    assert not Character.objects.exists() and not PendingImport.objects.exists()


def test_a_foreign_file_over_its_size_limit_is_refused(player_client):
    data = json.loads(fixture_bytes("od6s_system.json"))
    data["system"]["description"]["content"] = "x" * (2 * 1024 * 1024)
    response = upload(player_client, json.dumps(data).encode())
    assert response.status_code == 400
    assert "a file of another tool is at most 2.0 MB" in response.content.decode()
    assert not PendingImport.objects.exists()


def test_a_person_keeps_only_a_few_uploads_waiting(player_client):
    for _ in range(7):
        upload(player_client, fixture_bytes("valthoron.json"))
    assert PendingImport.objects.count() == 5


def test_the_import_page_names_the_formats_it_knows(player_client):
    page = player_client.get(reverse("character_import")).content.decode()
    assert "Foundry VTT OD6S actor" in page and "Roll20 D6StarWars" in page


def test_the_preview_lists_fields_of_a_newer_tool_version_and_imports_the_rest(player_client):
    data = json.loads(fixture_bytes("od6s_system.json"))
    data["system"]["hyperdriveKarma"] = {"value": 3}
    url = preview_url(upload(player_client, json.dumps(data).encode()))
    page = player_client.get(url).content.decode()
    assert "does not know (a newer version of the tool?)" in page
    assert "<code>system.hyperdriveKarma</code>" in page
    player_client.post(url, {"action": "confirm"})
    assert Character.objects.get().sheet["attributes"]["dexterity"] == 10


def test_an_upload_left_waiting_over_an_hour_is_gone(player_client):
    from datetime import timedelta

    from django.utils import timezone

    url = preview_url(upload(player_client, fixture_bytes("valthoron.json")))
    PendingImport.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert player_client.get(url).status_code == 404
    assert player_client.post(url, {"action": "confirm"}).status_code == 404
    assert not Character.objects.exists()
