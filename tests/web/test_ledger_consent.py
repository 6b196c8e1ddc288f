"""The ledger's GM steps: an SWd10 merit bought in play waits for the GM's consent, and a
GM corrects a value in play with a reason. Balance and sheet agree after every step."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import engine_sheet, figures
from sheets.advancement.models import LedgerEntry
from sheets.advancement.services import LedgerRefused
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _agree(character: Character) -> int:
    """The balance is the sum of the entries, and the engine counts the same unspent, but
    for what a merit that waits holds (the engine judges the sheet, which lacks it)."""
    character = _fresh(character)
    balance = sum(LedgerEntry.objects.filter(character=character).values_list("amount", flat=True))
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    known = figures(character)
    assert known.balance == balance
    assert ruleset.status(engine_sheet(character), settings).unspent == balance + known.held
    return balance


def _merits(character: Character) -> list[str]:
    return [row["slug"] for row in _fresh(character).sheet["merits"]]


def _ask(user, character, merit="ambidextrous", value="", choice=""):
    return ledger.ask(
        user=user,
        character_id=character.pk,
        choice=merit,
        value=value,
        detail=choice,
        expected_version=_fresh(character).version,
    )


def test_a_merit_at_a_table_waits_for_the_gm_and_is_charged_when_approved(player, gm, in_play):
    asked = _ask(player, in_play)
    assert asked.pending and asked.amount == -3 and asked.trait_label == "Ambidextrous"
    # Nothing is bought while it waits, but its price is held (test_ledger_held.py).
    assert "ambidextrous" not in _merits(in_play)
    assert _agree(in_play) == 17
    # Only the GM consents.
    with pytest.raises(LedgerRefused, match="Only the GM"):
        ledger.consent(
            user=player,
            character_id=in_play.pk,
            entry_id=asked.pk,
            approve=True,
            expected_version=_fresh(in_play).version,
        )
    approved = ledger.consent(
        user=gm,
        character_id=in_play.pk,
        entry_id=asked.pk,
        approve=True,
        expected_version=_fresh(in_play).version,
    )
    assert approved.pk == asked.pk and not approved.pending
    assert approved.amount == -3  # value 1 x 3 (L320)
    assert "ambidextrous" in _merits(in_play)
    assert _agree(in_play) == 17
    # Once approved it is a purchase like any other: the player may undo it.
    ledger.undo(
        user=player,
        character_id=in_play.pk,
        entry_id=approved.pk,
        expected_version=_fresh(in_play).version,
    )
    assert "ambidextrous" not in _merits(in_play)
    assert _agree(in_play) == 20


def test_a_refused_merit_charges_nothing_and_needs_a_reason(player, gm, in_play):
    asked = _ask(player, in_play, "acute_senses", "2", "sight")
    sheet = _fresh(in_play).sheet
    with pytest.raises(LedgerRefused, match="Say why"):
        ledger.consent(
            user=gm,
            character_id=in_play.pk,
            entry_id=asked.pk,
            approve=False,
            expected_version=_fresh(in_play).version,
        )
    closed = ledger.consent(
        user=gm,
        character_id=in_play.pk,
        entry_id=asked.pk,
        approve=False,
        expected_version=_fresh(in_play).version,
        reason="Not in this campaign",
    )
    assert closed.undoes_id == asked.pk and closed.amount == 0
    assert _fresh(in_play).sheet == sheet
    assert _agree(in_play) == 20
    assert not LedgerEntry.objects.get(pk=asked.pk).pending
    # A closed request is neither approved nor closed again.
    with pytest.raises(LedgerRefused, match="waits for consent"):
        ledger.consent(
            user=gm,
            character_id=in_play.pk,
            entry_id=asked.pk,
            approve=True,
            expected_version=_fresh(in_play).version,
        )


def test_a_player_withdraws_a_merit_that_waits(player, in_play):
    asked = _ask(player, in_play)
    ledger.undo(
        user=player,
        character_id=in_play.pk,
        entry_id=asked.pk,
        expected_version=_fresh(in_play).version,
    )
    assert not LedgerEntry.objects.get(pk=asked.pk).pending
    assert _agree(in_play) == 20


def test_approval_finds_the_price_held_though_the_player_spent_the_rest(player, gm, in_play):
    asked = _ask(player, in_play, "acute_senses", "3", "hearing")  # 9 XP, held
    # The player spends what is left on raises before the GM looks.
    while quotes := [q for q in ledger.quotes(_fresh(in_play)) if q.affordable]:
        quotes.sort(key=lambda q: -q.cost.amount)
        ledger.purchase(
            user=player,
            character_id=in_play.pk,
            trait=quotes[0].trait,
            expected_version=_fresh(in_play).version,
        )
    balance = _agree(in_play)
    assert balance < 11
    approved = ledger.consent(
        user=gm,
        character_id=in_play.pk,
        entry_id=asked.pk,
        approve=True,
        expected_version=_fresh(in_play).version,
    )
    assert not approved.pending and approved.amount == -9
    assert _agree(in_play) == balance


@pytest.mark.parametrize(
    ("merit", "value", "message"),
    [
        ("shy", "", "costs no experience"),  # a flaw is no purchase
        ("ambidextrous", "7", "not 7"),
        ("no_such_merit", "", "not a merit or flaw"),
        ("acute_senses", "9", "not 9"),
    ],
)
def test_a_bad_merit_request_is_refused_and_writes_nothing(player, in_play, merit, value, message):
    before = _fresh(in_play)
    with pytest.raises(LedgerRefused, match=message):
        _ask(player, in_play, merit, value)
    after = _fresh(in_play)
    assert (after.sheet, after.version) == (before.sheet, before.version)
    assert not LedgerEntry.objects.filter(character=in_play, pending=True).exists()


def test_outside_a_campaign_a_merit_needs_no_consent(player):
    character = character_create(owner=player, name="Solo", system="swd10")
    character = character_apply_edits(
        user=player, character_id=character.pk, edits={"stage": "play"}, expected_version=1
    )
    ledger.award(user=player, character_id=character.pk, amount="10", reason="Session")
    bought = _ask(player, character)
    assert not bought.pending and bought.amount == -3
    assert "ambidextrous" in _merits(character)
    assert _agree(character) == 7


def test_the_ledger_page_offers_merits_and_the_gm_approves_there(
    player_client, player, gm, in_play
):
    page = player_client.get(reverse("character_ledger", args=[in_play.pk])).content.decode()
    assert 'id="ask-merit"' in page and "needs the GM's consent" in page
    assert "Shy" not in page.split('id="ask-merit"')[1].split("</form>")[0]  # no flaws
    response = player_client.post(
        reverse("ledger_ask", args=[in_play.pk]),
        {"merit": "ambidextrous", "version": _fresh(in_play).version},
    )
    assert response.status_code == 302
    asked = LedgerEntry.objects.get(character=in_play, pending=True)
    page = player_client.get(reverse("character_ledger", args=[in_play.pk])).content.decode()
    assert "awaits the GM" in page and 'name="decision"' not in page
    gm_client = Client()
    gm_client.force_login(gm)
    page = gm_client.get(reverse("character_ledger", args=[in_play.pk])).content.decode()
    assert 'value="approve"' in page and 'value="refuse"' in page
    response = gm_client.post(
        reverse("ledger_consent", args=[in_play.pk]),
        {"entry": asked.pk, "decision": "approve", "version": _fresh(in_play).version},
    )
    assert response.status_code == 302
    assert _agree(in_play) == 17
    response = player_client.post(
        reverse("ledger_ask", args=[in_play.pk]),
        {"merit": "ambidextrous", "version": _fresh(in_play).version},
    )
    assert response.status_code == 400
    assert "already has Ambidextrous" in response.content.decode()


# --- a GM's correction of a value ---------------------------------------------------------


def _correct(user, character, trait, value, reason="Noted wrong", amount=""):
    return ledger.correct_trait(
        user=user,
        character_id=character.pk,
        trait=trait,
        value=value,
        reason=reason,
        amount=amount,
        expected_version=_fresh(character).version,
    )


def test_a_gm_corrects_a_value_with_a_reason_and_it_costs_nothing(gm, in_play):
    before = _fresh(in_play).sheet["attributes"]["dexterity"]
    entry = _correct(gm, in_play, "attr.dexterity", str(before + 1))
    assert (entry.kind, entry.from_value, entry.to_value) == (
        "correction",
        str(before),
        str(before + 1),
    )
    assert entry.reason == "Noted wrong" and entry.author == gm
    assert _fresh(in_play).sheet["attributes"]["dexterity"] == before + 1
    assert _agree(in_play) == 20
    assert _fresh(in_play).revisions.filter(summary__startswith="GM corrected").exists()
    # The two lines of a correction are not undone: the value is corrected again.
    with pytest.raises(LedgerRefused, match="correct it again"):
        ledger.undo(
            user=gm,
            character_id=in_play.pk,
            entry_id=entry.pk,
            expected_version=_fresh(in_play).version,
            reason="oops",
        )
    _correct(gm, in_play, "attr.dexterity", str(before), reason="Back as it was")
    assert _fresh(in_play).sheet["attributes"]["dexterity"] == before
    assert _agree(in_play) == 20


def test_a_correction_charges_the_amount_the_gm_states(gm, in_play):
    _correct(gm, in_play, "willpower", str(_fresh(in_play).sheet["willpower"] + 1), amount="-5")
    assert _agree(in_play) == 15


@pytest.mark.parametrize(
    ("who", "trait", "value", "reason", "amount", "message"),
    [
        ("player", "attr.dexterity", "4", "x", "", "only the GM"),
        ("gm", "attr.dexterity", "4", "", "", "Say why"),
        ("gm", "attr.dexterity", "9", "x", "", "outside"),
        ("gm", "attr.dexterity", "lots", "x", "", "whole number"),
        ("gm", "attr.nothing", "2", "x", "", "not a value"),
        ("gm", "info.experience", "99", "x", "", "corrected with an amount"),
        ("gm", "attr.dexterity", "4", "x", "-500", "below 0"),
        ("gm", "attr.dexterity", "4", "x", "ten", "whole number"),
    ],
)
def test_a_bad_correction_is_refused_and_writes_nothing(
    player, gm, in_play, who, trait, value, reason, amount, message
):
    user = player if who == "player" else gm
    if value == "4":
        value = str(_fresh(in_play).sheet["attributes"]["dexterity"] + 1)
    before = _fresh(in_play)
    with pytest.raises(LedgerRefused, match=message):
        _correct(user, in_play, trait, value, reason=reason, amount=amount)
    after = _fresh(in_play)
    assert (after.sheet, after.version) == (before.sheet, before.version)
    assert _agree(in_play) == 20


@pytest.mark.parametrize("system", ["ore", "weg_d6", "o3d10"])
def test_a_correction_keeps_balance_and_sheet_agreeing_in_every_system(player, system):
    character = character_create(
        owner=player, name="Hero", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    if character.sheet["stage"] != "play":
        character = character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"stage": "play"},
            expected_version=character.version,
        )
    start = _agree(character)
    trait, _label = ledger.correctable(_fresh(character))[0]
    quote = next(q for q in ledger.quotes(_fresh(character)) if q.trait == trait)
    raw = str(quote.to_value)
    if system == "weg_d6":
        from rulesets.weg_d6.traits import code_text

        raw = code_text(quote.to_value)
    entry = _correct(player, character, trait, raw)  # outside a campaign, the owner's step
    assert entry.from_value == quote.from_shown and entry.to_value != entry.from_value
    assert _agree(character) == start
