"""The apps split: Revision went to `history`, LedgerEntry to `advancement` and TablePrint
to `printing`. A populated database of the schema before the split migrates forward with
every row of every table as it was, and the moved models read them under their new apps."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("characters", "0012_gm_notes_per_table"),
    ("campaigns", "0001_initial"),
    ("rolls", "0002_roll_entry_hits"),
    ("advancement", None),
    ("history", None),
    ("printing", None),
]
TABLES = (
    "auth_user",
    "campaigns_campaign",
    "campaigns_membership",
    "campaigns_tableprint",
    "characters_character",
    "characters_revision",
    "characters_ledgerentry",
    "characters_review",
    "characters_gmnote",
    "characters_sharelink",
    "rolls_rollentry",
)


def _latest():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor.loader.graph.leaf_nodes()


def _rows(columns: dict[str, list[str]] | None = None) -> dict[str, list[tuple]]:
    """Every row of each table, as text; only the given columns where a later migration
    added some (the print's worker and heartbeat)."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        rows = {}
        for table in TABLES:
            names = ", ".join(map(quote, columns[table])) if columns else "*"
            cursor.execute(f"SELECT {names} FROM {quote(table)} ORDER BY id")
            rows[table] = [tuple(str(value) for value in row) for row in cursor.fetchall()]
        return rows


def _columns() -> dict[str, list[str]]:
    """Every column of each table, but the stored sheet: later data migrations bring sheets
    to their system's current schema (tests/web/test_sheet_migration.py covers that)."""
    with connection.cursor() as cursor:
        columns = {
            table: [c.name for c in connection.introspection.get_table_description(cursor, table)]
            for table in TABLES
        }
    columns["characters_character"].remove("sheet")
    return columns


def _populate(apps) -> None:
    User = apps.get_model("auth", "User")
    Campaign = apps.get_model("campaigns", "Campaign")
    Membership = apps.get_model("campaigns", "Membership")
    TablePrint = apps.get_model("campaigns", "TablePrint")
    Character = apps.get_model("characters", "Character")
    Revision = apps.get_model("characters", "Revision")
    LedgerEntry = apps.get_model("characters", "LedgerEntry")
    Review = apps.get_model("characters", "Review")
    GMNote = apps.get_model("characters", "GMNote")
    ShareLink = apps.get_model("characters", "ShareLink")
    RollEntry = apps.get_model("rolls", "RollEntry")

    gm = User.objects.create(username="gm")
    player = User.objects.create(username="player")
    table = Campaign.objects.create(name="Outer Rim", system="weg_d6", created_by=gm)
    Membership.objects.create(campaign=table, user=gm, role="gm")
    Membership.objects.create(campaign=table, user=player, role="player")
    TablePrint.objects.create(campaign=table, requested_by=gm, state="done", done=2, total=2)
    hero = Character.objects.create(
        owner=player, name="Tal Veren", system="weg_d6", campaign=table, version=3
    )
    for version in (1, 2, 3):
        Revision.objects.create(
            character=hero,
            author=player,
            version=version,
            summary=f"Step {version}",
            ops=[{"op": "set", "path": ["name"], "before": "a", "after": "b"}],
            changes=[["Name", "a", "b"]],
        )
    award = LedgerEntry.objects.create(
        character=hero, kind="award", amount=5, unit="CP", author=gm, campaign=table, version=2
    )
    bought = LedgerEntry.objects.create(
        character=hero, kind="purchase", amount=-4, unit="CP", trait="skill.blaster",
        from_value="4D", to_value="4D+1", author=player, campaign=table, version=3,
    )  # fmt: skip
    LedgerEntry.objects.create(
        character=hero, kind="refund", amount=4, unit="CP", undoes=bought, author=player,
        campaign=table, version=3,
    )  # fmt: skip
    assert award.pk
    Review.objects.create(character=hero, campaign=table, kind="submitted", version=3)
    GMNote.objects.create(character=hero, campaign=table, text="owes Jabba", updated_by=gm)
    ShareLink.objects.create(character=hero, token="t0ken", created_by=player)
    RollEntry.objects.create(
        campaign=table, character=hero, author=player, system="weg_d6",
        rollable_key="skill.blaster", rollable_label="Blaster", pool="4D+1", dice=[6, 4, 3, 1],
        outcome="success", summary="14", total=14, success=True, odds="1/2", odds_percent="50%",
    )  # fmt: skip


def test_a_populated_database_migrates_into_the_apps_with_every_row_kept():
    try:
        _populate(migrate_to(BEFORE))
        columns = _columns()
        before = _rows(columns)
        assert all(before[table] for table in TABLES)

        apps = migrate_to(_latest())
        assert _rows(columns) == before
        # The moved models read the same rows under their new apps.
        assert apps.get_model("history", "Revision").objects.count() == 3
        ledger = apps.get_model("advancement", "LedgerEntry").objects
        refund = ledger.get(kind="refund")
        assert refund.undoes.kind == "purchase"
        assert apps.get_model("printing", "TablePrint").objects.get().done == 2
        hero = apps.get_model("characters", "Character").objects.get()
        assert hero.revisions.count() == 3 and hero.ledger.count() == 3
    finally:
        call_command("migrate", verbosity=0)


def test_the_moved_models_content_types_follow_them():
    from django.contrib.contenttypes.models import ContentType

    try:
        migrate_to(BEFORE)
        ContentType.objects.get_or_create(app_label="characters", model="revision")
        ContentType.objects.get_or_create(app_label="characters", model="ledgerentry")
        migrate_to(_latest())
        labels = set(
            ContentType.objects.filter(model__in=("revision", "ledgerentry")).values_list(
                "app_label", "model"
            )
        )
        assert labels == {("history", "revision"), ("advancement", "ledgerentry")}
    finally:
        call_command("migrate", verbosity=0)
