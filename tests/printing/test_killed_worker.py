"""A task worker killed (kill -9) in the middle of the table's PDF: the build does not stay
"Building 3 of 8" for good. The page gives it up once its heartbeat is stale, with a
message, and asking again starts a new build; a worker restarted on the machine retries
the build its predecessor was running. Real processes: runserver, db_worker, a file
SQLite database (tests/printing/live.py)."""

from __future__ import annotations

import re
import time

import pytest

from tests.printing.live import LiveSite, build_status_path, migrated_copy

SHEETS = 8


@pytest.fixture(scope="session")
def table_of_sheets(migrated_database, tmp_path_factory):
    """A database with a table of SHEETS approved sheets, seeded once for these tests (a
    `manage.py shell` of its own each time otherwise), and what the seed returned."""
    seeding = migrated_copy(migrated_database, tmp_path_factory.mktemp("printing-seeded"))
    return seeding.database, seeding.seed(approved=SHEETS)


@pytest.fixture
def site(table_of_sheets, tmp_path):
    """The seeded table's own copy, with runserver and workers to start (conftest.py's
    `site`, seeded)."""
    database, seeded = table_of_sheets
    site = migrated_copy(database, tmp_path)
    site.seeded = dict(seeded)
    try:
        yield site
    finally:
        site.stop()


def wait_for(check, what: str, site: LiveSite, seconds: float = 180):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}\nworker:\n{site.log('worker')}")


def building_past_two(site: LiveSite, print_id: int) -> bool:
    rows = site.rows("SELECT state, done FROM campaigns_tableprint WHERE id = ?", print_id)
    return rows[0][0] == "running" and rows[0][1] >= 2


def start_build(site: LiveSite) -> tuple[str, int]:
    started = site.request("gm", "POST", f"/campaigns/{site.seeded['campaign']}/print/")
    assert started.status == 200, started.text[:2000]
    status = build_status_path(started.text)
    return status, int(re.search(r"/print/(\d+)/", status).group(1))


def kill_mid_build(site: LiveSite) -> tuple[str, int, int]:
    """Start a worker and a build, and kill the worker -9 once two sheets are done."""
    status, print_id = start_build(site)
    worker = site.worker()
    wait_for(lambda: building_past_two(site, print_id), "two sheets built", site)
    site.kill(worker)
    done = site.rows("SELECT done FROM campaigns_tableprint WHERE id = ?", print_id)[0][0]
    assert done < SHEETS, "the worker finished before it was killed: print more sheets"
    return status, print_id, done


def test_a_build_whose_worker_was_killed_is_given_up_with_a_message_and_a_new_one_starts(
    tmp_path, site
):
    site.serve()
    status, print_id, done = kill_mid_build(site)
    task_id = site.rows("SELECT task_id FROM campaigns_tableprint WHERE id = ?", print_id)[0][0]

    # Silent past the stale time (2 s in these tests' settings), the build is given up
    # when the GM's page next asks, with what happened and what to do.
    time.sleep(2.5)
    panel = site.request("gm", "GET", status).text
    assert f"stopped at sheet {done} of {SHEETS}" in panel, panel[:3000]
    assert "Build the table's PDF</button>" in panel
    assert "every 1s" not in panel  # no longer polling a build that will never move
    state, error = site.rows(
        "SELECT state, error FROM campaigns_tableprint WHERE id = ?", print_id
    )[0]
    assert state == "failed" and "did not come back" in error
    # The queue's own row, left "running" by the killed worker, is failed too.
    assert site.rows(
        "SELECT status FROM django_tasks_database_dbtaskresult WHERE id = ?",
        task_id.replace("-", ""),  # SQLite keeps a UUID as 32 hex digits
    ) == [("FAILED",)]

    # Asking again starts a new build, and a new worker builds it.
    new_status, new_id = start_build(site)
    assert new_id != print_id
    site.worker()
    ready = wait_for(
        lambda: "Ready:" in (text := site.request("gm", "GET", new_status).text) and text,
        "the new build",
        site,
    )
    assert f"Ready: {SHEETS} sheets" in ready
    download = site.request("gm", "GET", f"{new_status}pdf/", htmx=False)
    assert download.status == 200 and download.headers["Content-Type"] == "application/pdf"


def test_a_worker_restarted_after_a_kill_builds_what_its_predecessor_was_running(tmp_path, site):
    site.serve()
    status, print_id, _ = kill_mid_build(site)
    old_task = site.rows("SELECT task_id FROM campaigns_tableprint WHERE id = ?", print_id)[0][0]

    # A worker starting on the same machine sees the build's process is gone and queues
    # it again at once, without waiting for the heartbeat to go stale.
    site.worker()
    wait_for(
        lambda: (
            site.rows("SELECT state FROM campaigns_tableprint WHERE id = ?", print_id)
            == [("done",)]
        ),
        "the build retried by the restarted worker",
        site,
    )
    panel = site.request("gm", "GET", status).text
    assert f"Ready: {SHEETS} sheets" in panel, panel[:3000]
    assert "Queued again 1 table PDF build(s) whose worker died" in site.log("worker")
    new_task = site.rows("SELECT task_id FROM campaigns_tableprint WHERE id = ?", print_id)[0][0]
    assert new_task != old_task

    # The killed worker's task failed, the retry succeeded: none is left running. (The
    # queue records the task's success just after the build is written.)
    def statuses() -> dict:
        query = "SELECT status, count(*) FROM django_tasks_database_dbtaskresult GROUP BY 1"
        return dict(site.rows(query))

    wait_for(lambda: statuses() == {"FAILED": 1, "SUCCESSFUL": 1}, "the tasks' outcomes", site)
    download = site.request("gm", "GET", f"{status}pdf/", htmx=False)
    assert download.status == 200 and download.headers["Content-Type"] == "application/pdf"
