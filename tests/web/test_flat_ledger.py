"""The ledger page reads one page of entries from the database, with its balances summed
there: the right 25 of 1,000, exact figures, working page links, undo judged across pages,
and queries that do not grow with the entries (issue 30, item 4). A player reading a
revealed NPC gets none of its ledger, as none of its history."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sheets.advancement import services as ledger
from sheets.advancement.models import LedgerEntry
from sheets.campaigns.services import character_bring
from sheets.characters.models import Character
from sheets.npcs.services import npc_create, npc_reveal
from tests.web.test_ledger import _finished, _fresh

pytestmark = pytest.mark.django_db


# The ledger page ------------------------------------------------------------------------------


def _page(client, character: Character, query: str = "") -> str:
    response = client.get(reverse("character_ledger", args=[character.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def _rows(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<tr id="entry-(\d+)"', page)]


def _add_entries(character: Character, count: int) -> None:
    """`count` awards and corrections of varied amounts, written straight to the ledger."""
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            character=character,
            kind="correction" if index % 5 == 4 else "award",
            amount=-(index % 3) - 1 if index % 5 == 4 else index % 9 + 1,
            unit="XP",
            reason=f"Entry {index}",
            version=character.version,
        )
        for index in range(count)
    )


def _figure(page: str, label: str) -> int:
    found = re.search(rf'<span class="label">{label}</span> <(?:strong|b)>(-?\d+)', page)
    assert found, label
    return int(found.group(1))


def test_the_ledger_shows_the_right_25_of_1000_entries_with_exact_balances(client, player):
    character = _finished(player, "swd10")
    _add_entries(character, 1000)
    client.force_login(player)
    newest_first = list(
        LedgerEntry.objects.filter(character=character)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
    )
    amounts = list(LedgerEntry.objects.filter(character=character).values_list("amount", "kind"))
    earned = sum(amount for amount, kind in amounts if kind in ("award", "correction"))
    spent = -sum(amount for amount, kind in amounts if kind in ("purchase", "refund"))
    pages = -(-len(newest_first) // 25)

    first = _page(client, character)
    assert _rows(first) == newest_first[:25]
    assert _figure(first, "Balance") == earned - spent
    assert _figure(first, "Earned") == earned and _figure(first, "Spent") == spent
    assert f"{len(newest_first)} entries" in first and f"Page 1 of {pages}" in first

    older = re.search(r'<a href="\?page=(\d+)#ledger-entries" rel="next">', first).group(1)
    second = _page(client, character, f"?page={older}")
    assert _rows(second) == newest_first[25:50]
    assert 'href="?page=1#ledger-entries" rel="prev"' in second

    last = _page(client, character, f"?page={pages}")
    assert _rows(last) == newest_first[(pages - 1) * 25 :]
    assert 'rel="next"' not in last
    assert _figure(last, "Balance") == earned - spent
    # Past the end: the last page, not an error.
    assert _rows(_page(client, character, "?page=9999")) == _rows(last)


def test_a_correction_split_over_two_pages_offers_no_undo_on_either_line(client, player):
    """A GM's correction of a value writes two entries at one version; with 24 newer
    entries its priced line is the last of page 1 and the correction the first of page 2.
    Neither is undone (it is corrected again), whichever page shows it."""
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="30", reason="Session")
    corrected = ledger.correct_trait(
        user=player,
        character_id=character.pk,
        trait="attr.strength",
        value=str(_fresh(character).sheet["attributes"]["strength"] + 1),
        reason="Noted wrong",
        expected_version=_fresh(character).version,
    )
    priced = LedgerEntry.objects.get(
        character=character, version=corrected.version, trait="attr.strength", kind="purchase"
    )
    for number in range(24):
        ledger.award(user=player, character_id=character.pk, amount="1", reason=f"Award {number}")
    client.force_login(player)
    first, second = _page(client, character), _page(client, character, "?page=2")
    assert _rows(first)[-1] == priced.pk and _rows(second)[0] == corrected.pk
    for page, entry in ((first, priced), (second, corrected)):
        row = re.search(rf'<tr id="entry-{entry.pk}".*?</tr>', page, re.S).group(0)
        assert "Undo" not in row
    # An award on the same page is still offered for undoing.
    newest = re.search(rf'<tr id="entry-{_rows(first)[0]}".*?</tr>', first, re.S).group(0)
    assert "Undo" in newest


def _ledger_queries(client, character: Character) -> int:
    return len(_ledger_sql(client, character))


def _ledger_sql(client, character: Character) -> list[str]:
    url = reverse("character_ledger", args=[character.pk])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in queries.captured_queries]


def test_the_ledger_page_makes_the_same_queries_for_10_entries_as_for_1000(
    client, player, gm, table
):
    """Read by the owner off-table, then by the table's GM once the sheets sit there with
    their points from elsewhere waiting for the GM's acceptance."""
    small, big = _finished(player, "swd10"), _finished(player, "swd10")
    _add_entries(small, 10)
    _add_entries(big, 1000)
    client.force_login(player)
    _ledger_queries(client, small)  # warm: session, content types
    assert _ledger_queries(client, small) == _ledger_queries(client, big)
    # The entries are read a page at a time; the balances are sums made by the database.
    entry_reads = [
        sql
        for sql in _ledger_sql(client, big)
        if 'FROM "characters_ledgerentry"' in sql and '"characters_ledgerentry"."reason"' in sql
    ]
    assert entry_reads and all("LIMIT 25" in sql for sql in entry_reads)
    # At the table, read by its GM: every GM form, and what waits for the GM's acceptance.
    for character in (small, big):
        character_bring(user=player, campaign_id=table.pk, character_id=character.pk)
    assert LedgerEntry.objects.filter(character=big, needs_acceptance=True).count() > 25
    client.force_login(gm)
    _ledger_queries(client, small)
    assert _ledger_queries(client, small) == _ledger_queries(client, big)


def test_a_player_reading_a_revealed_npc_gets_none_of_its_ledger(client, player, gm, table):
    npc = npc_create(user=gm, campaign_id=table.pk, name="Moff Jerjerrod")
    npc_reveal(user=gm, character_id=npc.pk, visibility="sheet", expected_version=1)
    url = reverse("character_ledger", args=[npc.pk])
    client.force_login(player)
    assert client.get(reverse("character_sheet", args=[npc.pk])).status_code == 200
    refused = client.get(url)
    assert refused.status_code == 403
    assert "Moff Jerjerrod" not in refused.content.decode()
    client.force_login(gm)
    assert client.get(url).status_code == 200
