"""In Chromium: typing a weapon the O.R.E. catalog lacks suggests the catalog weapons it may
mean, refuses to add a blank one, and adds the player's own once its damage is given."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from sheets.characters.models import Character

pytestmark = pytest.mark.django_db(transaction=True)


def test_blaster_pistol_is_suggested_blaster_refused_blank_and_added_with_damage(
    open_demo, page: Page
):
    character = open_demo("ore", 1100)
    weapons = len(character.sheet["weapons"])
    box = page.locator("#input-weapon-add")
    box.click()
    box.press_sequentially("Blaster pistol", delay=20)
    options = page.locator("#ore-weapon-catalog option")
    expect(options.first).to_have_attribute("value", "Blaster")
    expect(options.first).to_have_text("Blaster (pistol, width+1) for “Blaster pistol”")

    add = page.locator("#section-gear").get_by_role("button", name="Add").last
    add.click()
    expect(page.locator("#section-gear-body [role=alert]")).to_contain_text(
        "“Blaster pistol” is not in the weapon list. Did you mean Blaster, Heavy blaster"
    )
    assert len(Character.objects.get(pk=character.pk).sheet["weapons"]) == weapons
    expect(box).to_have_value("Blaster pistol")  # still there, to correct or confirm

    page.fill("#input-weapon-add-damage", "width+1")
    add.click()
    expect(page.locator("#section-gear-body [role=alert]")).to_have_count(0)
    stored = Character.objects.get(pk=character.pk).sheet["weapons"]
    assert stored[-1]["name"] == "Blaster pistol" and stored[-1]["damage"] == "width+1"
