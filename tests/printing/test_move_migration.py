"""TablePrint moved from the campaigns app to the printing app with its table: a database
of the schema before the move keeps every build, byte for byte, and a build queued before
the move (its task naming sheets.campaigns.printing) is run by a worker after it."""

from __future__ import annotations

import signal
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.migrating import migrate_to

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [
    ("campaigns", "0001_initial"),
    ("django_tasks_database", "0021_conditional_partial_index_ordering"),
]
AFTER = [("printing", "0003_queued_tasks_new_path")]


def test_builds_keep_their_rows_and_a_task_queued_before_the_move_still_runs():
    try:
        apps = migrate_to(BEFORE)
        User = apps.get_model("auth", "User")
        Campaign = apps.get_model("campaigns", "Campaign")
        OldPrint = apps.get_model("campaigns", "TablePrint")
        Task = apps.get_model("django_tasks_database", "DBTaskResult")
        gm = User.objects.create(username="gm")
        campaign = Campaign.objects.create(name="Old Table", system="swd10", created_by=gm)
        done = OldPrint.objects.create(
            campaign=campaign, requested_by=gm, state="done", done=2, total=2, pdf=b"%PDF-old"
        )
        queued = OldPrint.objects.create(campaign=campaign, requested_by=gm, total=1)
        task = Task.objects.create(
            task_path="sheets.campaigns.printing.build_table_pdf",
            args_kwargs={"args": [queued.pk], "kwargs": {}},
            backend_name="default",
            run_after=timezone.now() - timedelta(minutes=1),
        )
        queued.task_id = str(task.id)
        queued.save()
        before = list(OldPrint.objects.order_by("pk").values())

        apps = migrate_to(AFTER)
        TablePrint = apps.get_model("printing", "TablePrint")
        after = list(TablePrint.objects.order_by("pk").values())
        # Every column as it was, the two new ones empty.
        assert [
            {k: v for k, v in row.items() if k not in ("worker", "heartbeat_at")} for row in after
        ] == before
        assert {(row["worker"], row["heartbeat_at"]) for row in after} == {(None, None)}
        assert bytes(TablePrint.objects.get(pk=done.pk).pdf) == b"%PDF-old"
        Task = apps.get_model("django_tasks_database", "DBTaskResult")
        assert Task.objects.get(pk=task.pk).task_path == "sheets.printing.tasks.build_table_pdf"

        call_command("migrate", verbosity=0)
        saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            call_command(
                "db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0
            )
        finally:
            for sig, handler in saved.items():
                signal.signal(sig, handler)
        from sheets.printing.models import TablePrint as Current

        # The worker ran it: the table holds no approved sheet, which it says.
        ran = Current.objects.get(pk=queued.pk)
        assert ran.state == "failed" and "No sheet is approved" in ran.error
    finally:
        call_command("migrate", verbosity=0)
