"""Bring every stored sheet to its system's current schema version, again.

WEG d6 sheets went from version 3 to 4 (the 1E stun results a sheet keeps, 003:438-448:
rulesets/weg_d6/sheet.py MIGRATIONS). The step is the same one 0002 runs.
"""

from __future__ import annotations

import importlib

from django.db import migrations

upgrade_stored_sheets = importlib.import_module(
    "sheets.characters.migrations.0002_upgrade_stored_sheets"
).upgrade_stored_sheets


class Migration(migrations.Migration):
    dependencies = [("characters", "0015_upgrade_swd10_sheets_v2")]

    operations = [migrations.RunPython(upgrade_stored_sheets, migrations.RunPython.noop)]
