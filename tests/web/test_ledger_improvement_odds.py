"""The WEG attribute improvement roll's log entry carries its exact odds (002:53): the new
code rolling no more than the species maximum, under the table's Wild Die reading."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from django.urls import reverse

from rulesets.core.rolls import percent_text
from rulesets.weg_d6 import demo_sheet
from rulesets.weg_d6.dice import chance_at_most
from sheets.advancement import services as ledger
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


@pytest.fixture
def dash(player, gm):
    dash = character_create(owner=player, name="Dash", system="weg_d6", sheet=demo_sheet())
    campaign = campaign_create(user=gm, name="Ord Mantell", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=dash.pk)
    dash = character_apply_edits(
        user=player,
        character_id=dash.pk,
        edits={"stage": "play"},
        expected_version=_fresh(dash).version,
    )
    ledger.award(user=gm, character_id=dash.pk, amount="60", reason="Run")
    return _fresh(dash)


def test_the_log_entry_of_an_improvement_roll_holds_its_exact_odds(client, player, gm, dash):
    entry = ledger.purchase(
        user=player,
        character_id=dash.pk,
        trait="attr.dexterity",
        expected_version=_fresh(dash).version,
    )
    # The roll is made when the training ends (the reading `training_counts`, 002:43-55).
    ledger.train(
        user=gm,
        character_id=dash.pk,
        action="done",
        training_id=entry.training.pk,
        expected_version=_fresh(dash).version,
        rng=random.Random(4),
    )
    entry.refresh_from_db()
    roll = RollEntry.objects.get(pk=entry.roll_id)
    # Dexterity 3D+1 → 3D+2 (11 pips) against the human maximum 4D (12), a 1 a complication.
    chance = chance_at_most(11, 12, "complication")
    assert Fraction(roll.odds) == chance
    assert roll.odds_percent == percent_text(chance)
    client.force_login(gm)
    page = client.get(reverse("campaign_roll_log", args=[dash.campaign_id])).content.decode()
    assert percent_text(chance) in page
