"""O.R.E. Willpower awards in the ledger's award form (001:L836-L842): the GM gives current
Willpower for an important goal (1, L840) or for a life saved or a major enemy defeated (the
subject's Cool and Command dice, L842). It lands on the sheet with the reason in the
revision, and never in the ledger, whose sums count XP only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.ore import rules
from rulesets.registry import get_ruleset
from sheets.advancement.models import LedgerEntry
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.history.models import Revision

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _willpower(character: Character) -> int:
    character = _fresh(character)
    settings = resolve_settings(get_ruleset("ore").SETTINGS, character.readings_in_force)
    return rules.current_willpower(character.sheet, settings)


@pytest.fixture
def hero(player, gm):
    hero = character_create(owner=player, name="Ahsa Venn", system="ore")
    campaign = campaign_create(user=gm, name="Dantooine", system="ore")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=hero.pk)
    return _fresh(hero)


def _award(client, user, character, **fields):
    client.force_login(user)
    data = {"version": _fresh(character).version, "what": "willpower", "reason": "Saved Bo"}
    return client.post(reverse("ledger_award", args=[character.pk]), data | fields)


def test_the_gm_sees_what_to_award_on_an_ore_sheet(client, gm, hero):
    client.force_login(gm)
    page = client.get(reverse("character_ledger", args=[hero.pk])).content.decode()
    assert 'name="what" value="willpower"' in page
    assert "001:L842" in page


@pytest.mark.parametrize(
    ("award", "cool", "command", "gained"),
    [("goal", "", "", 1), ("life_or_enemy", "3", "2", 5), ("life_or_enemy", "0", "4", 4)],
)
def test_an_award_raises_current_willpower_by_what_the_seed_gives(
    client, gm, hero, award, cool, command, gained
):
    before, entries = _willpower(hero), LedgerEntry.objects.filter(character=hero).count()
    response = _award(client, gm, hero, award=award, cool=cool, command=command)
    assert response.status_code == 302
    assert _willpower(hero) == before + gained
    assert LedgerEntry.objects.filter(character=hero).count() == entries
    latest = Revision.objects.filter(character=hero).order_by("-version").first()
    assert latest.summary.startswith(f"Willpower award +{gained}")
    assert "Saved Bo" in latest.summary


def test_an_award_may_carry_willpower_above_base(client, gm, hero):
    for _ in range(3):
        _award(client, gm, hero, award="life_or_enemy", cool="5", command="5")
    settings = resolve_settings(get_ruleset("ore").SETTINGS, _fresh(hero).readings_in_force)
    assert _willpower(hero) == rules.base_willpower(_fresh(hero).sheet, settings) + 30


@pytest.mark.parametrize(
    ("fields", "beside"),
    [
        ({"award": "heroics"}, "award-kind-error"),
        ({"award": "life_or_enemy", "cool": "x", "command": "2"}, "award-cool-error"),
        ({"award": "life_or_enemy", "cool": "2", "command": "99"}, "award-command-error"),
        ({"award": "life_or_enemy", "cool": "0", "command": "0"}, "award-cool-error"),
        ({"award": "goal", "reason": ""}, "award-error"),
    ],
)
def test_bad_input_is_named_beside_its_field_and_nothing_is_written(
    client, gm, hero, fields, beside
):
    version = _fresh(hero).version
    response = _award(client, gm, hero, **fields)
    assert response.status_code == 400
    assert f'id="{beside}"' in response.content.decode()
    assert _fresh(hero).version == version


def test_a_player_at_the_table_awards_no_willpower(client, player, hero):
    version = _fresh(hero).version
    response = _award(client, player, hero, award="goal")
    assert response.status_code == 400
    assert _fresh(hero).version == version


def test_a_weg_sheet_has_no_willpower_to_award(client, player):
    pilot = character_create(owner=player, name="Wedge", system="weg_d6")
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[pilot.pk])).content.decode()
    assert 'value="willpower"' not in page
    version = _fresh(pilot).version
    response = _award(client, player, pilot, award="goal")
    assert response.status_code == 400
    assert "Only Star O.R.E. sheets" in response.content.decode()
    assert _fresh(pilot).version == version


def test_xp_is_still_awarded_from_the_same_form(client, gm, hero):
    client.force_login(gm)
    data = {"version": hero.version, "what": "xp", "amount": "4", "reason": "Session"}
    assert client.post(reverse("ledger_award", args=[hero.pk]), data).status_code == 302
    assert LedgerEntry.objects.filter(character=hero, amount=4).exists()
