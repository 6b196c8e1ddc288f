"""A new player, in a real Chromium: sign up, build a SWd10 character live, print it; the
demo sheet on a 360 px phone and from the keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from sheets.characters.models import Character
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_new_player_builds_a_swd10_character_and_prints_it(live_server, page: Page):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("input[name=username]", "padawan")
    page.fill("input[name=password1]", "a-long-browser-pass-7")
    page.fill("input[name=password2]", "a-long-browser-pass-7")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", name="My characters")).to_be_visible()

    page.get_by_role("link", name="New character").click()
    page.fill("input[name=name]", "Kira Dane")
    page.get_by_label(re.compile("Star Wars Storytelling")).check()
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=re.compile("Kira Dane"))).to_be_visible()
    url_before = page.url

    physical_left = page.locator("#pool-attributesphysical .left")
    expect(physical_left).to_have_text("6")
    page.get_by_role("group", name="Dexterity", exact=True).get_by_role(
        "radio", name="4", exact=True
    ).click()
    expect(page.locator('#trait-attr-dexterity [value="4"]')).to_be_checked()
    expect(physical_left).to_have_text("3")

    # A lower dot lowers it again.
    page.get_by_role("group", name="Dexterity", exact=True).get_by_role(
        "radio", name="3", exact=True
    ).click()
    expect(page.locator('#trait-attr-dexterity [value="3"]')).to_be_checked()
    expect(physical_left).to_have_text("4")

    # Rapid clicks queue up rather than tripping the version check.
    for label, value in (("Acrobatics", "3"), ("Dodge", "4"), ("Brawl", "2")):
        page.get_by_role("group", name=label, exact=True).get_by_role(
            "radio", name=value, exact=True
        ).click()
    expect(page.locator("#trait-abil-dodge")).to_contain_text(
        "Dodge is 4; no ability may be above 3 at creation."
    )
    expect(page.locator("#pool-abilitiestalents .spent")).to_have_text("9")
    expect(page.locator("#budget")).to_contain_text("1 rule broken")
    assert page.url == url_before, "the edits happened without a page load"

    page.fill("#input-trait-info-player", "Ana")
    page.locator("#input-trait-info-player").blur()
    expect(page.locator("#sheet-version")).to_have_value("7")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download PDF").click()
    pdf = download_info.value
    text = PdfReader(pdf.path()).pages[0].extract_text()
    assert "Kira Dane" in text and "Ana" in text
    assert "●●●○○" in text  # Dexterity 3 and Acrobatics 3
    assert "●●●●○" in text  # Dodge 4

    character = Character.objects.get(name="Kira Dane")
    assert character.sheet["abilities"]["dodge"] == 4
    assert character.version == 7


def test_two_tabs_editing_the_same_sheet_get_the_conflict_message(live_server, page: Page, player):

    character = character_create(owner=player, name="Twin", system="swd10")
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "luke")
    page.fill("input[name=password]", "a-long-test-password-42")
    page.get_by_role("button", name="Log in").click()
    sheet_url = f"{live_server.url}/characters/{character.pk}/"
    page.goto(sheet_url)
    other_tab = page.context.new_page()
    other_tab.goto(sheet_url)

    other_tab.get_by_role("group", name="Wits", exact=True).get_by_role(
        "radio", name="3", exact=True
    ).click()
    expect(other_tab.locator('#trait-attr-wits [value="3"]')).to_be_checked()

    page.get_by_role("group", name="Wits", exact=True).get_by_role(
        "radio", name="2", exact=True
    ).click()
    expect(page.locator(".conflict")).to_contain_text("This sheet was changed elsewhere")
    expect(page.locator('#trait-attr-wits [value="3"]')).to_be_checked()
    character.refresh_from_db()
    assert character.sheet["attributes"]["wits"] == 3


def test_rapid_clicks_on_several_rows_all_arrive(live_server, page: Page, player):

    character = character_create(owner=player, name="Quick", system="swd10")
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "luke")
    page.fill("input[name=password]", "a-long-test-password-42")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/characters/{character.pk}/")
    clicks = {"Strength": 3, "Dexterity": 4, "Stamina": 2, "Dodge": 2, "Brawl": 3, "Stealth": 1}
    for label, value in clicks.items():
        page.get_by_role("group", name=label, exact=True).get_by_role(
            "radio", name=str(value), exact=True
        ).click()
    expect(page.locator("#sheet-version")).to_have_value(str(1 + len(clicks)))
    character.refresh_from_db()
    values = character.sheet["attributes"] | character.sheet["abilities"]
    assert {label: values[label.lower()] for label in clicks} == clicks


def test_the_demo_sheet_fits_a_360_px_phone(live_server, page: Page, player, password, open_demo):
    open_demo("swd10", 360, name="Kira Dane")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('#sheet *')]
             .filter(e => e.getBoundingClientRect().right > 361)
             .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, wide
    # Power's ten dots and the weapons' four fields fit inside their sections.
    section = page.locator("#section-other").bounding_box()
    dots = page.locator("#trait-power .dots").bounding_box()
    assert dots["x"] + dots["width"] <= section["x"] + section["width"]


def test_from_the_keyboard_a_row_of_dots_is_one_stop_and_arrows_raise_it(
    live_server, page: Page, player, password, open_demo
):
    character = open_demo("swd10", 1280, name="Kira Dane")
    physical_spent = page.locator("#pool-attributesphysical .spent")
    expect(physical_spent).to_have_text("6")
    page.focus("#input-trait-prio-attributes-physical")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#trait-attr-strength [value=\"2\"]')")
    # One Tab moves past all five dots of Strength, to its roll link; the next to the row
    # below.
    page.keyboard.press("Tab")
    expect(page.locator("#trait-attr-strength .roll-link")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#trait-attr-dexterity [value=\"4\"]')")
    page.keyboard.press("ArrowRight")
    expect(physical_spent).to_have_text("7")
    expect(page.locator('#trait-attr-dexterity [value="5"]')).to_be_checked()
    expect(page.locator("#sheet-version")).to_have_value("2")
    # The row was swapped, and the focus stayed on the dot just chosen.
    expect(page.locator('#trait-attr-dexterity [value="5"]')).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(physical_spent).to_have_text("6")
    expect(page.locator("#sheet-version")).to_have_value("3")
    expect(page.locator('#trait-attr-dexterity [value="4"]')).to_be_focused()
    character.refresh_from_db()
    assert character.sheet["attributes"]["dexterity"] == 4
