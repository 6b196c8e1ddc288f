"""On the default SQLite, the table's PDF is built by a real worker while players edit
sheets and the GM asks for builds and watches them: no request fails. (Before WAL mode and
immediate transactions, "Build the table's PDF" answered 500 "database is locked" about
once in 28 clicks while the worker ran.) Real processes: runserver, db_worker, a file
SQLite database (tests/printing/live.py)."""

from __future__ import annotations

import re
import threading
import time

from tests.printing.live import Answer, LiveSite, build_status_path

BUILDS = 4
EDITORS = 3


def keep_editing(site: LiveSite, pk: int, stop: threading.Event, answers: list) -> None:
    """A player setting one trait back and forth as fast as the server answers."""
    version, value = 1, 2
    while not stop.is_set():
        answer = site.request(
            "player",
            "POST",
            f"/characters/{pk}/edit/",
            {"edit": f"attr.strength={value}", "version": version},
        )
        answers.append(("edit", answer))
        found = re.search(r'id="sheet-version" value="(\d+)"', answer.text)
        if found:
            version = int(found.group(1))
        value = 5 - value  # 2, 3, 2, ...


def build_and_watch(site: LiveSite, answers: list) -> str:
    """The GM clicks the button, then the panel polls until the build is over."""
    campaign = site.seeded["campaign"]
    started = site.request("gm", "POST", f"/campaigns/{campaign}/print/")
    answers.append(("build", started))
    status = build_status_path(started.text)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        panel = site.request("gm", "GET", status)
        answers.append(("poll", panel))
        if panel.status >= 500 or "every 1s" not in panel.text:
            return panel.text
        answers.append(("page", site.request("gm", "GET", f"/campaigns/{campaign}/", htmx=False)))
    raise AssertionError(f"a build did not finish\nworker:\n{site.log('worker')}")


def failures(answers: list[tuple[str, Answer]]) -> list[str]:
    return [f"{what} {a.status}: {a.text[:300]}" for what, a in answers if a.status >= 500]


def test_the_tables_pdf_builds_in_a_real_worker_while_edits_run_and_no_request_fails(site):
    seeded = site.seed(approved=4, others=EDITORS)
    site.serve()
    site.worker()
    answers: list[tuple[str, Answer]] = []
    stop = threading.Event()
    editors = [
        threading.Thread(target=keep_editing, args=(site, pk, stop, answers), daemon=True)
        for pk in seeded["edited"]
    ]
    for editor in editors:
        editor.start()
    try:
        finished = [build_and_watch(site, answers) for _ in range(BUILDS)]
    finally:
        stop.set()
        for editor in editors:
            editor.join(timeout=120)

    assert failures(answers) == []
    assert all("Ready: 4 sheets" in panel for panel in finished), finished
    edits = [answer for what, answer in answers if what == "edit"]
    # The edits ran all along, and landed.
    assert len(edits) >= 20 and all(answer.status == 200 for answer in edits)
    versions = [
        site.rows("SELECT version FROM characters_character WHERE id = ?", pk)[0][0]
        for pk in seeded["edited"]
    ]
    assert all(version > 5 for version in versions), versions
