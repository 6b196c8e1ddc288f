"""The ledger in two browsers: the GM awards XP to the whole table; the player sees what a
raise costs before buying it, buys it, undoes it, and opens the purchase's diff in the
history. The sheet's experience row is drawn locked, with a way to the ledger."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page, live_server, username: str, password: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="My campaigns")).to_be_visible()


def test_the_gm_awards_the_table_and_a_player_buys_undoes_and_reads_the_diff(
    live_server, page: Page, new_context, gm, player, other_player, password, table
):
    kira = Character.objects.get(campaign=table, owner=player)
    character_apply_edits(
        user=player, character_id=kira.pk, edits={"stage": "play"}, expected_version=kira.version
    )
    rex = character_create(owner=other_player, name="Rex", system="swd10", campaign=table)

    # The GM awards every character of the table at once, from the campaign page.
    log_in(page, live_server, gm.username, password)
    page.goto(f"{live_server.url}/campaigns/{table.pk}/")
    page.get_by_role("link", name="Award XP to the table").click()
    form = page.locator("#award-table")
    form.get_by_label("Amount").fill("20")
    form.get_by_label("Reason").fill("Session 1: the Tatooine job")
    form.get_by_role("button", name="Award every character").click()
    expect(page.locator("#award-done")).to_be_visible()
    balances = page.locator("#table-balances tbody")
    expect(balances.locator("tr").filter(has_text="Kira Dane")).to_contain_text("20")
    expect(balances.locator("tr").filter(has_text="Rex")).to_contain_text("20")
    assert {e.character_id for e in LedgerEntry.objects.filter(kind="award")} == {kira.pk, rex.pk}

    # The player, in a browser of their own, finds experience locked on the sheet, with
    # the way to the ledger, and sees the price of a raise before buying it.
    mine = new_context().new_page()
    log_in(mine, live_server, player.username, password)
    mine.goto(f"{live_server.url}/characters/{kira.pk}/")
    experience = mine.locator("#trait-info-experience")
    expect(experience.locator("input")).to_be_disabled()
    expect(experience).to_contain_text("Awarded and spent on the ledger")
    mine.locator("#ledger-link").click()
    expect(mine.locator("#ledger-balance")).to_contain_text("Balance 20 XP")
    quote = mine.locator("#quote-attrintelligence")
    line = " ".join(cell.inner_text().strip() for cell in quote.locator("th, td").all())
    found = re.fullmatch(r"Intelligence (\d) → (\d) (\d+) XP 20 → (\d+) left Buy", line)
    assert found, line
    before, after, cost, left = (int(n) for n in found.groups())
    assert (after, left) == (before + 1, 20 - cost)
    quote.get_by_role("button", name="Buy").click()
    expect(mine.locator("#ledger-balance")).to_contain_text(f"Balance {left} XP")
    bought = mine.locator("#ledger-entries tr.purchase").first
    expect(bought).to_contain_text(f"Intelligence {before} → {after}")
    assert Character.objects.get(pk=kira.pk).sheet["attributes"]["intelligence"] == after

    # Undo: a refund entry, the raise taken back, the balance whole again.
    bought.get_by_role("button", name="Undo").click()
    expect(mine.locator("#ledger-balance")).to_contain_text("Balance 20 XP")
    expect(mine.locator("#ledger-entries tr.refund")).to_contain_text(
        f"Intelligence {after} → {before}"
    )
    expect(mine.locator("#ledger-entries tr.purchase").first).to_contain_text("undone")
    assert Character.objects.get(pk=kira.pk).sheet["attributes"]["intelligence"] == before

    # The purchase's diff, in the history: what the purchase changed on the sheet.
    mine.locator("#ledger-entries tr.purchase").first.get_by_role("link", name="Diff").click()
    expect(mine).to_have_url(re.compile(r"/history/"))
    expect(mine.locator("main")).to_contain_text("Intelligence")
    expect(mine.locator("main")).to_contain_text(str(after))
