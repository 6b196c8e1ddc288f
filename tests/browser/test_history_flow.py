"""A player edits a sheet, opens its history, reads a diff in words and restores a version."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create


def test_a_player_opens_the_diff_in_history_and_restores(live_server, page, player, password):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    for edits in ({"attr.dexterity": "2"}, {"merit.add": "ambidextrous"}):
        character = character_apply_edits(
            user=player, character_id=character.pk, edits=edits, expected_version=character.version
        )
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", player.username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/characters/{character.pk}/")
    page.get_by_role("link", name="History").click()
    history = page.locator("#history")
    expect(history).to_contain_text("Dexterity: 1 → 2")
    expect(history).to_contain_text("added Ambidextrous: 1 point")

    # The three versions are one sitting: one entry, opened to reach each version.
    page.get_by_role("link", name="Show versions 1 to 3").click()
    page.locator("#version-3").get_by_role("link", name="Diff").click()
    expect(page.locator("#diff")).to_contain_text("Ambidextrous")
    page.fill("input[name=from]", "1")
    page.get_by_role("button", name="Compare").click()
    expect(page).to_have_url(re.compile(r"from=1&to=3"))
    expect(page.locator("#diff tr", has_text="Dexterity")).to_contain_text("2")

    page.goto(f"{live_server.url}/characters/{character.pk}/history/?open=1")
    page.locator("#version-1").get_by_role("link", name="Restore…").click()
    expect(page.locator("#restore-changes")).to_contain_text("Dexterity")
    page.get_by_role("button", name="Yes, restore version 1").click()
    expect(page.locator("#messages")).to_contain_text("Restored version 1")
    page.get_by_role("link", name="Show versions 1 to 4").click()
    expect(page.locator("#version-4")).to_contain_text("Restored version 1")
    assert Character.objects.get(pk=character.pk).sheet["merits"] == []
