"""GM notes belong to the table that wrote them, not to the sheet.

Until now a note was the character's (one per character), so after the player moved the
sheet to another table, that table's GMs read the first table's note. A note is now one per
(campaign, character).

Where each existing note goes:
- a character at a table, whose note was last written by a member of that table (or by a
  user since deleted): that table, as before;
- otherwise the note was written at another table (or by someone who has since left this
  one): the latest table where the sheet was reviewed and its writer is a GM, the one it was
  most likely written at. Failing that, no table: a private note whose table is unknown is
  shown to nobody rather than to a GM who may not be the one it was written for. It stays in
  the database, read by no page, and is deleted with its character.
"""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models


def _table_it_was_written_at(apps, note) -> int | None:
    Membership = apps.get_model("campaigns", "Membership")
    Review = apps.get_model("characters", "Review")
    character = note.character
    if character.campaign_id is not None and (
        note.updated_by_id is None
        or Membership.objects.filter(
            campaign_id=character.campaign_id, user_id=note.updated_by_id
        ).exists()
    ):
        return character.campaign_id
    if note.updated_by_id is None:
        return None
    run_by_writer = Membership.objects.filter(user_id=note.updated_by_id, role="gm").values(
        "campaign_id"
    )
    return (
        Review.objects.filter(character_id=character.pk, campaign_id__in=run_by_writer)
        .order_by("-created_at", "-pk")
        .values_list("campaign_id", flat=True)
        .first()
    )


def attach_notes_to_tables(apps, schema_editor) -> None:
    GMNote = apps.get_model("characters", "GMNote")
    for note in GMNote.objects.select_related("character").order_by("pk"):
        campaign_id = _table_it_was_written_at(apps, note)
        if campaign_id is not None:
            GMNote.objects.filter(pk=note.pk).update(campaign_id=campaign_id)


def one_note_per_character(apps, schema_editor) -> None:
    """Going back to one note per character: keep the one of the sheet's current table (or
    the latest written), and drop the other tables' notes, which the old schema cannot hold."""
    GMNote = apps.get_model("characters", "GMNote")
    kept: set[int] = set()
    notes = GMNote.objects.select_related("character").order_by("-updated_at", "-pk")
    for note in sorted(notes, key=lambda n: n.campaign_id != n.character.campaign_id):
        if note.character_id in kept:
            note.delete()
        else:
            kept.add(note.character_id)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0001_initial"),
        ("characters", "0011_upgrade_weg_sheets_v3"),
    ]

    # The data step comes last: on PostgreSQL, altering a table after updating its rows
    # in the same transaction fails ("pending trigger events" of the deferred foreign keys).
    # The constraint can come first because every note still has no campaign, and at most
    # one note per character existed.
    operations = [
        migrations.AlterModelOptions(name="gmnote", options={"ordering": ["-updated_at", "-pk"]}),
        migrations.AddField(
            model_name="gmnote",
            name="campaign",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="gm_notes",
                to="campaigns.campaign",
            ),
        ),
        migrations.AlterField(
            model_name="gmnote",
            name="character",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="gm_notes",
                to="characters.character",
            ),
        ),
        migrations.AddConstraint(
            model_name="gmnote",
            constraint=models.UniqueConstraint(
                fields=("campaign", "character"), name="one_gm_note_per_table_and_character"
            ),
        ),
        migrations.RunPython(attach_notes_to_tables, one_note_per_character),
    ]
