"""A character whose ledger holds an undo can be deleted: the ledger goes with it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db


def _version(character: Character) -> str:
    return str(Character.objects.get(pk=character.pk).version)


@pytest.fixture
def bought_and_undone(player, player_client) -> Character:
    """A finished SWd10 character off-table: its owner awards XP, buys a raise and undoes
    it, on the ledger page as the browser does."""
    character = character_create(
        owner=player, name="Hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    if character.sheet["stage"] != "play":
        character = character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"stage": "play"},
            expected_version=character.version,
        )
    steps = [
        ("ledger_award", {"amount": "20", "reason": "Session 1"}),
        ("ledger_buy", {"trait": "attr.strength"}),
    ]
    for name, data in steps:
        response = player_client.post(
            reverse(name, args=[character.pk]), data | {"version": _version(character)}
        )
        assert response.status_code == 302, (name, response.content.decode()[:2000])
    purchase = character.ledger.get(kind=LedgerEntry.Kind.PURCHASE)
    undone = player_client.post(
        reverse("ledger_undo", args=[character.pk]),
        {"entry": str(purchase.pk), "reason": "Wrong trait", "version": _version(character)},
    )
    assert undone.status_code == 302, undone.content.decode()[:2000]
    assert character.ledger.filter(undoes=purchase).exists()
    return character


def test_deleting_a_character_whose_ledger_holds_an_undo_removes_it_and_its_ledger(
    player_client, bought_and_undone
):
    pk = bought_and_undone.pk
    response = player_client.post(
        reverse("character_remove", args=[pk]), {"version": _version(bought_and_undone)}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("character_list")
    assert not Character.objects.filter(pk=pk).exists()
    assert not LedgerEntry.objects.filter(character_id=pk).exists()
