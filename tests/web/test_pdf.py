"""The printed SWd10 sheet: one A4 page, real text, the character's values in it; and a
render's pause of the cycle collector."""

from __future__ import annotations

import gc
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.swd10 import demo_sheet
from sheets.characters.services import character_create
from sheets.printing.pdf import COLLECTOR_PAUSE, _render

pytestmark = pytest.mark.django_db

A4_POINTS = (595, 842)


@pytest.fixture
def printed(player_client, player):
    character = character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())
    response = player_client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="kira-dane.pdf"'
    return response.content


def test_the_pdf_is_one_a4_page(printed):
    reader = PdfReader(io.BytesIO(printed))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == A4_POINTS


def test_the_pdf_text_holds_the_name_header_and_dots(printed):
    text = PdfReader(io.BytesIO(printed)).pages[0].extract_text()
    for expected in (
        "STAR WARS",
        "Kira Dane",
        "Demo player",
        "Shadows of the Outer Rim",
        "Dexterity",
        "Pilot (ships/speeders)",
        "FORCE KNOWLEDGES",
        "Crippled (only 1 m / round)",
        "●●●●○",  # Dexterity 4
        "●●●○○",  # Acrobatics 3
    ):
        assert expected in text, expected


@pytest.fixture
def collector_on():
    """Each test starts with the cycle collector on and leaves it as it found it."""
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


def test_a_render_leaves_no_cycles_for_a_full_collection(player, collector_on):
    character = character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())
    _render(character)  # warm: templates, fonts, stylesheets
    gc.collect()
    assert _render(character)[:5] == b"%PDF-"
    assert gc.isenabled()
    # A render left alone makes 20,000 to 45,000 objects in cycles; by now they are freed.
    assert gc.collect() < 100


def test_a_render_leaves_the_collector_as_it_was(player, collector_on):
    character = character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())
    gc.disable()
    _render(character)
    assert not gc.isenabled()
    gc.enable()
    with pytest.raises(RuntimeError), COLLECTOR_PAUSE.held():
        assert not gc.isenabled()
        raise RuntimeError("a failed render")
    assert gc.isenabled()


def test_the_collector_stays_off_until_the_last_render_ends(collector_on):
    with COLLECTOR_PAUSE.held():
        with COLLECTOR_PAUSE.held():
            assert not gc.isenabled()
        assert not gc.isenabled()  # another render still runs
    assert gc.isenabled()
