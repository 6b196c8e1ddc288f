"""Migration 0012: each existing GM note goes to the table it was written at, not along
with the sheet to the table it sits at now."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.migrating import migrate_to

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("characters", "0011_upgrade_weg_sheets_v3"), ("campaigns", "0001_initial")]
AFTER = [("characters", "0012_gm_notes_per_table")]


def test_old_notes_stay_with_the_table_that_wrote_them_and_a_moved_sheet_takes_none():
    try:
        apps = migrate_to(BEFORE)
        User = apps.get_model("auth", "User")
        Campaign = apps.get_model("campaigns", "Campaign")
        Membership = apps.get_model("campaigns", "Membership")
        Character = apps.get_model("characters", "Character")
        Review = apps.get_model("characters", "Review")
        GMNote = apps.get_model("characters", "GMNote")
        first_gm, second_gm, player = (
            User.objects.create(username=name) for name in ("first_gm", "second_gm", "player")
        )
        first = Campaign.objects.create(name="First", system="swd10")
        second = Campaign.objects.create(name="Second", system="swd10")
        Membership.objects.create(campaign=first, user=first_gm, role="gm")
        Membership.objects.create(campaign=second, user=second_gm, role="gm")

        def sheet(name, campaign):
            return Character.objects.create(
                owner=player, name=name, system="swd10", campaign=campaign
            )

        stayed = sheet("Stayed", first)
        moved = sheet("Moved", second)  # was reviewed at the first table, now at the second
        Review.objects.create(character=moved, campaign=first, kind="submitted", version=1)
        left = sheet("Left", None)  # was reviewed at the first table, now at none
        Review.objects.create(character=left, campaign=first, kind="submitted", version=1)
        unknown = sheet("Unknown", None)  # no trace of where its note was written
        notes = {
            "stayed": GMNote.objects.create(character=stayed, text="s", updated_by=first_gm),
            "moved": GMNote.objects.create(character=moved, text="m", updated_by=first_gm),
            "left": GMNote.objects.create(character=left, text="l", updated_by=first_gm),
            "unknown": GMNote.objects.create(character=unknown, text="u", updated_by=first_gm),
        }

        apps = migrate_to(AFTER)
        GMNote = apps.get_model("characters", "GMNote")
        tables = {key: GMNote.objects.get(pk=note.pk).campaign_id for key, note in notes.items()}
        assert tables == {
            "stayed": first.pk,
            "moved": first.pk,
            "left": first.pk,
            "unknown": None,
        }
        assert not GMNote.objects.filter(campaign_id=second.pk).exists()
    finally:
        call_command("migrate", verbosity=0)


def test_going_back_keeps_the_note_of_the_sheets_current_table():
    try:
        apps = migrate_to(AFTER)
        User = apps.get_model("auth", "User")
        Campaign = apps.get_model("campaigns", "Campaign")
        Character = apps.get_model("characters", "Character")
        GMNote = apps.get_model("characters", "GMNote")
        player = User.objects.create(username="player")
        first = Campaign.objects.create(name="First", system="swd10")
        second = Campaign.objects.create(name="Second", system="swd10")
        moved = Character.objects.create(
            owner=player, name="Moved", system="swd10", campaign=second
        )
        GMNote.objects.create(character=moved, campaign=second, text="second's")
        GMNote.objects.create(character=moved, campaign=first, text="first's")

        apps = migrate_to(BEFORE)
        GMNote = apps.get_model("characters", "GMNote")
        assert list(GMNote.objects.values_list("character_id", "text")) == [(moved.pk, "second's")]
    finally:
        call_command("migrate", verbosity=0)
