"""The printed WEG d6 sheet: the classic template on A4, with the character's codes as text."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

import rulesets.weg_d6 as weg
from rulesets.weg_d6 import demo
from sheets.characters.models import Character

pytestmark = pytest.mark.django_db

A4_POINTS = (595, 842)


def _pdf(client, character) -> bytes:
    response = client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


@pytest.fixture
def printed(player_client, player):
    sheet = weg.demo_sheet()
    sheet["points"]["dark_side"] = 1
    sheet["wound"] = "wounded"
    sheet["force"]["sensitive"] = True
    sheet["force"]["control"] = 3
    sheet["force"]["powers"] = ["control_pain"]
    character = Character.objects.create(
        owner=player, name="Jax Durran", system="weg_d6", sheet=sheet
    )
    return _pdf(player_client, character)


def _text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_pdf_is_one_a4_page(printed):
    reader = PdfReader(io.BytesIO(printed))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == A4_POINTS


def test_the_pdf_has_the_name_the_attributes_with_skills_and_codes(printed):
    text = _text(printed)
    for expected in (
        "STAR WARS",
        "Jax Durran",
        "Smuggler",
        "DEXTERITY",
        "TECHNICAL",
        "Blaster",
        "5D+1",  # blaster
        "3D+2",  # Mechanical
        "YT-1300 transports",
        "6D+2",  # the specialization
        "Control pain",
    ):
        assert expected in text, expected
    # Skills print beneath their attribute, in the template's order.
    assert text.index("DEXTERITY") < text.index("Blaster") < text.index("MECHANICAL")


def test_the_pdf_has_move_force_points_and_wound_boxes(printed):
    text = _text(printed)
    for expected in (
        "Move",
        "Force-sensitive?",
        "☒ Yes",
        "Force Points",
        "Dark Side Points",
        "Character Points",
        "Wounded twice",
        "Mortally wounded",
        "Equipment".upper(),
        "BACKGROUND",
        "Flies a battered YT-1300",
    ):
        assert expected in text, expected
    assert "☒\nWounded" in text or "☒ Wounded" in text


def test_a_first_edition_droid_prints_its_equipment_and_skill_points(player_client, player):
    character = Character.objects.create(
        owner=player, name="R2 astromech", system="weg_d6", sheet=demo.demo_droid_sheet()
    )
    text = _text(_pdf(player_client, character))
    for expected in (
        "R2 astromech",
        "DROID TEMPLATE",
        "Skill points",
        "Starship repair",
        "7D",
        "Small arc welder",
        "building dice 34D of 35D",
    ):
        assert expected in text, expected
