"""The table's PDF: every approved sheet of a campaign in one file, built by a task worker.

The web request only records a TablePrint and puts `build_table_pdf` on the database task
queue; `manage.py db_worker` (beside `make run`, or on other machines sharing the database)
renders the sheets, writing its progress and then the PDF bytes back to the TablePrint row
that the campaign page polls.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, QuerySet
from django.http import Http404
from django.utils import timezone
from django_tasks import task

from sheets.campaigns.models import Campaign, TablePrint
from sheets.characters.models import Character, ReviewState
from sheets.characters.pdf import COLLECTOR_PAUSE, character_document
from sheets.permissions import campaign_for

logger = logging.getLogger(__name__)

# A build still queued or running after this long most likely lost its worker (a machine
# restarted mid-task); a new request then starts afresh instead of waiting on it forever.
ABANDONED_AFTER = timedelta(minutes=15)

PENDING_STATES = (TablePrint.State.QUEUED, TablePrint.State.RUNNING)


class PrintRefused(Exception):
    """The table's PDF cannot be built; the message says why, in the GM's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def approved_sheets(campaign: Campaign) -> QuerySet[Character]:
    """Sheets approved as they stand now: a sheet changed since its approval is left out,
    because the GM has not seen what it says today."""
    return (
        Character.objects.filter(
            campaign=campaign, review_state=ReviewState.APPROVED, review_version=F("version")
        )
        .select_related("owner")
        .order_by("name", "pk")
    )


def changed_since_approval(campaign: Campaign) -> QuerySet[Character]:
    return (
        Character.objects.filter(campaign=campaign, review_state=ReviewState.APPROVED)
        .exclude(review_version=F("version"))
        .order_by("name", "pk")
    )


def _latest_print(campaign: Campaign) -> TablePrint | None:
    # The PDF bytes can run to megabytes; only the download reads them.
    return campaign.prints.defer("pdf").first()


def table_print_context(campaign: Campaign) -> dict:
    """What the GM's panel for the table's PDF shows: templates/campaigns/_table_print.html."""
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
    return campaign, table_print


def table_print_request(*, user: AbstractBaseUser, campaign_id: int) -> TablePrint:
    """A GM asks for the table's PDF: record the build and queue it for a worker.

    A build already waiting or under way is handed back instead of queuing a second one,
    so a double click costs one build.
    """
    with transaction.atomic():
        # The row lock makes two simultaneous requests queue one build between them.
        campaign, _ = campaign_for(user, campaign_id, gm=True, for_update=True)
        pending = (
            campaign.prints.defer("pdf")
            .filter(state__in=PENDING_STATES, created_at__gte=timezone.now() - ABANDONED_AFTER)
            .first()
        )
        if pending is not None:
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


def _record(table_print: TablePrint, **changes) -> None:
    for field, value in changes.items():
        setattr(table_print, field, value)
    table_print.save(update_fields=list(changes))


@task()
def build_table_pdf(print_id: int) -> int:
    """Render every approved sheet of the build's campaign into one PDF; return the count."""
    table_print = TablePrint.objects.defer("pdf").select_related("campaign").get(pk=print_id)
    if table_print.state == TablePrint.State.DONE:
        return table_print.total
    campaign = table_print.campaign
    # The sheets as they stand when the worker starts: one approved after the request is
    # included, one changed since its approval in the meantime is not.
    characters = list(approved_sheets(campaign))
    _record(table_print, state=TablePrint.State.RUNNING, done=0, total=len(characters), error="")
    current: Character | None = None
    try:
        if not characters:
            raise PrintRefused(
                "No sheet is approved as it stands any more: each was changed since its "
                "approval. Approve them again, then build the PDF."
            )
        documents = []
        for count, current in enumerate(characters, start=1):
            # One sheet at a time with the cycle collector paused (see sheets.characters.pdf):
            # each render's own garbage is freed before the next begins.
            with COLLECTOR_PAUSE.held():
                documents.append(character_document(current, handout=True))
            _record(table_print, done=count)
        combined = documents[0].copy([page for document in documents for page in document.pages])
        combined.metadata.title = f"{campaign.name}: the table's sheets"
        with COLLECTOR_PAUSE.held():
            pdf = combined.write_pdf()
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
        _record(
            table_print,
            state=TablePrint.State.FAILED,
            error=message,
            finished_at=timezone.now(),
        )
        # Raised again so the task queue records the failure too.
        raise
    _record(
        table_print,
        state=TablePrint.State.DONE,
        pdf=pdf,
        finished_at=timezone.now(),
    )
    # Only the newest PDF of a table is worth its megabytes; builds still waiting or
    # running are left to finish.
    campaign.prints.filter(
        pk__lt=table_print.pk, state__in=(TablePrint.State.DONE, TablePrint.State.FAILED)
    ).delete()
    return len(characters)
