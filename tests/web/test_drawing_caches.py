"""The drawings kept between requests never change what a page or an edit response says.

A sheet row is drawn once per content (`sheet_row`) and an edit response keeps the section
bodies it drew, to compare the next edit against, with what it found changed and sent
(`layouts.edit_context`, `layouts.drawn_swaps`). Each test draws
the same thing twice, once from those caches and once with every one of them emptied, and
checks the two are the same, byte for byte (CSRF tokens aside: masked afresh each time). It
also checks the warm drawing really came from a cache, or it would prove nothing.
"""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.urls import reverse

from sheets.characters import layouts
from sheets.characters.layouts import forget_drawings
from sheets.characters.services import character_create
from sheets.characters.templatetags.sheet_rows import _drawn
from tests.web.test_edit_swaps import EDITS, HTMX, _start

# A CSRF token as a hidden input and in the hx-headers htmx sends.
_CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*(")')


def _even(markup: bytes) -> str:
    return _CSRF.sub(r"\1\2", markup.decode())


def _character(player, case: str):
    return character_create(owner=player, name="Demo", system=case.split()[0], sheet=_start(case))


@pytest.mark.parametrize("case", sorted(EDITS))
def test_a_page_drawn_from_kept_rows_is_the_page_drawn_afresh(player_client, player, case):
    character = _character(player, case)
    url = reverse("character_sheet", args=[character.pk])
    forget_drawings()
    cold = player_client.get(url).content
    hits = _drawn.cache_info().hits
    warm = player_client.get(url).content
    assert _drawn.cache_info().hits > hits
    assert _even(warm) == _even(cold)


@pytest.mark.parametrize("case", sorted(EDITS))
def test_an_edit_compared_with_kept_bodies_answers_as_one_drawn_afresh(player_client, player, case):
    """Each edit of the sequence is made twice from the same stored sheet: once as it comes,
    after the edit before it (whose bodies it compares against are kept), then again with
    the caches emptied, in a savepoint rolled back in between."""
    character = _character(player, case)
    player_client.get(reverse("character_sheet", args=[character.pk]))
    edit_url = reverse("character_edit", args=[character.pk])
    kept_before = answered_from_kept = 0
    for edit in EDITS[case]:
        character.refresh_from_db()
        post = {"edit": edit, "version": character.version}
        with transaction.atomic():
            kept_before += sum(1 for key in layouts._BODIES if key[0] and key[0][1] == character.pk)
            warm = player_client.post(edit_url, post, **HTMX).content
            transaction.set_rollback(True)
        forget_drawings()
        with transaction.atomic():
            cold = player_client.post(edit_url, post, **HTMX).content
            transaction.set_rollback(True)
        assert _even(warm) == _even(cold), edit
        # Then make it for real, so the next edit starts from it with warm caches: the
        # same two drawings as just now, so what changed and what was sent come from
        # what is kept (no new comparison is kept), and answer the same.
        compared = len(layouts._CHANGED)
        real = player_client.post(edit_url, post, **HTMX)
        assert real.status_code == 200 and _even(real.content) == _even(cold), edit
        answered_from_kept += len(layouts._CHANGED) == compared
    assert kept_before, "no edit found a kept body to compare against"
    assert answered_from_kept, "no edit answered from the kept comparisons"
