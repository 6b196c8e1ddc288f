"""Restore goes through the ledger (issue 25, item 1), in all four systems, through the
requests the history's restore page sends.

A restore in play may not set a value the ledger does not pay for: not a raise whose
purchase was undone (the points came back), not a value the GM corrected. The player is
refused with the entries in the way, each linked to its line of the ledger; the GM (the
owner, off-table) may restore it anyway with the entries that price it.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import engine_sheet, figures
from sheets.advancement.models import LedgerEntry
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db
SYSTEMS = ("swd10", "ore", "weg_d6", "o3d10")


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _at_table(player, gm, system: str) -> Character:
    """A legal demo character of `system`, finished, at `gm`'s table, with 100 awarded
    by the GM there."""
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
    campaign = campaign_create(user=gm, name="Outer Rim", system=system)
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    accept = getattr(ledger, "accept_origins", None)
    if accept is not None:
        # Points the sheet brought from off the table count there once the GM accepts them.
        accept(user=gm, character_id=character.pk, expected_version=_fresh(character).version)
    ledger.award(user=gm, character_id=character.pk, amount="100", reason="Session 1")
    return _fresh(character)


def _buy_cheapest(player, character: Character, *, gm, skill: bool = False) -> LedgerEntry:
    """Buy the cheapest raise; with `skill`, of a skill (an O.R.E. Willpower raise also
    moves the player's current Willpower, which a GM's restore may not set). A WEG raise
    that trains reaches the sheet when its training ends: the GM marks it done."""
    quotes = [
        q
        for q in ledger.quotes(_fresh(character))
        if not skill or q.trait.startswith(("skill.", "abil."))
    ]
    quote = min(quotes, key=lambda q: (q.cost.amount, q.trait))
    entry = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait=quote.trait,
        expected_version=_fresh(character).version,
        reason="Trained with the crew",
    )
    for found in ledger.in_training(_fresh(character)):
        ledger.train(
            user=gm,
            character_id=character.pk,
            action="done",
            training_id=found.pk,
            expected_version=_fresh(character).version,
        )
    return entry


def _value_of(character: Character, trait: str):
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    rows = {row.key: row for row in ruleset.trait_rows(engine_sheet(character), settings)}
    return rows[trait].value


def _ledger_pays_for_the_sheet(character: Character) -> bool:
    """What the engine says the sheet's values cost agrees with the ledger's balance."""
    character = _fresh(character)
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    unspent = ruleset.status(engine_sheet(character), settings).unspent
    return unspent == figures(character).balance


def _restore(client, character: Character, version: int, **extra: str):
    url = reverse("character_history_restore", args=[character.pk, version])
    return client.post(url, {"version": str(_fresh(character).version), **extra})


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_player_cannot_restore_a_raise_whose_purchase_was_undone(client, player, gm, system):
    character = _at_table(player, gm, system)
    bought = _buy_cheapest(player, character, gm=gm)
    with_the_raise = _fresh(character).version
    refund = ledger.undo(
        user=player,
        character_id=character.pk,
        entry_id=bought.pk,
        expected_version=_fresh(character).version,
    )
    before = _fresh(character)
    client.force_login(player)

    page = client.get(reverse("character_history_restore", args=[character.pk, with_the_raise]))
    text = page.content.decode()
    assert "does not pay for" in text and bought.trait_label in text
    # The refund that gave the points back stands in the way, linked to its ledger line.
    assert f"{reverse('character_ledger', args=[character.pk])}#entry-{refund.pk}" in text

    response = _restore(client, character, with_the_raise)
    assert response.status_code == 400
    assert "does not pay for" in response.content.decode()
    after = _fresh(character)
    assert (after.version, after.sheet) == (before.version, before.sheet)
    assert _ledger_pays_for_the_sheet(after)

    # A plain edit in play is still restored: only what the ledger prices is guarded.
    character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"info.player": "Someone else"},
        expected_version=after.version,
    )
    assert _restore(client, character, after.version).status_code == 302
    assert _fresh(character).sheet == after.sheet


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_player_cannot_undo_the_gms_correction_by_restoring_the_version_before_it(
    client, player, gm, system
):
    character = _at_table(player, gm, system)
    bought = _buy_cheapest(player, character, gm=gm)
    raised = _fresh(character)
    lower = bought.from_value if system == "weg_d6" else str(_value_of(raised, bought.trait) - 1)
    correction = ledger.correct_trait(
        user=gm,
        character_id=character.pk,
        trait=bought.trait,
        value=lower,
        reason="Not earned at the table",
        expected_version=raised.version,
    )
    before = _fresh(character)
    client.force_login(player)

    page = client.get(reverse("character_history_restore", args=[character.pk, raised.version]))
    text = page.content.decode()
    assert "correction" in text and bought.trait_label in text
    assert f"#entry-{correction.pk}" in text
    response = _restore(client, character, raised.version)
    assert response.status_code == 400
    after = _fresh(character)
    assert (after.version, after.sheet) == (before.version, before.sheet)
    # Asking to price it is the GM's to do, not the player's.
    response = _restore(client, character, raised.version, pricing="balance")
    assert response.status_code == 400 and _fresh(character).version == before.version


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_gm_may_restore_a_corrected_value_with_the_entries_that_price_it(
    client, player, gm, system
):
    character = _at_table(player, gm, system)
    bought = _buy_cheapest(player, character, gm=gm, skill=True)
    raised = _fresh(character)
    lower = bought.from_value if system == "weg_d6" else str(_value_of(raised, bought.trait) - 1)
    ledger.correct_trait(
        user=gm,
        character_id=character.pk,
        trait=bought.trait,
        value=lower,
        reason="Noted twice",
        expected_version=raised.version,
    )
    balance = figures(_fresh(character)).balance
    client.force_login(gm)
    page = client.get(reverse("character_history_restore", args=[character.pk, raised.version]))
    assert 'name="pricing"' in page.content.decode()
    # Without a reason the ledger would carry a line nobody can explain.
    refused = _restore(client, character, raised.version, pricing="balance")
    assert refused.status_code == 400 and "Say why" in refused.content.decode()

    response = _restore(
        client, character, raised.version, pricing="balance", reason="The raise stands"
    )
    assert response.status_code == 302
    after = _fresh(character)
    assert _value_of(after, bought.trait) == _value_of(raised, bought.trait)
    entries = LedgerEntry.objects.filter(character=after, version=after.version)
    line = entries.get(kind=LedgerEntry.Kind.CORRECTION, trait=bought.trait)
    assert (line.from_value, line.to_value) == (bought.from_value, bought.to_value)
    assert line.author == gm and "The raise stands" in line.reason
    assert _ledger_pays_for_the_sheet(after)
    if system != "weg_d6":
        # Charged to the balance: the raise costs what the engine prices it at again.
        assert figures(after).balance == balance + bought.amount
    assert after.revisions.first().summary.startswith(f"Restored version {raised.version}")


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_gm_may_restore_a_value_free_leaving_the_balance_as_it_was(client, player, gm, system):
    character = _at_table(player, gm, system)
    bought = _buy_cheapest(player, character, gm=gm, skill=True)
    with_the_raise = _fresh(character).version
    ledger.undo(
        user=gm,
        character_id=character.pk,
        entry_id=bought.pk,
        expected_version=_fresh(character).version,
        reason="Wrong sheet",
    )
    balance = figures(_fresh(character)).balance
    client.force_login(gm)
    response = _restore(client, character, with_the_raise, pricing="free", reason="Granted")
    assert response.status_code == 302
    after = _fresh(character)
    assert figures(after).balance == balance
    assert _ledger_pays_for_the_sheet(after)
    assert LedgerEntry.objects.filter(
        character=after, version=after.version, kind=LedgerEntry.Kind.CORRECTION
    ).exists()
