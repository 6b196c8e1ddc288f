"""R&E power picks through the web: a power taught free with a Force skill pip (002:800)
and then undone on the ledger page, or forgotten on the sheet once the adventure ended,
gives its pick back, and the raise that brought the pick is not refunded while a power
holds it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _picks(character: Character) -> list[str]:
    return _fresh(character).sheet["force"]["power_picks"]


def _powers(character: Character) -> list[str]:
    return _fresh(character).sheet["force"]["powers"]


def _balance(character: Character) -> int:
    return figures(_fresh(character)).balance


def _train_to_the_end(user, character: Character) -> None:
    """End the training of what was bought: a raise reaches the sheet (and Control its
    pick) when its training ends (the reading `training_counts`, 002:43-55)."""
    for found in ledger.in_training(_fresh(character)):
        ledger.train(
            user=user,
            character_id=character.pk,
            action="done",
            training_id=found.pk,
            expected_version=_fresh(character).version,
        )


def _buy(player, character: Character, trait: str, **extra: str) -> LedgerEntry:
    return ledger.purchase(
        user=player,
        character_id=character.pk,
        trait=trait,
        expected_version=_fresh(character).version,
        **extra,
    )


@pytest.fixture
def owed_a_pick(player) -> Character:
    """An R&E character in play who just raised Control 0D → 1D with a teacher: Control
    owes one power (002:796)."""
    demo = get_ruleset("weg_d6").demo_sheet()
    assert demo["edition"] == "2e_re"
    character = character_create(owner=player, name="Padawan", system="weg_d6", sheet=demo)
    character = character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=character.version,
    )
    ledger.award(user=player, character_id=character.pk, amount="100", reason="Session 1")
    _buy(player, character, "force.sensitive")
    _buy(player, character, "force.control", teacher="Master Vos")
    _train_to_the_end(player, character)
    assert _picks(character) == ["control"]
    return character


def _learn(player_client, character: Character, power: str) -> LedgerEntry:
    """Learn a power on the sheet in play (the "Learn" row, a paid edit)."""
    response = player_client.post(
        reverse("character_edit", args=[character.pk]),
        {
            "only": "advance.power.add",
            "advance.power.add": power,
            "version": _fresh(character).version,
        },
    )
    assert response.status_code in (200, 302), response.content.decode()[:500]
    assert power in _powers(character)
    return LedgerEntry.objects.filter(character=character).latest("pk")


def _undo(player_client, character: Character, entry: LedgerEntry):
    return player_client.post(
        reverse("ledger_undo", args=[character.pk]),
        {"entry": entry.pk, "version": _fresh(character).version, "reason": ""},
    )


def test_a_power_taught_with_the_pick_costs_nothing_and_uses_the_pick(player_client, owed_a_pick):
    balance = _balance(owed_a_pick)
    entry = _learn(player_client, owed_a_pick, "control_pain")
    assert entry.trait == "power.control_pain" and entry.amount == 0
    assert _picks(owed_a_pick) == []
    assert _balance(owed_a_pick) == balance


def test_undoing_the_power_on_the_ledger_page_gives_the_pick_back(player_client, owed_a_pick):
    sheet_before = _fresh(owed_a_pick).sheet
    entry = _learn(player_client, owed_a_pick, "control_pain")
    response = _undo(player_client, owed_a_pick, entry)
    assert response.status_code == 302, response.content.decode()[:500]
    assert "control_pain" not in _powers(owed_a_pick)
    assert _picks(owed_a_pick) == ["control"]
    assert _fresh(owed_a_pick).sheet == sheet_before


def _learn_then_forget_after_the_adventure(player_client, character: Character, power: str):
    """Learn a power, end the adventure, then forget it with the sheet's "remove"."""
    _learn(player_client, character, power)
    ended = player_client.post(
        reverse("ledger_end_adventure", args=[character.pk]),
        {"version": _fresh(character).version},
    )
    assert ended.status_code == 302
    response = player_client.post(
        reverse("character_edit", args=[character.pk]),
        {"edit": f"power.remove={power}", "version": _fresh(character).version},
    )
    assert response.status_code == 302
    assert power not in _powers(character)


def _read(player_client, character: Character, reading: str) -> None:
    """Set the reading forgotten_power_picks (the owner is their own GM off-table)."""
    response = player_client.post(
        reverse("character_edit", args=[character.pk]),
        {
            "edit": f"setting.forgotten_power_picks={reading}",
            "version": _fresh(character).version,
        },
    )
    assert response.status_code == 302, response.content.decode()[:500]
    # A reading at its default is not stored.
    assert _fresh(character).rule_settings.get("forgotten_power_picks", "returned") == reading


@pytest.mark.parametrize("reading", ["returned", "lost"])
def test_undoing_the_power_gives_the_pick_back_under_either_reading(
    player_client, owed_a_pick, reading
):
    _read(player_client, owed_a_pick, reading)
    entry = _learn(player_client, owed_a_pick, "control_pain")
    assert _undo(player_client, owed_a_pick, entry).status_code == 302
    assert _picks(owed_a_pick) == ["control"]


def test_under_the_reading_lost_a_power_forgotten_on_the_sheet_keeps_its_pick(
    player_client, owed_a_pick
):
    _read(player_client, owed_a_pick, "lost")
    _learn_then_forget_after_the_adventure(player_client, owed_a_pick, "control_pain")
    assert _picks(owed_a_pick) == []
    assert "control_pain" not in _fresh(owed_a_pick).sheet["force"]["power_picks_spent"]


def test_a_player_cannot_send_the_ledgers_power_undo_in_play(player_client, owed_a_pick):
    """power.undo always gives the picks back: only the ledger's undo sends it."""
    _read(player_client, owed_a_pick, "lost")
    _learn(player_client, owed_a_pick, "control_pain")
    before = _fresh(owed_a_pick).sheet
    response = player_client.post(
        reverse("character_edit", args=[owed_a_pick.pk]),
        {"edit": "power.undo=control_pain", "version": _fresh(owed_a_pick).version},
    )
    assert response.status_code == 400
    assert _fresh(owed_a_pick).sheet == before


def test_forgetting_the_power_on_the_sheet_gives_the_pick_back(player_client, owed_a_pick):
    """Once the adventure ended: before, its undo on the ledger page does it (the sheet's
    "remove" says so, tests/web/test_weg_d6_power_removal.py)."""
    _learn_then_forget_after_the_adventure(player_client, owed_a_pick, "control_pain")
    assert _picks(owed_a_pick) == ["control"]


def test_undoing_the_raise_whose_pick_taught_a_power_waits_for_that_power(
    player_client, owed_a_pick
):
    raise_entry = LedgerEntry.objects.get(character=owed_a_pick, trait="force.control")
    power_entry = _learn(player_client, owed_a_pick, "control_pain")
    balance = _balance(owed_a_pick)
    response = _undo(player_client, owed_a_pick, raise_entry)
    assert response.status_code == 400
    assert "Control pain" in response.content.decode()
    assert _balance(owed_a_pick) == balance
    assert _fresh(owed_a_pick).sheet["force"]["control"] == 3
    # The power first, then the raise: both undone, every point back.
    assert _undo(player_client, owed_a_pick, power_entry).status_code == 302
    assert _undo(player_client, owed_a_pick, raise_entry).status_code == 302
    sheet = _fresh(owed_a_pick).sheet
    assert sheet["force"]["control"] == 0 and sheet["force"]["power_picks"] == []
    assert _balance(owed_a_pick) == balance - raise_entry.amount


def test_undoing_the_raise_before_its_pick_is_used_takes_the_pick_back(player_client, owed_a_pick):
    raise_entry = LedgerEntry.objects.get(character=owed_a_pick, trait="force.control")
    assert _undo(player_client, owed_a_pick, raise_entry).status_code == 302
    sheet = _fresh(owed_a_pick).sheet
    assert sheet["force"]["control"] == 0 and sheet["force"]["power_picks"] == []
