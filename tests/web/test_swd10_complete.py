"""The whole SWd10 sheet on the web: merits, Force abilities, health, languages, weapons,
the stage switch and the print, each edit through the one service."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.swd10 import demo_sheet
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def hero(player):
    return character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())


def post(client, character, data, **headers):
    character.refresh_from_db()
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {"version": character.version} | data,
        **headers,
    )


def test_adding_a_merit_joins_its_points_and_choice_and_swaps_the_section(player_client, hero):
    response = post(
        player_client,
        hero,
        {
            "only": "merit.add",
            "merit.add": "acute_senses",
            "merit.add.1": "1",
            "merit.add.2": "sight",
        },
        **HTMX,
    )
    text = response.content.decode()
    assert 'id="section-merits-body" hx-swap-oob="true"' in text
    assert "Acute Senses (sight)" in text
    hero.refresh_from_db()
    assert hero.sheet["merits"][-1] == {"slug": "acute_senses", "value": 1, "choice": "sight"}


def test_a_merit_with_unmet_prerequisites_is_refused_in_its_section(player_client, hero):
    response = post(player_client, hero, {"only": "merit.add", "merit.add": "juyo"}, **HTMX)
    text = response.content.decode()
    assert "Juyo needs Melee 4; you have 2" in text
    assert 'role="alert"' in text
    hero.refresh_from_db()
    assert hero.version == 1 and len(hero.sheet["merits"]) == 3


def test_a_flaw_total_over_six_is_refused_without_javascript_too(player_client, hero):
    post(player_client, hero, {"only": "merit.add", "merit.add": "blind"})
    response = post(player_client, hero, {"only": "merit.add", "merit.add": "shy"})
    assert response.status_code == 400
    assert "at most 6 are allowed" in response.content.decode()
    hero.refresh_from_db()
    assert [m["slug"] for m in hero.sheet["merits"]][-1] == "blind"


def test_a_force_ability_is_added_and_removed(player_client, hero):
    post(player_client, hero, {"edit": "fa.remove=battle_strike"})
    response = post(player_client, hero, {"only": "fa.add", "fa.add": "battle_strike"}, **HTMX)
    assert 'id="section-force_abilities-body" hx-swap-oob="true"' in response.content.decode()
    hero.refresh_from_db()
    assert hero.sheet["force_abilities"] == ["battle_strike"]


def test_clicking_a_health_box_marks_damage_and_shows_the_penalty(player_client, hero):
    response = post(player_client, hero, {"edit": "health=4"}, **HTMX)
    text = response.content.decode()
    assert "Now: Wounded, -2 dice" in text
    assert "Wounded: cannot run" in text
    hero.refresh_from_db()
    assert hero.sheet["health_marked"] == 4


def test_languages_weapons_and_techniques_are_rows_of_their_own(player_client, hero):
    post(player_client, hero, {"only": "language.add", "language.add": "Shyriiwook"})
    post(player_client, hero, {"edit": "language.2.read=on"})
    post(player_client, hero, {"only": "weapon.add", "weapon.add": "Bowcaster"})
    post(player_client, hero, {"only": "weapon.2.damage", "weapon.2.damage": "4"})
    hero.refresh_from_db()
    assert hero.sheet["languages"][2] == {"name": "Shyriiwook", "read": True, "write": False}
    assert hero.sheet["weapons"][2]["damage"] == 4
    response = post(player_client, hero, {"only": "language.add", "language.add": "basic"}, **HTMX)
    assert "basic is already on the sheet." in response.content.decode()


def test_saving_every_field_never_adds_the_add_rows(player_client, hero):
    response = post(
        player_client,
        hero,
        {"save": "all", "info.player": "Ana", "merit.add": "giant", "language.add": "Huttese"},
    )
    assert response.status_code == 302
    hero.refresh_from_db()
    assert hero.sheet["info"]["player"] == "Ana"
    assert "giant" not in [m["slug"] for m in hero.sheet["merits"]]


def test_finishing_creation_switches_the_budget_to_experience(player_client, hero):
    post(player_client, hero, {"only": "info.experience", "info.experience": "30"})
    response = post(player_client, hero, {"edit": "stage=play"}, **HTMX)
    text = response.content.decode()
    assert "<h2>Experience</h2>" in text
    response = post(player_client, hero, {"edit": "attr.dexterity=5"}, **HTMX)
    text = response.content.decode()
    assert "Dexterity 4 → 5: new value 5 × 4 = 20 XP" in text
    assert 'id="pool-xp"' in text
    response = post(player_client, hero, {"edit": "attr.dexterity=3"}, **HTMX)
    assert "was 4 when creation ended" in response.content.decode()
    hero.refresh_from_db()
    assert hero.sheet["attributes"]["dexterity"] == 5


def test_the_print_carries_every_part_of_the_sheet(player_client, hero):
    post(player_client, hero, {"only": "merit.add", "merit.add": "short"})
    post(player_client, hero, {"edit": "health=2"})
    response = player_client.get(reverse("character_pdf", args=[hero.pk]))
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for expected in (
        "Force Sensitivity",
        "Cat-like balance",
        "Short",
        "Battle strike",
        "Blaster pistols",
        "Basic",
        "Huttese",
        "Heavy blaster pistol",
        "Protect the crew",
        "Loyalty",
        "Willpower",
        "☒",  # two health levels marked
    ):
        assert expected in text, expected


def test_under_disfigured_the_appearance_row_shows_two_dots(player_client, player):
    sheet = demo_sheet()
    sheet["merits"].append({"slug": "disfigured", "value": 2, "choice": ""})
    character = character_create(owner=player, name="Scarred", system="swd10", sheet=sheet)
    text = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert 'id="trait-attr-appearance-2"' in text
    assert 'id="trait-attr-appearance-3"' not in text
    assert "The Disfigured flaw caps Appearance at 2." in text


def test_a_sheet_in_play_prints_its_priorities_and_the_xp_spent(player_client, hero):
    post(player_client, hero, {"only": "info.experience", "info.experience": "30"})
    post(player_client, hero, {"edit": "stage=play"})
    post(player_client, hero, {"edit": "attr.dexterity=5"})
    response = player_client.get(reverse("character_pdf", args=[hero.pk]))
    assert response.status_code == 200
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    # No creation pool is left in play; the groups still print the dots their priority gave.
    for expected in ("Physical 6", "Social 4", "Mental 3", "XP 20 of 30 spent", "●●●●●"):
        assert expected in text, expected
