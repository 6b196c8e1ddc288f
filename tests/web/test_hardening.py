"""Each input that once crashed the server (issue 14) now gets a clear 4xx and changes nothing.

Run these on PostgreSQL too (DATABASE_URL=postgres://...): it refuses NUL bytes, lone
surrogates and NaN that SQLite stores without complaint, so a crash may show only there.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sheets.campaigns.models import Campaign
from sheets.characters.models import Character
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db


def stored(character: Character) -> tuple:
    """Everything an edit could change about a character, as stored."""
    fresh = Character.objects.get(pk=character.pk)
    return (fresh.name, fresh.sheet, fresh.rule_settings, fresh.version, fresh.revisions.count())


def edit(client, character: Character, data: dict):
    return client.post(
        reverse("character_edit", args=[character.pk]), {"version": character.version} | data
    )


@pytest.fixture
def ore_character(player):
    from rulesets.ore import demo_sheet

    return character_create(owner=player, name="Tessa", system="ore", sheet=demo_sheet())


@pytest.fixture
def weg_character(player):
    from rulesets.weg_d6 import demo_sheet

    return character_create(owner=player, name="Dax", system="weg_d6", sheet=demo_sheet())


# 1. A NUL byte ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"only": "info.player", "info.player": "a\x00b"},
        {"only": "character.name", "character.name": "Kira\x00Dane"},
        {"edit": "info.player=a\x00b"},
        {"save": "all", "info.player": "a\x00b", "character.name": "Kira"},
        {"edit": "language.add=Basic\x00"},
        {"only": "weapon.add", "weapon.add": "Blaster", "weapon.add.1": "\x00"},
    ],
)
def test_a_nul_byte_in_an_edit_is_refused_and_changes_nothing(player_client, swd10_character, data):
    before = stored(swd10_character)
    response = edit(player_client, swd10_character, data)
    assert response.status_code == 400
    assert "cannot be stored" in response.content.decode()
    assert stored(swd10_character) == before


def test_a_nul_in_a_value_the_edit_ignores_stays_out_of_the_history(player_client, player):
    from rulesets.swd10 import demo_sheet

    character = character_create(owner=player, name="Kira", system="swd10", sheet=demo_sheet())
    # A remove button reads no value; the history says what the edit changed, in words.
    response = edit(player_client, character, {"edit": "weapon.0.remove=x\x00y"})
    assert response.status_code == 302
    character.refresh_from_db()
    assert [row["name"] for row in character.sheet["weapons"]] == ["Vibroknife"]
    summary = character.revisions.get(version=character.version).summary
    assert "\x00" not in summary and "x\ufffdy" not in summary
    assert "removed" in summary or "→ Vibroknife" in summary


def test_a_nul_in_a_new_characters_name_is_refused(player_client):
    response = player_client.post(
        reverse("character_new"), {"name": "Kira\x00Dane", "system": "swd10"}
    )
    assert response.status_code == 400
    assert "cannot be stored" in response.content.decode()
    assert not Character.objects.exists()


# 2. Digits that are not ASCII -------------------------------------------------------------


@pytest.mark.parametrize(
    ("trait", "message"),
    [
        ("wound.torso.²=cycle", "does not name"),
        ("weapon.².name=Blade", "does not name"),
        # Experience awards are the ledger's: the sheet refuses any of its rows first.
        ("xp.².remove=1", "on the Advancement page"),
        ("armor.².worn=on", "does not name"),
    ],
)
def test_an_ore_row_number_in_other_digits_is_refused(player_client, ore_character, trait, message):
    before = stored(ore_character)
    response = edit(player_client, ore_character, {"edit": trait})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert stored(ore_character) == before


def test_a_weg_row_number_in_other_digits_is_refused(player_client, weg_character):
    before = stored(weg_character)
    response = edit(player_client, weg_character, {"edit": "equipment.².name=x"})
    assert response.status_code == 400
    assert "does not name" in response.content.decode()
    assert stored(weg_character) == before


@pytest.mark.parametrize(
    ("system", "trait"),
    [
        ("swd10", "weapon.².name=Blade"),
        ("swd10", "language.².read=on"),
        ("o3d10", "weapon.².name=Blade"),
        ("o3d10", "armor.².name=Vest"),
        ("o3d10", "weapon.٣.name=Blade"),
        ("weg_d6", "equipment.٣.name=x"),
    ],
)
def test_a_row_number_in_other_digits_is_refused_in_every_system(player_client, system, trait):
    from rulesets.registry import get_ruleset

    character = character_create(
        owner=Character._meta.get_field("owner").related_model.objects.get(username="luke"),
        name="Rows",
        system=system,
        sheet=get_ruleset(system).demo_sheet(),
    )
    before = stored(character)
    response = edit(player_client, character, {"edit": trait})
    assert response.status_code == 400
    assert stored(character) == before


# 3. Import: every parse error and wrong type ----------------------------------------------


def upload(client, raw: bytes):
    return client.post(
        reverse("character_import"),
        {"file": SimpleUploadedFile("c.datapad.json", raw, "application/json")},
    )


def envelope(**changes) -> dict:
    from rulesets.swd10 import demo_sheet

    return {
        "format": "datapad-character",
        "schema_version": 1,
        "system": "swd10",
        "name": "Imported",
        "sheet": demo_sheet(),
    } | changes


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"[" * 5000, "too deeply nested"),
        (b"1" * 4301, "too large"),
        (b'{"format": "datapad-character", "n": ' + b"9" * 4400 + b"}", "too large"),
        (b'{"format": "datapad-character", "n": 1e400}', "not a number"),
        (json.dumps(envelope(system=[])).encode(), "Unknown rule system"),
        (json.dumps(envelope(system={})).encode(), "Unknown rule system"),
        (json.dumps(envelope(format=[])).encode(), "not a Datapad character file"),
        (json.dumps(envelope(schema_version=[])).encode(), "schema version"),
        (json.dumps(envelope(name=["Kira"])).encode(), "name"),
        (json.dumps(envelope(name="Kira\ud800")).encode(), "cannot be stored"),
        (json.dumps(envelope(name="Kira\x00")).encode(), "cannot be stored"),
        (json.dumps(envelope(rule_settings={"x\ud800": 1})).encode(), "Unknown rule reading"),
        (b'{"format": "datapad-character", "schema_version": NaN}', "not a number"),
        (b'{"format": "datapad-character", "schema_version": Infinity}', "not a number"),
    ],
)
def test_a_broken_file_is_refused_with_a_reason(player_client, raw, message):
    response = upload(player_client, raw)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Character.objects.exists()


def test_text_with_a_lone_surrogate_in_the_sheet_is_refused(player_client):
    data = envelope()
    data["sheet"]["info"]["player"] = "\ud800"
    response = upload(player_client, json.dumps(data).encode())
    assert response.status_code == 400
    assert "sheet.info.player" in response.content.decode()
    assert not Character.objects.exists()


def test_a_nul_in_the_sheet_is_refused(player_client):
    data = envelope()
    data["sheet"]["languages"][0]["name"] = "Basic\x00"
    response = upload(player_client, json.dumps(data).encode())
    assert response.status_code == 400
    assert "sheet.languages.0.name" in response.content.decode()
    assert not Character.objects.exists()


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_a_non_finite_number_in_the_sheet_is_refused(player_client, value):
    text = json.dumps(envelope()).replace('"destiny_points": 0', f'"destiny_points": {value}')
    assert value in text
    response = upload(player_client, text.encode())
    assert response.status_code == 400
    assert not Character.objects.exists()


# 5. Uploads -------------------------------------------------------------------------------


def test_an_upload_over_the_limit_is_refused_with_its_real_size(player_client):
    response = upload(player_client, b" " * (12 * 1024 * 1024))
    assert response.status_code == 400
    assert "The file is 12.0 MB; a character file is at most 8.0 MB." in response.content.decode()
    assert not Character.objects.exists()


def test_an_upload_just_over_the_limit_names_its_size(player_client):
    response = upload(player_client, b" " * (8 * 1024 * 1024 + 200 * 1024))
    assert response.status_code == 400
    assert "The file is 8.2 MB; a character file is at most 8.0 MB." in response.content.decode()


def test_an_oversized_upload_is_never_stored(rf, settings):
    """The first handler takes the file from the ones that store files: none sees a byte."""
    from django.core.files.uploadhandler import load_handler

    from sheets.transfer.uploads import OversizedUpload

    size = 9 * 1024 * 1024 + 5
    request = rf.post(
        reverse("character_import"), {"file": SimpleUploadedFile("big.json", b"x" * size)}
    )
    request.upload_handlers = [
        load_handler(path, request) for path in settings.FILE_UPLOAD_HANDLERS
    ]
    upload = request.FILES["file"]
    assert isinstance(upload, OversizedUpload)
    assert (upload.name, upload.size, upload.read()) == ("big.json", size, b"")
    assert all(not hasattr(handler, "file") for handler in request.upload_handlers[1:])


# 6. Campaign forms carry no NUL either ----------------------------------------------------


def test_a_nul_in_a_join_token_is_refused(player_client):
    response = player_client.get("/campaigns/join/ab%00cd/")
    assert response.status_code in (400, 404)


def test_a_nul_in_a_campaign_name_is_refused(client, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaign_new"), {"name": "Outer\x00Rim", "system": "swd10", "description": ""}
    )
    assert response.status_code == 400
    assert not Campaign.objects.exists()
