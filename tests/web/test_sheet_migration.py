"""Stored sheets of the shape kept before schema versions are upgraded by a migration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rulesets.registry import SYSTEMS, get_ruleset

BEFORE = [("characters", "0001_initial")]
AFTER = [("characters", "0002_upgrade_stored_sheets")]
# Sheets exactly as the code before schema versions made them (blank and demo, per system).
OLD_SHEETS = Path(__file__).resolve().parents[1] / "fixtures" / "sheets_v0"
CASES = [(key, which) for key in sorted(SYSTEMS) for which in ("blank", "demo")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _old_shape(key, which):
    return json.loads((OLD_SHEETS / f"{key}.json").read_text())[which]


@pytest.fixture(scope="module")
def upgraded(django_db_setup, django_db_blocker):
    """Every old sheet stored at 0001, then the migration run forward: the schema goes back
    and forth once for the module, not once per sheet (each round trip costs seconds)."""
    with django_db_blocker.unblock():
        try:
            apps = _migrate(BEFORE)
            User = apps.get_model("auth", "User")
            Character = apps.get_model("characters", "Character")
            stored = {}
            for key, which in CASES:
                owner = User.objects.create(username=f"old-{key}-{which}")
                stored[key, which] = Character.objects.create(
                    owner=owner, name="Old", system=key, sheet=_old_shape(key, which)
                ).pk
            Character = _migrate(AFTER).get_model("characters", "Character")
            sheets = {case: Character.objects.get(pk=pk).sheet for case, pk in stored.items()}
        finally:
            # Back to the newest state, not to AFTER: later tests need every migration. The
            # rows go too: no test's own transaction or flush covers what a fixture wrote.
            _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
            from django.contrib.auth import get_user_model

            from sheets.characters.models import Character

            Character.objects.filter(owner__username__startswith="old-").delete()
            get_user_model().objects.filter(username__startswith="old-").delete()
    return sheets


@pytest.mark.parametrize(("key", "which"), CASES)
def test_the_migration_upgrades_a_stored_sheet_of_the_old_shape(upgraded, key, which):
    ruleset = get_ruleset(key)
    assert "schema_version" not in _old_shape(key, which)
    assert upgraded[key, which]["schema_version"] == ruleset.SCHEMA_VERSION
    assert ruleset.validate_sheet(upgraded[key, which]) == upgraded[key, which]
