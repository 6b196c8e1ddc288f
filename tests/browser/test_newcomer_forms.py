"""Forms a newcomer meets, in a real Chromium: what they send, and where."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from rulesets.registry import get_ruleset
from sheets.characters.services import character_create
from sheets.rolls.models import RollEntry
from sheets.rolls.services import roll_setup, rollables_of

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page, live_server, username: str, password: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="My campaigns")).to_be_visible()


def _difficulty_roll(player):
    character = character_create(
        owner=player, name="Odds Asker", system="ore", sheet=get_ruleset("ore").demo_sheet()
    )
    for rollable in rollables_of(character):
        setup = roll_setup(character, rollable.key)
        numbers = {o.key: o for o in setup.definitions if o.kind == "number"}
        if "difficulty" in numbers:
            return character, setup.rollable.key, numbers["difficulty"]
    raise AssertionError("the demo sheet rolls nothing against a difficulty")


def test_the_odds_are_asked_without_the_csrf_token_in_the_url(
    live_server, page: Page, player, password
):
    character, key, difficulty = _difficulty_roll(player)
    log_in(page, live_server, player.username, password)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{live_server.url}/characters/{character.pk}/roll/{key}/")
    percent = page.locator("#roll-percent")
    before = percent.inner_text()
    field = page.locator(f"#roll-{difficulty.key}")
    field.fill(str(difficulty.default + 2))
    field.dispatch_event("change")
    expect(percent).not_to_have_text(before)
    odds = [url for url in asked if "/odds/" in url]
    assert odds, asked
    assert not [url for url in asked if "csrfmiddlewaretoken" in url], odds
    # The roll itself is a POST that still carries the token (htmx sends it as a header).
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator("#roll-result")).to_be_visible()
    assert RollEntry.objects.filter(character=character).count() == 1


def test_without_javascript_the_odds_url_holds_no_token_and_the_roll_still_posts(
    live_server, new_context, player, password
):
    character, key, difficulty = _difficulty_roll(player)
    page = new_context(java_script_enabled=False).new_page()
    log_in(page, live_server, player.username, password)
    page.goto(f"{live_server.url}/characters/{character.pk}/roll/{key}/")
    page.locator(f"#roll-{difficulty.key}").fill(str(difficulty.default + 2))
    page.get_by_role("button", name="Show the odds").click()
    page.wait_for_load_state()
    assert f"{difficulty.key}={difficulty.default + 2}" in page.url
    assert "csrfmiddlewaretoken" not in page.url
    # The Roll button is a plain form POST here: Django's CSRF check accepts it.
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator("#roll-result")).to_be_visible()
    assert RollEntry.objects.filter(character=character).count() == 1


def test_a_paste_past_the_limit_says_what_was_left_out_and_typing_counts(
    live_server, page: Page, context, player, password
):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    character = character_create(
        owner=player, name="Long Talker", system="weg_d6", sheet=get_ruleset("weg_d6").demo_sheet()
    )
    log_in(page, live_server, player.username, password)
    page.goto(f"{live_server.url}/characters/{character.pk}/")
    looks = page.locator("textarea[name='info.physical']")
    hint = page.locator("#input-trait-info-physical-limit")
    # The limit is in sight before a key is pressed.
    expect(hint).to_have_text("Up to 1000 characters")
    page.evaluate("text => navigator.clipboard.writeText(text)", "p" * 1100)
    looks.fill("")
    looks.focus()
    page.keyboard.press("Control+V")
    expect(hint).to_have_text(
        "100 pasted characters did not fit and were left out: 1000 characters at most."
    )
    assert len(looks.input_value()) == 1000
    # A one-line field counts once it nears its limit (the quote keeps 300 characters).
    quote = page.locator("input[name='info.quote']")
    quote.fill("")
    quote.press_sequentially("q" * 250)
    expect(page.locator("#input-trait-info-quote-limit")).to_have_text("250 of 300 characters")
