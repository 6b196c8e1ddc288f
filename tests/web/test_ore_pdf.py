"""The printed Star O.R.E. sheet: A4, the seed's layout, real text, wound boxes drawn."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

import rulesets.ore as ore
from rulesets.core import resolve_settings
from rulesets.ore.data import SETTINGS
from sheets.characters.services import character_create
from sheets.printing.pdf import character_document

pytestmark = pytest.mark.django_db

A4_POINTS = (595, 842)


def wounded_demo() -> dict:
    sheet, settings = ore.demo_sheet(), resolve_settings(SETTINGS, {})
    for n in range(5):
        sheet = ore.apply_edit(sheet, f"wound.right_leg.{n}", "killing", settings)
    for n in range(4):
        sheet = ore.apply_edit(sheet, f"wound.head.{n}", "shock", settings)
    return sheet


@pytest.fixture
def printed(player_client, player):
    character = character_create(owner=player, name="Tavin Sol", system="ore", sheet=wounded_demo())
    response = player_client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="tavin-sol.pdf"'
    return response.content


def text_of(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def test_the_pdf_is_two_a4_pages(printed):
    reader = PdfReader(io.BytesIO(printed))
    assert len(reader.pages) == 2
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width)), round(float(box.height))) == A4_POINTS


def test_the_first_page_follows_the_seed_sheet_with_the_characters_values(printed):
    first, _second = text_of(printed)
    for expected in (
        "STAR O.R.E. CHARACTER SHEET",
        "NAME:",
        "NAME: Tavin Sol",
        "PLAYER:",
        "Demo player",
        "CAREER:",
        "Jedi Knight",
        "CHARACTER POINTS:",
        "EXPERIENCE POINTS (Total/Unspent):",
        "3 / 1",
        "MOTIVATIONS:",
        "Find her lost Padawan",
        "COORDINATION",
        "DARK SIDE POINTS (Base/Current):",
        "WILLPOWER (Base/Current):",
        "8 / 12",
        "FORCE POWERS/",
        "Lightsaber",
        "7d",  # Coordination 4d + Lightsaber 3d
        "Force Sense",
        "2d+1hd",
        "Blaster Defense",
        "ARMOR",
        "Thick furs or leathers",
        "WEAPONS",
        "width+3",
        "COMBAT MANEUVERS",
        "Called Shot",
        "-1d, set 1d",
        "Roll 2d+Spray",
    ):
        assert expected in first, expected


def test_the_second_page_draws_the_hit_locations_with_their_marks(printed):
    _first, second = text_of(printed)
    for expected in (
        "HIT LOCATIONS",
        "Right Leg",
        "7-8",
        "Torso",
        "DESTROYED",
        "DISABLED",
        "knocked out",
        "SPECIES",
        "Human",
        "LIGHTSABER FORMS",
        "Form III (Obi-Wan Kenobi): Riposte",
        "Session 1: held the clinic gate",
    ):
        assert expected in second, expected
    assert second.count("X") >= 5 and second.count("/") >= 5  # leg X X X X X, head / / / /, arm /


# --- every label prints whole (issue 13 item 6) --------------------------------------------


def overflowing_text(document) -> list[str]:
    """The pieces of text that run past the right edge of their table cell, on every page."""
    from weasyprint.formatting_structure import boxes

    def walk(box):
        yield box
        for child in getattr(box, "children", ()):
            yield from walk(child)

    found = []
    for page in document.pages:
        for cell in walk(page._page_box):
            if not isinstance(cell, boxes.TableCellBox):
                continue
            right = cell.position_x + cell.margin_left + cell.border_left_width
            right += cell.padding_width()
            found += [
                text.text
                for text in walk(cell)
                if isinstance(text, boxes.TextBox) and text.position_x + text.width > right + 0.01
            ]
    return found


def test_long_skill_names_print_whole_with_their_stat_and_dice(player_client, player):
    # Dice bought in play go through the ledger; the names are what this test is about.
    profession = "Profession [Smuggler and information broker]"
    sheet = ore.apply_edit(ore.demo_sheet(), "skill.add", profession, {})
    sheet = ore.apply_edit(sheet, "skill.profession_smuggler_and_information_broker", "2", {})
    character = character_create(owner=player, name="Tavin Sol", system="ore", sheet=sheet)
    url = reverse("character_edit", args=[character.pk])

    def post(trait: str, raw: str) -> None:
        character.refresh_from_db()
        data = {"only": trait, trait: raw, "version": character.version}
        response = player_client.post(url, data)
        assert response.status_code == 302, response.content.decode()[-3000:]

    post("skill.add", "Lore [Galactic politics]")
    character.refresh_from_db()
    assert overflowing_text(character_document(character)) == []
    pdf = player_client.get(reverse("character_pdf", args=[character.pk])).content
    first = " ".join(text_of(pdf)[0].split())
    for label in (
        "Language [Huttese] Brn 2d",
        "Pilot [Starfighter] Crd 1d",
        "Profession [Smuggler and information broker] Brn 2d",
        "Lore [Galactic politics] Brn 0d",
        "Meditation Cool 2d",
        "Brn Brains, Cmd Command",
    ):
        assert label in first, label
