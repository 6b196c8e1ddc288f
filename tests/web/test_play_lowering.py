"""In play a bought value does not go down on the sheet, in any system.

Lowered by a plain edit, it gave nothing back and left its purchase on the ledger, which then
refused to undo it ("the value is not what was bought"); in SWd10, O.R.E. and 1o3d10, whose
engines price the sheet by its values, the balance and the sheet's unspent experience then
disagreed. The ledger's undo gives the points back; the GM corrects the rest.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from tests.web.test_ledger import SYSTEMS, _agree, _finished, _fresh

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _stored(character: Character) -> tuple:
    fresh = _fresh(character)
    entries = LedgerEntry.objects.filter(character=fresh).order_by("pk")
    return fresh.version, fresh.sheet, list(entries.values_list("pk", "amount"))


def _bought(player, system: str) -> tuple[Character, LedgerEntry]:
    """A character in play that just bought its cheapest raise on the ledger."""
    character = _finished(player, system)
    ledger.award(user=player, character_id=character.pk, amount="60", reason="Session 1")
    quote = min(ledger.quotes(_fresh(character)), key=lambda q: (q.cost.amount, q.trait))
    entry = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait=quote.trait,
        expected_version=_fresh(character).version,
        reason="Training between adventures",
    )
    # A WEG raise that trains reaches the sheet when its training ends (002:43-55).
    for found in ledger.in_training(_fresh(character)):
        ledger.train(
            user=player,
            character_id=character.pk,
            action="done",
            training_id=found.pk,
            expected_version=_fresh(character).version,
        )
    return _fresh(character), entry


def _edit(client, character: Character, edit: str) -> str:
    response = client.post(
        reverse("character_edit", args=[character.pk]),
        {"edit": edit, "version": _fresh(character).version},
        **HTMX,
    )
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_bought_value_lowered_on_the_sheet_in_play_is_refused_and_its_undo_still_works(
    player, player_client, system
):
    character, entry = _bought(player, system)
    before = _stored(character)
    answer = _edit(player_client, character, f"{entry.trait}={entry.from_value}")
    label = get_ruleset(system).trait_label(entry.trait)
    wanted = f"In play, {label} goes down only by undoing its purchase on the Advancement page"
    assert wanted in answer
    assert _stored(character) == before
    # The purchase can still be undone, and gives back what it cost.
    balance = figures(_fresh(character)).balance
    ledger.undo(
        user=player,
        character_id=character.pk,
        entry_id=entry.pk,
        expected_version=_fresh(character).version,
        reason="Bought by mistake",
    )
    assert figures(_fresh(character)).balance == balance - entry.amount
    _agree(_fresh(character))


def test_a_merit_bought_in_play_and_removed_on_the_sheet_is_refused_it_would_give_back_xp(
    player, player_client
):
    """No row goes down here: the engine's unspent experience rising says it all."""
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="20", reason="Session 1")
    bought = ledger.ask(
        user=player,
        character_id=character.pk,
        choice="acute_senses",
        value="3",
        detail="hearing",
        expected_version=_fresh(character).version,
    )
    assert not bought.pending and bought.amount == -9  # outside a table: bought at once
    merits = _fresh(character).sheet["merits"]
    index = next(i for i, row in enumerate(merits) if row["slug"] == "acute_senses")
    before = _stored(character)
    answer = _edit(player_client, character, f"merit.{index}.remove")
    assert "This would give back 9 XP: in play, experience comes back only by undoing" in answer
    assert _stored(character) == before
    _agree(_fresh(character))


# A free step, up or down, or an untrain of a priced WEG row: the pip buttons and the link
# under them, each named by its row ("trait-skill-blaster-up").
_FREE_STEP = re.compile(r'id="trait-(?:attr|skill|spec|force)-[a-z0-9_-]+-(?:up|down|remove)"')


def test_in_play_the_weg_sheet_offers_only_the_paid_advance_on_a_bought_value(
    player, player_client
):
    """Its free "+", "−" and "untrain" would all be refused there."""
    character, _entry = _bought(player, "weg_d6")
    page = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert _FREE_STEP.findall(page) == []
    assert page.count('class="advance secondary"') > 20
    # In creation the same sheet offers them, and no paid advance.
    creating = get_ruleset("weg_d6").demo_sheet()
    assert creating["stage"] == "creation"
    fresh = Character.objects.create(owner=player, name="New", system="weg_d6", sheet=creating)
    page = player_client.get(reverse("character_sheet", args=[fresh.pk])).content.decode()
    found = _FREE_STEP.findall(page)
    assert any(f.endswith('-up"') for f in found) and any(f.endswith('-down"') for f in found)
    assert 'class="advance secondary"' not in page


def test_a_bought_flag_unticked_on_the_sheet_in_play_is_refused(player, player_client):
    """WEG Force sensitivity, bought for 20 CP: once bought it has no next price, and
    unticked on the sheet it gave nothing back (and would leave any Force skill on a sheet
    no longer Force-sensitive)."""
    character, _entry = _bought(player, "weg_d6")
    ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="force.sensitive",
        expected_version=_fresh(character).version,
    )
    before = _stored(character)
    answer = _edit(player_client, character, "force.sensitive=no")
    assert "goes down only by undoing its purchase on the Advancement page" in answer
    assert _stored(character) == before
