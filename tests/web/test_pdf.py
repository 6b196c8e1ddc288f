"""The printed SWd10 sheet: one A4 page, real text, the character's values in it."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.swd10 import demo_sheet
from sheets.characters.services import character_create

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
