"""What a roll spends is written with it, in one transaction (issue 12 §1, §3):

- SWd10: each Willpower spent (an automatic success, L181; wounds ignored, L180) takes one
  from current Willpower;
- WEG d6: a Force Point spent (003:95) comes off the sheet's Force Points; Character
  Points spent (002:480-489) are a ledger entry, as the ledger holds them in play.

A spend the sheet cannot pay is refused beside its option and nothing is stored.
"""

from __future__ import annotations

import random

import pytest

from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.characters.services import character_apply_edits
from sheets.history.models import Revision
from sheets.rolls.models import RollEntry
from sheets.rolls.services import WHOLE_ROLL, RollRefused, roll_make, roll_setup

pytestmark = pytest.mark.django_db


def _roll(user, character, key: str, raw: dict):
    return roll_make(
        user=user,
        character_id=character.pk,
        rollable_key=key,
        raw=raw,
        drawn_campaign=character.campaign_id,
        rng=random.Random(3),
    )


def _stored(character):
    character.refresh_from_db()
    return (
        character.version,
        character.sheet,
        RollEntry.objects.count(),
        LedgerEntry.objects.filter(character=character).count(),
        Revision.objects.filter(character=character).count(),
    )


def _set(user, character, edits: dict) -> None:
    character.refresh_from_db()
    character_apply_edits(
        user=user, character_id=character.pk, edits=edits, expected_version=character.version
    )
    character.refresh_from_db()


# SWd10 Willpower ------------------------------------------------------------------------------


@pytest.fixture
def swd10_in_play(loner_of, player):
    """The SWd10 demo sheet, creation finished (Willpower is spent in play only)."""
    character = loner_of("swd10")
    _set(player, character, {"stage": "play"})
    return character


def test_willpower_spent_on_a_roll_comes_off_current_willpower(swd10_in_play, player):
    character = swd10_in_play
    current = character.sheet["willpower_current"]
    version = character.version
    entry = _roll(player, character, "attr.strength", {"willpower": "yes"})
    character.refresh_from_db()
    assert character.sheet["willpower_current"] == current - 1
    assert character.version == version + 1
    assert "Spend Willpower" in entry.modifiers


def test_ignoring_wounds_and_a_success_spend_two(swd10_in_play, player):
    character = swd10_in_play
    _set(player, character, {"health": "2"})
    current = character.sheet["willpower_current"]
    setup = roll_setup(character, "attr.strength")
    assert "ignore_wounds" in {option.key for option in setup.definitions}
    _roll(player, character, "attr.strength", {"willpower": "yes", "ignore_wounds": "yes"})
    character.refresh_from_db()
    assert character.sheet["willpower_current"] == current - 2


def test_willpower_the_sheet_cannot_pay_is_refused_beside_it(swd10_in_play, player):
    character = swd10_in_play
    _set(player, character, {"health": "2", "willpower_current": "1"})
    before = _stored(character)
    with pytest.raises(RollRefused) as refused:
        _roll(player, character, "attr.strength", {"willpower": "yes", "ignore_wounds": "yes"})
    assert refused.value.errors == {"willpower": "Only 1 Willpower left to spend."}
    assert _stored(character) == before
    # The last point went since the page was drawn: the form still asks for it.
    _set(player, character, {"willpower_current": "0"})
    before = _stored(character)
    with pytest.raises(RollRefused) as refused:
        _roll(player, character, "attr.strength", {"willpower": "yes"})
    assert refused.value.errors == {WHOLE_ROLL: "No Willpower left to spend on this roll."}
    assert _stored(character) == before


def test_the_gm_does_not_spend_a_players_willpower(table_of, gm, player):
    character = table_of("swd10").character
    _set(player, character, {"stage": "play"})
    before = _stored(character)
    with pytest.raises(RollRefused) as refused:
        _roll(gm, character, "attr.strength", {"willpower": "yes"})
    assert refused.value.errors[WHOLE_ROLL].startswith("Not rolled:")
    assert _stored(character) == before


# WEG Force Points and Character Points --------------------------------------------------------


@pytest.fixture
def weg_in_play(loner_of, player):
    """The WEG demo sheet (R&E, 5 Character Points, 1 Force Point), creation finished:
    its Character Points are the ledger's now."""
    character = loner_of("weg_d6")
    _set(player, character, {"stage": "play"})
    assert figures(character).balance == 5
    assert character.sheet["points"]["character"] == 0  # the ledger holds them
    return character


def test_a_force_point_spent_comes_off_the_sheet(weg_in_play, player):
    character = weg_in_play
    points = character.sheet["points"]["force"]
    entry = _roll(player, character, "attr.dexterity", {"force_point": "yes"})
    character.refresh_from_db()
    assert character.sheet["points"]["force"] == points - 1
    assert "Force Point" in entry.modifiers
    # None left: the option is gone, and a form that still asks is refused.
    before = _stored(character)
    with pytest.raises(RollRefused) as refused:
        _roll(player, character, "attr.dexterity", {"force_point": "yes"})
    assert refused.value.errors == {WHOLE_ROLL: "No Force Point left to spend."}
    assert _stored(character) == before


def test_character_points_spent_are_a_ledger_entry(weg_in_play, player):
    character = weg_in_play
    setup = roll_setup(character, "attr.dexterity")
    offered = {option.key: option for option in setup.definitions}
    # Dexterity may dodge or parry (5, 002:485); a plain use, the default, takes 2 (002:483).
    assert offered["character_points"].maximum == 5
    assert offered["purpose"].default == "use"
    assert "5 left" in offered["character_points"].help
    sheet_before = character.sheet
    entry = _roll(player, character, "attr.dexterity", {"character_points": "2"})
    character.refresh_from_db()
    assert figures(character).balance == 3
    spent = LedgerEntry.objects.filter(character=character).latest("pk")
    assert (spent.amount, spent.trait, spent.unit) == (-2, "roll.attr.dexterity", "CP")
    assert character.sheet["points"] == sheet_before["points"]
    assert entry.success is not None and "Character Points spent 2" in entry.modifiers


def test_character_points_the_ledger_cannot_pay_are_refused_beside_the_option(weg_in_play, player):
    character = weg_in_play
    ledger.correct(
        user=player,
        character_id=character.pk,
        amount="-4",
        reason="Spent elsewhere",
        expected_version=character.version,
    )
    before = _stored(character)
    with pytest.raises(RollRefused) as refused:
        _roll(player, character, "attr.dexterity", {"character_points": "2"})
    assert refused.value.errors == {"character_points": "Only 1 Character Point left to spend."}
    assert _stored(character) == before


def test_the_gm_does_not_spend_a_players_character_points(table_of, gm, player):
    character = table_of("weg_d6").character
    _set(player, character, {"stage": "play"})
    before = _stored(character)
    with pytest.raises(RollRefused) as refused:
        _roll(gm, character, "attr.dexterity", {"character_points": "1"})
    assert "only the character's player" in refused.value.errors[WHOLE_ROLL]
    assert _stored(character) == before


def test_starting_character_points_are_not_spent_on_rolls(loner_of):
    character = loner_of("weg_d6")  # in creation: its 5 points are the starting budget
    setup = roll_setup(character, "attr.dexterity")
    assert "character_points" not in {option.key for option in setup.definitions}
