"""Bring every stored sheet to its system's current schema version, again.

WEG d6 sheets went from version 2 to 3 (the picks each Force power used up:
rulesets/weg_d6/sheet.py MIGRATIONS). The step is the same one 0002 runs.
"""

from __future__ import annotations

import importlib

from django.db import migrations

upgrade_stored_sheets = importlib.import_module(
    "sheets.characters.migrations.0002_upgrade_stored_sheets"
).upgrade_stored_sheets


class Migration(migrations.Migration):
    dependencies = [("characters", "0010_ledgerentry_carried")]

    operations = [migrations.RunPython(upgrade_stored_sheets, migrations.RunPython.noop)]
