"""Playwright on Debian's Chromium: never a downloaded browser (none can be fetched here)."""

from __future__ import annotations

import os
import time

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def open_demo(live_server, page, player, password):
    """Open a new demo character of a system, logged in as `player`, at a window width."""
    from rulesets.registry import get_ruleset
    from sheets.characters.services import character_create

    def open_at(system: str, width: int, *, name: str = "Demo Hero"):
        character = character_create(
            owner=player, name=name, system=system, sheet=get_ruleset(system).demo_sheet()
        )
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(live_server.url + "/accounts/login/")
        page.fill("input[name=username]", player.username)
        page.fill("input[name=password]", password)
        page.get_by_role("button", name="Log in").click()
        page.goto(f"{live_server.url}/characters/{character.pk}/")
        return character

    return open_at


@pytest.fixture
def page(page):
    """Playwright's page, closed before the test's database is emptied: a poll
    or a live stream still being answered on the live server's thread holds a table lock in
    SQLite's shared in-memory database, and the flush after the test then fails."""
    yield page
    if not page.is_closed():
        # Closed without asking (a page with an unsaved edit would hold a navigation).
        page.close()
    # The server's thread finishes the request the browser just dropped.
    time.sleep(0.3)
