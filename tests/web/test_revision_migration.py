"""Revisions stored as before/after pairs are migrated to row-level operations."""

from __future__ import annotations

import copy

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.history.revisions import changes_between, state_at

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("characters", "0005_revision_ops")]
AFTER = [("characters", "0007_drop_revision_pairs")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _versions() -> list[dict]:
    """Five states of one SWd10 character: created, a value, a list row, a name, a reading."""
    ruleset = get_ruleset("swd10")
    settings = resolve_settings(ruleset.SETTINGS, {})
    sheet = ruleset.blank_sheet(settings)
    states = [{"name": "Kira Dane", "settings": {}, "sheet": sheet}]

    def then(**change):
        states.append(copy.deepcopy(states[-1]) | change)

    then(sheet=ruleset.apply_edit(sheet, "attr.dexterity", "2", settings))
    then(sheet=ruleset.apply_edit(states[-1]["sheet"], "merit.add", "ambidextrous", settings))
    then(name="Kira Vel")
    reading = ruleset.SETTINGS[0]
    then(settings={reading.key: reading.default})
    return states


def test_old_pairs_become_operations_that_rebuild_every_version():
    states = _versions()
    try:
        apps = _migrate(BEFORE)
        user = apps.get_model("auth", "User").objects.create(username="old-timer")
        last = states[-1]
        stored = apps.get_model("characters", "Character").objects.create(
            owner=user,
            name=last["name"],
            system="swd10",
            sheet=last["sheet"],
            rule_settings=last["settings"],
            version=len(states),
        )
        Revision = apps.get_model("characters", "Revision")
        previous: dict = {}
        for version, state in enumerate(states, start=1):
            # Exactly what the code before operations stored: the flat paths that
            # differ, each list whole.
            before, after = changes_between(previous, state)
            Revision.objects.create(
                character=stored,
                author=user,
                version=version,
                summary=f"step {version}",
                before=before,
                after=after,
            )
            previous = state
        assert Revision.objects.get(version=3).before == {"sheet.merits": []}
        _migrate(AFTER)
        character = Character.objects.get(pk=stored.pk)
        for version, state in enumerate(states, start=1):
            assert state_at(character, version) == state, version
        merit = character.revisions.get(version=3)
        assert [op["op"] for op in merit.ops] == ["insert"]
        assert ["Ambidextrous", None, "1 point"] in merit.changes
        assert ["Dexterity", "1", "2"] in character.revisions.get(version=2).changes
        assert ["Name", "Kira Dane", "Kira Vel"] in character.revisions.get(version=4).changes
        assert character.revisions.get(version=1).changes == []
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
