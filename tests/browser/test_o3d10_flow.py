"""A player, in a real Chromium: builds a 1o3d10 character, hurts it to death, prints it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from sheets.characters.models import Character

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page, live_server, password: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "luke")
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()


def test_lowering_hp_walks_the_health_states_from_normal_to_dead_then_prints(
    live_server, page: Page, player, password
):
    log_in(page, live_server, password)
    page.goto(live_server.url + "/characters/new/")
    page.fill("input[name=name]", "Tala Voss")
    page.get_by_label(re.compile("1o3d10")).check()
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=re.compile("Tala Voss"))).to_be_visible()
    url_before = page.url

    state = page.locator("#health-state")
    expect(state).to_have_attribute("data-state", "normal")
    stats_left = page.locator("#pool-stats .left")
    expect(stats_left).to_have_text("20")
    page.get_by_role("button", name="Raise Strength to 2").click()
    expect(page.locator("#trait-stat-strength")).to_have_attribute("data-value", "2")
    expect(stats_left).to_have_text("19")
    expect(page.locator("#input-trait-hp-current")).to_have_value("14")  # 10 + 2 x 2

    # Not a number: the message sits beside the field and nothing changes.
    hp = page.locator("#input-trait-hp-current")
    hp.fill("many")
    hp.blur()
    expect(page.locator("#trait-hp-current .error")).to_have_text(
        "HP must be a whole number; “many” is not one."
    )
    expect(page.locator("#sheet-version")).to_have_value("2")
    expect(state).to_have_attribute("data-state", "normal")

    hp = page.locator("#input-trait-hp-current")
    hp.fill("3")
    hp.blur()
    expect(page.locator("#sheet-version")).to_have_value("3")
    lower = page.get_by_role("button", name="Lower HP by 1")
    # Strength 2: Normal from 2, Wounded 0-1, Unconscious -1 to -6, Dead below -6.
    for expected_hp, expected_state in (
        (2, "normal"),
        (1, "wounded"),
        (0, "wounded"),
        (-1, "unconscious"),
        (-2, "unconscious"),
        (-3, "unconscious"),
        (-4, "unconscious"),
        (-5, "unconscious"),
        (-6, "unconscious"),
        (-7, "dead"),
    ):
        lower.click()
        expect(page.locator("#input-trait-hp-current")).to_have_value(str(expected_hp))
        expect(state).to_have_attribute("data-state", expected_state)
        expect(page.locator("#status-state")).to_have_text(expected_state.capitalize())
        if expected_hp == 1:
            expect(page.locator("#section-health")).to_contain_text(
                "the lowest of the three dice is the target die"
            )
            expect(page.locator("#section-rolls")).to_contain_text("target die")
        if expected_hp == -1:
            health = page.locator("#section-health")
            expect(health).to_contain_text("roll 1d10 each turn")
            expect(health).to_contain_text("Intelligence + Medicine + 1o3d10 against 18")
            expect(page.get_by_role("button", name="Apply bleed roll")).to_be_visible()
    expect(state).to_contain_text("Dead")

    # Midichlorian Luck: once a day, refused the second time, back after a new day.
    page.get_by_role("button", name="Use Luck").click()
    expect(page.locator("#luck-left")).to_have_text("0")
    page.get_by_role("button", name="Use Luck").click()
    expect(page.locator("#trait-luck-use .error")).to_contain_text(
        "No Midichlorian Luck left today"
    )
    page.get_by_role("button", name="New day (reset)").click()
    expect(page.locator("#luck-left")).to_have_text("1")
    expect(page.locator("#trait-luck-use .error")).to_have_count(0)
    assert page.url == url_before, "every edit happened without a page load"

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download PDF").click()
    text = PdfReader(download_info.value.path()).pages[0].extract_text()
    assert "Tala Voss" in text
    assert "DEAD" in text and "HP -7 / 14" in text
    assert "Strength STR 2" in text

    character = Character.objects.get(name="Tala Voss")
    assert character.sheet["hp"] == -7
    assert character.sheet["luck"] == {"day": 2, "last_used_day": 1, "uses_that_day": 1}


def test_enter_in_the_damage_box_applies_the_damage_once(live_server, page: Page, player, password):
    from rulesets.o3d10 import demo_sheet
    from sheets.characters.services import character_create

    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=demo_sheet())
    log_in(page, live_server, password)
    page.goto(f"{live_server.url}/characters/{character.pk}/")
    expect(page.locator("#health-state")).to_have_attribute("data-state", "wounded")
    page.fill("#input-trait-hp-damage", "4")
    page.press("#input-trait-hp-damage", "Enter")
    expect(page.locator("#input-trait-hp-current")).to_have_value("-1")
    expect(page.locator("#health-state")).to_have_attribute("data-state", "unconscious")
    page.fill("#input-trait-hp-heal", "2")
    page.get_by_role("button", name="Heal", exact=True).click()
    expect(page.locator("#input-trait-hp-current")).to_have_value("1")
    expect(page.locator("#health-state")).to_have_attribute("data-state", "wounded")
    expect(page.locator("#sheet-version")).to_have_value("3")
    character.refresh_from_db()
    assert character.sheet["hp"] == 1 and character.version == 3
