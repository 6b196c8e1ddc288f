"""Bring every stored sheet to its system's current schema version, again.

WEG d6 sheets went from version 1 to 2 (weapons, gear and credits, a physical description
and a quote: rulesets/weg_d6/sheet.py MIGRATIONS). The step is the same one 0002 runs, so
a sheet of any system whose version rose since is brought up to date as well.
"""

from __future__ import annotations

import importlib

from django.db import migrations

upgrade_stored_sheets = importlib.import_module(
    "sheets.characters.migrations.0002_upgrade_stored_sheets"
).upgrade_stored_sheets


class Migration(migrations.Migration):
    dependencies = [("characters", "0008_ledger_from_sheets")]

    operations = [migrations.RunPython(upgrade_stored_sheets, migrations.RunPython.noop)]
