"""TablePrint moves to the printing app (sheets/printing/models.py) and keeps its table,
campaigns_tableprint: this forgets the model here without touching the database;
printing's 0001 takes it up under the same table."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="TablePrint")],
            database_operations=[],
        ),
    ]
