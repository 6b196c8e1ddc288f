"""Which worker runs a build and when it last reported, so a build whose worker died is
noticed (sheets/printing/models.py, TablePrint.worker_gone). Both columns may be empty:
added in place (ALTER TABLE ... ADD COLUMN), without rebuilding the table."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("printing", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tableprint",
            name="worker",
            field=models.CharField(blank=True, max_length=300, null=True),
        ),
        migrations.AddField(
            model_name="tableprint",
            name="heartbeat_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
