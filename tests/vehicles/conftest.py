"""A WEG d6 table with a player's character, for the vehicle pages."""

from __future__ import annotations

import pytest

from rulesets.weg_d6.demo import demo_sheet
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create


@pytest.fixture
def weg_table(gm, player, other_player):
    campaign = campaign_create(user=gm, name="Yavin", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    campaign_join(user=other_player, token=link.token)
    return campaign


@pytest.fixture
def pilot(player, weg_table):
    character = character_create(owner=player, name="Dash", system="weg_d6", sheet=demo_sheet())
    character_bring(user=player, campaign_id=weg_table.pk, character_id=character.pk)
    character.refresh_from_db()
    return character
