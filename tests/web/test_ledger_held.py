"""A purchase that waits for the GM's consent holds its price: the balance counts it as
spent (and says so), nothing else may spend it, the GM's approval then always finds it,
and refusing or withdrawing the purchase gives it back.

Only SWd10 buys anything with the GM's consent (a merit in play, L320); the other systems
refuse to ask and hold nothing, on both the annotated and the raw path of the figures.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import engine_sheet, figures, keep_figures, with_figures
from sheets.advancement.models import LedgerEntry
from sheets.advancement.services import LedgerRefused
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from tests.web.test_ledger import SYSTEMS, _finished, _fresh
from tests.web.test_ledger_consent import _ask as consent_ask

pytestmark = pytest.mark.django_db
# Acute Senses at 3 points costs 3 × 3 XP (L320, L328).
HELD = 9
MERIT = "Acute Senses (hearing)"


def _stored(character: Character) -> tuple:
    """Everything a refusal must leave as it was."""
    fresh = _fresh(character)
    rows = LedgerEntry.objects.filter(character=fresh).order_by("pk")
    return fresh.version, fresh.sheet, list(rows.values_list("pk", "amount", "pending"))


def _agree(character: Character) -> int:
    """The balance is the sum of the entries; the engine, which judges the sheet as it
    stands (the merit that waits is not on it), counts the held XP as still unspent."""
    fresh = _fresh(character)
    known = figures(fresh)
    total = sum(LedgerEntry.objects.filter(character=fresh).values_list("amount", flat=True))
    assert known.balance == total
    ruleset = get_ruleset(fresh.system)
    settings = resolve_settings(ruleset.SETTINGS, fresh.readings_in_force)
    assert ruleset.status(engine_sheet(fresh), settings).unspent == total + known.held
    return total


def _ask(user, character, merit="acute_senses", value="3", choice="hearing"):
    return consent_ask(user, character, merit, value, choice)


def _consent(user, character, entry, *, approve=True, reason=""):
    return ledger.consent(
        user=user,
        character_id=character.pk,
        entry_id=entry.pk,
        approve=approve,
        expected_version=_fresh(character).version,
        reason=reason,
    )


def _buy(user, character, trait):
    return ledger.purchase(
        user=user,
        character_id=character.pk,
        trait=trait,
        expected_version=_fresh(character).version,
    )


def _cheapest(character: Character) -> ledger.Quote:
    return min(ledger.quotes(_fresh(character)), key=lambda q: (q.cost.amount, q.trait))


def _leave_free(gm, character: Character, free: int) -> None:
    """Correct the balance so that, once the merit holds its 9 XP, `free` XP are left."""
    change = HELD + free - figures(_fresh(character)).balance
    if change:
        ledger.correct(user=gm, character_id=character.pk, amount=str(change), reason="Set up")


# --- the hold -----------------------------------------------------------------------------


def test_a_merit_that_waits_holds_its_price_and_the_balance_says_so(player, gm, in_play):
    asked = _ask(player, in_play)
    assert asked.pending and asked.amount == -HELD
    assert "acute_senses" not in [row["slug"] for row in _fresh(in_play).sheet["merits"]]
    known = figures(_fresh(in_play))
    assert (known.earned, known.held, known.charged, known.balance) == (20, HELD, 0, 20 - HELD)
    assert _agree(in_play) == 20 - HELD
    # What a raise would leave counts the hold too.
    assert {quote.balance for quote in ledger.quotes(_fresh(in_play))} == {20 - HELD}


def test_a_raise_that_would_spend_what_a_merit_holds_is_refused_naming_the_merit(
    player, gm, in_play
):
    """The bug: the player spent the held XP on a raise, then the GM's approval failed."""
    cheapest = _cheapest(in_play)
    _leave_free(gm, in_play, cheapest.cost.amount - 1)
    asked = _ask(player, in_play)
    before = _stored(in_play)
    with pytest.raises(LedgerRefused) as refused:
        _buy(player, in_play, cheapest.trait)
    message = refused.value.message
    assert f"only {cheapest.cost.amount - 1} XP are left" in message
    assert f"{HELD} XP are held for {MERIT}" in message and "GM's approval" in message
    assert _stored(in_play) == before
    # So the GM's approval always finds the XP it was asked for.
    approved = _consent(gm, in_play, asked)
    assert not approved.pending and approved.amount == -HELD
    assert "acute_senses" in [row["slug"] for row in _fresh(in_play).sheet["merits"]]
    assert figures(_fresh(in_play)).held == 0
    assert _agree(in_play) == cheapest.cost.amount - 1


def test_approval_succeeds_after_the_player_spent_everything_else(player, gm, in_play):
    asked = _ask(player, in_play)
    while quotes := [q for q in ledger.quotes(_fresh(in_play)) if q.affordable]:
        _buy(player, in_play, max(quotes, key=lambda q: (q.cost.amount, q.trait)).trait)
    left = _agree(in_play)
    assert 0 <= left < _cheapest(in_play).cost.amount
    _consent(gm, in_play, asked)
    assert _agree(in_play) == left
    assert figures(_fresh(in_play)).held == 0


def _second_merit(player, gm, character):
    return _ask(player, character, "ambidextrous", "", "")


def _correct_down(player, gm, character):
    ledger.correct(user=gm, character_id=character.pk, amount="-3", reason="Too generous")


def _undo_award(player, gm, character):
    award = LedgerEntry.objects.filter(character=character, kind="award").latest("pk")
    ledger.undo(
        user=gm,
        character_id=character.pk,
        entry_id=award.pk,
        expected_version=_fresh(character).version,
        reason="Wrong session",
    )


def _charged_correction(player, gm, character):
    willpower = _fresh(character).sheet["willpower"]
    ledger.correct_trait(
        user=gm,
        character_id=character.pk,
        trait="willpower",
        value=str(willpower + 1),
        amount="-3",
        reason="Trained",
        expected_version=_fresh(character).version,
    )


@pytest.mark.parametrize(
    ("spend", "message"),
    [
        (_second_merit, "only 2 XP are left"),
        (_correct_down, "below 0"),
        (_undo_award, "undo the purchases it paid for first"),
        (_charged_correction, "below 0"),
    ],
    ids=["second merit", "correction", "undone award", "charged value correction"],
)
def test_every_other_way_of_spending_the_held_xp_is_refused_and_writes_nothing(
    player, gm, in_play, spend, message
):
    _leave_free(gm, in_play, 2)
    _ask(player, in_play)
    if spend is _undo_award:
        # The last award is the one that pays for the merit.
        ledger.award(user=gm, character_id=in_play.pk, amount="5", reason="Session 2")
        ledger.correct(user=gm, character_id=in_play.pk, amount="-5", reason="Set up")
    before = _stored(in_play)
    with pytest.raises(LedgerRefused) as refused:
        spend(player, gm, in_play)
    assert message in refused.value.message
    assert f"{HELD} XP are held for {MERIT}" in refused.value.message
    assert _stored(in_play) == before
    assert _agree(in_play) == 2


@pytest.mark.parametrize("how", ["refused by the GM", "withdrawn by the player"])
def test_refusing_or_withdrawing_the_merit_releases_what_it_held(player, gm, in_play, how):
    cheapest = _cheapest(in_play)
    _leave_free(gm, in_play, cheapest.cost.amount - 1)
    asked = _ask(player, in_play)
    if how == "refused by the GM":
        _consent(gm, in_play, asked, approve=False, reason="Not in this campaign")
    else:
        ledger.undo(
            user=player,
            character_id=in_play.pk,
            entry_id=asked.pk,
            expected_version=_fresh(in_play).version,
        )
    closed = LedgerEntry.objects.get(pk=asked.pk)
    assert not closed.pending and closed.amount == 0
    assert figures(_fresh(in_play)).held == 0
    assert _agree(in_play) == HELD + cheapest.cost.amount - 1
    # What it held can be spent now.
    _buy(player, in_play, cheapest.trait)


@pytest.mark.parametrize("value", ["3", "2"])
def test_the_same_merit_asked_again_while_it_waits_is_refused_and_holds_nothing_more(
    player, gm, in_play, value
):
    """Asked twice, it held its price twice, and approving the second was then refused as
    a merit the sheet already has."""
    asked = _ask(player, in_play)
    before = _stored(in_play)
    with pytest.raises(LedgerRefused) as refused:
        _ask(player, in_play, value=value)
    assert f"{MERIT} already waits for the GM's approval" in refused.value.message
    assert refused.value.field == "ask"
    assert _stored(in_play) == before
    assert figures(_fresh(in_play)).held == HELD
    # The same merit with another choice is another merit: it may be asked for.
    _ask(player, in_play, choice="sight")
    assert figures(_fresh(in_play)).held == 2 * HELD
    # Once the first is withdrawn, the merit may be asked again.
    ledger.undo(
        user=player,
        character_id=in_play.pk,
        entry_id=asked.pk,
        expected_version=_fresh(in_play).version,
    )
    _ask(player, in_play, value=value)
    assert figures(_fresh(in_play)).held == HELD + int(value) * 3


# --- a request that holds less than its price -----------------------------------------------


def _holding_nothing(player, gm, character, free: int) -> LedgerEntry:
    """A request stored before requests held their price (its amount is 0), with `free` XP
    left beside it."""
    _leave_free(gm, character, 0)
    asked = _ask(player, character)
    LedgerEntry.objects.filter(pk=asked.pk).update(amount=0)
    if free != HELD:
        ledger.correct(user=gm, character_id=character.pk, amount=str(free - HELD), reason="Set up")
    return asked


def test_a_request_holding_less_than_its_price_is_approved_when_the_balance_pays(
    player, gm, in_play
):
    asked = _holding_nothing(player, gm, in_play, free=HELD + 1)
    approved = _consent(gm, in_play, asked)
    assert approved.amount == -HELD
    assert _agree(in_play) == 1


def test_a_request_holding_less_than_its_price_is_refused_approval_when_it_cannot(
    player, gm, in_play
):
    asked = _holding_nothing(player, gm, in_play, free=HELD - 1)
    before = _stored(in_play)
    with pytest.raises(LedgerRefused) as refused:
        _consent(gm, in_play, asked)
    message = refused.value.message
    assert f"now costs {HELD} XP" in message and "0 XP were held for it" in message
    assert f"only {HELD - 1} XP are left" in message
    assert _stored(in_play) == before
    assert LedgerEntry.objects.get(pk=asked.pk).pending


# --- the pages ----------------------------------------------------------------------------


def _balance_panel(page: str) -> str:
    found = re.search(r'<section id="ledger-balance".*?</section>', page, re.S)
    assert found
    return found.group(0)


def test_the_ledger_page_shows_what_is_held_for_approval(player_client, player, gm, in_play):
    asked = _ask(player, in_play)
    panel = _balance_panel(
        player_client.get(reverse("character_ledger", args=[in_play.pk])).content.decode()
    )
    assert f"<strong>{20 - HELD} XP</strong>" in panel
    assert "Held for the GM's approval" in panel and f"<b>{HELD}</b>" in panel
    gm_client = Client()
    gm_client.force_login(gm)
    page = gm_client.get(reverse("character_ledger", args=[in_play.pk])).content.decode()
    row = re.search(rf'<tr id="entry-{asked.pk}".*?</tr>', page, re.S).group(0)
    assert "awaits the GM's consent" in row and f"{HELD} XP held" in row
    table = gm_client.get(reverse("campaign_award", args=[in_play.campaign_id])).content.decode()
    assert f"{20 - HELD} XP <small>({HELD} held for approval)</small>" in table


def test_the_sheet_its_list_and_the_table_say_what_of_the_unspent_xp_is_held(
    player_client, player, gm, in_play
):
    """The engine's unspent figure still holds the merit's price (it is not on the sheet
    yet): each page that shows the figure says how much of it waits for approval."""
    _ask(player, in_play)
    sheet = player_client.get(reverse("character_sheet", args=[in_play.pk])).content.decode()
    unspent = re.search(r'<span class="unspent">(.*?)</span>', sheet, re.S).group(1)
    assert unspent == f"20 XP unspent, {HELD} of it held for the GM's approval."
    listed = player_client.get(reverse("character_list")).content.decode()
    assert f"20 XP unspent ({HELD} held for the GM's approval)" in listed
    gm_client = Client()
    gm_client.force_login(gm)
    table = gm_client.get(reverse("campaign_detail", args=[in_play.campaign_id])).content
    assert f"20 XP ({HELD} held for approval)" in table.decode()


def test_a_refused_raise_on_the_page_names_the_merit_and_changes_nothing(
    player_client, player, gm, in_play
):
    cheapest = _cheapest(in_play)
    _leave_free(gm, in_play, cheapest.cost.amount - 1)
    _ask(player, in_play)
    before = _stored(in_play)
    response = player_client.post(
        reverse("ledger_buy", args=[in_play.pk]),
        {"trait": cheapest.trait, "version": _fresh(in_play).version},
    )
    assert response.status_code == 400
    error = re.search(
        r'<p class="error" role="alert" id="buy-error">(.*?)</p>', response.content.decode(), re.S
    )
    assert error and MERIT in error.group(1) and "held" in error.group(1)
    assert _stored(in_play) == before


# --- every system -------------------------------------------------------------------------


def _at_a_table(player, gm, system: str) -> Character:
    character = _finished(player, system)
    campaign = campaign_create(user=gm, name=f"Table {system}", system=system)
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    return _fresh(character)


@pytest.mark.parametrize("system", SYSTEMS)
def test_in_every_system_a_request_holds_or_is_refused_and_both_paths_agree(
    make_user, player, system
):
    gm = make_user(f"gm_{system}")
    character = _at_a_table(player, gm, system)
    ledger.award(user=gm, character_id=character.pk, amount="20", reason="Session 1")
    balance = figures(_fresh(character)).balance
    before = _stored(character)
    if system == "swd10":
        _ask(player, character, "acute_senses", "1", "sight")
        expected = (3, balance - 3)
    else:
        with pytest.raises(LedgerRefused, match="Nothing on this sheet is bought with the GM"):
            _ask(player, character, "anything", "1", "")
        assert _stored(character) == before
        expected = (0, balance)
    raw = figures(_fresh(character))
    annotated = figures(with_figures(Character.objects.filter(pk=character.pk)).get())
    kept = figures(keep_figures(_fresh(character)))
    assert raw == annotated == kept
    assert (raw.held, raw.balance) == expected
