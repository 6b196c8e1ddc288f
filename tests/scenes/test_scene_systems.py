"""Every system's scene end to end through the services: a demo hero, a blank NPC and a
group of minions roll initiative with the table's dice, and the tracker reads each one's
wounds; a hit by hand on a minion and on the NPC lands in the system's terms."""

from __future__ import annotations

import pytest

from rulesets.core.initiative import Score
from rulesets.registry import get_ruleset
from sheets.campaigns.models import Role
from sheets.campaigns.services import campaign_create, character_bring
from sheets.characters.services import character_create
from sheets.npcs.services import group_create, npc_create
from sheets.scenes.models import Participant
from sheets.scenes.services import (
    hit_fields,
    initiative_roll,
    participants_add,
    scene_create,
    scene_hit,
    tracker,
)

pytestmark = pytest.mark.django_db

SYSTEMS = ("weg_d6", "swd10", "ore", "o3d10")


@pytest.fixture
def scene_of(gm):
    def make(system: str):
        campaign = campaign_create(user=gm, name=f"Table {system}", system=system)
        hero = character_create(
            owner=gm, name="Hero", system=system, sheet=get_ruleset(system).demo_sheet()
        )
        character_bring(user=gm, campaign_id=campaign.pk, character_id=hero.pk)
        npc = npc_create(user=gm, campaign_id=campaign.pk, name="Villain")
        group = group_create(
            user=gm, campaign_id=campaign.pk, block_id=str(npc.pk), name="Goons", count="2"
        )
        scene = scene_create(user=gm, campaign_id=campaign.pk, name="Fight")
        picks = [f"character:{hero.pk}", f"character:{npc.pk}", f"group:{group.pk}"]
        picks += [f"member:{m.pk}" for m in group.members.all()]
        participants_add(user=gm, scene_id=scene.pk, picks=picks, expected_version=1)
        scene.refresh_from_db()
        return scene, npc, group

    return make


@pytest.mark.parametrize("system", SYSTEMS)
def test_everyone_rolls_initiative_and_shows_a_wound_state(gm, scene_of, settings, system):
    settings.DICE_SEED = 3
    scene, _npc, _group = scene_of(system)
    initiative_roll(user=gm, scene_id=scene.pk, expected_version=scene.version)
    scene.refresh_from_db()
    scores = [Score.from_data(p.initiative) for p in Participant.objects.filter(scene=scene)]
    assert all(isinstance(score, Score) and score.text for score in scores)
    view = tracker(gm, scene, Role.GM)
    assert len(view.rows) == 5
    assert all(row.condition or row.conditions for row in view.rows)
    assert sum(row.current for row in view.rows) == 1


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_hit_by_hand_lands_on_a_minion_and_on_the_npc(gm, scene_of, system):
    scene, npc, group = scene_of(system)
    fresh = [m.wounds for m in group.members.all()]
    for participant in Participant.objects.filter(scene=scene, kind__in=("member", "character")):
        if participant.character_id not in (None, npc.pk):
            continue  # the hero: the player's own to mark in WEG and SWd10
        fields = hit_fields(scene, participant)
        # Each field's default, a number at least 1 (a hit of nothing marks nothing).
        raw = {
            f.name: f.default if f.choices or f.default not in ("", "0") else "1" for f in fields
        }
        scene.refresh_from_db()
        done = scene_hit(
            user=gm,
            scene_id=scene.pk,
            participant_id=participant.pk,
            raw=raw,
            expected_version=scene.version,
        )
        assert done
    assert [m.wounds for m in group.members.all()] != fresh  # each member its own track
    npc.refresh_from_db()
    assert npc.version > 1  # the NPC's sheet took the hit through the sheets' service


@pytest.mark.parametrize("system", ("weg_d6", "swd10"))
def test_the_gm_marks_a_players_wounds_in_weg_and_swd10(gm, player, system):
    # Both seeds leave the damage to the GM (WEG 003:472, SWd10 000:L183-L189): the wound
    # level and the health boxes are those systems' TABLE_EDITS, so the tracker offers the
    # GM a hit form on a player's character and the sheet's service takes it.
    from sheets.campaigns.services import campaign_join, invitation_create

    campaign = campaign_create(user=gm, name=f"Table {system}", system=system)
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    hero = character_create(
        owner=player, name="Hero", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=hero.pk)
    scene = scene_create(user=gm, campaign_id=campaign.pk, name="Fight")
    participants_add(user=gm, scene_id=scene.pk, picks=[f"character:{hero.pk}"], expected_version=1)
    scene.refresh_from_db()
    participant = Participant.objects.get(scene=scene)
    fields = hit_fields(scene, participant)
    assert fields
    before = tracker(gm, scene, Role.GM).rows[0].condition
    raw = {f.name: f.default if f.choices or f.default not in ("", "0") else "1" for f in fields}
    scene_hit(
        user=gm, scene_id=scene.pk, participant_id=participant.pk, raw=raw, expected_version=2
    )
    scene.refresh_from_db()
    after = tracker(player, scene, Role.PLAYER).rows[0].condition
    assert after is not None and after.label != before.label
    hero.refresh_from_db()
    assert hero.version > 1 and hero.owner == player
