"""The table's PDF as the GM asks for it: queue a build, show where it stands, find it.

The build itself runs in a task worker (sheets/printing/tasks.py). A build whose worker
died mid-way is given up here, the first time anyone looks at it once its heartbeat is
stale, so the page says it failed instead of "Building 3 of 30" for good, and asking
again starts a new build.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from sheets.campaigns.models import Campaign
from sheets.permissions import campaign_for
from sheets.printing.models import TablePrint
from sheets.printing.selection import PrintRefused, approved_sheets, changed_since_approval
from sheets.printing.tasks import build_table_pdf, fail_task_row

# A build still waiting for a worker after this long most likely waits for one that is
# not coming; a new request then queues afresh instead of waiting on it forever. (A build
# under way is judged by its heartbeat instead: TablePrint.worker_gone.)
ABANDONED_AFTER = timedelta(minutes=15)

__all__ = [
    "PrintRefused",
    "give_up_if_abandoned",
    "table_print_context",
    "table_print_for",
    "table_print_request",
]


def give_up_if_abandoned(table_print: TablePrint) -> TablePrint:
    """Mark a running build failed, with a message for the GM, when its worker has gone
    silent past the stale time; hand back the build as it now stands."""
    if not table_print.worker_gone():
        return table_print
    message = (
        f"The worker building this PDF stopped at sheet {table_print.done} of "
        f"{table_print.total} and did not come back. Build it again; if it stops again, "
        "tell whoever runs this Datapad."
    )
    with transaction.atomic():
        # Only if nothing moved since it was read: a worker that reported meanwhile lives.
        given_up = TablePrint.objects.filter(
            pk=table_print.pk,
            state=TablePrint.State.RUNNING,
            heartbeat_at=table_print.heartbeat_at,
        ).update(state=TablePrint.State.FAILED, error=message, finished_at=timezone.now())
        if given_up:
            fail_task_row(table_print.task_id, f"worker {table_print.worker} went silent")
    table_print.refresh_from_db(
        fields=["state", "error", "finished_at", "done", "total", "heartbeat_at"]
    )
    return table_print


def _latest_print(campaign: Campaign) -> TablePrint | None:
    # The PDF bytes can run to megabytes; only the download reads them.
    table_print = campaign.prints.defer("pdf").first()
    return give_up_if_abandoned(table_print) if table_print is not None else None


def table_print_context(campaign: Campaign) -> dict:
    """What the GM's panel for the table's PDF shows: templates/printing/_table_print.html."""
    return {
        "table_print": _latest_print(campaign),
        "approved_count": approved_sheets(campaign).count(),
        "left_out": list(changed_since_approval(campaign).values_list("name", flat=True)),
    }


def table_print_for(
    user: AbstractBaseUser, campaign_id: int, print_id: int, *, with_pdf: bool = False
) -> tuple[Campaign, TablePrint]:
    """A build of a campaign the user is GM of: 404 for others' tables, 403 for its players."""
    campaign, _ = campaign_for(user, campaign_id, gm=True)
    prints = campaign.prints.all() if with_pdf else campaign.prints.defer("pdf")
    table_print = prints.filter(pk=print_id).first()
    if table_print is None:
        raise Http404("No such PDF build.")
    return campaign, give_up_if_abandoned(table_print)


def table_print_request(*, user: AbstractBaseUser, campaign_id: int) -> TablePrint:
    """A GM asks for the table's PDF: record the build and queue it for a worker.

    A build already waiting or under way is handed back instead of queuing a second one,
    so a double click costs one build; one whose worker died is given up first.
    """
    with transaction.atomic():
        # The row lock makes two simultaneous requests queue one build between them.
        campaign, _ = campaign_for(user, campaign_id, gm=True, for_update=True)
        pending = (
            campaign.prints.defer("pdf")
            .filter(state__in=(TablePrint.State.QUEUED, TablePrint.State.RUNNING))
            .first()
        )
        if pending is not None:
            pending = give_up_if_abandoned(pending)
            waiting_too_long = (
                pending.state == TablePrint.State.QUEUED
                and pending.created_at < timezone.now() - ABANDONED_AFTER
            )
            if pending.state != TablePrint.State.FAILED and not waiting_too_long:
                return pending
        total = approved_sheets(campaign).count()
        if total == 0:
            changed = list(changed_since_approval(campaign).values_list("name", flat=True))
            if changed:
                raise PrintRefused(
                    f"No sheet is approved as it stands now: {', '.join(changed)} changed "
                    "since approval. Approve again, then build the table's PDF."
                )
            raise PrintRefused(
                "No sheet at this table is approved yet. Approve at least one sheet, "
                "then build the table's PDF."
            )
        table_print = TablePrint.objects.create(campaign=campaign, requested_by=user, total=total)
        # Enqueued in this transaction: a worker only sees the task once the build it
        # names is saved too.
        result = build_table_pdf.enqueue(table_print.pk)
        table_print.task_id = str(result.id)
        table_print.save(update_fields=["task_id"])
    return table_print
