"""WEG weapons and gear on the pages: the melee chart and the equipment 003 describes in the
compendium beside the table's own entries, each with its source (003:2702-2706, 003:1084-
1118); the range to the target on a blaster roll's panel (003:2680-2684), written with the
roll at the range's difficulty; a range the rules do not know named beside it, no roll."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet
from sheets.campaigns.services import campaign_create
from sheets.characters.services import character_create
from sheets.compendium.models import Book
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


def test_the_compendium_lists_the_melee_chart_and_the_equipment_with_their_lines(client, gm):
    table = campaign_create(user=gm, name="Ord Mantell", system="weg_d6")
    client.force_login(gm)
    url = reverse("compendium_browse", args=[Book(system="weg_d6", campaign=table).key])
    page = html.unescape(client.get(url, {"kind": "weapon"}).content.decode())
    assert "Vibroblade" in page and "003:2704" in page
    page = html.unescape(client.get(url, {"kind": "equipment"}).content.decode())
    assert "Syntherope" in page and "003:1106" in page


@pytest.fixture
def gunner(player):
    return character_create(owner=player, name="Kell", system="weg_d6", sheet=demo_sheet())


def test_a_blaster_roll_at_medium_range_is_rolled_against_eleven(client, player, gunner):
    client.force_login(player)
    url = reverse("character_roll", args=[gunner.pk, "skill.blaster"])
    page = html.unescape(client.get(url).content.decode())
    assert "Range to the target" in page and "003:2680-2684" in page
    response = client.post(url, {"range": "medium", "difficulty": "10", "campaign": ""})
    assert response.status_code == 302
    entry = RollEntry.objects.get(character=gunner)
    assert "against 11" in entry.summary


def test_an_unknown_range_is_named_and_nothing_is_rolled(client, player, gunner):
    client.force_login(player)
    url = reverse("character_roll", args=[gunner.pk, "skill.blaster"])
    response = client.post(url, {"range": "orbit", "campaign": ""})
    assert response.status_code == 400
    assert "Range to the target" in html.unescape(response.content.decode())
    assert not RollEntry.objects.filter(character=gunner).exists()
