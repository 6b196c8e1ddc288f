"""1E: a character the Dark Side consumes (the GM's 1D at most the points held, 003:1708)
passes to the table's GM as an NPC (003:1710): one service (sheets/npcs) makes the GM its
owner, marks it an NPC and leaves a revision; the roll's line in the table's log says so
and the former player gets a mail when they asked for the GM's decisions. Outside a table
there is no GM to take it: the roll is told, the sheet stays its owner's."""

from __future__ import annotations

import copy
import random

import pytest
from django.core import mail
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet
from sheets.accounts.models import Profile
from sheets.advancement import services as ledger
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.history.models import Revision
from sheets.npcs.models import Npc, Visibility
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


def _hero(player, dark: int) -> Character:
    sheet = copy.deepcopy(demo_sheet())
    sheet["edition"] = "1e"
    sheet["points"].update(force=1, dark_side=dark)
    return character_create(owner=player, name="Kell", system="weg_d6", sheet=sheet)


def _seated(player, gm, dark: int) -> Character:
    hero = _hero(player, dark)
    campaign = campaign_create(user=gm, name="Ord Mantell", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=hero.pk)
    return Character.objects.get(pk=hero.pk)


def test_a_consumed_character_passes_to_the_gm_as_an_npc_and_the_player_is_told(
    client, player, gm, django_capture_on_commit_callbacks
):
    player.email = "luke@example.org"
    player.save()
    Profile.objects.update_or_create(user=player, defaults={"mail_on_decision": True})
    hero = _seated(player, gm, dark=5)  # a sixth point: the die is at most 6 (003:1708)
    client.force_login(gm)
    data = {"version": hero.version, "action": "gain", "reason": "Killed a prisoner"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("ledger_dark_side", args=[hero.pk]), data)
    assert response.status_code == 302
    hero = Character.objects.get(pk=hero.pk)
    assert hero.owner == gm and hero.sheet["points"]["dark_side"] == 6
    assert Npc.objects.get(character=hero).visibility == Visibility.NAME
    assert Revision.objects.filter(character=hero, summary__startswith="Consumed").exists()
    pull = RollEntry.objects.get(character=hero, rollable_key="darkside.consumed")
    assert pull.facts["consumed"] and "passes to the GM as an NPC" in pull.summary
    assert [m.to for m in mail.outbox] == [["luke@example.org"]]
    assert "consumed by the Dark Side" in mail.outbox[0].subject
    client.force_login(player)
    log = client.get(reverse("campaign_roll_log", args=[hero.campaign_id])).content.decode()
    assert "passes to the GM as an NPC" in log


@pytest.mark.parametrize("seed", range(8))
def test_a_die_above_the_points_leaves_the_character_with_its_player(player, gm, seed):
    hero = _seated(player, gm, dark=0)  # one point held: only a 1 consumes
    ledger.dark_side(user=gm, character_id=hero.pk, action="gain", reason="Lied",
                     expected_version=hero.version, rng=random.Random(seed))  # fmt: skip
    pull = RollEntry.objects.get(character=hero, rollable_key="darkside.consumed")
    hero = Character.objects.get(pk=hero.pk)
    assert Npc.objects.filter(character=hero).exists() is pull.facts["consumed"]
    assert hero.owner == (gm if pull.facts["consumed"] else player)


def test_outside_a_table_there_is_no_gm_to_take_the_character(player):
    hero = _hero(player, dark=5)
    ledger.dark_side(user=player, character_id=hero.pk, action="gain", reason="Alone",
                     expected_version=hero.version, rng=random.Random(1))  # fmt: skip
    hero = Character.objects.get(pk=hero.pk)
    assert RollEntry.objects.get(character=hero, rollable_key="darkside.consumed").facts["consumed"]
    assert hero.owner == player and not Npc.objects.filter(character=hero).exists()


def _called(player, hero: Character, campaign_id: int | None) -> RollEntry:
    """The player's own call on the Dark Side from the roll panel, on the first seed whose
    call succeeds (the GM's die then comes under the points held)."""
    from sheets.rolls.services import RollRefused, roll_make

    for seed in range(200):
        try:
            entry = roll_make(
                user=player,
                character_id=hero.pk,
                rollable_key="darkside.call",
                raw={"with": "perception", "harmful": "yes"},
                drawn_campaign=campaign_id,
                rng=random.Random(seed),
            )
        except RollRefused as refused:  # pragma: no cover - says why if the form changed
            pytest.fail(str(refused))
        if entry.success:
            return entry
        hero.refresh_from_db()
    pytest.fail("no seed made the call succeed")


def test_a_players_own_call_that_consumes_the_character_passes_it_to_the_tables_gm(player, gm):
    hero = _seated(player, gm, dark=5)  # the call's point makes six: the die is at most 6
    entry = _called(player, hero, hero.campaign_id)
    hero.refresh_from_db()
    assert entry.facts["consumed"] is True
    assert hero.owner == gm and Npc.objects.filter(character=hero).exists()
    assert "passes to the GM as an NPC" in entry.summary


def test_a_call_that_consumes_a_character_at_no_table_leaves_it_with_its_player(player):
    hero = _hero(player, dark=5)
    entry = _called(player, hero, None)
    hero.refresh_from_db()
    assert entry.facts["consumed"] is True
    assert hero.owner == player and not Npc.objects.filter(character=hero).exists()
