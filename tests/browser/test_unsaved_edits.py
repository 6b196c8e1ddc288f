"""No edit is shown as saved before the server took it: offline, on a server error, after
the session ended. The page marks it "Not saved" beside its field and offers a retry."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import Page, expect

from sheets.characters.models import Character

pytestmark = pytest.mark.django_db(transaction=True)


def _dot(page: Page, group: str, value: int):
    return page.get_by_role("group", name=group, exact=True).get_by_role(
        "radio", name=str(value), exact=True
    )


def test_an_edit_made_offline_stays_marked_unsaved_until_the_connection_returns(
    live_server, page: Page, player, password, open_demo
):
    character = open_demo("swd10", 1280, name="Kira Dane")
    physical_spent = page.locator("#pool-attributesphysical .spent")
    spent_before = physical_spent.inner_text()
    version = page.locator("#sheet-version").input_value()

    page.context.set_offline(True)
    name = page.locator("#input-character-name")
    name.fill("Kira Offline")
    name.press("Tab")
    _dot(page, "Dexterity", 5).click()

    name_row = page.locator("#trait-character-name")
    expect(name_row.locator(".unsaved-note")).to_contain_text("Not saved")
    expect(name_row.locator(".unsaved-note")).to_contain_text("no connection")
    expect(page.locator("#trait-attr-dexterity .unsaved-note")).to_contain_text("Not saved")
    expect(page.locator("#unsaved-summary")).to_contain_text("2 changes are not saved yet")
    # What the player typed stays in the field; nothing else pretends it was taken.
    expect(name).to_have_value("Kira Offline")
    expect(physical_spent).to_have_text(spent_before)
    expect(page.locator("#sheet-version")).to_have_value(version)
    character.refresh_from_db()
    assert character.name == "Kira Dane"
    assert character.sheet["attributes"]["dexterity"] == 4

    # Back online, both are sent again by themselves and the marks go.
    page.context.set_offline(False)
    expect(page.locator("#unsaved-summary")).to_have_count(0)
    expect(page.locator(".unsaved-note")).to_have_count(0)
    expect(page.locator("#sheet-title")).to_contain_text("Kira Offline")
    expect(physical_spent).not_to_have_text(spent_before)
    character.refresh_from_db()
    assert character.name == "Kira Offline"
    assert character.sheet["attributes"]["dexterity"] == 5


def test_an_edit_the_server_failed_on_is_marked_and_saved_by_retry(
    live_server, page: Page, player, password, open_demo
):
    character = open_demo("weg_d6", 1280, name="Tal Veren")
    edit_url = f"**/characters/{character.pk}/edit/"
    page.route(edit_url, lambda route: route.fulfill(status=500, body="Server Error"))

    name = page.locator("#input-character-name")
    name.fill("Tal the Unsaved")
    name.press("Tab")
    note = page.locator("#trait-character-name .unsaved-note")
    expect(note).to_contain_text("the server failed (error 500)")
    expect(page.locator("#sheet-title")).not_to_contain_text("Tal the Unsaved")
    character.refresh_from_db()
    assert character.name == "Tal Veren"

    # Retrying while the server still fails keeps the mark; once it answers, it saves.
    note.get_by_role("button", name="Retry").click()
    expect(note).to_contain_text("error 500")
    page.unroute(edit_url)
    page.locator("#trait-character-name .unsaved-note").get_by_role("button", name="Retry").click()
    expect(page.locator(".unsaved-note")).to_have_count(0)
    expect(page.locator("#sheet-title")).to_contain_text("Tal the Unsaved")
    character.refresh_from_db()
    assert character.name == "Tal the Unsaved"


def test_an_edit_after_the_session_ended_is_not_shown_as_saved(
    live_server, page: Page, player, password, open_demo
):
    character = open_demo("o3d10", 1280, name="Ria Sol")
    Session.objects.all().delete()  # logged out elsewhere, or the session expired
    name = page.locator("#input-character-name")
    name.fill("Ria Logged Out")
    name.press("Tab")
    # The edit was answered with the login page, not with the sheet: not saved.
    expect(page.locator("#trait-character-name .unsaved-note")).to_contain_text("logged out")
    character.refresh_from_db()
    assert character.name == "Ria Sol"


def test_leaving_with_an_unsaved_edit_asks_first(
    live_server, page: Page, player, password, open_demo
):
    open_demo("ore", 1280, name="Dax Moro")
    page.context.set_offline(True)
    name = page.locator("#input-character-name")
    name.fill("Dax Unsent")
    name.press("Tab")
    expect(page.locator("#trait-character-name .unsaved-note")).to_be_visible()
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.close(run_before_unload=True)
    page.wait_for_timeout(200)
    assert asked == ["beforeunload"]


def test_a_conflict_notice_goes_once_a_later_edit_is_saved(
    live_server, page: Page, player, password, open_demo
):
    character = open_demo("swd10", 1280, name="Twin")
    sheet_url = f"{live_server.url}/characters/{character.pk}/"
    other_tab = page.context.new_page()
    other_tab.goto(sheet_url)
    _dot(other_tab, "Wits", 3).click()
    expect(other_tab.locator("#sheet-version")).not_to_have_value(str(character.version))

    _dot(page, "Wits", 1).click()
    expect(page.locator(".conflict")).to_contain_text("This sheet was changed elsewhere")
    name = page.locator("#input-character-name")
    name.fill("Twin Saved")
    name.press("Tab")
    expect(page.locator("#sheet-title")).to_contain_text("Twin Saved")
    expect(page.locator(".conflict")).to_have_count(0)
    assert Character.objects.get(pk=character.pk).name == "Twin Saved"
