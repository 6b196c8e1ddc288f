"""Move the XP and Character Points each sheet kept into the ledger, so nothing is lost
and the sheet no longer stores a figure that could disagree with the entries.

Per system (rulesets/<key>/advancement.py): what the sheet kept as earned becomes an
award; in play, what creation carried over (O.R.E.) becomes an award too, and what raises
already cost becomes one purchase "bought before the ledger", so the balance equals what
the sheet showed as unspent. A WEG sheet still in creation keeps its starting points: they
reach the ledger when creation ends.
"""

from __future__ import annotations

from django.db import migrations

CARRIED_TRAIT = "creation.carried"


def _entries(character, ruleset, advancement, settings) -> list[dict]:
    sheet = character.sheet
    stage = sheet.get("stage")
    earned = advancement.stored_earned(sheet)
    if character.system == "weg_d6":
        # WEG keeps the unspent points themselves: already net of what was bought.
        if stage != "play" or earned <= 0:
            return []
        return [{"kind": "award", "amount": earned, "reason": "Points held before the ledger"}]
    # One award per award the sheet kept (O.R.E. rows keep their notes, the others a total).
    found = [
        {"kind": "award", "amount": amount, "reason": note or "Earned before the ledger"}
        for amount, note in advancement.stored_awards(sheet)
    ]
    if stage != "play":
        return found
    carried = advancement.carried_at_finish(sheet, settings)
    if carried > 0:
        found.append(
            {
                "kind": "award",
                "amount": carried,
                "trait": CARRIED_TRAIT,
                "trait_label": "Creation",
                "reason": "Left over when creation ended",
            }
        )
    unspent = ruleset.status(ruleset.validate_sheet(sheet), settings).unspent
    if unspent is not None:
        spent = min(earned + carried - unspent, earned + carried)
        if spent > 0:
            found.append(
                {"kind": "purchase", "amount": -spent, "reason": "Raises bought before the ledger"}
            )
    return found


def sheets_to_ledger(apps, schema_editor):
    import importlib

    from rulesets.core import InvalidSheet, resolve_settings
    from rulesets.registry import SYSTEMS, get_ruleset

    Character = apps.get_model("characters", "Character")
    LedgerEntry = apps.get_model("characters", "LedgerEntry")
    for character in Character.objects.select_related("campaign").iterator():
        if character.system not in SYSTEMS or not isinstance(character.sheet, dict):
            continue
        ruleset = get_ruleset(character.system)
        advancement = importlib.import_module(f"rulesets.{character.system}.advancement")
        chosen = (
            character.campaign.rule_settings if character.campaign_id else character.rule_settings
        )
        settings = resolve_settings(ruleset.SETTINGS, chosen)
        try:
            found = _entries(character, ruleset, advancement, settings)
        except (InvalidSheet, KeyError, TypeError, ValueError):
            # A sheet the engine cannot read keeps its figure as an award alone.
            earned = advancement.stored_earned(character.sheet)
            found = [{"kind": "award", "amount": earned, "reason": "Earned before the ledger"}]
            found = [entry for entry in found if entry["amount"] > 0]
        for entry in found:
            LedgerEntry.objects.create(
                character=character,
                campaign_id=character.campaign_id,
                version=character.version,
                adventure=1,
                unit=advancement.unit(character.sheet),
                **entry,
            )
        if character.system == "weg_d6" and character.sheet.get("stage") != "play":
            continue
        cleared = advancement.without_earned(character.sheet)
        if cleared != character.sheet:
            character.sheet = cleared
            character.save(update_fields=["sheet"])


class Migration(migrations.Migration):
    dependencies = [("characters", "0007_drop_revision_pairs")]

    operations = [migrations.RunPython(sheets_to_ledger, migrations.RunPython.noop)]
