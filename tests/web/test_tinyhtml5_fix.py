"""sheets/tinyhtml5_fix.py: the parser's regex cache hits, and the parse is the same."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import tinyhtml5
from django.template.loader import render_to_string
from tinyhtml5 import inputstream

from rulesets.registry import get_ruleset, ready_systems
from sheets import tinyhtml5_fix
from sheets.characters.layouts import print_context
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[info.key for info in ready_systems()])
def print_page(request, player) -> str:
    sheet = get_ruleset(request.param).demo_sheet()
    character = character_create(owner=player, name="Parse Me", system=request.param, sheet=sheet)
    context = print_context(character) | {"handout": False}
    return render_to_string(f"rulesets/{request.param}/print.html", context)


@pytest.fixture
def cache_restored():
    """Whatever a test installs, the module keeps the working cache afterwards."""
    yield
    tinyhtml5_fix.install()


def parsed(html: str) -> bytes:
    # As WeasyPrint parses a page (weasyprint.HTML), serialised to compare whole trees.
    return ET.tostring(tinyhtml5.parse(html, namespace_html_elements=False), encoding="utf-8")


def test_a_print_page_parses_to_the_same_tree_with_the_fix(print_page, cache_restored):
    inputstream.characters_until_regex = {}  # tinyhtml5 as released
    as_released = parsed(print_page)
    tinyhtml5_fix.install()
    assert isinstance(inputstream.characters_until_regex, tinyhtml5_fix.CharsUntilRegexes)
    assert parsed(print_page) == as_released


def test_the_cache_is_keyed_by_the_characters_looked_up_so_it_hits(print_page, cache_restored):
    inputstream.characters_until_regex = {}
    tinyhtml5_fix.install()
    parsed(print_page)
    cache = inputstream.characters_until_regex
    assert cache, "chars_until was not called: the parser changed, look again at the fix"
    for characters, opposite in cache:
        # The released code files each regex under (the regex itself, opposite).
        assert not isinstance(characters, re.Pattern)
        assert all(isinstance(character, str) for character in characters)
        assert isinstance(opposite, bool)
    keys = set(cache)
    parsed(print_page)
    assert set(cache) == keys  # a second parse builds nothing new


def test_installing_twice_keeps_the_cache_it_has(cache_restored):
    tinyhtml5_fix.install()
    cache = inputstream.characters_until_regex
    tinyhtml5.parse("<p>warm</p>")
    tinyhtml5_fix.install()
    assert inputstream.characters_until_regex is cache and cache


def test_the_pdf_module_installs_the_fix():
    import sheets.characters.pdf  # noqa: F401  (installs at import)

    assert isinstance(inputstream.characters_until_regex, tinyhtml5_fix.CharsUntilRegexes)
