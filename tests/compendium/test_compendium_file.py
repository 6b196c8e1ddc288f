"""The compendium file: export, the import's preview, confirmation, and refused files."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sheets.compendium.models import Book, CompendiumEntry
from sheets.compendium.services import (
    PlanChanged,
    entry_create,
    entry_set_hidden,
    entry_update,
    import_apply,
    import_plan,
)
from sheets.transfer.compendium_file import (
    FILE_MAX_BYTES,
    FORMAT,
    VERSION,
    FileRefused,
    compendium_file_schema,
    export_book,
    file_bytes,
    pack,
    read_book_file,
    unpack,
)
from tests.compendium.conftest import weapon

pytestmark = pytest.mark.django_db


def _entries(book: Book) -> list[tuple]:
    return sorted((e.kind, e.name, e.data, e.hidden) for e in book.entries())


@pytest.fixture
def full_book(gm, book, repeater):
    entry_create(user=gm, book=book, kind="weapon", data=weapon("Hold-out", damage=2))
    entry_create(
        user=gm,
        book=book,
        kind="species",
        data={"name": "Cathar", "kind": "species", "merits": ["Claws"], "description": "Ours."},
        hidden=True,
    )
    return book


def _export(client, user, book) -> bytes:
    client.force_login(user)
    response = client.get(reverse("compendium_export", args=[book.key]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    return response.content


def _preview(client, book, raw: bytes, name: str = "book.json"):
    return client.post(
        reverse("compendium_import", args=[book.key]),
        {"file": SimpleUploadedFile(name, raw, "application/json")},
    )


def test_a_book_exported_and_imported_into_another_table_has_the_same_entries(
    client, gm, other_gm, full_book, other_table
):
    raw = _export(client, gm, full_book)
    document = json.loads(raw)
    assert (document["format"], document["version"], document["system"]) == (
        FORMAT,
        VERSION,
        "swd10",
    )

    other = Book(system="swd10", campaign=other_table)
    client.force_login(other_gm)
    preview = _preview(client, other, raw)
    page = preview.content.decode()
    assert preview.status_code == 200
    assert "Adds 3" in page and "Heavy repeater" in page
    assert not other.entries().exists(), "the preview wrote something"

    confirm = client.post(
        reverse("compendium_import", args=[other.key]),
        {"payload": preview.context["payload"], "digest": preview.context["digest"]},
    )
    assert confirm.status_code == 302
    assert _entries(other) == _entries(full_book)
    assert {e.author for e in other.entries()} == {other_gm}


def test_a_player_exports_only_what_they_may_read(client, player, full_book):
    names = [e["data"]["name"] for e in json.loads(_export(client, player, full_book))["entries"]]
    assert sorted(names) == ["Heavy repeater", "Hold-out"]


def test_the_preview_says_what_it_replaces_and_refuses_and_confirm_writes_only_that(
    gm, book, repeater
):
    entry_create(user=gm, book=book, kind="weapon", data=weapon("Unchanged"))
    document = export_book(
        system="swd10",
        entries=[
            _Item("weapon", weapon(damage=8)),  # replaces the repeater
            _Item("weapon", weapon("Unchanged")),  # the same as the book's
            _Item("weapon", weapon("New one")),  # added
            _Item("weapon", weapon("Broken", difficulty=99)),  # refused: its difficulty
            _Item("starship", {"name": "X-wing"}),  # refused: no such kind in SWd10
            _Item("weapon", weapon("new ONE")),  # refused: twice in the file
        ],
    )
    raw = file_bytes(document)
    plan = import_plan(user=gm, book=book, raw=raw)
    assert [p.name for p in plan.adds] == ["New one"]
    assert [p.name for p in plan.replaces] == ["Heavy repeater"]
    assert [p.name for p in plan.unchanged] == ["Unchanged"]
    refused = {p.position: p.errors for p in plan.refusals}
    assert set(refused) == {4, 5, 6}
    assert "difficulty" in refused[4] and "kind" in refused[5] and "name" in refused[6]

    import_apply(user=gm, book=book, raw=raw, expected_digest=plan.digest)
    repeater.refresh_from_db()
    assert (repeater.data["damage"], repeater.version) == (8, 2)
    assert sorted(e.name for e in book.entries()) == ["Heavy repeater", "New one", "Unchanged"]


def test_a_plan_that_moved_since_the_preview_is_shown_again_and_nothing_written(gm, book, repeater):
    raw = file_bytes(export_book(system="swd10", entries=[_Item("weapon", weapon(damage=8))]))
    plan = import_plan(user=gm, book=book, raw=raw)
    entry_update(user=gm, entry_id=repeater.pk, data=weapon(damage=5), expected_version=1)
    with pytest.raises(PlanChanged) as changed:
        import_apply(user=gm, book=book, raw=raw, expected_digest=plan.digest)
    assert changed.value.plan.replaces[0].replaces.version == 2
    repeater.refresh_from_db()
    assert repeater.data["damage"] == 5


class _Item:
    def __init__(self, kind: str, data: dict, hidden: bool = False) -> None:
        self.kind, self.data, self.hidden = kind, data, hidden


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b"{not json", "JSON is broken at line 1"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[]", "not a Datapad compendium file"),
        (
            json.dumps({"format": FORMAT, "version": 2, "system": "swd10", "entries": []}).encode(),
            "version 2 of the compendium format",
        ),
        (
            json.dumps(
                {"format": FORMAT, "version": 1, "system": "weg_d6", "entries": []}
            ).encode(),
            "West End Games d6 entries; this book is Star Wars Storytelling",
        ),
        (
            json.dumps({"format": FORMAT, "version": 1, "system": "swd10", "entries": {}}).encode(),
            'no list of "entries"',
        ),
        (b"[" * 100000 + b"]" * 100000, "its JSON cannot be read"),
        (b'{"format": "datapad-compendium", "version": ' + b"9" * 5000 + b"}", "cannot be read"),
    ],
    ids=[
        "broken",
        "not-utf8",
        "not-ours",
        "future",
        "other-system",
        "no-entries",
        "deep",
        "huge-int",
    ],
)
def test_a_file_that_is_not_one_for_this_book_is_refused_with_a_clear_message(raw, said):
    with pytest.raises(FileRefused) as refused:
        read_book_file(raw, system="swd10")
    assert said in str(refused.value)


def test_the_import_page_refuses_a_bad_file_beside_the_field_and_writes_nothing(client, gm, book):
    client.force_login(gm)
    response = _preview(client, book, b"{not json")
    assert response.status_code == 400
    assert 'id="error-file"' in response.content.decode()
    assert not CompendiumEntry.objects.exists()


def test_a_file_over_the_size_limit_is_refused_by_its_size(client, gm, book):
    client.force_login(gm)
    response = _preview(client, book, b" " * (FILE_MAX_BYTES + 1))
    assert response.status_code == 400
    assert "a compendium file is at most 2.0 MB" in response.content.decode()


def test_a_tampered_confirmation_is_refused(client, gm, book):
    client.force_login(gm)
    response = client.post(
        reverse("compendium_import", args=[book.key]), {"payload": "not base64!", "digest": "x"}
    )
    assert response.status_code == 400
    assert "upload the file again" in response.content.decode()


def test_the_carried_file_comes_back_whole_and_a_bomb_is_refused():
    raw = file_bytes(export_book(system="swd10", entries=[_Item("weapon", weapon())]))
    assert unpack(pack(raw)) == raw
    with pytest.raises(FileRefused):
        unpack(pack(b" " * (FILE_MAX_BYTES + 10)))


def test_hidden_entries_travel_hidden(gm, book, repeater, other_gm, other_table):
    entry_set_hidden(user=gm, entry_id=repeater.pk, hidden=True, expected_version=1)
    raw = file_bytes(export_book(system="swd10", entries=book.entries()))
    other = Book(system="swd10", campaign=other_table)
    plan = import_plan(user=other_gm, book=other, raw=raw)
    import_apply(user=other_gm, book=other, raw=raw, expected_digest=plan.digest)
    assert other.entries().get().hidden


def test_the_published_schema_describes_every_systems_kinds(client):
    response = client.get(reverse("compendium_file_schema"))
    schema = json.loads(response.content)
    assert response["Content-Type"].startswith("application/schema+json")
    assert schema["properties"]["format"] == {"const": FORMAT}
    systems = {v["properties"]["system"]["const"] for v in schema["oneOf"]}
    assert systems == {"swd10", "ore", "weg_d6", "o3d10"}
    assert schema == compendium_file_schema()


def test_an_exported_file_validates_against_the_published_schema(gm, full_book):
    jsonschema = pytest.importorskip("jsonschema")
    document = json.loads(file_bytes(export_book(system="swd10", entries=full_book.entries())))
    jsonschema.validate(document, compendium_file_schema())
