"""The ledger page as a player and a GM read it: the balance first, raises grouped as the
sheet groups them with what each leaves, no Buy where the balance cannot pay, the GM's
forms for the GM alone, the entries newest first and paged, and the entries carried over
from before the ledger never undone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sheets.advancement import services as ledger
from sheets.advancement.figures import carried_over
from sheets.advancement.models import LedgerEntry
from sheets.advancement.services import LedgerRefused
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits
from tests.web.test_ledger import _finished, _fresh

pytestmark = pytest.mark.django_db


def _page(client, character: Character, query: str = "") -> str:
    response = client.get(reverse("character_ledger", args=[character.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def _row(page: str, trait: str) -> str:
    found = re.search(rf'<tr id="quote-{re.escape(trait)}".*?</tr>', page, re.S)
    assert found, trait
    return found.group(0)


def _carried_over(character: Character) -> tuple[LedgerEntry, LedgerEntry]:
    """The two entries the data migration writes for a sheet that held XP before the
    ledger: the XP as an award and what it had bought as one purchase without a trait."""
    common = {"character": character, "version": character.version, "unit": "XP", "carried": True}
    award = LedgerEntry.objects.create(
        kind="award", amount=30, reason="Earned before the ledger", **common
    )
    bought = LedgerEntry.objects.create(
        kind="purchase", amount=-12, reason="Raises bought before the ledger", **common
    )
    return award, bought


def test_a_raise_the_balance_cannot_pay_has_no_buy_button_and_says_what_is_missing(
    player_client, player
):
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="6", reason="Session")
    page = _page(player_client, character)
    quotes = {q.trait: q for q in ledger.quotes(_fresh(character))}
    dear = next(q for q in quotes.values() if q.cost.amount > 6)
    row = _row(page, dear.trait.replace(".", ""))
    assert "Buy</button>" not in row
    assert f"needs {dear.cost.amount - 6} more XP" in row
    cheap = next(q for q in quotes.values() if q.cost.amount <= 6)
    row = _row(page, cheap.trait.replace(".", ""))
    assert f'value="{cheap.trait}"' in row and f"6 → {6 - cheap.cost.amount} left" in row


def test_the_raises_are_grouped_under_the_sheets_section_titles(player_client, player):
    character = _finished(player, "swd10")
    page = _page(player_client, character)
    captions = re.findall(r"<caption>(.*?)</caption>", page)
    assert len(captions) >= 2 and len(set(captions)) == len(captions)
    assert "How</summary>" not in page  # the explanation is a tooltip, not a disclosure


def test_the_search_box_keeps_the_raises_it_names(player_client, player):
    character = _finished(player, "swd10")
    page = _page(player_client, character, "?q=intell")
    assert 'id="quote-attrintelligence"' in page
    assert 'id="quote-attrstrength"' not in page
    assert "No trait matches" in _page(player_client, character, "?q=zzzz")


def test_the_player_never_sees_the_gm_panel_and_the_gm_does(
    client, player, gm, table, swd10_character
):
    character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"stage": "play"},
        expected_version=swd10_character.version,
    )
    client.force_login(player)
    page = _page(client, swd10_character)
    assert (
        'id="ledger-gm"' not in page
        and reverse("ledger_award", args=[swd10_character.pk]) not in page
    )
    assert 'id="ledger-buy"' in page
    client.force_login(gm)
    page = _page(client, swd10_character)
    assert 'id="ledger-gm"' in page and "GM panel" in page
    assert 'id="ledger-buy"' not in page


def test_the_entries_come_newest_first_25_to_a_page(player_client, player):
    character = _finished(player, "swd10")
    for number in range(1, 31):
        ledger.award(user=player, character_id=character.pk, amount="1", reason=f"Award {number}.")
    first, second = _page(player_client, character), _page(player_client, character, "?page=2")
    first_rows = re.findall(r'<tr id="entry-\d+"', first)
    assert len(first_rows) == 25
    assert first.index("Award 30.") < first.index("Award 29.")
    assert "Award 5." not in first and "Award 5." in second
    assert 'rel="next"' in first and 'rel="prev"' in second


@pytest.mark.parametrize("which", ["award", "purchase"])
def test_an_entry_carried_over_from_before_the_ledger_is_never_undone(player_client, player, which):
    character = _finished(player, "swd10")
    award, bought = _carried_over(character)
    entry = award if which == "award" else bought
    before = list(LedgerEntry.objects.filter(character=character).values_list("pk", "amount"))
    with pytest.raises(LedgerRefused, match="carries over what the sheet held"):
        ledger.undo(
            user=player,
            character_id=character.pk,
            entry_id=entry.pk,
            expected_version=_fresh(character).version,
            reason="Try",
        )
    after = list(LedgerEntry.objects.filter(character=character).values_list("pk", "amount"))
    assert after == before
    row = re.search(rf'<tr id="entry-{entry.pk}".*?</tr>', _page(player_client, character), re.S)
    assert row and "Undo" not in row.group(0) and "carried over" in row.group(0)
    # Through the page's form too: refused with the message, nothing written.
    response = player_client.post(
        reverse("ledger_undo", args=[character.pk]),
        {"entry": entry.pk, "version": _fresh(character).version, "reason": "Try"},
    )
    assert response.status_code == 400 and "carries over" in response.content.decode()


def test_an_award_worded_like_a_carry_over_is_still_undoable(player_client, player):
    """What is carried over is a flag the ledger sets, not a wording a GM might also type."""
    character = _finished(player, "swd10")
    award = ledger.award(
        user=player, character_id=character.pk, amount="4", reason="Came with the sheet"
    )
    assert not carried_over(award)
    refund = ledger.undo(
        user=player,
        character_id=character.pk,
        entry_id=award.pk,
        expected_version=_fresh(character).version,
        reason="Typed by mistake",
    )
    assert refund.undoes_id == award.pk and refund.amount == -4


def test_the_page_has_no_inline_script_or_style(player_client, player):
    page = _page(player_client, _finished(player, "ore"))
    assert "<script>" not in page and " style=" not in page and " onclick=" not in page
