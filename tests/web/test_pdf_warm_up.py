"""A gunicorn worker prints every system's demo sheet once at start (sheets/wsgi.py), so a
user's first PDF of a system finds its stylesheets parsed and its fonts loaded."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest
from django.conf import settings

from rulesets.registry import UnknownSystem, ready_systems
from sheets.printing import pdf
from sheets.printing.pdf import PDF_CACHE, warm_up

SYSTEMS = [info.key for info in ready_systems()]


@pytest.mark.django_db
def test_the_warm_up_reads_no_database_and_keeps_no_pdf(django_assert_num_queries):
    renders, size = PDF_CACHE.renders, len(PDF_CACHE._entries)
    with django_assert_num_queries(0):
        assert warm_up() == {key: None for key in SYSTEMS}
    assert (PDF_CACHE.renders, len(PDF_CACHE._entries)) == (renders, size)
    # Every system's stylesheets parsed and fonts loaded (the lru_cache read through its
    # module: a test module holding it would outlive the font files' cleanup at exit).
    assert pdf._print_style.cache_info().currsize >= len(SYSTEMS)


def test_a_system_that_fails_to_print_is_logged_and_the_others_still_warm(caplog):
    pdf._print_style.cache_clear()
    with caplog.at_level(logging.ERROR, logger="sheets.printing.pdf"):
        outcome = warm_up(["no-such-system", "ore"])
    assert isinstance(outcome["no-such-system"], UnknownSystem)
    assert outcome["ore"] is None
    assert pdf._print_style.cache_info().currsize == 1
    assert "no-such-system" in caplog.text


def worker_start(argv: list[str]) -> str:
    """How many systems' print styles a fresh process that loads sheets.wsgi as `argv`
    has ready."""
    script = (
        "import sys; sys.argv = " + repr(argv) + "\n"
        "import sheets.wsgi\n"
        "from sheets.printing import pdf\n"
        "print(pdf._print_style.cache_info().currsize)\n"
    )
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "sheets.settings"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


def test_a_wsgi_worker_starts_warm_and_runserver_starts_without_the_warm_up():
    assert int(worker_start(["gunicorn"])) == len(SYSTEMS)
    assert worker_start(["manage.py", "runserver"]) == "0"
