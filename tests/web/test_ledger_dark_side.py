"""The Dark Side on the pages: a 1E player calls on it through the roll panel (003:1692:
the odds at the call's difficulty; a success writes a Force Point and a Dark Side Point and
the GM's die, 003:1698-1708); the GM, on the ledger, gives a point for an evil act with the
consumption die in the table's log, accepts an atonement (003:1730) or redeems an R&E
character, whose Character Points leave the ledger (002:827). The player is refused the
GM's decisions; bad input is named and nothing is written."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet
from rulesets.weg_d6.dice import DARK_SIDE_CALL
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.history.models import Revision
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _seated(player, gm, edition: str, *, force: int = 2, dark: int = 0) -> Character:
    sheet = copy.deepcopy(demo_sheet())
    sheet["edition"] = edition
    sheet["points"].update(force=force, dark_side=dark)
    hero = character_create(owner=player, name="Kell", system="weg_d6", sheet=sheet)
    campaign = campaign_create(user=gm, name="Ord Mantell", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=hero.pk)
    if edition == "2e_re":  # in play its Character Points are the ledger's (002:827)
        version = _fresh(hero).version
        character_apply_edits(
            user=player, character_id=hero.pk, edits={"stage": "play"}, expected_version=version
        )
    return _fresh(hero)


def _post(client, user, hero, **fields):
    client.force_login(user)
    data = {"version": _fresh(hero).version, "reason": "Struck down a prisoner"} | fields
    return client.post(reverse("ledger_dark_side", args=[hero.pk]), data)


def test_the_gm_gives_a_dark_side_point_and_rolls_the_consumption_die(client, player, gm, settings):
    settings.DICE_SEED = 3
    hero = _seated(player, gm, "1e", dark=1)
    assert _post(client, gm, hero, action="gain").status_code == 302
    assert _fresh(hero).sheet["points"]["dark_side"] == 2
    pull = RollEntry.objects.get(character=hero, rollable_key="darkside.consumed")
    assert Fraction(pull.odds) == Fraction(4, 6)  # a die above 2
    assert pull.facts["consumed"] is (pull.dice[0] <= 2)
    log = client.get(reverse("campaign_roll_log", args=[hero.campaign_id])).content.decode()
    assert "The Dark Side&#x27;s pull" in log or "The Dark Side's pull" in log
    assert Revision.objects.filter(character=hero, summary__contains="evil act").exists()


def test_the_gm_accepts_an_atonement(client, player, gm):
    hero = _seated(player, gm, "1e", force=1, dark=2)
    assert _post(client, gm, hero, action="atone", reason="Fasted on Dagobah").status_code == 302
    points = _fresh(hero).sheet["points"]
    assert (points["force"], points["dark_side"]) == (0, 1)
    response = _post(client, gm, hero, action="atone")
    assert response.status_code == 400
    assert 'id="dark-side-error"' in response.content.decode()


def test_redemption_takes_the_character_points_off_the_ledger(client, player, gm):
    hero = _seated(player, gm, "2e_re", force=3, dark=8)
    ledger.award(user=gm, character_id=hero.pk, amount="7", reason="Run")
    assert figures(_fresh(hero)).balance > 0
    assert _post(client, gm, hero, action="redeem", reason="Saved the child").status_code == 302
    hero = _fresh(hero)
    assert (hero.sheet["points"]["force"], hero.sheet["points"]["dark_side"]) == (0, 5)
    assert figures(hero).balance == 0


@pytest.mark.parametrize(
    ("who", "fields", "message"),
    [
        ("player", {"action": "gain"}, "only the GM decides"),
        ("gm", {"action": "fall"}, "Choose a Dark Side action"),
        ("gm", {"action": "redeem"}, "Choose a Dark Side action"),  # 1E has no redemption
        ("gm", {"action": "gain", "reason": ""}, "Say why"),
    ],
)
def test_refusals_are_named_and_nothing_is_written(client, player, gm, who, fields, message):
    hero = _seated(player, gm, "1e", dark=1)
    version = _fresh(hero).version
    response = _post(client, {"player": player, "gm": gm}[who], hero, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert _fresh(hero).version == version
    assert not RollEntry.objects.filter(character=hero).exists()


def test_the_gm_panel_offers_the_dark_side_with_its_sources(client, player, gm):
    hero = _seated(player, gm, "2e_re", dark=1)
    client.force_login(gm)
    page = client.get(reverse("character_ledger", args=[hero.pk])).content.decode()
    assert 'id="ledger-dark-side"' in page and "Source: 002:823-827" in page
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[hero.pk])).content.decode()
    assert 'id="ledger-dark-side"' not in page


def test_a_1e_player_calls_on_the_dark_side_through_the_roll_panel(client, player, gm):
    hero = _seated(player, gm, "1e", force=0, dark=0)
    client.force_login(player)
    url = reverse("character_roll", args=[hero.pk, DARK_SIDE_CALL])
    page = client.get(url).content.decode()
    assert "against 6" in page
    data = {"with": "perception", "harmful": "on", "campaign": str(hero.campaign_id)}
    response = client.post(url, data)
    assert response.status_code == 302
    entry = RollEntry.objects.get(character=hero, rollable_key=DARK_SIDE_CALL)
    points = _fresh(hero).sheet["points"]
    gained = 1 if entry.success else 0
    assert (points["force"], points["dark_side"]) == (gained, gained)
    assert _fresh(hero).sheet["dark_side"]["calls"] == 1
    # The next call of the adventure is 3 harder (003:1702).
    assert "against 9" in client.get(url).content.decode()
