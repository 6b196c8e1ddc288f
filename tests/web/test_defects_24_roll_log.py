"""Issue 24, defect 16: what the roller says beside the dice (a WEG Wild Die's complication)
reaches the table's log too."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create
from sheets.rolls.services import parse_roll_options, roll_make, roll_setup, rollables_of

pytestmark = pytest.mark.django_db

COMPLICATION = "Wild Die 1: a complication"


def seed_with_a_complication(character, key: str) -> int:
    """A seed whose roll of `key` turns up a 1 on the Wild Die (found by rolling for real)."""
    setup = roll_setup(character, key)
    options = parse_roll_options(setup.definitions, {}) | setup.readings
    ruleset = get_ruleset(character.system)
    for seed in range(500):
        if COMPLICATION in ruleset.roll(setup.rollable, options, random.Random(seed)).details:
            return seed
    raise AssertionError("no seed of 500 rolls a 1 on the Wild Die")


def test_a_wild_die_complication_shows_in_the_tables_log(client, player, gm):
    campaign = campaign_create(user=gm, name="Rebels", system="weg_d6")
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    character = character_create(
        owner=player, name="Hero", system="weg_d6", sheet=get_ruleset("weg_d6").demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    character.refresh_from_db()
    ruleset = get_ruleset("weg_d6")
    assert (
        resolve_settings(ruleset.SETTINGS, campaign.rule_settings)["dice_wild_one"]
        == "complication"
    )
    key = rollables_of(character)[0].key
    entry = roll_make(
        user=player,
        character_id=character.pk,
        rollable_key=key,
        raw={},
        drawn_campaign=campaign.pk,
        rng=random.Random(seed_with_a_complication(character, key)),
    )
    assert COMPLICATION in entry.details

    client.force_login(gm)
    log = client.get(reverse("campaign_roll_log", args=[campaign.pk]))
    assert log.status_code == 200
    text = log.content.decode()
    assert f'id="roll-entry-{entry.pk}"' in text
    assert COMPLICATION in text
