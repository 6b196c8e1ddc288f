"""Error pages a newcomer lands on say what happened and how to go back, on any screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

WAYS_BACK = ('href="/"', 'href="/characters/"', 'href="/campaigns/"')


def assert_a_whole_page(text: str) -> None:
    # Laid out like every other page: sized for a phone, styled, with the site's name.
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
    assert "css/app.css" in text
    assert 'class="brand"' in text
    for link in WAYS_BACK:
        assert link in text


@pytest.mark.django_db
def test_an_unknown_address_answers_a_404_page_that_says_so_and_leads_back(player_client):
    response = player_client.get("/no-such-page/")
    assert response.status_code == 404
    text = response.content.decode()
    assert "This page does not exist, or it is not yours to see." in text
    # A URL that matched no route is told plainly, not by Django's class name.
    assert "Resolver404" not in text
    assert_a_whole_page(text)


@pytest.mark.django_db
def test_a_sheet_one_may_not_see_answers_the_404_page_with_its_reason(
    client, other_player, swd10_character
):
    client.force_login(other_player)
    response = client.get(reverse("character_sheet", args=[swd10_character.pk]))
    assert response.status_code == 404
    text = response.content.decode()
    assert "No such character." in text
    assert "Nothing here" in text
    assert_a_whole_page(text)


@pytest.mark.django_db
def test_a_refused_gm_page_answers_a_403_page_with_the_reason(player_client, table):
    response = player_client.get(reverse("campaign_edit", args=[table.pk]))
    assert response.status_code == 403
    text = response.content.decode()
    assert "Only a GM of this campaign may do this." in text
    assert "Nothing was changed." in text
    assert_a_whole_page(text)


@pytest.mark.django_db
def test_an_expired_form_answers_a_page_that_says_nothing_was_saved(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("character_new"), {"name": "Forged", "system": "swd10"})
    assert response.status_code == 403
    text = response.content.decode()
    assert "This form has expired" in text
    assert_a_whole_page(text)


def test_the_500_page_draws_without_a_database_or_a_request_context():
    # No django_db mark: pytest-django refuses any query, so a page that needed the
    # database (a user, a session) would raise here instead of drawing.
    response = server_error(RequestFactory().get("/characters/"))
    assert response.status_code == 500
    text = response.content.decode()
    assert "Something broke on our side" in text
    assert "Log in" not in text  # nothing that guesses who is looking
    assert_a_whole_page(text)


@pytest.mark.django_db
def test_every_page_links_our_own_icon_and_the_icon_files_exist(client):
    text = client.get(reverse("home")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in text
    svg = finders.find("favicon.svg")
    assert svg and Path(svg).read_text(encoding="utf-8").startswith("<svg")
    ico = finders.find("favicon.ico")
    assert ico and Path(ico).read_bytes()[:4] == b"\x00\x00\x01\x00"


@pytest.mark.django_db
def test_favicon_ico_where_browsers_look_leads_to_our_icon(client):
    # It answered 404 on every page (issue 24, item 20); pages link only the SVG, lighter.
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.ico"
    assert finders.find(response["Location"].removeprefix("/static/"))
