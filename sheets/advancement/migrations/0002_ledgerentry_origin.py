import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("advancement", "0001_initial"),
        ("campaigns", "0002_move_tableprint"),
    ]

    # Entries written before this count where they are: the tables they sit at played with
    # them already, so none is asked for again.
    operations = [
        migrations.AddField(
            model_name="ledgerentry",
            name="needs_acceptance",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="ledgerentry",
            name="accepted_in",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="campaigns.campaign",
            ),
        ),
        migrations.AddField(
            model_name="ledgerentry",
            name="imported",
            field=models.BooleanField(default=False),
        ),
    ]
