"""Mark the entries that carry over what a sheet held before its ledger, so they are never
undone. Until now they were told apart by their wording; the flag replaces that guess.

On any database reaching this step, every ledger entry was written by
0008_ledger_from_sheets (the ledger starts at 0004 and nothing else writes to it in
between), and every one of those carries over what the sheet held: all are flagged.
"""

from django.db import migrations, models



def flag_carried(apps, schema_editor):
    apps.get_model("characters", "LedgerEntry").objects.update(carried=True)


class Migration(migrations.Migration):
    dependencies = [("characters", "0009_upgrade_weg_sheets_v2")]

    operations = [
        migrations.AddField(
            model_name="ledgerentry",
            name="carried",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(flag_carried, migrations.RunPython.noop),
    ]
