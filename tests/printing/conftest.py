"""Fixtures of tests/printing: a Datapad of its own per test (tests/printing/live.py)."""

from __future__ import annotations

import pytest

from tests.printing.live import LiveSite, migrated_copy


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """One migrated empty file database for the session; each test works on a copy."""
    root = tmp_path_factory.mktemp("printing-template")
    LiveSite(root).manage("migrate", "--noinput")
    return root / "db.sqlite3"


@pytest.fixture
def site(migrated_database, tmp_path):
    site = migrated_copy(migrated_database, tmp_path)
    try:
        yield site
    finally:
        site.stop()
