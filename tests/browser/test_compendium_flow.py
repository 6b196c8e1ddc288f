"""In a real Chromium (issue 26): a GM adds a WEG species, a template and a weapon to the
table's book; a player builds a character from the template with that species and rolls
the weapon; the GM raises the species' minimum and sees the sheet it breaks."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create
from sheets.compendium.models import CompendiumEntry

pytestmark = pytest.mark.django_db(transaction=True)


def _log_in(page: Page, live_server, user, password: str) -> None:
    page.context.clear_cookies()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log in")).to_have_count(0)


def _add_entry(page: Page, live_server, book: str, kind: str, fields: dict[str, str]) -> None:
    page.goto(f"{live_server.url}/compendium/{book}/new/?kind={kind}")
    for name, value in fields.items():
        page.fill(f'[name="{name}"]', value)
    page.get_by_role("button", name="Add to the book").click()
    expect(page.get_by_role("heading", name=re.compile(re.escape(fields["name"])))).to_be_visible()


def _pick(page: Page, kind_plural: str, entry: str) -> None:
    """Open a kind's list under the sheet's compendium row and press an entry's button;
    wait until the sheet saved it (a new version)."""
    version = page.locator("#sheet-version").input_value()
    page.locator("#trait-compendium-add").get_by_role("link", name=kind_plural).click()
    page.locator("#compendium-choices").get_by_role("button", name=entry).click()
    expect(page.locator("#sheet-version")).not_to_have_value(version)


def test_a_gm_fills_the_book_a_player_builds_from_it_and_a_change_shows_what_it_breaks(
    live_server, page: Page, gm, player, password
):
    table = campaign_create(user=gm, name="Kessel Run", system="weg_d6")
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=table.pk).token)
    book = f"table-{table.pk}"

    _log_in(page, live_server, gm, password)
    _add_entry(
        page,
        live_server,
        book,
        "species",
        {"name": "Twi'lek", "minimum.dexterity": "2D", "maximum.dexterity": "4D+1"},
    )
    _add_entry(
        page,
        live_server,
        book,
        "template",
        {
            "name": "Rim smuggler",
            "attributes.dexterity": "3D+1",
            "skills": "blaster 1D",
            "credits": "1000",
        },
    )
    _add_entry(page, live_server, book, "weapon", {"name": "Kessel pistol", "damage": "4D+1"})

    # The player's new sheet at the table, built from the book.
    tessa = character_create(owner=player, name="Tessa", system="weg_d6")
    character_bring(user=player, campaign_id=table.pk, character_id=tessa.pk)
    _log_in(page, live_server, player, password)
    page.goto(f"{live_server.url}/characters/{tessa.pk}/")
    _pick(page, "Templates", "Rim smuggler")
    expect(page.locator("#input-trait-attr-dexterity")).to_have_value("3D+1")
    _pick(page, "Species", "Twi'lek")
    expect(page.locator("#trait-attr-dexterity")).to_contain_text("Twi'lek 2D–4D+1")
    _pick(page, "Weapons", "Kessel pistol")
    expect(page.locator("#section-compendium")).to_contain_text("Kessel pistol")

    # The weapon's damage rolls with its odds.
    tessa.refresh_from_db()
    weapon = len(tessa.sheet["weapons"]) - 1
    page.goto(f"{live_server.url}/characters/{tessa.pk}/roll/weapon.{weapon}.damage/")
    expect(page.locator("#roll-title")).to_contain_text("Kessel pistol: damage")
    page.locator("#roll-button").click()
    expect(page.locator("#roll-result")).to_be_visible()

    # The GM raises the species' minimum Dexterity over Tessa's: the sheet it breaks first.
    twilek = CompendiumEntry.objects.get(name="Twi'lek")
    _log_in(page, live_server, gm, password)
    page.goto(f"{live_server.url}/compendium/entries/{twilek.pk}/edit/")
    page.fill('[name="minimum.dexterity"]', "3D+2")
    page.get_by_role("button", name="Save").click()
    impact = page.locator("#impact")
    expect(impact).to_contain_text("Tessa:")
    expect(impact).to_contain_text("3D+2")
    page.get_by_role("button", name="Save and update 1 sheet").click()
    expect(page.get_by_text(re.compile("1 sheet\\(s\\) follow it"))).to_be_visible()
    tessa.refresh_from_db()
    assert tessa.sheet["custom_species"]["minimum"]["dexterity"] == 11
