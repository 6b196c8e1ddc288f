"""What Datapad exports, Datapad imports: a sheet at its caps with a history of thousands of
long saves, or more revisions than a file may hold, exports under the import's limits and
comes back through the import form, its newest versions whole."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.core.edits import InvalidEdit
from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.history.models import Revision
from sheets.history.revisions import state_at
from sheets.transfer.records import MOST_REVISIONS

pytestmark = pytest.mark.django_db

# o3d10's lists and their caps, filled through the edits a player makes.
LISTS = [
    ("weapon.add", "Blade {n}|melee|1d8", "weapons"),
    ("armor.add", "Vest {n}|1", "armor"),
    ("skill.add", "Pazaak {n}", "custom_skills"),
]


def _at_the_caps() -> dict:
    """An o3d10 sheet whose every growing list is full and whose notes are at their limit."""
    ruleset = get_ruleset("o3d10")
    readings = resolve_settings(ruleset.SETTINGS, {})
    sheet = ruleset.demo_sheet()
    for trait, raw, key in LISTS:
        for n in range(1000):
            try:
                grown = ruleset.apply_edit(sheet, trait, raw.format(n=n), readings)
            except InvalidEdit:
                break
            if len(grown[key]) == len(sheet[key]):
                break
            sheet = grown
        assert len(sheet[key]) >= 30, key
    sheet["info"]["notes"] = "n" * 4000
    return ruleset.validate_sheet(sheet)


def _saves(character: Character, count: int, note) -> Character:
    """`count` saves of the notes field, stored as record_revision stores an edit of it."""
    revisions = []
    notes = character.sheet["info"]["notes"]
    for number in range(count):
        version = character.version + 1 + number
        new = note(version)
        revisions.append(
            Revision(
                character=character,
                author=character.owner,
                version=version,
                summary="Notes",
                ops=[
                    {"op": "set", "path": ["sheet", "info", "notes"], "before": notes, "after": new}
                ],
                changes=[["Notes", notes[:59] + "…", new[:59] + "…"]],
            )
        )
        notes = new
    Revision.objects.bulk_create(revisions, batch_size=500)
    character.sheet["info"]["notes"] = notes
    character.version += count
    character.save()
    return Character.objects.get(pk=character.pk)


def _export_and_import(client, character: Character) -> tuple[bytes, Character]:
    exported = client.get(reverse("character_export", args=[character.pk]))
    assert exported.status_code == 200
    raw = exported.content
    upload = SimpleUploadedFile("long.datapad.json", raw, "application/json")
    response = client.post(reverse("character_import"), {"file": upload})
    assert response.status_code == 302, response.content.decode()[-600:]
    return raw, Character.objects.latest("pk")


def test_a_sheet_at_its_caps_with_thousands_of_long_saves_exports_under_the_limit_and_imports(
    client, player
):
    character = character_create(owner=player, name="Ves Tal", system="o3d10", sheet=_at_the_caps())
    # 2,500 saves of a 2 KB note: the whole history is some 10 MB, past the limit.
    character = _saves(character, 2500, lambda version: f"{version:04d}" + "x" * 2044)
    assert Revision.objects.filter(character=character).count() == 2501
    client.force_login(player)
    raw, imported = _export_and_import(client, character)
    assert len(raw) <= settings.CHARACTER_IMPORT_MAX_BYTES
    assert imported.sheet == character.sheet and imported.name == character.name
    versions = list(imported.revisions.order_by("version").values_list("version", flat=True))
    # The first version, one merging the oldest saves, then the newest saves whole.
    assert versions[0] == 1 and versions[-1] == character.version + 1
    newest = versions[2:-1]
    assert len(newest) > 1000 and newest == list(range(newest[0], character.version + 1))
    for version in (1, versions[1], newest[0], character.version):
        assert state_at(imported, version) == state_at(character, version), version
    merged = imported.revisions.get(version=versions[1])
    assert merged.summary.startswith(f"Versions 2 to {versions[1]}, merged")
    diff = client.get(
        reverse("character_history_diff", args=[imported.pk]),
        {"from": "1", "to": str(character.version)},
    )
    assert diff.status_code == 200
    # The imported copy exports and imports again.
    again, _ = _export_and_import(client, imported)
    assert len(again) <= settings.CHARACTER_IMPORT_MAX_BYTES


def test_more_saves_than_a_file_may_hold_export_as_a_history_the_import_takes(client, player):
    character = character_create(
        owner=player, name="Ves Tal", system="o3d10", sheet=get_ruleset("o3d10").demo_sheet()
    )
    character = _saves(character, MOST_REVISIONS + 5, lambda version: f"Entry {version}")
    client.force_login(player)
    _raw, imported = _export_and_import(client, character)
    assert imported.sheet == character.sheet
    # The import's own revision comes on top of what the file holds.
    assert imported.revisions.count() <= MOST_REVISIONS + 1
    assert state_at(imported, character.version - 10) == state_at(character, character.version - 10)
