"""Bring every stored sheet to its system's current schema version.

Each system's MIGRATIONS (rulesets/<key>/sheet.py) hold the steps from one shape to the
next; a later change of shape adds a step there and a migration like this one that calls
`upgrade_stored_sheets` again. A sheet that cannot be upgraded is left as it was.
"""

from __future__ import annotations

from django.db import migrations


def upgrade_stored_sheets(apps, schema_editor):
    from rulesets.core import InvalidSheet
    from rulesets.core.schema import upgrade_sheet
    from rulesets.registry import SYSTEMS, get_ruleset

    Character = apps.get_model("characters", "Character")
    for character in Character.objects.all().iterator():
        if character.system not in SYSTEMS or not isinstance(character.sheet, dict):
            continue
        ruleset = get_ruleset(character.system)
        try:
            upgraded = upgrade_sheet(
                character.sheet, current=ruleset.SCHEMA_VERSION, migrations=ruleset.MIGRATIONS
            )
        except InvalidSheet:
            continue
        if upgraded != character.sheet:
            character.sheet = upgraded
            character.save(update_fields=["sheet"])


class Migration(migrations.Migration):
    dependencies = [("characters", "0001_initial")]

    operations = [migrations.RunPython(upgrade_stored_sheets, migrations.RunPython.noop)]
