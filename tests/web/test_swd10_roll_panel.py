"""The SWd10 roll panel offers what seed 000 adds to a roll: where an attack is aimed
(L246-286), the mistake a Path roll answers (L120-168), Destiny points (L81-85) and current
Power (L102-106) spent, and soak against armor and shields (L185-230); a spend is written
on the sheet with the roll, and a bad option is refused beside its field, storing nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rulesets.swd10 import apply_edit, demo_sheet
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
VEST = {"name": "Blast vest", "kind": "armor", "rating": 3, "lost": 0, "worn": True}
SHIELD = {"name": "Belt shield", "kind": "shield", "rating": 1, "lost": 0, "worn": True}


@pytest.fixture
def hero(player):
    """The demo hero in play, as a Storyteller left it: Power 4 with 2 in the pool, Light
    side 4, two Destiny points, a vest and a belt shield worn."""
    sheet = apply_edit(demo_sheet(), "stage", "play", {})
    sheet |= {"armor": [VEST, SHIELD], "power": 4, "power_current": 2, "light_side": 4}
    sheet["info"] = sheet["info"] | {"destiny_points": 2}
    return character_create(owner=player, name="Kira Dane", system="swd10", sheet=sheet)


def url(character, key: str, name: str = "character_roll") -> str:
    return reverse(name, args=[character.pk, key])


def test_an_attack_offers_aiming_destiny_and_power_with_their_sources(client, player, hero):
    client.force_login(player)
    page = client.get(url(hero, "abil.firearms")).content.decode()
    assert 'name="aim"' in page and "Head / neck: +3 difficulty, +4 dice" in page
    assert 'name="destiny_successes"' in page and "+3 successes on a combat roll" in page
    assert 'name="power_actions"' in page
    assert "L248-259" in page and "L105" in page


def test_aiming_moves_the_odds_to_the_tables_difficulty(client, player, hero):
    client.force_login(player)
    odds = url(hero, "abil.firearms", "roll_odds")
    aimed = client.get(odds, {"aim": "eyes"}, headers=HTMX).content.decode()
    assert "at difficulty 10" in aimed  # 6 + 4 for the eyes (L256)


def test_an_unknown_aim_is_refused_beside_its_field_and_stores_nothing(client, player, hero):
    client.force_login(player)
    response = client.post(url(hero, "abil.firearms"), {"aim": "kneecap", "campaign": ""})
    assert response.status_code == 400
    text = response.content.decode()
    assert re.search(r'id="roll-aim-error" class="field-error error"[^>]*>[^<]*Aimed at', text)
    assert not RollEntry.objects.exists()
    assert Character.objects.get(pk=hero.pk).version == hero.version


def test_the_path_roll_offers_its_sides_mistakes(client, player, hero):
    client.force_login(player)
    page = client.get(url(hero, "path.light_side")).content.decode()
    assert 'name="grade"' in page
    assert "3: chooses destruction when other ways are open" in page


def test_a_destiny_point_spent_on_an_attack_is_written_with_the_roll(
    client, player, hero, settings
):
    settings.DICE_SEED = 7
    client.force_login(player)
    response = client.post(
        url(hero, "abil.firearms"), {"destiny_successes": "yes", "campaign": ""}, headers=HTMX
    )
    assert response.status_code == 200
    entry = RollEntry.objects.get()
    assert "Spend a Destiny point: +3 successes on a combat roll" in entry.modifiers
    hero.refresh_from_db()
    assert hero.sheet["info"]["destiny_points"] == 1


def test_a_destiny_point_gone_since_the_page_was_drawn_is_refused(client, player, hero):
    client.force_login(player)
    hero.sheet["info"]["destiny_points"] = 0
    hero.save(update_fields=["sheet"])
    response = client.post(url(hero, "abil.firearms"), {"destiny_successes": "yes", "campaign": ""})
    assert response.status_code == 400
    assert "No Destiny point left to spend on this roll." in response.content.decode()
    assert not RollEntry.objects.exists()


def test_power_is_no_option_of_the_stamina_soak_itself(client, player, hero):
    client.force_login(player)
    page = client.get(url(hero, "soak.stamina")).content.decode()
    assert 'name="power_soak"' not in page  # L106: a second step, once the soak is seen
    assert 'name="incoming"' in page


def test_a_shield_that_fails_to_soak_loses_a_point_on_the_sheet(client, player, hero, settings):
    settings.DICE_SEED = 7
    client.force_login(player)
    page = client.get(url(hero, "soak.shield")).content.decode()
    assert 'name="weapon"' in page and 'name="incoming"' in page
    client.post(url(hero, "soak.shield"), {"incoming": "4", "campaign": ""}, headers=HTMX)
    hero.refresh_from_db()
    assert hero.sheet["armor"][1]["lost"] == 1  # one die never soaks four (L220)


def test_a_lightsaber_is_refused_on_the_armor_soak(client, player, hero):
    client.force_login(player)
    response = client.post(url(hero, "soak.armor"), {"weapon": "lightsaber", "campaign": ""})
    assert response.status_code == 400
    assert "The armor soaks nothing against a lightsaber." in response.content.decode()
    assert not RollEntry.objects.exists()


def test_a_destiny_point_refills_current_willpower_from_the_sheet(client, player, hero):
    client.force_login(player)
    sheet_url = reverse("character_sheet", args=[hero.pk])
    spend_url = reverse("character_spend", args=[hero.pk])
    assert spend_url not in client.get(sheet_url).content.decode()  # Willpower is full
    hero.sheet["willpower_current"] = 1
    hero.save(update_fields=["sheet"])
    page = client.get(sheet_url).content.decode()
    # The sheet sends the player to the roll page's spends, where the scene's count is kept.
    assert f'href="{spend_url}#spends"' in page and "000:L93" in page
    assert 'id="spends" open' in client.get(spend_url).content.decode()
    # A plain sheet edit cannot go round that count: refused, nothing stored.
    refused = client.post(
        reverse("character_edit", args=[hero.pk]),
        {"version": hero.version, "edit": "destiny.refill=yes"},
        headers=HTMX,
    )
    assert "Spend it on the roll page" in refused.content.decode()
    hero.refresh_from_db()
    assert hero.sheet["willpower_current"] == 1 and hero.sheet["info"]["destiny_points"] == 2
    spent = client.post(
        spend_url, {"campaign": str(hero.campaign_id or ""), "spend": "destiny_willpower"}
    )
    assert spent.status_code == 302
    hero.refresh_from_db()
    assert hero.sheet["willpower_current"] == 3 and hero.sheet["info"]["destiny_points"] == 1
