"""The rule readings panel in a browser: opening it fetches every reading into the sheet's
form, and the owner of a sheet at no table changes one there (characters/views.py,
character_readings; the edit itself is the sheet's own)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from rulesets.registry import get_ruleset
from sheets.characters.services import character_create, share_link_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_opening_the_panel_loads_the_readings_and_a_change_is_saved(
    live_server, page: Page, open_demo
):
    character = open_demo("swd10", 1280, name="Kira Dane")
    panel = page.locator("#section-readings")
    settings = get_ruleset("swd10").SETTINGS
    # Closed, the page holds none of the settings' fields.
    expect(panel).not_to_have_attribute("open", "")
    expect(page.locator('[name^="setting."]')).to_have_count(0)

    panel.locator("summary").click()
    fields = page.locator('#sheet-form #readings-body [name^="setting."]')
    expect(fields).to_have_count(len(settings))
    dots = page.locator("#setting-attribute_free_dot")
    expect(dots).to_be_visible()

    dots.select_option("False")
    # The edit's answer redraws the panel, open, with the reading as now stored.
    expect(panel.locator("summary")).to_contain_text("1 changed from the book")
    expect(panel).to_have_attribute("open", "")
    expect(page.locator("#setting-attribute_free_dot")).to_have_value("False")
    expect(panel).to_contain_text("Changed; the book's reading: on top of the free first dot")
    character.refresh_from_db()
    assert character.rule_settings == {"attribute_free_dot": False}

    # A value out of range is refused beside its field, the panel still open.
    difficulty = page.locator("#setting-power_contest_difficulty")
    difficulty.fill("99")
    difficulty.press("Tab")
    refusal = page.locator("#section-readings .has-problem .error")
    expect(refusal).to_be_visible()
    expect(panel).to_have_attribute("open", "")
    character.refresh_from_db()
    assert character.rule_settings == {"attribute_free_dot": False}

    # A fresh page shows the changed reading without opening the panel.
    page.reload()
    expect(page.locator("#reading-attribute_free_dot")).to_contain_text("counting the first dot")


def test_a_share_links_holder_opens_the_panel_and_reads_every_reading(
    live_server, page: Page, player
):
    character = character_create(owner=player, name="Kira Dane", system="weg_d6")
    share = share_link_create(user=player, character_id=character.pk)
    page.goto(f"{live_server.url}/s/{share.token}/")
    page.locator("#section-readings summary").click()
    readings = page.locator("#readings-body .reading")
    expect(readings).to_have_count(len(get_ruleset("weg_d6").SETTINGS))
    expect(page.locator('[name^="setting."]')).to_have_count(0)
