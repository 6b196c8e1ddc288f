"""A player brings a character from Foundry VTT: uploads the OD6S actor, reads the preview,
confirms, and finds the character on My characters."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from sheets.characters.models import Character

ACTOR = Path(__file__).parent.parent / "fixtures" / "formats" / "od6s_system.json"


def test_a_player_imports_a_foundry_od6s_actor_after_reading_its_preview(
    live_server, page, player, password
):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", player.username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/characters/import/")
    page.set_input_files("input[name=file]", str(ACTOR))
    page.get_by_role("button", name="Import").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Import preview: Tavi Renn")
    placed = page.locator("#import-placed")
    expect(placed.locator("tr", has_text="Skill Blaster")).to_contain_text("4D+2")
    expect(placed.locator("tr", has_text="Dexterity")).to_contain_text("3D+1")
    expect(page.locator("#import-dropped")).to_contain_text(
        "Foundry item “Sabacc” of type “item”: has no place in a WEG sheet: kept in Equipment"
    )
    expect(page.locator("#import-rules")).to_contain_text("(A) Medicine")
    assert not Character.objects.exists()

    page.get_by_role("button", name="Import this character").click()
    expect(page.locator("#messages")).to_contain_text("Imported “Tavi Renn”")
    page.get_by_role("link", name="My characters").click()
    expect(page.get_by_role("link", name="Tavi Renn")).to_be_visible()
    assert Character.objects.get().revisions.get().summary == (
        "Imported from Foundry VTT OD6S actor"
    )
