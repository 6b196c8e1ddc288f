"""The table's PDF goes through the real database task queue and a real db_worker run."""

from __future__ import annotations

import io
import signal
from contextlib import contextmanager

import pytest
from django.core.management import call_command
from django.db.models.signals import post_save
from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader

from sheets.characters.services import (
    character_apply_edits,
    character_approve,
    character_create,
    character_submit,
)
from sheets.printing.models import TablePrint
from sheets.printing.pdf import render_character_pdf
from sheets.printing.services import table_print_context

# The worker commits as it goes, exactly as it would on another machine, so these tests
# run on committed data rather than inside one rolled-back transaction.
pytestmark = pytest.mark.django_db(transaction=True)

APPROVED = ("Kira Dane", "Tavi Orn", "Sela Brightwater")
SUBMITTED_ONLY = "Zeb Marrow"
CHANGED_SINCE_APPROVAL = "Hesk Varro"


@contextmanager
def kept_signal_handlers():
    # db_worker installs its own SIGINT/SIGTERM handlers for a graceful stop; put back
    # pytest's afterwards so Ctrl-C still interrupts the test run.
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def run_worker() -> None:
    """One real `manage.py db_worker --batch` run: every queued task, then exit."""
    with kept_signal_handlers():
        call_command(
            "db_worker",
            batch=True,
            reload=False,
            startup_delay=False,
            interval=0,
            queue_name="default",
            verbosity=0,
        )


def approve(character, gm):
    character = character_submit(
        user=character.owner, character_id=character.pk, version=character.version
    )
    return character_approve(user=gm, character_id=character.pk, version=character.version)


@pytest.fixture
def sheets_at_table(table, gm, player, other_player, swd10_character):
    """Three sheets approved as they stand, one only submitted, one changed since approval."""
    approve(swd10_character, gm)
    for owner, name in ((player, "Tavi Orn"), (other_player, "Sela Brightwater")):
        approve(character_create(owner=owner, name=name, system="swd10", campaign=table), gm)
    submitted = character_create(
        owner=other_player, name=SUBMITTED_ONLY, system="swd10", campaign=table
    )
    character_submit(user=other_player, character_id=submitted.pk, version=submitted.version)
    changed = approve(
        character_create(owner=player, name=CHANGED_SINCE_APPROVAL, system="swd10", campaign=table),
        gm,
    )
    character_apply_edits(
        user=player,
        character_id=changed.pk,
        edits={"attr.strength": "2"},
        expected_version=changed.version,
    )
    return table


@pytest.fixture
def gm_client(client, gm):
    client.force_login(gm)
    return client


def start_url(campaign):
    return reverse("table_print_start", args=[campaign.pk])


def status_url(table_print):
    return reverse("table_print_status", args=[table_print.campaign_id, table_print.pk])


def pdf_url(table_print):
    return reverse("table_print_pdf", args=[table_print.campaign_id, table_print.pk])


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_a_gm_gets_every_approved_sheet_in_one_pdf_built_by_the_worker(sheets_at_table, gm_client):
    response = gm_client.post(start_url(sheets_at_table))
    table_print = TablePrint.objects.get(campaign=sheets_at_table)
    assert response.status_code == 302
    assert response["Location"] == status_url(table_print)

    # Queued, not built: the request only put a task in the database queue.
    assert table_print.state == TablePrint.State.QUEUED
    assert (table_print.done, table_print.total) == (0, len(APPROVED))
    queued = DBTaskResult.objects.get(id=table_print.task_id)
    assert queued.task_path == "sheets.printing.tasks.build_table_pdf"
    assert queued.status == "READY"
    waiting = gm_client.get(status_url(table_print)).content.decode()
    assert "Waiting for a worker" in waiting
    assert 'hx-trigger="every 1s"' in waiting

    seen: list[tuple[str, int, int]] = []

    def watch(sender, instance, **kwargs):
        seen.append((instance.state, instance.done, instance.total))

    post_save.connect(watch, sender=TablePrint)
    try:
        run_worker()
    finally:
        post_save.disconnect(watch, sender=TablePrint)

    # The worker reported each sheet as it went: "1 of 3", "2 of 3", "3 of 3", then done.
    assert seen == [
        ("running", 0, 3),
        ("running", 1, 3),
        ("running", 2, 3),
        ("running", 3, 3),
        ("done", 3, 3),
    ]
    table_print.refresh_from_db()
    assert table_print.state == TablePrint.State.DONE
    assert table_print.done == table_print.total == len(APPROVED)
    assert table_print.finished_at is not None
    finished = DBTaskResult.objects.get(id=table_print.task_id)
    assert finished.status == "SUCCESSFUL"

    page = gm_client.get(status_url(table_print)).content.decode()
    assert "Download the table's PDF" in page
    assert pdf_url(table_print) in page
    assert "hx-trigger" not in page

    download = gm_client.get(pdf_url(table_print))
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"] == 'attachment; filename="outer-rim-sheets.pdf"'
    text = pdf_text(download.content)
    for name in APPROVED:
        assert name in text, name
    assert SUBMITTED_ONLY not in text
    assert CHANGED_SINCE_APPROVAL not in text


def test_the_combined_pdf_has_each_sheets_own_pages_in_its_print_layout(
    sheets_at_table, gm, gm_client
):
    gm_client.post(start_url(sheets_at_table))
    run_worker()
    table_print = TablePrint.objects.get(campaign=sheets_at_table)
    reader = PdfReader(io.BytesIO(bytes(table_print.pdf)))
    approved = [c for c in sheets_at_table.characters.order_by("name") if c.name in APPROVED]
    one_by_one = [PdfReader(io.BytesIO(render_character_pdf(c))) for c in approved]
    assert len(reader.pages) == sum(len(single.pages) for single in one_by_one)
    # Sheet by sheet, in name order, each page reads as that sheet's own PDF reads.
    pages = iter(reader.pages)
    for single in one_by_one:
        for single_page in single.pages:
            assert next(pages).extract_text() == single_page.extract_text()
    assert reader.metadata.title == "Outer Rim: the table's sheets"


def test_the_htmx_panel_polls_while_building_and_stops_when_done(sheets_at_table, gm_client):
    htmx = {"HTTP_HX_REQUEST": "true"}
    started = gm_client.post(start_url(sheets_at_table), **htmx)
    assert started.status_code == 200
    body = started.content.decode()
    table_print = TablePrint.objects.get(campaign=sheets_at_table)
    # The fragment is the panel alone, asking for itself again every second.
    assert "<html" not in body
    assert f'hx-get="{status_url(table_print)}"' in body
    assert 'hx-trigger="every 1s"' in body
    assert "<progress" in body

    run_worker()
    done = gm_client.get(status_url(table_print), **htmx).content.decode()
    assert "<html" not in done
    assert "hx-trigger" not in done
    assert "Ready: 3 sheets" in done
    assert "Download the table's PDF" in done


def test_a_second_click_while_building_queues_nothing_more(sheets_at_table, gm_client):
    gm_client.post(start_url(sheets_at_table))
    gm_client.post(start_url(sheets_at_table))
    assert TablePrint.objects.filter(campaign=sheets_at_table).count() == 1
    assert DBTaskResult.objects.count() == 1


def test_with_no_approved_sheet_the_gm_is_told_and_nothing_is_queued(table, gm_client):
    response = gm_client.post(start_url(table))
    assert response.status_code == 400
    assert "No sheet at this table is approved yet" in response.content.decode()
    assert not TablePrint.objects.exists()
    assert not DBTaskResult.objects.exists()

    fragment = gm_client.post(start_url(table), HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    assert "No sheet at this table is approved yet" in fragment.content.decode()
    assert not TablePrint.objects.exists()
    assert not DBTaskResult.objects.exists()


def test_a_sheet_changed_before_the_worker_starts_is_left_out_and_an_empty_build_fails(
    table, gm, player, swd10_character, gm_client
):
    approved = approve(swd10_character, gm)
    gm_client.post(start_url(table))
    character_apply_edits(
        user=player,
        character_id=approved.pk,
        edits={"attr.strength": "2"},
        expected_version=approved.version,
    )
    run_worker()
    table_print = TablePrint.objects.get(campaign=table)
    assert table_print.state == TablePrint.State.FAILED
    assert table_print.pdf is None
    assert "changed since its approval" in table_print.error
    assert DBTaskResult.objects.get(id=table_print.task_id).status == "FAILED"
    page = gm_client.get(status_url(table_print)).content.decode()
    assert "changed since its approval" in page
    assert "Build the table's PDF</button>" in page
    # No PDF to hand out: the download link leads back to the build's status.
    response = gm_client.get(pdf_url(table_print))
    assert response.status_code == 302
    assert response["Location"] == status_url(table_print)


def test_the_campaign_panel_context_names_sheets_left_out(sheets_at_table):
    context = table_print_context(sheets_at_table)
    assert context["table_print"] is None
    assert context["approved_count"] == 3
    assert context["left_out"] == [CHANGED_SINCE_APPROVAL]


@pytest.fixture
def built(sheets_at_table, gm_client):
    gm_client.post(start_url(sheets_at_table))
    run_worker()
    gm_client.logout()
    return TablePrint.objects.get(campaign=sheets_at_table)


@pytest.mark.parametrize("who", ["player", "other_player"])
def test_players_of_the_table_may_not_build_or_download(built, client, who, request):
    client.force_login(request.getfixturevalue(who))
    assert client.post(start_url(built.campaign)).status_code == 403
    assert client.get(status_url(built)).status_code == 403
    response = client.get(pdf_url(built))
    assert response.status_code == 403
    assert not response.content.startswith(b"%PDF")
    assert TablePrint.objects.count() == 1
    assert DBTaskResult.objects.count() == 1


def test_a_gm_of_another_table_sees_nothing(built, client, other_gm, other_table):
    client.force_login(other_gm)
    assert client.post(start_url(built.campaign)).status_code == 404
    assert client.get(status_url(built)).status_code == 404
    assert client.get(pdf_url(built)).status_code == 404
    # Their own campaign's id with this build's id finds nothing either.
    assert (
        client.get(reverse("table_print_pdf", args=[other_table.pk, built.pk])).status_code == 404
    )
    assert TablePrint.objects.count() == 1


def test_anonymous_visitors_are_sent_to_log_in(built, client):
    login = reverse("login")
    for response in (
        client.post(start_url(built.campaign)),
        client.get(status_url(built)),
        client.get(pdf_url(built)),
    ):
        assert response.status_code == 302
        assert response["Location"].startswith(login)
    assert TablePrint.objects.count() == 1


def test_a_get_cannot_start_a_build(sheets_at_table, gm_client):
    assert gm_client.get(start_url(sheets_at_table)).status_code == 405
    assert not TablePrint.objects.exists()


def test_a_new_build_replaces_the_previous_pdf(sheets_at_table, gm_client):
    gm_client.post(start_url(sheets_at_table))
    run_worker()
    first = TablePrint.objects.get(campaign=sheets_at_table)
    page = gm_client.get(status_url(first)).content.decode()
    assert "Build it again</button>" in page

    gm_client.post(start_url(sheets_at_table))
    run_worker()
    second = TablePrint.objects.get(campaign=sheets_at_table)
    assert second.pk != first.pk
    assert second.state == TablePrint.State.DONE
    assert gm_client.get(status_url(first)).status_code == 404
    assert table_print_context(sheets_at_table)["table_print"] == second


def test_when_every_approved_sheet_changed_since_the_refusal_names_them(
    table, gm, player, swd10_character, gm_client
):
    approved = approve(swd10_character, gm)
    character_apply_edits(
        user=player,
        character_id=approved.pk,
        edits={"attr.strength": "2"},
        expected_version=approved.version,
    )
    response = gm_client.post(start_url(table))
    assert response.status_code == 400
    assert "Kira Dane changed since approval" in response.content.decode()
    assert not TablePrint.objects.exists()
    assert not DBTaskResult.objects.exists()
