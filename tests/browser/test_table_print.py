"""A GM builds the table's PDF in Chromium: the page shows the queue, the worker's progress
and the download, and the downloaded PDF holds the approved sheets by name."""

from __future__ import annotations

import threading

import pytest
from django.db import connections, transaction
from django.db.models.signals import post_save
from django_tasks_db.management.commands.db_worker import Worker
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from sheets.characters.services import (
    character_apply_edits,
    character_approve,
    character_create,
    character_submit,
)
from sheets.printing.models import TablePrint

pytestmark = pytest.mark.django_db(transaction=True)

APPROVED = ("Kira Dane", "Tavi Orn", "Sela Brightwater")
NOT_APPROVED = ("Zeb Marrow", "Hesk Varro")


def approve(character, gm):
    character = character_submit(
        user=character.owner, character_id=character.pk, version=character.version
    )
    return character_approve(user=gm, character_id=character.pk, version=character.version)


class WorkerThread(threading.Thread):
    """db_worker's own loop (`--batch`: every queued task, then stop) beside the live server.

    call_command("db_worker") cannot run here: it installs signal handlers, which only the
    main thread may do, and the main thread drives the browser meanwhile.
    """

    def __init__(self, live_server) -> None:
        super().__init__(daemon=True)
        # An in-memory SQLite test database lives in the one connection the live server
        # shares between its threads; any other database gets a connection of the worker's
        # own, as a worker on another machine would.
        self.shared = live_server.thread.connections_override.get("default")
        self.error: BaseException | None = None

    def run(self) -> None:
        if self.shared is not None:
            connections["default"] = self.shared
        try:
            Worker(
                queue_names=["default"],
                interval=0.1,
                batch=True,
                backend_name="default",
                startup_delay=False,
                max_tasks=None,
                worker_id="browser-test-worker",
                excluded_queue_names=[],
            ).run()
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error
        finally:
            if self.shared is None:
                connections.close_all()


@pytest.fixture
def table_with_sheets(table, gm, player, other_player, swd10_character):
    approve(swd10_character, gm)
    for owner, name in ((player, "Tavi Orn"), (other_player, "Sela Brightwater")):
        approve(character_create(owner=owner, name=name, system="swd10", campaign=table), gm)
    submitted = character_create(
        owner=other_player, name="Zeb Marrow", system="swd10", campaign=table
    )
    character_submit(user=other_player, character_id=submitted.pk, version=submitted.version)
    changed = approve(
        character_create(owner=player, name="Hesk Varro", system="swd10", campaign=table), gm
    )
    character_apply_edits(
        user=player,
        character_id=changed.pk,
        edits={"attr.strength": "2"},
        expected_version=changed.version,
    )
    return table


def test_a_gm_builds_the_tables_pdf_watches_it_and_downloads_it(
    live_server, page: Page, table_with_sheets, gm, password
):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", gm.username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/campaigns/{table_with_sheets.pk}/")

    panel = page.locator("#table-print")
    expect(panel).to_contain_text("3 sheets approved")
    expect(panel).to_contain_text("Hesk Varro")  # named as left out: changed since approval
    page.get_by_role("button", name="Build the table's PDF").click()
    # No worker yet: the build waits in the queue, and the panel keeps asking.
    expect(panel).to_contain_text("Waiting for a worker")
    expect(panel.locator("progress")).to_have_attribute("value", "0")

    # Hold the worker after its first sheet so the page can be seen mid-build.
    first_sheet_done = threading.Event()
    carry_on = threading.Event()

    def hold(**_kwargs):
        first_sheet_done.set()
        carry_on.wait(timeout=30)

    def hold_after_first_sheet(sender, instance, **kwargs):
        # Held once the progress is written (its transaction committed), as a worker busy
        # rendering the next sheet would be: a hold inside the write would keep the table's
        # row locked, which the test database (SQLite in memory) answers with "locked".
        if instance.state == TablePrint.State.RUNNING and instance.done == 1:
            transaction.on_commit(hold)

    post_save.connect(hold_after_first_sheet, sender=TablePrint)
    worker = WorkerThread(live_server)
    try:
        worker.start()
        assert first_sheet_done.wait(timeout=30), f"no sheet built; worker error: {worker.error!r}"
        expect(panel).to_contain_text("Building: 1 of 3 sheets")
        expect(panel.locator("progress")).to_have_attribute("value", "1")
        expect(panel.locator("progress")).to_have_attribute("max", "3")
        carry_on.set()
        download_link = page.get_by_role("link", name="Download the table's PDF")
        expect(download_link).to_be_visible(timeout=30_000)
    finally:
        carry_on.set()
        worker.join(timeout=60)
        post_save.disconnect(hold_after_first_sheet, sender=TablePrint)
    assert worker.error is None
    expect(panel).to_contain_text("Ready: 3 sheets")
    # Done: the panel no longer polls.
    expect(panel).not_to_have_attribute("hx-trigger", "every 1s")

    with page.expect_download() as download_info:
        download_link.click()
    download = download_info.value
    assert download.suggested_filename == "outer-rim-sheets.pdf"
    reader = PdfReader(download.path())
    text = "\n".join(pdf_page.extract_text() for pdf_page in reader.pages)
    for name in APPROVED:
        assert name in text, name
    for name in NOT_APPROVED:
        assert name not in text, name
