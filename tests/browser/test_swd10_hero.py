"""In Chromium: build a legal SWd10 hero with a merit, a flaw and a Force ability, print it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

import rulesets.swd10 as swd10
from sheets.characters.models import Character

pytestmark = pytest.mark.django_db(transaction=True)

# The digest's base character B (§8), with a flaw paying for a third merit.
DOTS = {
    "Strength": 2, "Dexterity": 4, "Stamina": 3,
    "Charisma": 3, "Manipulation": 2, "Appearance": 2,
    "Perception": 2, "Intelligence": 2, "Wits": 2,
    "Alertness": 2, "Athletics": 2, "Acrobatics": 3, "Brawl": 1, "Dodge": 3,
    "Firearms": 2, "Melee": 2, "Pilot (ships/speeders)": 2, "Meditation": 1,
    "Lore: Jedi": 2, "Technology": 1, "Battle": 1,
}  # fmt: skip


def add(page: Page, select_label: str, value: str) -> None:
    page.get_by_label(select_label).select_option(value)
    page.get_by_label(select_label).locator("xpath=..").get_by_role("button", name="Add").click()


def test_a_player_builds_a_legal_hero_and_prints_it(live_server, page: Page, make_user, password):
    make_user("hero-maker")
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "hero-maker")
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="New character").click()
    page.fill("input[name=name]", "Kira Dane")
    page.get_by_label(re.compile("Star Wars Storytelling")).check()
    page.get_by_role("button", name="Create").click()

    for label, value in DOTS.items():
        page.get_by_role("group", name=label, exact=True).get_by_role(
            "radio", name=str(value), exact=True
        ).click()
    # Willpower follows Wits at creation (L296): Wits 2 set it to 3 without a click.
    expect(page.locator('#trait-willpower [value="3"]')).to_be_checked()

    add(page, "Add a merit or flaw", "force_sensitivity")
    expect(page.locator("#section-merits-body")).to_contain_text("Force Sensitivity")
    add(page, "Add a merit or flaw", "ambidextrous")
    expect(page.locator("#section-merits-body")).to_contain_text("Ambidextrous")
    add(page, "Add a merit or flaw", "short")
    expect(page.locator("#section-merits-body")).to_contain_text("Short")
    add(page, "Add a merit or flaw", "cat_like_balance")
    expect(page.locator("#section-merits-body")).to_contain_text("Cat-like balance")
    # The flaw's point pays for a fourth merit: with it unspent the sheet is not done.
    expect(page.locator("#budget .verdict")).to_contain_text("points left to spend in Merits")
    add(page, "Add a merit or flaw", "toughness")
    expect(page.locator("#section-merits-body")).to_contain_text("Toughness")

    # A merit whose prerequisites fail is refused beside the list, naming what fails.
    add(page, "Add a merit or flaw", "juyo")
    expect(page.locator("#section-merits")).to_contain_text("Juyo needs Melee 4; you have 2")

    add(page, "Add a Force ability", "battle_strike")
    expect(page.locator("#section-force_abilities-body")).to_contain_text("Battle strike")
    page.get_by_label("Add a language").fill("Basic")
    page.get_by_label("Add a language").press("Tab")
    page.locator("#section-languages").get_by_role("button", name="Add").click()
    expect(page.locator("#section-languages")).to_contain_text("Basic")

    expect(page.locator("#budget .verdict")).to_have_text(
        re.compile("Legal: every budget spent, no rule broken.")
    )
    expect(page.locator("#pool-merits .spent")).to_have_text("4")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download PDF").click()
    text = PdfReader(download.value.path()).pages[0].extract_text()
    for expected in ("Kira Dane", "Force Sensitivity", "Short", "Battle strike", "Basic"):
        assert expected in text

    character = Character.objects.get(name="Kira Dane")
    assert swd10.check(character.sheet, {}).violations == []


def test_enter_in_an_add_row_adds_it(live_server, page: Page, player, password):
    from sheets.characters.services import character_create

    character = character_create(owner=player, name="Linguist", system="swd10")
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "luke")
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/characters/{character.pk}/")
    page.get_by_label("Add a language").fill("Huttese")
    page.get_by_label("Add a language").press("Enter")
    expect(page.locator("#section-languages ul.rows")).to_contain_text("Huttese")
    character.refresh_from_db()
    assert character.sheet["languages"] == [{"name": "Huttese", "read": False, "write": False}]
