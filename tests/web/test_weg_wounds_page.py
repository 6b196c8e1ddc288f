"""WEG wounds on the sheet and the roll panel: beside the wound track the rules the level
offers, with their source (stabilising 002:559, rest 002:565, stun 002:561; 1E medpacs and
stun, 003:2695-2698, 003:433-448); the 1E mortal wound roll (003:2125) and R&E's 2D minutes
out from stun through the roll panel with their exact odds; bad input named, nothing stored."""

from __future__ import annotations

import copy
import html
from fractions import Fraction

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet, wounds
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


def _hero(owner, edition: str, wound: str) -> Character:
    sheet = copy.deepcopy(demo_sheet())
    sheet["edition"], sheet["wound"] = edition, wound
    return character_create(owner=owner, name="Kell", system="weg_d6", sheet=sheet)


def test_the_wound_track_of_a_mortally_wounded_r_and_e_hero_says_how_to_stabilise(client, player):
    hero = _hero(player, "2e_re", "mortally_wounded")
    client.force_login(player)
    page = html.unescape(client.get(reverse("character_sheet", args=[hero.pk])).content.decode())
    assert 'id="wound-advice"' in page
    assert 'title="Source: 002:559"' in page and "Moderate first aid total (11+)" in page
    assert reverse("character_roll", args=[hero.pk, wounds.STUN_MINUTES_KEY]) in page


def test_the_1e_mortal_roll_goes_through_the_roll_panel_with_its_odds(client, player):
    hero = _hero(player, "1e", "mortally_wounded")
    client.force_login(player)
    url = reverse("character_roll", args=[hero.pk, wounds.MORTAL_KEY])
    page = html.unescape(client.get(url).content.decode())
    assert "Combat rounds since the mortal wound" in page
    response = client.post(url, {"rounds": "9", "campaign": ""})
    assert response.status_code == 302
    entry = RollEntry.objects.get(character=hero)
    assert Fraction(entry.odds) == Fraction(10, 36)
    assert entry.success is (entry.total >= 9)


def test_a_bad_round_count_is_named_and_nothing_is_rolled(client, player):
    hero = _hero(player, "1e", "mortally_wounded")
    client.force_login(player)
    url = reverse("character_roll", args=[hero.pk, wounds.MORTAL_KEY])
    response = client.post(url, {"rounds": "0", "campaign": ""})
    assert response.status_code == 400
    assert "at least 1" in response.content.decode()
    assert not RollEntry.objects.filter(character=hero).exists()


def test_a_1e_hero_not_mortally_wounded_has_no_mortal_roll(client, player):
    hero = _hero(player, "1e", "wounded")
    client.force_login(player)
    url = reverse("character_roll", args=[hero.pk, wounds.MORTAL_KEY])
    assert client.post(url, {"rounds": "3", "campaign": ""}).status_code == 400
    assert not RollEntry.objects.filter(character=hero).exists()


def test_a_1e_hit_is_marked_beside_the_track_and_a_bad_one_named_there(client, player):
    hero = _hero(player, "1e", "wounded")
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[hero.pk])).content.decode()
    assert 'id="trait-wound-hit"' in page
    url = reverse("character_edit", args=[hero.pk])
    data = {"only": "wound.hit", "wound.hit": "11", "wound.hit.1": "9", "version": hero.version}
    client.post(url, data)
    hero.refresh_from_db()
    assert hero.sheet["wound"] == "incapacitated"  # wounded again (003:1840)
    bad = data | {"wound.hit": "lots", "version": hero.version}
    response = client.post(url, bad, headers={"HX-Request": "true"})
    assert "Give the damage roll and the Strength roll" in response.content.decode()
    hero.refresh_from_db()
    assert hero.sheet["wound"] == "incapacitated"
