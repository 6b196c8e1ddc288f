"""A gunicorn worker prints every system's demo sheet once at start (sheets/wsgi.py), so a
user's first PDF of a system finds its stylesheets parsed and its labels already shaped."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections import Counter

import pytest
from django.conf import settings

from rulesets.registry import UnknownSystem, get_ruleset, ready_systems
from sheets.characters import pdf
from sheets.characters.pdf import PDF_CACHE, _render, warm_up
from sheets.characters.services import character_create
from sheets.weasyprint_text_cache import TEXT_CACHE

SYSTEMS = [info.key for info in ready_systems()]


def text_misses(character) -> int:
    """Lines of the character's print shaped or drawn anew (not found in the text cache)."""
    before = Counter(TEXT_CACHE.misses)
    _render(character)
    return sum((TEXT_CACHE.misses - before).values())


@pytest.mark.django_db
@pytest.mark.parametrize("system", SYSTEMS)
def test_after_the_warm_up_a_first_print_finds_nearly_all_its_text_laid_out(system, player):
    sheet = get_ruleset(system).demo_sheet()
    character = character_create(owner=player, name="First Print", system=system, sheet=sheet)
    TEXT_CACHE.clear()
    cold = text_misses(character)
    TEXT_CACHE.clear()
    assert warm_up() == {key: None for key in SYSTEMS}
    warmed = text_misses(character)
    # What is left is the text only this character has: its name, in a few places.
    assert cold > 100 and warmed < cold / 10, (cold, warmed)


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
    TEXT_CACHE.clear()
    with caplog.at_level(logging.ERROR, logger="sheets.characters.pdf"):
        outcome = warm_up(["no-such-system", "ore"])
    assert isinstance(outcome["no-such-system"], UnknownSystem)
    assert outcome["ore"] is None and len(TEXT_CACHE) > 100
    assert "no-such-system" in caplog.text


def worker_start(argv: list[str]) -> str:
    """What a fresh process that loads sheets.wsgi as `argv` has in its text cache."""
    script = (
        "import sys; sys.argv = " + repr(argv) + "\n"
        "import sheets.wsgi\n"
        "from sheets.weasyprint_text_cache import TEXT_CACHE\n"
        "print(len(TEXT_CACHE))\n"
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
    assert int(worker_start(["gunicorn"])) > 500
    assert worker_start(["manage.py", "runserver"]) == "0"
