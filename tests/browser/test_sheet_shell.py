"""Every system's demo sheet in a real Chromium: a phone's width and the keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from rulesets.registry import SYSTEMS

pytestmark = pytest.mark.django_db(transaction=True)
KEYS = sorted(SYSTEMS)


@pytest.mark.parametrize("key", KEYS)
def test_the_demo_sheet_fits_a_360_px_phone(
    live_server, page: Page, player, password, key, open_demo
):
    open_demo(key, 360)
    overflow = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('#sheet *')]
             .filter(e => e.getBoundingClientRect().right > 361)
             .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)"""
    )
    assert overflow <= 360, wide
    # On a phone the name comes first, then the budget, then the sections.
    title = page.locator("#sheet-title").bounding_box()
    budget = page.locator("#budget").bounding_box()
    first_section = page.locator(".sheet-main .sheet-section").first.bounding_box()
    assert title["y"] < budget["y"] < first_section["y"]


@pytest.mark.parametrize("key", KEYS)
def test_the_skip_link_leads_to_the_budget(
    live_server, page: Page, player, password, key, open_demo
):
    open_demo(key, 1280)
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    for _ in range(12):
        if skip.evaluate("e => e === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#budget"


@pytest.mark.parametrize("key", KEYS)
def test_a_changed_field_keeps_the_focus_after_its_row_is_swapped(
    live_server, page: Page, player, password, key, open_demo
):
    character = open_demo(key, 1280)
    name = page.locator("#input-character-name")
    name.fill("Renamed by keyboard")
    version = page.locator("#sheet-version").input_value()
    name.press("Tab")
    expect(page.locator("#sheet-version")).not_to_have_value(version)
    expect(page.locator("#sheet-title")).to_contain_text("Renamed by keyboard")
    expect(page).to_have_title(re.compile(r"^Renamed by keyboard"))
    # The swap never drops the focus to the page.
    assert page.evaluate("document.activeElement !== document.body")
    character.refresh_from_db()
    assert character.name == "Renamed by keyboard"
