"""The statements built once (sheets/statements.py) store and read rows exactly as the ORM's
own save() and get() do, on whichever database the suite runs (CI: SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.registry import get_ruleset
from sheets.campaigns.services import campaign_create
from sheets.characters.models import Character
from sheets.characters.services import EDITED_FIELDS, character_create
from sheets.history.models import Revision
from sheets.statements import _STATEMENTS, insert_row, row_by_key, update_row

pytestmark = pytest.mark.django_db

# Text a player may type (no control characters, no lone surrogates: the cleaner refuses them).
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), max_size=40)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _twins(player) -> tuple[Character, Character]:
    sheet = get_ruleset("ore").demo_sheet()
    return tuple(
        character_create(owner=player, name=name, system="ore", sheet=sheet)
        for name in ("One", "Two")
    )


def _stored(character: Character) -> tuple:
    row = Character.objects.get(pk=character.pk)
    return row.name, row.rule_settings, row.sheet, row.version


def _edit(character: Character, name: str, notes: object) -> None:
    character.name = name
    character.sheet = {**character.sheet, "notes": notes}
    character.rule_settings = {"budget": 200}
    character.version += 1


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=TEXT, notes=JSON)
def test_an_update_stores_what_save_stores(player, name, notes):
    with transaction.atomic():
        saved, updated = _twins(player)
        for character in (saved, updated):
            _edit(character, name, notes)
        saved.save(update_fields=list(EDITED_FIELDS))
        update_row(updated, EDITED_FIELDS)
        assert _stored(updated) == _stored(saved)
        assert _stored(updated)[2]["notes"] == notes
        transaction.set_rollback(True)


def test_an_update_moves_updated_at_and_touches_only_its_row(player):
    one, two = _twins(player)
    earlier = timezone.now() - timedelta(days=1)
    Character.objects.filter(pk__in=[one.pk, two.pk]).update(updated_at=earlier)
    one.refresh_from_db()
    _edit(one, "Renamed", "x")
    update_row(one, EDITED_FIELDS)
    assert Character.objects.get(pk=one.pk).updated_at > earlier
    assert Character.objects.get(pk=two.pk).updated_at == earlier
    assert _stored(two)[0] == "Two"


def test_an_update_of_a_row_gone_is_refused(player):
    one, _two = _twins(player)
    Character.objects.filter(pk=one.pk).delete()
    _edit(one, "Ghost", "x")
    with pytest.raises(DatabaseError, match="not there"):
        update_row(one, EDITED_FIELDS)
    assert not Character.objects.filter(pk=one.pk).exists()


def test_an_expression_is_refused_and_nothing_written(player):
    one, _two = _twins(player)
    before = _stored(one)
    one.version = F("version") + 1
    with pytest.raises(TypeError, match="plain values"):
        update_row(one, EDITED_FIELDS)
    assert _stored(one) == before


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(summary=TEXT, ops=st.lists(JSON, max_size=4))
def test_an_insert_stores_what_create_stores_and_gives_the_key(player, summary, ops):
    with transaction.atomic():
        character, _two = _twins(player)
        values = {
            "character": character,
            "author": player,
            "summary": summary,
            "ops": ops,
            "changes": [["Label", "1", "2"]],
            "changes_more": 3,
        }
        created = Revision.objects.create(version=50, **values)
        inserted = insert_row(Revision(version=51, **values))
        assert inserted.pk is not None and inserted.pk != created.pk
        assert not inserted._state.adding
        fields = ("character_id", "author_id", "summary", "ops", "changes", "changes_more")
        stored = Revision.objects.values(*fields)
        assert stored.get(pk=inserted.pk) == stored.get(pk=created.pk)
        assert Revision.objects.get(pk=inserted.pk).created_at == inserted.created_at
        transaction.set_rollback(True)


def test_a_read_by_key_is_the_orms_row_with_its_campaign(player):
    campaign = campaign_create(user=player, name="Table", system="ore")
    character = character_create(owner=player, name="Seated", system="ore", campaign=campaign)
    read = row_by_key(Character, character.pk)
    orm = Character.objects.get(pk=character.pk)
    for field in Character._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(orm, field.attname), field.name
    assert row_by_key(Character, character.pk + 1000) is None
    assert row_by_key(Character, str(character.pk)).pk == character.pk
    with pytest.raises(ValueError):
        row_by_key(Character, "not a key")


def test_a_statement_is_built_once_and_run_again(player):
    one, two = _twins(player)
    _edit(one, "A", 1)
    update_row(one, EDITED_FIELDS)
    kept = dict(_STATEMENTS)
    _edit(two, "B", 2)
    with CaptureQueriesContext(connection) as queries:
        update_row(two, EDITED_FIELDS)
    assert kept == _STATEMENTS
    (ran,) = [q["sql"] for q in queries.captured_queries]
    assert ran.startswith("UPDATE") and _stored(two)[0] == "B"


def test_a_locked_read_inside_a_transaction_locks_on_postgresql(player):
    one, _two = _twins(player)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert row_by_key(Character, one.pk, for_update=True).pk == one.pk
    (ran,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    # SQLite locks the whole database for a write; PostgreSQL must lock the row.
    assert ("FOR UPDATE" in ran) == connection.features.has_select_for_update


@pytest.mark.parametrize("key", [2**63, 10**20, -(2**63) - 1])
def test_a_key_past_the_column_names_no_row(player_client, key):
    """The ORM answers such a key with no row; so does the kept statement, on SQLite too
    (which refuses to bind it): a sheet's address with it is a 404, not a server error."""
    assert row_by_key(Character, key) is None
    assert player_client.get(f"/characters/{key}/").status_code == 404
    edit = player_client.post(f"/characters/{key}/edit/", {"edit": "x=1", "version": 1})
    assert edit.status_code == 404
