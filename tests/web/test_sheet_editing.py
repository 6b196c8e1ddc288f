"""Editing a SWd10 sheet: htmx fragments, plain form posts, bad input and stale versions."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sheets.history.models import Revision

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


def test_the_sheet_shows_every_attribute_and_ability_as_dots(player_client, swd10_character):
    page = player_client.get(reverse("character_sheet", args=[swd10_character.pk]))
    text = page.content.decode()
    for label in ("Strength", "Wits", "Alertness", "Pilot (ships/speeders)", "Lore: Wilderness"):
        assert label in text
    # Each row of dots is one radio group: 9 attributes of 1 to 5; 49 abilities (3 lores of
    # your own) and 6 Force knowledges of 0 to 5; Power and the two sides of 0 to 10 and
    # Willpower of 1 to 10 (L7-69).
    rows_of_dots = re.findall(r'<span class="dots">(.*?)</span>', text)
    radios = sum(row.count('<input type="radio"') for row in rows_of_dots)
    assert radios == 9 * 5 + 49 * 6 + 6 * 6 + 3 * 11 + 10
    for header in ("Player", "Chronicle", "Nature", "Demeanor", "Species", "Destiny points"):
        assert f">{header}</label>" in text


def test_clicking_a_dot_with_htmx_returns_the_row_and_the_budget_in_one_fragment(
    player_client, swd10_character
):
    response = edit(
        player_client, swd10_character, {"edit": "attr.dexterity=3", "version": 1}, **HTMX
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in text
    assert 'id="trait-attr-dexterity" hx-swap-oob="true"' in text
    assert re.search(r'name="attr.dexterity" value="3" checked', text)
    assert 'id="budget"' in text and 'id="sheet-version" value="2"' in text
    # Physical now has 2 of 6 extra dots placed.
    assert "Physical: 4 of 6 dots still to place." in text
    assert response["Vary"] == "HX-Request, Cookie" or "HX-Request" in response["Vary"]
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["attributes"]["dexterity"] == 3


def test_the_budget_reports_an_ability_above_three_beside_it(player_client, swd10_character):
    response = edit(player_client, swd10_character, {"edit": "abil.dodge=4", "version": 1}, **HTMX)
    text = response.content.decode()
    assert "Dodge is 4; no ability may be above 3 at creation." in text
    assert "1 rule broken" in text


def test_without_javascript_a_dot_posts_a_form_and_redirects_to_the_sheet(
    player_client, swd10_character
):
    response = edit(player_client, swd10_character, {"edit": "abil.brawl=2", "version": 1})
    assert response.status_code == 302
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["abilities"]["brawl"] == 2


def test_the_details_button_saves_every_header_field_at_once(player_client, swd10_character):
    response = edit(
        player_client,
        swd10_character,
        {
            "save": "details",
            "version": 1,
            "character.name": "Kira Dane",
            "info.player": "Ana",
            "info.species": "Zabrak",
            "info.destiny_points": "2",
        },
    )
    assert response.status_code == 302
    swd10_character.refresh_from_db()
    info = swd10_character.sheet["info"]
    assert (info["player"], info["species"], info["destiny_points"]) == ("Ana", "Zabrak", 2)
    assert swd10_character.version == 2


def test_a_priority_button_moves_the_budget_and_rerenders_its_section(
    player_client, swd10_character
):
    response = edit(
        player_client, swd10_character, {"edit": "prio.attributes.mental=0", "version": 1}, **HTMX
    )
    text = response.content.decode()
    # Both priorities swapped places: their two rows are swapped, with the budget.
    assert 'id="trait-prio-attributes-mental" hx-swap-oob="true"' in text
    assert 'id="trait-prio-attributes-physical" hx-swap-oob="true"' in text
    assert "Mental (primary)" in text
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["priorities"]["attributes"][0] == "mental"


def test_changing_a_rule_reading_is_stored_and_shown(player_client, swd10_character):
    response = edit(
        player_client,
        swd10_character,
        {"only": "setting.attribute_free_dot", "setting.attribute_free_dot": "False", "version": 1},
        **HTMX,
    )
    assert 'id="section-readings" hx-swap-oob="true"' in response.content.decode()
    swd10_character.refresh_from_db()
    assert swd10_character.rule_settings == {"attribute_free_dot": False}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"edit": "attr.wits=lots"}, "Wits: “lots” is not a whole number."),
        ({"edit": "attr.wits=9"}, "Wits runs from 1 to 5; 9 is outside it."),
        ({"edit": "abil.jedi_mind_trick=2"}, "is not a trait of a SWd10 sheet."),
        # Experience is the ledger's: the sheet refuses any value typed into it.
        (
            {"only": "info.experience", "info.experience": "ten"},
            "Experience is kept on the Advancement page",
        ),
        ({"only": "character.name", "character.name": " "}, "A character needs a name."),
        (
            {"only": "setting.attribute_free_dot", "setting.attribute_free_dot": "maybe"},
            "choose one of",
        ),
        ({"only": "setting.cosmic", "setting.cosmic": "1"}, "is not a rule reading"),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_bad_input_gets_a_message_beside_the_field_and_changes_nothing(
    player_client, swd10_character, data, message, htmx
):
    before = (swd10_character.name, swd10_character.sheet, swd10_character.rule_settings)
    response = edit(player_client, swd10_character, data | {"version": 1}, **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 400)
    text = response.content.decode()
    assert message.replace("“", "&ldquo;") in text or message in text
    assert 'role="alert"' in text
    swd10_character.refresh_from_db()
    assert (swd10_character.name, swd10_character.sheet, swd10_character.rule_settings) == before
    assert swd10_character.version == 1
    assert Revision.objects.filter(character=swd10_character).count() == 1


def test_a_refused_text_field_keeps_what_was_typed(player_client, swd10_character):
    response = edit(
        player_client,
        swd10_character,
        {"only": "info.destiny_points", "info.destiny_points": "many", "version": 1},
        **HTMX,
    )
    assert 'value="many"' in response.content.decode()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_stale_edit_from_a_second_tab_is_refused_and_the_current_values_shown(
    player_client, swd10_character, htmx
):
    edit(player_client, swd10_character, {"edit": "attr.strength=3", "version": 1})
    response = edit(
        player_client,
        swd10_character,
        {"edit": "attr.strength=2", "version": 1},
        **(HTMX if htmx else {}),
    )
    text = response.content.decode()
    assert "This sheet was changed elsewhere (you edited version 1, it is now version 2)" in text
    assert re.search(r'name="attr.strength" value="3" checked', text)
    if htmx:
        assert response["HX-Retarget"] == "#sheet"
    else:
        assert response.status_code == 409
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["attributes"]["strength"] == 3
    assert swd10_character.version == 2


def test_an_edit_without_a_version_is_refused_as_stale(player_client, swd10_character):
    response = edit(player_client, swd10_character, {"edit": "attr.strength=3"})
    assert response.status_code == 409
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["attributes"]["strength"] == 1


def test_an_edit_that_changes_nothing_does_not_bump_the_version(player_client, swd10_character):
    edit(player_client, swd10_character, {"edit": "attr.strength=1", "version": 1})
    swd10_character.refresh_from_db()
    assert swd10_character.version == 1
    assert swd10_character.revisions.count() == 1


def test_every_change_is_a_revision_with_author_before_and_after(
    player_client, swd10_character, player
):
    edit(player_client, swd10_character, {"edit": "abil.stealth=2", "version": 1})
    revision = swd10_character.revisions.first()
    assert revision.author == player
    assert revision.version == 2
    assert revision.ops == [
        {"op": "set", "path": ["sheet", "abilities", "stealth"], "before": 0, "after": 2}
    ]


def test_saving_the_readings_already_in_force_changes_nothing(player_client, swd10_character):
    response = edit(
        player_client,
        swd10_character,
        {"save": "readings", "version": 1, "setting.attribute_free_dot": "True"},
    )
    assert response.status_code == 302
    swd10_character.refresh_from_db()
    assert (swd10_character.version, swd10_character.rule_settings) == (1, {})
