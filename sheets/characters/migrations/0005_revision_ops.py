"""Revisions gain row-level operations and the changes as a player reads them.

The next migration fills them from the old before/after pairs; the one after drops those.
"""

from __future__ import annotations

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("characters", "0004_ledger_entry")]

    operations = [
        migrations.AddField(
            model_name="revision",
            name="ops",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="revision",
            name="changes",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="revision",
            name="changes_more",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="revision",
            name="author_name",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.AlterField(
            model_name="revision",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
    ]
