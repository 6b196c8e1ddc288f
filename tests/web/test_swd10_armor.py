"""SWd10 armor and shields on the web (000:L183-230): the sheet's section, its edits through
the one service, the soak rolls offered, and the one-page PDF that prints them."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.swd10 import demo_sheet
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
VEST = {"name": "Blast vest", "kind": "armor", "rating": 3, "lost": 0, "worn": True}
SHIELD = {"name": "Belt shield", "kind": "shield", "rating": 2, "lost": 0, "worn": True}


@pytest.fixture
def hero(player):
    return character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())


@pytest.fixture
def armored(player):
    sheet = demo_sheet() | {"armor": [VEST, SHIELD]}
    return character_create(owner=player, name="Tarn Vos", system="swd10", sheet=sheet)


def post(client, character, data, **headers):
    character.refresh_from_db()
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {"version": character.version} | data,
        **headers,
    )


def test_the_sheet_has_an_armor_section_with_an_add_row(player_client, hero):
    text = player_client.get(reverse("character_sheet", args=[hero.pk])).content.decode()
    assert "Armor and shields" in text
    assert 'name="armor.add"' in text and "No armor or shield yet." in text


def test_adding_armor_joins_kind_and_name_and_swaps_the_section(player_client, hero):
    response = post(
        player_client,
        hero,
        {"only": "armor.add", "armor.add": "armor", "armor.add.1": "Blast vest"},
        **HTMX,
    )
    text = response.content.decode()
    assert 'id="section-armor-body" hx-swap-oob="true"' in text
    assert "Blast vest" in text
    hero.refresh_from_db()
    assert hero.sheet["armor"] == [
        {"name": "Blast vest", "kind": "armor", "rating": 1, "lost": 0, "worn": False}
    ]


def test_the_armor_rows_show_class_penalty_and_soak(player_client, armored):
    text = player_client.get(reverse("character_sheet", args=[armored.pk])).content.decode()
    assert "Medium armor: −2 dice on Dexterity-based rolls while worn" in text
    assert "Stamina 3 (bashing and lethal), armor 3, shield 2, at difficulty 6" in text


def test_a_rating_out_of_range_is_refused_beside_the_field_and_changes_nothing(
    player_client, armored
):
    response = post(player_client, armored, {"edit": "armor.0.rating=9"}, **HTMX)
    text = response.content.decode()
    assert "Blast vest rating runs from 1 to 6" in text
    armored.refresh_from_db()
    assert armored.version == 1 and armored.sheet["armor"][0] == VEST


def test_the_roll_menu_offers_a_soak_roll_for_stamina_armor_and_shield(player_client, armored):
    text = player_client.get(reverse("character_sheet", args=[armored.pk])).content.decode()
    for label in ("Soak: Stamina", "Soak: Blast vest", "Soak: Belt shield"):
        assert label in text


def test_the_pdf_prints_the_armor_its_rating_soak_and_penalty_on_one_page(player_client, armored):
    response = player_client.get(reverse("character_pdf", args=[armored.pk]))
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "Armor and shields" in text
    rows = text.splitlines()
    assert any(line.startswith("Blast vest") and "3 M" in line and "−2" in line for line in rows)
    assert any(line.startswith("Belt shield") for line in rows)
    assert "Soak at 6: Stamina 3 (bashing and lethal), armor 3, shield 2" in text
