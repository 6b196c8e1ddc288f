"""A character file carries the compendium entries its sheet picked, so it imports into
another Datapad or another user's hands intact: the entries land in the importer's own
book (one of the same kind and name there is used, not added twice), and the sheet points
at them, never at whatever entry has the same number here."""

from __future__ import annotations

import json

import jsonschema
import pytest

from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.compendium.models import Book, CompendiumEntry
from sheets.compendium.services import entry_create, entry_set_hidden
from sheets.transfer.datapad import ImportRefused, export_character, file_bytes, import_character
from sheets.transfer.schema import character_file_schema
from tests.compendium.conftest import PISTOL, TWILEK, pick

pytestmark = pytest.mark.django_db


@pytest.fixture
def picked(client, gm, player, weg_book, tessa):
    """Tessa with a Twi'lek species and a Kessel pistol from her table's book."""
    twilek = entry_create(user=gm, book=weg_book, kind="species", data=TWILEK)
    pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    client.force_login(player)
    for entry in (twilek, pistol):
        assert pick(client, tessa, entry.ref).status_code == 200
    tessa.refresh_from_db()
    return twilek, pistol


def _refs(character: Character) -> dict[str, tuple[str, int]]:
    return {
        kind: (ref, version)
        for kind, ref, version in get_ruleset("weg_d6").entry_refs(character.sheet)
    }


def test_the_file_carries_each_entry_at_the_version_the_sheet_took(tessa, picked):
    twilek, pistol = picked
    data = export_character(tessa)
    assert [(e["ref"], e["name"], e["version"]) for e in data["entries"]] == [
        (twilek.ref, "Twi'lek", 1),
        (pistol.ref, "Kessel pistol", 1),
    ]
    assert data["entries"][0]["data"] == twilek.data
    jsonschema.validate(json.loads(file_bytes(data)), character_file_schema())


def test_imported_elsewhere_the_entries_join_the_importers_book_and_the_sheet_points_there(
    tessa, picked, other_gm
):
    raw = file_bytes(export_character(tessa))
    # The importer's book already has an entry numbered like the file's: never pointed at.
    mine = Book(system="weg_d6", owner=other_gm)
    entry_create(user=other_gm, book=mine, kind="weapon", data={"name": "Training stick"})
    copy = import_character(owner=other_gm, raw=raw)
    added = {e.name: e for e in mine.entries()}
    assert added["Twi'lek"].data == picked[0].data
    assert added["Kessel pistol"].data == picked[1].data
    assert _refs(copy) == {
        "species": (added["Twi'lek"].ref, 1),
        "weapon": (added["Kessel pistol"].ref, 1),
    }
    assert copy.sheet["custom_species"]["maximum"] == TWILEK["maximum"]
    assert copy.sheet["weapons"][-1]["name"] == "Kessel pistol"


def test_an_entry_of_the_same_name_is_used_not_added_twice(tessa, picked, other_gm):
    mine = Book(system="weg_d6", owner=other_gm)
    theirs = entry_create(
        user=other_gm, book=mine, kind="species", data=TWILEK | {"name": "twi'lek", "move": 11}
    )
    copy = import_character(owner=other_gm, raw=file_bytes(export_character(tessa)))
    assert mine.entries().filter(kind="species").count() == 1
    # Its data differ from what the sheet took: version 0 says so on the sheet.
    assert _refs(copy)["species"] == (theirs.ref, 0)
    # Imported again: nothing more is added.
    import_character(owner=other_gm, raw=file_bytes(export_character(tessa)))
    assert mine.entries().count() == 2


def test_an_entry_the_file_leaves_out_is_marked_gone_and_the_sheet_still_works(
    client, gm, tessa, picked, other_gm
):
    twilek = picked[0]
    entry_set_hidden(user=gm, entry_id=twilek.pk, hidden=True, expected_version=1)
    data = export_character(tessa)
    assert [e["name"] for e in data["entries"]] == ["Kessel pistol"]
    copy = import_character(owner=other_gm, raw=file_bytes(data))
    assert _refs(copy)["species"] == (f"gone:{twilek.ref}", 1)
    assert copy.sheet["custom_species"]["name"] == "Twi'lek"
    client.force_login(other_gm)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"ref": "seed:species:human"}, "“ref” must be"),
        ({"version": 0}, "“version” must be"),
        ({"kind": "starship"}, "compendium entry 1"),
        ({"data": {"name": ""}}, "compendium entry 1"),
        ({"extra": 1}, "it holds exactly"),
    ],
)
def test_a_bad_entry_in_the_file_is_refused_and_nothing_is_stored(
    tessa, picked, other_gm, change, said
):
    data = export_character(tessa)
    data["entries"][0] = data["entries"][0] | change
    before = (Character.objects.count(), CompendiumEntry.objects.count())
    with pytest.raises(ImportRefused, match=said):
        import_character(owner=other_gm, raw=file_bytes(data))
    assert (Character.objects.count(), CompendiumEntry.objects.count()) == before
