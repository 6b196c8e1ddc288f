"""The compendium's writes: versions, conflicts, names, hiding, copying, removal."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from rulesets.core.compendium import InvalidEntry
from sheets.characters.services import character_create
from sheets.compendium.models import Book, CompendiumEntry, EntryVersion
from sheets.compendium.services import (
    ENTRY_MAX_BYTES,
    CopyRefused,
    EntryConflict,
    EntryInUse,
    builtins,
    entry_copy,
    entry_create,
    entry_remove,
    entry_set_hidden,
    entry_update,
    seed_ref,
)
from tests.compendium.conftest import mark_picked, weapon

pytestmark = pytest.mark.django_db


def test_an_added_entry_is_stored_as_its_schema_reads_it_with_a_first_version(gm, book):
    entry = entry_create(
        user=gm, book=book, kind="weapon", data=weapon("  Heavy   repeater ", damage=5)
    )
    assert entry.name == "Heavy repeater"
    assert entry.data["damage"] == 5
    assert (entry.campaign, entry.owner, entry.system, entry.version) == (
        book.campaign,
        None,
        "swd10",
        1,
    )
    assert list(entry.versions.values_list("version", "summary")) == [(1, "Added")]


def test_each_edit_is_a_new_version_and_the_old_one_is_kept(gm, repeater):
    edited = entry_update(user=gm, entry_id=repeater.pk, data=weapon(damage=6), expected_version=1)
    assert edited.version == 2
    versions = {v.version: v.data["damage"] for v in EntryVersion.objects.filter(entry=repeater)}
    assert versions == {1: 4, 2: 6}


def test_an_edit_of_a_version_that_moved_on_is_refused_and_changes_nothing(gm, repeater):
    entry_update(user=gm, entry_id=repeater.pk, data=weapon(damage=6), expected_version=1)
    with pytest.raises(EntryConflict) as conflict:
        entry_update(user=gm, entry_id=repeater.pk, data=weapon(damage=9), expected_version=1)
    assert "version 2" in str(conflict.value)
    repeater.refresh_from_db()
    assert (repeater.version, repeater.data["damage"]) == (2, 6)


def test_a_name_the_book_has_for_that_kind_is_refused_whatever_its_case(gm, book, repeater):
    with pytest.raises(InvalidEntry) as refused:
        entry_create(user=gm, book=book, kind="weapon", data=weapon("HEAVY REPEATER"))
    assert "already has a weapon named" in refused.value.errors["name"]
    assert CompendiumEntry.objects.count() == 1


def test_the_same_name_may_be_another_kinds_or_another_books(
    gm, other_gm, book, other_table, repeater
):
    entry_create(user=gm, book=book, kind="npc_template", data={"name": "Heavy repeater"})
    other = Book(system="swd10", campaign=other_table)
    entry_create(user=other_gm, book=other, kind="weapon", data=weapon())
    assert CompendiumEntry.objects.filter(name="Heavy repeater").count() == 3


def test_renaming_onto_another_entrys_name_is_refused(gm, book, repeater):
    pistol = entry_create(user=gm, book=book, kind="weapon", data=weapon("Pistol"))
    with pytest.raises(InvalidEntry) as refused:
        entry_update(user=gm, entry_id=pistol.pk, data=weapon("heavy Repeater"), expected_version=1)
    assert "name" in refused.value.errors
    pistol.refresh_from_db()
    assert pistol.name == "Pistol"


def test_bad_values_are_refused_beside_their_fields_and_nothing_is_stored(gm, book):
    with pytest.raises(InvalidEntry) as refused:
        entry_create(user=gm, book=book, kind="weapon", data=weapon(difficulty=99, damage=-1))
    assert {"difficulty", "damage"} <= refused.value.errors.keys()
    assert not CompendiumEntry.objects.exists()
    assert not EntryVersion.objects.exists()


def test_a_kind_the_system_does_not_have_is_refused(gm, book):
    with pytest.raises(InvalidEntry) as refused:
        entry_create(user=gm, book=book, kind="force_power", data={"name": "Push"})
    assert "kind" in refused.value.errors


def test_an_entry_over_the_size_limit_is_refused_as_a_whole(player):
    # Each line of a WEG species' three lists is within its limit; all of them are not.
    weg = Book(system="weg_d6", owner=player)
    human = next(e for e in builtins("weg_d6") if e.kind == "species")
    lines = [f"Line {n} " + "x" * 180 for n in range(40)]
    data = human.data | {
        "name": "Wordy",
        "description": "y" * 2000,
        "special_abilities": lines,
        "story_factors": lines,
        "favoured_skills": [],
    }
    with pytest.raises(InvalidEntry) as refused:
        entry_create(user=player, book=weg, kind="species", data=data)
    assert f"at most {ENTRY_MAX_BYTES // 1024} KB" in refused.value.errors["entry"]
    assert not CompendiumEntry.objects.exists()


def test_only_the_books_gms_write_to_it(player, book):
    with pytest.raises(PermissionDenied):
        entry_create(user=player, book=book, kind="weapon", data=weapon())
    assert not CompendiumEntry.objects.exists()


def test_a_co_gm_writes_to_the_book_like_its_gm(make_user, book, repeater):
    from sheets.campaigns.models import Membership, Role

    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=book.campaign, user=co_gm, role=Role.GM)
    edited = entry_update(
        user=co_gm, entry_id=repeater.pk, data=weapon(damage=5), expected_version=1
    )
    assert edited.versions.get(version=2).author == co_gm


def test_a_personal_book_is_its_owners_alone(player, other_player, personal_book):
    entry = entry_create(user=player, book=personal_book, kind="weapon", data=weapon())
    assert (entry.owner, entry.campaign) == (player, None)
    with pytest.raises(PermissionDenied):
        entry_create(user=other_player, book=personal_book, kind="weapon", data=weapon("Other"))


def test_hiding_and_showing_are_versions_too(gm, repeater):
    hidden = entry_set_hidden(user=gm, entry_id=repeater.pk, hidden=True, expected_version=1)
    shown = entry_set_hidden(user=gm, entry_id=repeater.pk, hidden=False, expected_version=2)
    assert (hidden.version, shown.version, shown.hidden) == (2, 3, False)
    summaries = list(repeater.versions.order_by("version").values_list("summary", flat=True))
    assert summaries == ["Added", "Hidden from players", "Shown to players"]


def test_a_built_in_entry_is_copied_into_the_book_with_its_origin(gm, book):
    seed = next(e for e in builtins("swd10") if e.kind == "merit")
    copy = entry_copy(user=gm, book=book, source=seed_ref(seed))
    assert (copy.kind, copy.data) == (seed.kind, seed.data)
    assert seed.source in copy.versions.get().summary


def test_a_copy_under_a_name_the_book_has_is_refused_and_another_name_goes_in(gm, book, repeater):
    with pytest.raises(InvalidEntry) as refused:
        entry_copy(user=gm, book=book, source=repeater.ref)
    assert "name" in refused.value.errors
    copy = entry_copy(user=gm, book=book, source=repeater.ref, name="Repeater, second")
    assert copy.data == repeater.data | {"name": "Repeater, second"}


def test_an_entry_is_copied_from_one_book_the_gm_reads_into_another(gm, player, book, repeater):
    mine = Book(system="swd10", owner=gm)
    copy = entry_copy(user=gm, book=mine, source=repeater.ref)
    assert (copy.owner, copy.data) == (gm, repeater.data)


def test_nothing_is_copied_from_a_book_one_cannot_read(other_gm, repeater):
    from django.http import Http404

    with pytest.raises(Http404):
        entry_copy(user=other_gm, book=Book(system="swd10", owner=other_gm), source=repeater.ref)
    assert CompendiumEntry.objects.count() == 1


def test_an_entry_of_another_system_or_an_unknown_seed_is_not_copied(gm, book):
    weg_entry = entry_create(
        user=gm, book=Book(system="weg_d6", owner=gm), kind="equipment", data={"name": "Medpac"}
    )
    with pytest.raises(CopyRefused):
        entry_copy(user=gm, book=book, source=weg_entry.ref)
    with pytest.raises(CopyRefused):
        entry_copy(user=gm, book=book, source="seed:weapon:no-such-thing")


def _pick(character, entry) -> None:
    mark_picked(character, entry)


def test_removing_an_entry_a_sheet_uses_is_refused_with_the_sheets(
    gm, player, book, repeater, swd10_character
):
    _pick(swd10_character, repeater)
    with pytest.raises(EntryInUse) as in_use:
        entry_remove(user=gm, entry_id=repeater.pk, expected_version=1)
    assert [sheet.name for sheet in in_use.value.sheets] == ["Kira Dane"]
    assert "Kira Dane" in str(in_use.value)
    assert CompendiumEntry.objects.filter(pk=repeater.pk).exists()


def test_a_sheet_outside_the_table_does_not_hold_the_tables_entry(gm, player, repeater):
    elsewhere = character_create(owner=player, name="Dax Morrow", system="swd10")
    _pick(elsewhere, repeater)
    assert entry_remove(user=gm, entry_id=repeater.pk, expected_version=1) == "Heavy repeater"
    assert not CompendiumEntry.objects.exists()
    assert not EntryVersion.objects.exists()


def test_a_personal_entry_is_held_by_its_owners_sheets_outside_a_table(player, personal_book):
    entry = entry_create(user=player, book=personal_book, kind="weapon", data=weapon())
    spare = character_create(owner=player, name="Dax Morrow", system="swd10")
    _pick(spare, entry)
    with pytest.raises(EntryInUse):
        entry_remove(user=player, entry_id=entry.pk, expected_version=1)


def test_a_removal_naming_an_old_version_is_refused(gm, repeater):
    entry_set_hidden(user=gm, entry_id=repeater.pk, hidden=True, expected_version=1)
    with pytest.raises(EntryConflict):
        entry_remove(user=gm, entry_id=repeater.pk, expected_version=1)
    assert CompendiumEntry.objects.filter(pk=repeater.pk).exists()
