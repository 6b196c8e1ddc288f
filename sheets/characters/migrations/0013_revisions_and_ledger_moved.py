"""Revision went to the history app and LedgerEntry to the advancement app. Their tables
keep their names and rows (db_table): only Django's picture of the apps changes here, and
each content type follows its model, so admin permissions and log entries stay attached."""

from django.db import migrations

MOVED = (("revision", "history"), ("ledgerentry", "advancement"))


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model, app_label in MOVED:
        old = ContentType.objects.filter(app_label="characters", model=model).first()
        if old is None:
            continue
        if ContentType.objects.filter(app_label=app_label, model=model).exists():
            old.delete()
        else:
            old.app_label = app_label
            old.save(update_fields=["app_label"])


def content_types_return(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model, app_label in MOVED:
        ContentType.objects.filter(app_label=app_label, model=model).update(
            app_label="characters"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0012_gm_notes_per_table"),
        ("advancement", "0001_initial"),
        ("history", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="LedgerEntry"),
                migrations.DeleteModel(name="Revision"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_return),
    ]
