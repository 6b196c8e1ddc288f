"""The table's page lists vehicles apart from the sheets: a GM the table's and the NPCs'
vehicles, a player the table's and their own; a hidden NPC's vehicle never reaches a
player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.weg_d6.demo import demo_sheet
from sheets.campaigns.services import character_bring
from sheets.characters.services import character_create
from sheets.npcs.services import npc_create
from sheets.vehicles.services import vehicle_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def fleet(gm, player, other_player, weg_table, pilot):
    npc = npc_create(user=gm, campaign_id=weg_table.pk, name="Moff Secretmarker")
    rival = character_create(owner=other_player, name="Rook", system="weg_d6", sheet=demo_sheet())
    character_bring(user=other_player, campaign_id=weg_table.pk, character_id=rival.pk)
    vehicle_create(user=gm, name="Tantive IV", owner="campaign", campaign_id=weg_table.pk)
    vehicle_create(user=gm, name="Shuttle Nightfall", owner="npc", character_id=npc.pk)
    vehicle_create(user=player, name="Dash's Outrider", owner="character", character_id=pilot.pk)
    vehicle_create(user=other_player, name="Rook's Skiff", owner="character", character_id=rival.pk)


def _vehicles_section(client, table) -> str:
    body = client.get(reverse("campaign_detail", kwargs={"pk": table.pk})).content.decode()
    start = body.index('id="vehicles"')
    return body[start : body.index("</section>", start)]


def test_the_gm_reads_the_tables_and_the_npcs_vehicles(client, gm, weg_table, fleet):
    client.force_login(gm)
    section = _vehicles_section(client, weg_table)
    assert "Tantive IV" in section and "Shuttle Nightfall" in section
    assert "Dash&#x27;s Outrider" not in section and "Rook&#x27;s Skiff" not in section


def test_a_player_reads_the_tables_vehicles_and_their_own(client, player, weg_table, fleet):
    client.force_login(player)
    section = _vehicles_section(client, weg_table)
    assert "Tantive IV" in section and "Dash&#x27;s Outrider" in section
    assert "Rook&#x27;s Skiff" not in section
    body = client.get(reverse("campaign_detail", kwargs={"pk": weg_table.pk})).content.decode()
    assert "Shuttle Nightfall" not in body and "Secretmarker" not in body
