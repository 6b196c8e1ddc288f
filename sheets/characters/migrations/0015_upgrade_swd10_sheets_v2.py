"""Bring every stored sheet to its system's current schema version, again.

SWd10 sheets went from version 1 to 2 (armor and shields, 000:L183-230:
rulesets/swd10/sheet.py MIGRATIONS). The step is the same one 0002 runs.
"""

from __future__ import annotations

import importlib

from django.db import migrations

upgrade_stored_sheets = importlib.import_module(
    "sheets.characters.migrations.0002_upgrade_stored_sheets"
).upgrade_stored_sheets


class Migration(migrations.Migration):
    dependencies = [("characters", "0014_portrait")]

    operations = [migrations.RunPython(upgrade_stored_sheets, migrations.RunPython.noop)]
