"""A player's attack from the roll log applied in the tracker: on a minion (its own track),
marked once, the hit entry following the roll; and the seeds' order on an O.R.E. table."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create
from sheets.npcs.services import group_create, npc_create
from sheets.rolls.models import RollEntry
from sheets.rolls.services import roll_make
from sheets.scenes.models import Participant
from sheets.scenes.services import participants_add, scene_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def ore_scene(gm, player):
    campaign = campaign_create(user=gm, name="Hoth", system="ore")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    hero = character_create(
        owner=player, name="Hero", system="ore", sheet=get_ruleset("ore").demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=hero.pk)
    hero.refresh_from_db()
    block = npc_create(user=gm, campaign_id=campaign.pk, name="Snowtrooper")
    group = group_create(
        user=gm, campaign_id=campaign.pk, block_id=str(block.pk), name="Snowtroopers", count="4"
    )
    scene = scene_create(user=gm, campaign_id=campaign.pk, name="Echo Base")
    picks = [f"character:{hero.pk}"] + [f"member:{m.pk}" for m in group.members.all()]
    participants_add(user=gm, scene_id=scene.pk, picks=picks, expected_version=1)
    scene.refresh_from_db()
    return scene, hero, group


def _attack(player, hero) -> RollEntry:
    """The first seeded weapon roll that hits (fixed seeds: the test repeats)."""
    for seed in range(200):
        entry = roll_make(
            user=player,
            character_id=hero.pk,
            rollable_key="weapon.0",
            raw={},
            secret=False,
            drawn_campaign=hero.campaign_id,
            rng=random.Random(seed),
        )
        if entry.success and "damage" in entry.facts:
            return entry
    raise AssertionError("no hit in 200 seeded rolls")


def test_a_players_attack_applied_to_a_minion_marks_that_member_once(client, gm, player, ore_scene):
    scene, hero, group = ore_scene
    attack = _attack(player, hero)
    member = group.members.get(number=3)
    row = Participant.objects.get(scene=scene, member=member)
    client.force_login(gm)
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert f'<option value="{attack.pk}">' in page
    url = reverse("scene_hit", kwargs={"pk": scene.pk})
    response = client.post(
        url, {"version": scene.version, "participant": row.pk, "roll": attack.pk}
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert sum(member.wounds["damage"].values()) >= 1
    assert attack.hits.count() == 1
    assert all(m.wounds == {"damage": {}} for m in group.members.exclude(pk=member.pk))
    scene.refresh_from_db()
    again = client.post(url, {"version": scene.version, "participant": row.pk, "roll": attack.pk})
    assert again.status_code == 400 and "already marked" in again.content.decode()
    assert attack.hits.count() == 1


def test_a_roll_of_another_table_is_refused(client, gm, player, ore_scene, table, swd10_character):
    scene, _hero, group = ore_scene
    elsewhere = roll_make(
        user=player,
        character_id=swd10_character.pk,
        rollable_key="pool.initiative",
        raw={},
        secret=False,
        drawn_campaign=table.pk,
        rng=random.Random(1),
    )
    row = Participant.objects.filter(scene=scene, kind="member").first()
    client.force_login(gm)
    response = client.post(
        reverse("scene_hit", kwargs={"pk": scene.pk}),
        {"version": scene.version, "participant": row.pk, "roll": elsewhere.pk},
    )
    assert response.status_code == 400 and "this table" in response.content.decode()
    assert all(m.wounds == {"damage": {}} for m in group.members.all())


def test_sets_order_the_ore_scene_by_width_then_height(client, gm, ore_scene):
    scene, hero, _group = ore_scene
    client.force_login(gm)
    rows = {p.pk: p for p in Participant.objects.filter(scene=scene)}
    hero_row = next(p for p in rows.values() if p.character_id == hero.pk)
    first = next(p for p in rows.values() if p.member_id)
    for row, text in ((hero_row, "2x5"), (first, "2x9")):
        scene.refresh_from_db()
        client.post(
            reverse("scene_initiative", kwargs={"pk": scene.pk}),
            {"version": scene.version, "participant": row.pk, "action": "type", "value": text},
        )
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert page.index(f'id="participant-{first.pk}"') < page.index(
        f'id="participant-{hero_row.pk}"'
    )


def test_the_roll_offers_its_tables_scenes_to_the_gm_alone(client, gm, player, ore_scene):
    from sheets.rolls.hits import scene_targets

    scene, hero, _group = ore_scene
    attack = _attack(player, hero)
    assert scene_targets(gm, attack) == [scene]
    assert scene_targets(player, attack) == []
    client.force_login(gm)
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk}) + f"?roll={attack.pk}")
    assert f'<option value="{attack.pk}" selected>' in page.content.decode()
