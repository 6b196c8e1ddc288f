"""Fixtures for rolls: a table of each system with a demo sheet at it, and a sheet at none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from rulesets.registry import SYSTEMS, get_ruleset

SYSTEM_KEYS = sorted(SYSTEMS)


@dataclass
class Table:
    campaign: Any
    character: Any  # the player's demo sheet at the table


@pytest.fixture
def table_of(gm, player, other_player):
    """A campaign of `system` run by `gm`, with `player` (whose demo sheet sits at it) and
    `other_player` as members."""
    from sheets.campaigns.services import (
        campaign_create,
        campaign_join,
        character_bring,
        invitation_create,
    )
    from sheets.characters.services import character_create

    def make(system: str) -> Table:
        campaign = campaign_create(user=gm, name=f"Table {system}", system=system)
        link = invitation_create(user=gm, campaign_id=campaign.pk)
        campaign_join(user=player, token=link.token)
        campaign_join(user=other_player, token=link.token)
        character = character_create(
            owner=player,
            name=f"Hero {system}",
            system=system,
            sheet=get_ruleset(system).demo_sheet(),
        )
        character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
        character.refresh_from_db()
        return Table(campaign, character)

    return make


@pytest.fixture
def loner_of(player):
    """A demo sheet of `system` that sits at no table."""
    from sheets.characters.services import character_create

    def make(system: str):
        return character_create(
            owner=player,
            name=f"Loner {system}",
            system=system,
            sheet=get_ruleset(system).demo_sheet(),
        )

    return make
