"""The hit page keeps a 1E stun result on the target's sheet with the scene round it came
in (003:438-440); the sheet shows what the kept stuns do and offers "stun over"."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet, wounds
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.scenes.models import Participant, Scene

pytestmark = pytest.mark.django_db


@pytest.fixture
def trooper(player):
    sheet = copy.deepcopy(demo_sheet())
    sheet["edition"] = "1e"
    sheet["attributes"].update(dexterity=11, strength=15)  # 3D+2, 5D
    return character_create(owner=player, name="TK-421", system="weg_d6", sheet=sheet)


@pytest.fixture
def scene(gm, player, trooper):
    campaign = campaign_create(user=gm, name="Death Star", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=trooper.pk)
    scene = Scene.objects.create(campaign=campaign, name="Detention block", round=6)
    Participant.objects.create(scene=scene, kind="character", character=trooper)
    return scene


def _mark(client, user, target, **fields):
    client.force_login(user)
    target = Character.objects.get(pk=target.pk)
    data = {"version": target.version} | {k: str(v) for k, v in fields.items()}
    return client.post(reverse("character_hit", args=[target.pk]), data)


def test_a_stun_hit_in_a_scene_keeps_its_round_and_the_sheet_shows_it(client, gm, trooper, scene):
    assert _mark(client, gm, trooper, damage=20, strength=10, stun="yes").status_code == 302
    sheet = Character.objects.get(pk=trooper.pk).sheet
    assert sheet["stuns"] == [wounds.stun_entry(2, False, (scene.pk, 6))]
    page = client.get(reverse("character_sheet", args=[trooper.pk])).content.decode()
    assert "2 stuns: −2D but Strength" in page
    # Two rounds on, the stun has passed: the page says so and offers to clear it.
    Scene.objects.filter(pk=scene.pk).update(round=8)
    page = client.get(reverse("character_sheet", args=[trooper.pk])).content.decode()
    assert "Stun passed" in page and 'value="wound.stun_over=' in page


def test_a_second_stun_in_the_same_round_immobilises(client, gm, trooper, scene):
    _mark(client, gm, trooper, damage=20, strength=10, stun="yes")
    response = _mark(client, gm, trooper, damage=10, strength=10, stun="yes")
    assert response.status_code == 302
    state = wounds.stuns_now(Character.objects.get(pk=trooper.pk).sheet, (scene.pk, 6))
    assert (state.count, state.immobile) == (3, True)  # 3 stuns against Dexterity 3D (003:444)


def test_stun_over_outside_a_scene_clears_the_kept_results(client, player, trooper):
    _mark(client, player, trooper, damage=10, strength=10, stun="yes")
    target = Character.objects.get(pk=trooper.pk)
    assert target.sheet["stuns"][0]["round"] is None
    page = client.get(reverse("character_sheet", args=[trooper.pk])).content.decode()
    assert 'value="wound.stun_over=' in page
    client.post(
        reverse("character_edit", args=[trooper.pk]),
        {"version": target.version, "edit": "wound.stun_over="},
    )
    target = Character.objects.get(pk=trooper.pk)
    assert target.sheet["stuns"] == [] and target.sheet["wound"] == "healthy"


def test_the_sheets_own_hit_form_keeps_the_stun_with_the_scene_round(
    client, player, trooper, scene
):
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[trooper.pk])).content.decode()
    assert f'name="wound.hit.2" value="@{scene.pk}.6"' in page
    target = Character.objects.get(pk=trooper.pk)
    client.post(
        reverse("character_edit", args=[trooper.pk]),
        {
            "version": target.version,
            "only": "wound.hit",
            "wound.hit": "9",
            "wound.hit.1": "10",
            "wound.hit.2": f"@{scene.pk}.6",
        },
    )
    # A normal hit below Strength: stunned, one stun kept in round 6 (003:472, 003:440).
    sheet = Character.objects.get(pk=trooper.pk).sheet
    assert sheet["wound"] == "stunned"
    assert sheet["stuns"] == [wounds.stun_entry(1, False, (scene.pk, 6))]


def test_the_gm_moving_the_round_on_gives_the_rolls_their_dice_back(client, gm, trooper, scene):
    from sheets.rolls.services import rollables_of
    from sheets.scenes.services import turn_step

    assert _mark(client, gm, trooper, damage=20, strength=10, stun="yes").status_code == 302
    knowledge = {r.key: r for r in rollables_of(Character.objects.get(pk=trooper.pk))}
    assert knowledge["attr.knowledge"].fact("wound_dice") == 2
    for expected_kept in (1, 0):  # round 7: still counting; round 8: passed (003:440)
        scene.refresh_from_db()
        turn_step(user=gm, scene_id=scene.pk, direction="next", expected_version=scene.version)
        hero = Character.objects.get(pk=trooper.pk)
        assert len(hero.sheet["stuns"]) == expected_kept
    rolls = {r.key: r for r in rollables_of(hero)}
    assert rolls["attr.knowledge"].fact("wound_dice") == 0
