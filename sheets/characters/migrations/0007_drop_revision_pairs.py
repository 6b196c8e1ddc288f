"""Revisions keep only their operations: drop the old before/after pairs."""

from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("characters", "0006_compact_old_revisions")]

    operations = [
        migrations.RemoveField(model_name="revision", name="before"),
        migrations.RemoveField(model_name="revision", name="after"),
    ]
