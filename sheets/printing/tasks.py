"""The table's PDF, built by a task worker (`manage.py db_worker`), and what a worker does
at its start for the builds a dead worker left behind.

The web request only records a TablePrint and queues `build_table_pdf`; the worker renders
the sheets, writing its progress (with a heartbeat) and then the PDF bytes back to the
TablePrint row that the campaign page polls. A worker killed mid-build (kill -9, a machine
gone) writes nothing more: the page gives the build up once its heartbeat is stale
(services.give_up_if_abandoned), and a worker starting on the same machine retries it at
once (retry_builds_of_dead_workers, called by this app's db_worker command).
"""

from __future__ import annotations

import contextlib
import logging
import threading

from django.db import DatabaseError, connections, transaction
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from sheets.characters.models import Character
from sheets.printing.models import TablePrint, stale_after, this_process
from sheets.printing.pdf import TableBook
from sheets.printing.selection import PrintRefused, approved_sheets

logger = logging.getLogger(__name__)

# Where the task lived before the printing app: sheets/printing/migrations/0003 moves
# queued tasks from it to TASK_PATH.
OLD_TASK_PATH = "sheets.campaigns.printing.build_table_pdf"
TASK_PATH = "sheets.printing.tasks.build_table_pdf"


class BuildTakenOver(Exception):
    """The build is no longer this worker's: given up as abandoned (its heartbeat went
    stale) or retried by another worker. This worker stops and writes nothing more."""


def _claim(print_id: int) -> tuple[TablePrint, list[Character]] | None:
    """Mark a queued build as running in this process, with the sheets it will hold; None
    if it is not queued any more (done, failed or given up, or run by another worker)."""
    with transaction.atomic():
        table_print = (
            TablePrint.objects.select_for_update()
            .defer("pdf")
            .select_related("campaign")
            .get(pk=print_id)
        )
        if table_print.state != TablePrint.State.QUEUED:
            return None
        # The sheets as they stand when the worker starts: one approved after the request
        # is included, one changed since its approval in the meantime is not.
        characters = list(approved_sheets(table_print.campaign))
        _write(
            table_print,
            state=TablePrint.State.RUNNING,
            done=0,
            total=len(characters),
            error="",
            worker=this_process(),
            heartbeat_at=timezone.now(),
        )
    return table_print, characters


def _write(table_print: TablePrint, **changes) -> None:
    for field, value in changes.items():
        setattr(table_print, field, value)
    table_print.save(update_fields=list(changes))


def _report(table_print: TablePrint, **changes) -> None:
    """Write the running build's progress, with a heartbeat, if the build is still this
    worker's (checked under the row's lock, which giving up takes too)."""
    with transaction.atomic():
        still_mine = (
            TablePrint.objects.select_for_update()
            .filter(pk=table_print.pk, state=TablePrint.State.RUNNING, worker=table_print.worker)
            .exists()
        )
        if not still_mine:
            raise BuildTakenOver(f"table PDF {table_print.pk} is no longer this worker's")
        _write(table_print, heartbeat_at=timezone.now(), **changes)


class Heartbeat(threading.Thread):
    """Beats for a running build several times per stale time, from a thread of its own,
    so that one long step (a sheet with a great deal of text, the final write of a large
    table) is not mistaken for a dead worker. A process killed takes the thread with it."""

    def __init__(self, table_print: TablePrint) -> None:
        super().__init__(name=f"table-pdf-{table_print.pk}-heartbeat", daemon=True)
        self.print_id = table_print.pk
        self.worker = table_print.worker
        self.every = stale_after().total_seconds() / 4
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(self.every):
                try:
                    TablePrint.objects.filter(
                        pk=self.print_id, state=TablePrint.State.RUNNING, worker=self.worker
                    ).update(heartbeat_at=timezone.now())
                except DatabaseError:
                    # A beat missed (the database busy past its timeout): the next may land.
                    logger.warning("Table PDF %s: a heartbeat failed", self.print_id)
        finally:
            connections.close_all()  # this thread's own connections

    def stop(self) -> None:
        self.stopped.set()
        self.join()


@task()
def build_table_pdf(print_id: int) -> int:
    """Render every approved sheet of the build's campaign into one PDF; return the count."""
    claimed = _claim(print_id)
    if claimed is None:
        return TablePrint.objects.filter(pk=print_id).values_list("total", flat=True).first() or 0
    table_print, characters = claimed
    campaign = table_print.campaign
    current: Character | None = None
    heartbeat = Heartbeat(table_print)
    heartbeat.start()
    try:
        if not characters:
            raise PrintRefused(
                "No sheet is approved as it stands any more: each was changed since its "
                "approval. Approve them again, then build the PDF."
            )
        book = TableBook(title=f"{campaign.name}: the table's sheets")
        for count, current in enumerate(characters, start=1):
            book.add(current)
            _report(table_print, done=count)
        current = None
        pdf = book.finish()
        _report(table_print, state=TablePrint.State.DONE, pdf=pdf, finished_at=timezone.now())
    except BuildTakenOver:
        logger.warning("Table PDF %s was taken from this worker; it stops", print_id)
        raise
    except Exception as error:
        if isinstance(error, PrintRefused):
            message = error.message
        elif current is not None:
            message = (
                f"The PDF could not be built: the sheet “{current.name}” did not print "
                f"({type(error).__name__}). Try again; if it fails again, tell whoever runs "
                "this Datapad."
            )
        else:
            message = "The PDF could not be built. Try again in a moment."
        if not isinstance(error, PrintRefused):
            logger.exception("Table PDF %s of campaign %s failed", print_id, campaign.pk)
        # A build taken from this worker meanwhile keeps what its new owner wrote.
        with contextlib.suppress(BuildTakenOver):
            _report(
                table_print,
                state=TablePrint.State.FAILED,
                error=message,
                finished_at=timezone.now(),
            )
        # Raised again so the task queue records the failure too.
        raise
    finally:
        heartbeat.stop()
    # Only the newest PDF of a table is worth its megabytes; builds still waiting or
    # running are left to finish.
    campaign.prints.filter(
        pk__lt=table_print.pk, state__in=(TablePrint.State.DONE, TablePrint.State.FAILED)
    ).delete()
    return len(characters)


def fail_task_row(task_id: str, reason: str) -> None:
    """Mark a build's task failed in the queue's own table, where a dead worker left it
    running; the queue has no public call for a task no worker will finish."""
    if not task_id:
        return
    DBTaskResult.objects.filter(id=task_id, status="RUNNING").update(
        status="FAILED",
        finished_at=timezone.now(),
        exception_class_path=f"{__name__}.WorkerDied",
        traceback=reason,
    )


def retry_builds_of_dead_workers() -> list[int]:
    """Queue again every running build whose worker is gone: a worker process of this
    machine that no longer exists, or any worker silent past the stale time. Run at a
    worker's start, so a worker restarted after a crash picks up what its predecessor was
    building. Returns the builds queued again."""
    retried = []
    for seen in TablePrint.objects.defer("pdf").filter(state=TablePrint.State.RUNNING):
        if not seen.worker_gone(local_check=True):
            continue
        with transaction.atomic():
            # Unchanged since it was judged gone: a worker that wrote meanwhile is alive.
            table_print = (
                TablePrint.objects.select_for_update()
                .defer("pdf")
                .filter(
                    pk=seen.pk,
                    state=TablePrint.State.RUNNING,
                    worker=seen.worker,
                    heartbeat_at=seen.heartbeat_at,
                )
                .first()
            )
            if table_print is None:
                continue
            fail_task_row(table_print.task_id, f"worker {seen.worker} died; build retried")
            result = build_table_pdf.enqueue(table_print.pk)
            _write(
                table_print,
                state=TablePrint.State.QUEUED,
                done=0,
                worker=None,
                heartbeat_at=None,
                task_id=str(result.id),
            )
        logger.warning(
            "Table PDF %s: its worker %s died at sheet %s of %s; queued again",
            seen.pk,
            seen.worker,
            seen.done,
            seen.total,
        )
        retried.append(seen.pk)
    return retried
