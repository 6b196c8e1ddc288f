"""Search and filters on My characters and My campaigns (issue 24): a GET form, applied in
the database, kept in the URL; an empty result says so; odd input leaves that filter out
with a message beside its field, never a server error."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from sheets.campaigns.services import campaign_create, character_bring
from sheets.characters.services import (
    character_apply_edits,
    character_approve,
    character_create,
    character_submit,
)

pytestmark = pytest.mark.django_db

CHARACTERS = reverse("character_list")
CAMPAIGNS = reverse("campaign_list")


def listed(page: str) -> list[str]:
    """The names in the list's first column, in order."""
    return re.findall(r'<td class="typed"><a href="[^"]+">([^<]+)</a></td>', page)


def get(client, url: str, **query) -> str:
    response = client.get(f"{url}?{urlencode(query)}" if query else url)
    assert response.status_code == 200
    return response.content.decode()


def error_beside(page: str, key: str) -> str:
    """The message shown under a filter's field, which the field names as its description."""
    assert f'aria-describedby="filter-{key}-error"' in page
    found = re.search(rf'<span class="error" id="filter-{key}-error">([^<]+)</span>', page)
    assert found, f"no message beside {key}"
    return found.group(1)


@pytest.fixture
def roster(player, gm, table, swd10_character):
    """Kira Dane (SWd10, at the GM's table), Jax Orrin (ORE, no table), Kira Vos (WEG, no
    table)."""
    character_create(owner=player, name="Jax Orrin", system="ore")
    character_create(owner=player, name="Kira Vos", system="weg_d6")
    return table


def test_a_name_search_keeps_the_characters_whose_name_holds_the_text_in_any_case(
    player_client, roster
):
    page = get(player_client, CHARACTERS, q="  kira ")
    assert listed(page) == ["Kira Dane", "Kira Vos"]
    # The search stays in the form, as read (spaces collapsed).
    assert 'name="q" type="search" maxlength="100" value="kira"' in page


def test_the_system_campaign_and_review_filters_combine_with_the_search(
    player_client, player, gm, roster, swd10_character
):
    assert listed(get(player_client, CHARACTERS, system="weg_d6")) == ["Kira Vos"]
    assert listed(get(player_client, CHARACTERS, campaign=roster.pk)) == ["Kira Dane"]
    assert listed(get(player_client, CHARACTERS, campaign="none")) == ["Jax Orrin", "Kira Vos"]
    assert listed(get(player_client, CHARACTERS, q="kira", campaign="none")) == ["Kira Vos"]
    page = get(player_client, CHARACTERS, system="ore", campaign="none")
    assert listed(page) == ["Jax Orrin"]
    # The choices made are the ones selected when the page comes back.
    assert '<option value="ore" selected>' in page
    assert '<option value="none" selected>' in page
    assert f'<option value="{roster.pk}">Outer Rim</option>' in page

    assert listed(get(player_client, CHARACTERS, review="draft")) == ["Kira Dane"]
    character_submit(user=player, character_id=swd10_character.pk, version=1)
    assert listed(get(player_client, CHARACTERS, review="draft")) == []
    assert listed(get(player_client, CHARACTERS, review="submitted")) == ["Kira Dane"]


def test_approved_and_changed_since_approval_are_told_apart_as_the_list_labels_them(
    player_client, player, gm, roster, swd10_character
):
    character_submit(user=player, character_id=swd10_character.pk, version=1)
    character_approve(user=gm, character_id=swd10_character.pk, version=1)
    assert listed(get(player_client, CHARACTERS, review="approved")) == ["Kira Dane"]
    assert listed(get(player_client, CHARACTERS, review="changed")) == []
    swd10_character.refresh_from_db()
    character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"character.name": "Kira Dane II"},
        expected_version=swd10_character.version,
    )
    assert listed(get(player_client, CHARACTERS, review="approved")) == []
    assert listed(get(player_client, CHARACTERS, review="changed")) == ["Kira Dane II"]


def test_a_filter_shows_only_the_players_own_characters_even_at_a_shared_table(
    client, other_player, roster
):
    character = character_create(owner=other_player, name="Mara Kira", system="swd10")
    character_bring(user=other_player, campaign_id=roster.pk, character_id=character.pk)
    client.force_login(other_player)
    assert listed(get(client, CHARACTERS, campaign=roster.pk)) == ["Mara Kira"]
    assert listed(get(client, CHARACTERS, q="kira")) == ["Mara Kira"]


def test_a_search_with_like_wildcards_matches_them_literally(player_client, player, roster):
    character_create(owner=player, name="100% Kira", system="swd10")
    assert listed(get(player_client, CHARACTERS, q="%")) == ["100% Kira"]
    assert listed(get(player_client, CHARACTERS, q="_")) == []


def test_no_match_says_so_and_offers_the_whole_list(player_client, roster):
    page = get(player_client, CHARACTERS, q="Vader")
    assert listed(page) == []
    assert "No character matches these filters." in page
    assert f'<a href="{CHARACTERS}">Show all your characters</a>' in page
    # Nobody is told to create a first character when they have three.
    assert "no characters yet" not in page


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("system", "dnd5e"),
        ("review", "'; DROP TABLE sheets_character; --"),
        ("campaign", "999999"),
        ("campaign", "١"),  # an Arabic-Indic one: not an ASCII digit
        ("campaign", "-1"),
    ],
)
def test_an_unknown_choice_is_left_out_with_a_message_beside_its_field(
    player_client, roster, key, value
):
    page = get(player_client, CHARACTERS, **{key: value})
    assert listed(page) == ["Jax Orrin", "Kira Dane", "Kira Vos"]
    assert "is not one of the choices: this filter is left out." in error_beside(page, key)


def test_another_players_table_is_no_choice_on_my_characters(
    player_client, other_gm, other_table, roster
):
    page = get(player_client, CHARACTERS, campaign=other_table.pk)
    assert "Core Worlds" not in page
    assert listed(page) == ["Jax Orrin", "Kira Dane", "Kira Vos"]
    error_beside(page, "campaign")


def test_a_search_that_cannot_be_stored_is_left_out_with_a_message(player_client, roster):
    page = get(player_client, CHARACTERS, q="Kira\x00Dane")
    assert listed(page) == ["Jax Orrin", "Kira Dane", "Kira Vos"]
    assert error_beside(page, "q") == (
        "The search text holds a character that cannot be stored. Showing every name."
    )
    page = get(player_client, CHARACTERS, q="K" * 101)
    assert "limited to 100 characters" in error_beside(page, "q")
    assert listed(page) == ["Jax Orrin", "Kira Dane", "Kira Vos"]


def test_a_repeated_parameter_reads_its_last_value_and_an_empty_one_is_no_filter(
    player_client, roster
):
    assert listed(get(player_client, f"{CHARACTERS}?system=ore&system=weg_d6")) == ["Kira Vos"]
    page = get(player_client, CHARACTERS, q="", system="", campaign="", review="")
    assert listed(page) == ["Jax Orrin", "Kira Dane", "Kira Vos"]
    assert 'class="error"' not in page and "Show all" not in page


def test_the_filter_form_is_a_get_form_without_script(player_client, roster):
    page = get(player_client, CHARACTERS)
    form = re.search(r'<form method="get" class="filters" role="search"[^>]*>', page)
    assert form and "action=" not in form.group(0)
    for key in ("q", "system", "campaign", "review"):
        assert f'<label for="filter-{key}">' in page and f'name="{key}"' in page


def test_a_player_without_characters_is_asked_to_create_one_not_shown_filters(player_client):
    page = get(player_client, CHARACTERS)
    assert "You have no characters yet." in page
    assert 'class="filters"' not in page


# My campaigns ---------------------------------------------------------------------------


@pytest.fixture
def tables(player, table):
    """Outer Rim (SWd10, the player's a member), Hutt Space (ORE) and Hutt Cartel (WEG),
    both the player's own."""
    campaign_create(user=player, name="Hutt Space", system="ore")
    campaign_create(user=player, name="Hutt Cartel", system="weg_d6")
    return table


def test_my_campaigns_filters_by_name_and_system(player_client, tables):
    assert listed(get(player_client, CAMPAIGNS)) == ["Hutt Cartel", "Hutt Space", "Outer Rim"]
    assert listed(get(player_client, CAMPAIGNS, q="hutt")) == ["Hutt Cartel", "Hutt Space"]
    page = get(player_client, CAMPAIGNS, q="hutt", system="ore")
    assert listed(page) == ["Hutt Space"]
    assert 'value="hutt"' in page and '<option value="ore" selected>' in page


def test_my_campaigns_never_lists_a_table_the_player_is_not_at(player_client, tables, other_table):
    assert listed(get(player_client, CAMPAIGNS, q="core")) == []


def test_my_campaigns_says_when_nothing_matches(player_client, tables):
    page = get(player_client, CAMPAIGNS, system="o3d10")
    assert listed(page) == []
    assert "No campaign matches these filters." in page
    assert "not at any table yet" not in page


@pytest.mark.parametrize(("key", "value"), [("system", "SWD10"), ("q", "\x1b[2J")])
def test_my_campaigns_leaves_out_an_unreadable_filter_with_a_message(
    player_client, tables, key, value
):
    page = get(player_client, CAMPAIGNS, **{key: value})
    assert listed(page) == ["Hutt Cartel", "Hutt Space", "Outer Rim"]
    error_beside(page, key)
