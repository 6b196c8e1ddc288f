"""JSON export and import of one character, and every way an import is refused."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sheets.characters.models import Character

pytestmark = pytest.mark.django_db


def upload(client, payload: bytes | str):
    raw = payload.encode() if isinstance(payload, str) else payload
    return client.post(
        reverse("character_import"),
        {"file": SimpleUploadedFile("kira.datapad.json", raw, "application/json")},
    )


def exported(client, character) -> dict:
    response = client.get(reverse("character_export", args=[character.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="kira-dane.datapad.json"'
    return json.loads(response.content)


def test_an_export_carries_its_system_and_schema_version(player_client, swd10_character):
    data = exported(player_client, swd10_character)
    assert data["format"] == "datapad-character"
    assert data["schema_version"] == 2
    assert data["system"] == "swd10"
    assert data["name"] == "Kira Dane"
    assert data["sheet"] == swd10_character.sheet


def test_an_exported_character_imports_as_a_new_identical_one(player_client, swd10_character):
    player_client.post(
        reverse("character_edit", args=[swd10_character.pk]),
        {"edit": "abil.dodge=3", "version": 1},
    )
    swd10_character.refresh_from_db()
    data = exported(player_client, swd10_character)
    response = upload(player_client, json.dumps(data))
    copy = Character.objects.exclude(pk=swd10_character.pk).get()
    assert response["Location"] == reverse("character_sheet", args=[copy.pk])
    assert (copy.name, copy.system, copy.sheet) == ("Kira Dane", "swd10", swd10_character.sheet)
    assert copy.owner == swd10_character.owner
    # The history comes along, and one more revision says who imported it.
    assert list(copy.revisions.values_list("summary", flat=True)) == [
        "Imported from a file",
        *swd10_character.revisions.values_list("summary", flat=True),
    ]


def valid(**changes) -> dict:
    from rulesets.swd10 import demo_sheet

    return {
        "format": "datapad-character",
        "schema_version": 1,
        "system": "swd10",
        "name": "Imported",
        "rule_settings": {},
        "sheet": demo_sheet(),
    } | changes


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("{not json", "The file is not valid JSON"),
        (b"\xff\xfe\x00", "The file is not valid JSON"),
        ("[1, 2, 3]", "This is not a Datapad character file"),
        (json.dumps(valid(format="other")), "This is not a Datapad character file"),
        (
            json.dumps(valid(schema_version=3)),
            "schema version 3; this Datapad reads versions 1 to 2",
        ),
        (json.dumps(valid(system="d20")), "Unknown rule system &#x27;d20&#x27;"),
        (json.dumps(valid(name="")), "A character needs a name."),
        (json.dumps(valid(extra=1)), "Unknown fields in the file: extra."),
        (json.dumps(valid(rule_settings={"cosmic": 1})), "Unknown rule reading “cosmic”"),
        (json.dumps(valid(rule_settings=[])), "“rule_settings” must be a JSON object."),
        (
            json.dumps(valid(sheet={"attributes": {"wits": 7}})),
            "attributes.wits: expected a whole number from 1 to 5",
        ),
        (json.dumps(valid(sheet="lots")), "the sheet must be a JSON object."),
        (b" " * (8 * 1024 * 1024 + 10), "a character file is at most 8.0 MB"),
    ],
)
def test_a_bad_file_gets_a_clear_error_and_creates_nothing(player_client, payload, message):
    response = upload(player_client, payload)
    assert response.status_code == 400
    text = response.content.decode()
    assert message in text or message.replace("“", "&ldquo;").replace("”", "&rdquo;") in text
    assert Character.objects.count() == 0


def test_an_import_without_a_file_asks_for_one(player_client):
    response = player_client.post(reverse("character_import"), {})
    assert "Choose a character file" in response.content.decode()
    assert Character.objects.count() == 0


def test_a_file_of_a_system_not_built_yet_is_refused(player_client, monkeypatch):
    from dataclasses import replace

    from rulesets.registry import SYSTEMS

    monkeypatch.setitem(SYSTEMS, "ore", replace(SYSTEMS["ore"], ready=False))
    response = upload(player_client, json.dumps(valid(system="ore")))
    assert "Star O.R.E. is not available yet." in response.content.decode()
    assert Character.objects.count() == 0
