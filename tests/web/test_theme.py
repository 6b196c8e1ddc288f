"""The colour theme switch (issue 24): light, dark, or following the system, kept in a
cookie so it holds logged out as well as logged in; the stylesheet draws both themes from
one set of custom properties and prints light."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

THEME = reverse("theme")
APP_CSS = Path(settings.BASE_DIR) / "static" / "css" / "app.css"


def html_tag(page: str) -> str:
    return re.search(r"<html[^>]*>", page).group(0)


def chosen(page: str) -> str:
    """The option the switch shows as selected ("system" when none is)."""
    select = re.search(r'<select id="theme" name="theme">(.*?)</select>', page, re.S).group(1)
    found = re.search(r'<option value="(\w+)" selected>', select)
    return found.group(1) if found else "system"


def test_a_visitor_logged_out_chooses_dark_and_every_page_then_says_so(client):
    response = client.post(
        THEME, {"theme": "dark"}, HTTP_REFERER="http://testserver/accounts/login/"
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    cookie = response.cookies["theme"]
    assert cookie.value == "dark"
    assert cookie["max-age"] == 365 * 24 * 3600
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    for url in (reverse("home"), reverse("login")):
        page = client.get(url).content.decode()
        assert html_tag(page) == '<html lang="en" data-theme="dark">'
        assert chosen(page) == "dark"


def test_a_logged_in_player_keeps_light_and_system_forgets_the_choice(player_client):
    player_client.post(THEME, {"theme": "light"})
    page = player_client.get(reverse("character_list")).content.decode()
    assert 'data-theme="light"' in html_tag(page) and chosen(page) == "light"

    response = player_client.post(THEME, {"theme": "system"})
    assert response.cookies["theme"].value == "" and response.cookies["theme"]["max-age"] == 0
    page = player_client.get(reverse("character_list")).content.decode()
    assert html_tag(page) == '<html lang="en">' and chosen(page) == "system"


def test_without_a_choice_a_page_follows_the_system(client):
    page = client.get(reverse("home")).content.decode()
    assert html_tag(page) == '<html lang="en">'
    assert chosen(page) == "system"


@pytest.mark.parametrize("value", ["sepia", "", "<b>dark</b>", "dark\x00"])
def test_an_unknown_theme_keeps_the_choice_and_says_why(client, value):
    client.post(THEME, {"theme": "dark"})
    response = client.post(THEME, {"theme": value}, follow=True)
    assert response.status_code == 200
    assert "theme" not in response.redirect_chain and "theme" in client.cookies
    assert client.cookies["theme"].value == "dark"
    page = response.content.decode()
    assert "is not a theme: choose System, Light or Dark." in page
    assert "<b>dark</b>" not in page and "\x00" not in page
    assert 'data-theme="dark"' in html_tag(page)


def test_a_forged_cookie_is_ignored_and_never_written_into_the_page(client):
    client.cookies["theme"] = '"><script>alert(1)</script>'
    page = client.get(reverse("home")).content.decode()
    assert html_tag(page) == '<html lang="en">'
    assert "<script>alert(1)" not in page


@pytest.mark.parametrize(
    "referer", ["https://evil.example/phish", "//evil.example/", "javascript:alert(1)", ""]
)
def test_the_switch_goes_back_only_to_a_page_of_this_site(client, referer):
    response = client.post(THEME, {"theme": "dark"}, HTTP_REFERER=referer)
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_switch_is_a_post_with_the_csrf_token(client):
    assert client.get(THEME).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(THEME, {"theme": "dark"}).status_code == 403
    page = client.get(reverse("home")).content.decode()
    form = re.search(r'<form method="post" action="/theme/"[^>]*>(.*?)</form>', page, re.S)
    assert form and 'name="csrfmiddlewaretoken"' in form.group(1)
    assert '<label for="theme">Theme</label>' in form.group(1)


def test_the_stylesheet_draws_both_themes_from_one_set_of_properties():
    css = APP_CSS.read_text()
    root = re.search(r":root \{(.*?)\}", css, re.S).group(1)
    assert "color-scheme: light dark;" in root
    colours = dict(re.findall(r"(--[\w-]+): ([^;]+);", root))
    # Each colour names its light and its dark side, once.
    assert {"--ink", "--paper", "--bg", "--accent", "--bad", "--good", "--warn"} <= set(colours)
    assert all(value.startswith("light-dark(") for value in colours.values()), colours
    assert "[data-theme=light] { color-scheme: light; }" in css
    assert "[data-theme=dark] { color-scheme: dark; }" in css
    # No second copy of the palette for the dark side.
    assert "@media (prefers-color-scheme" not in css
    assert len(re.findall(r"--paper:", css)) == 1
    # Printing from the browser stays light whatever the theme.
    printing = re.search(r"@media print \{(.*)\}", css).group(1)
    assert ":root { color-scheme: light; }" in printing
