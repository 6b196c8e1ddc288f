"""Stored sheets of the shape kept before schema versions are upgraded by a migration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rulesets.registry import SYSTEMS, get_ruleset

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("characters", "0001_initial")]
AFTER = [("characters", "0002_upgrade_stored_sheets")]
# Sheets exactly as the code before schema versions made them (blank and demo, per system).
OLD_SHEETS = Path(__file__).resolve().parents[1] / "fixtures" / "sheets_v0"


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.parametrize("which", ["blank", "demo"])
@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_the_migration_upgrades_a_stored_sheet_of_the_old_shape(key, which):
    ruleset = get_ruleset(key)
    old_shape = json.loads((OLD_SHEETS / f"{key}.json").read_text())[which]
    assert "schema_version" not in old_shape
    try:
        apps = _migrate(BEFORE)
        User = apps.get_model("auth", "User")
        Character = apps.get_model("characters", "Character")
        owner = User.objects.create(username=f"old-{key}-{which}")
        stored = Character.objects.create(owner=owner, name="Old", system=key, sheet=old_shape)
        apps = _migrate(AFTER)
        upgraded = apps.get_model("characters", "Character").objects.get(pk=stored.pk).sheet
    finally:
        # Back to the newest state, not to AFTER: later tests need every migration.
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert upgraded["schema_version"] == ruleset.SCHEMA_VERSION
    assert ruleset.validate_sheet(upgraded) == upgraded
