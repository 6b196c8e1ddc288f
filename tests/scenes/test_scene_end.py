"""A GM ends a scene and may reopen it: an ended scene is read only (its tracker shown, no
step, hit or join), listed apart, and no character's running scene any more, so SWd10's
Destiny point once a scene and WEG 1E's stun rounds stop reading it."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from rulesets import swd10
from rulesets.weg_d6 import demo_sheet
from sheets.campaigns.models import Membership, Role
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.scenes.models import Participant, Scene
from sheets.scenes.services import ENDED, participants_add, scene_create
from sheets.scenes.state import running_scene_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(gm, table, swd10_character):
    made = scene_create(user=gm, campaign_id=table.pk, name="Ambush")
    participants_add(
        user=gm,
        scene_id=made.pk,
        picks=[f"character:{swd10_character.pk}"],
        expected_version=made.version,
    )
    return Scene.objects.get(pk=made.pk)


@pytest.fixture
def co_gm(make_user, table):
    user = make_user("leia_co_gm")
    Membership.objects.create(campaign=table, user=user, role=Role.GM)
    return user


def _post(client, name, scene, data, *, version=None):
    scene.refresh_from_db()
    version = scene.version if version is None else version
    return client.post(reverse(name, kwargs={"pk": scene.pk}), {"version": version, **data})


def _end(client, scene, ended="1", **kw):
    return _post(client, "scene_end", scene, {"ended": ended}, **kw)


@pytest.mark.parametrize("who", ["gm", "co_gm"])
def test_a_gm_of_the_table_ends_the_scene_and_reopens_it(client, request, scene, who):
    client.force_login(request.getfixturevalue(who))
    assert _end(client, scene).status_code == 302
    scene.refresh_from_db()
    assert scene.ended and scene.version == 3
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert "This scene has ended" in page and "Kira Dane" in page  # the tracker still reads
    assert "Next turn" not in page and "Mark hit" not in page
    assert "Bring into the scene" not in page and "Reopen the scene" in page
    assert _end(client, scene, "0").status_code == 302
    scene.refresh_from_db()
    assert not scene.ended and scene.version == 4
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert "Next turn" in page and "End the scene" in page


def test_a_player_may_not_end_it_another_gm_and_a_stranger_find_nothing(
    client, player, other_gm, scene
):
    client.force_login(player)
    assert _end(client, scene).status_code == 403
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert "End the scene" not in page
    client.force_login(other_gm)
    assert _end(client, scene).status_code == 404
    client.logout()
    assert _end(client, scene).status_code == 302  # to the login page
    scene.refresh_from_db()
    assert not scene.ended and scene.version == 2


def test_ending_from_a_stale_page_is_refused(client, gm, scene):
    client.force_login(gm)
    response = _end(client, scene, version=scene.version - 1)
    assert response.status_code == 409 and "changed elsewhere" in response.content.decode()
    scene.refresh_from_db()
    assert not scene.ended and scene.version == 2


def test_a_scene_ended_twice_is_refused_beside_the_tracker(client, gm, scene):
    client.force_login(gm)
    _end(client, scene)
    response = _end(client, scene)
    assert response.status_code == 400 and ENDED in response.content.decode()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("scene_step", {"direction": "next"}),
        ("scene_hit", {"levels": "2"}),
        ("scene_join", {"pick": "character:{npc}"}),
        ("scene_initiative", {"action": "type", "value": "3"}),
        ("scene_leave", {}),
    ],
)
def test_an_ended_scene_refuses_every_change_with_its_reason(
    client, gm, table, scene, swd10_character, name, data
):
    npc = character_create(owner=gm, name="Bossk", system="swd10")
    Character.objects.filter(pk=npc.pk).update(campaign=table)
    row = Participant.objects.get(scene=scene)
    data = {k: v.format(npc=npc.pk) for k, v in data.items()} | {"participant": row.pk}
    client.force_login(gm)
    _end(client, scene)
    scene.refresh_from_db()
    before = (scene.round, scene.turn, scene.version, scene.participants.count())
    sheet = Character.objects.get(pk=swd10_character.pk).sheet
    response = _post(client, name, scene, data)
    assert response.status_code == 400
    assert "This scene has ended" in response.content.decode()
    scene.refresh_from_db()
    assert (scene.round, scene.turn, scene.version, scene.participants.count()) == before
    assert Character.objects.get(pk=swd10_character.pk).sheet == sheet


def test_the_table_lists_an_ended_scene_apart(client, gm, player, table, scene):
    scene_create(user=gm, campaign_id=table.pk, name="Chase")
    client.force_login(gm)
    _end(client, scene)
    client.force_login(player)
    page = client.get(reverse("scene_list", kwargs={"pk": table.pk})).content.decode()
    running = page[page.index('id="scenes-running"') : page.index('id="scenes-ended"')]
    ended = page[page.index('id="scenes-ended"') :]
    assert "Chase" in running and "Ambush" not in running
    assert "Ambush" in ended and "Chase" not in ended


def test_the_running_scene_is_the_newest_not_ended(gm, table, swd10_character, scene):
    assert running_scene_of(swd10_character) == scene
    newer = scene_create(user=gm, campaign_id=table.pk, name="Chase")
    participants_add(
        user=gm, scene_id=newer.pk, picks=[f"character:{swd10_character.pk}"], expected_version=1
    )
    assert running_scene_of(swd10_character) == newer
    Scene.objects.filter(pk=newer.pk).update(ended_at="2026-01-01T00:00Z")
    assert running_scene_of(swd10_character) == scene
    Scene.objects.filter(pk=scene.pk).update(ended_at="2026-01-01T00:00Z")
    assert running_scene_of(swd10_character) is None


# The rules that read the running scene ---------------------------------------------------


def _spend(client, character, action, **fields):
    data = {"campaign": str(character.campaign_id), "spend": action} | fields
    return client.post(reverse("character_spend", args=[character.pk]), data)


def test_an_ended_scene_no_longer_holds_the_destiny_point_of_the_scene(
    client, gm, player, swd10_character, scene
):
    """SWd10 000:L91-94: a Destiny point once a scene. Ended, the scene no longer counts."""
    sheet = swd10.apply_edit(swd10.demo_sheet(), "stage", "play", {})
    sheet |= {"power": 4, "power_current": 2, "willpower_current": 1}
    sheet["info"] = sheet["info"] | {"destiny_points": 2}
    Character.objects.filter(pk=swd10_character.pk).update(sheet=sheet)
    client.force_login(player)
    assert _spend(client, swd10_character, "destiny_willpower").status_code == 302
    refused = _spend(client, swd10_character, "destiny_outstanding", note="Bluff", approved="yes")
    assert refused.status_code == 400 and "already spent in Ambush" in refused.content.decode()
    page = client.get(
        reverse("character_roll", args=[swd10_character.pk, "abil.firearms"])
    ).content.decode()
    assert "in Ambush, round 1" in page
    client.force_login(gm)
    _end(client, scene)
    client.force_login(player)
    page = client.get(
        reverse("character_roll", args=[swd10_character.pk, "abil.firearms"])
    ).content.decode()
    assert "in Ambush" not in page
    ok = _spend(client, swd10_character, "destiny_outstanding", note="Bluff", approved="yes")
    assert ok.status_code == 302
    assert Character.objects.get(pk=swd10_character.pk).sheet["info"]["destiny_points"] == 0


def test_an_ended_scene_no_longer_dates_a_weg_stun(client, gm, player):
    """WEG 1E 003:440: a stun counts for its scene round; in no running scene it is kept
    undated ("until marked over")."""
    sheet = copy.deepcopy(demo_sheet())
    sheet["edition"] = "1e"
    trooper = character_create(owner=player, name="TK-421", system="weg_d6", sheet=sheet)
    campaign = campaign_create(user=gm, name="Death Star", system="weg_d6")
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=trooper.pk)
    scene = Scene.objects.create(campaign=campaign, name="Detention block", round=6)
    Participant.objects.create(scene=scene, kind="character", character=trooper)
    client.force_login(gm)
    _end(client, scene)
    target = Character.objects.get(pk=trooper.pk)
    response = client.post(
        reverse("character_hit", args=[trooper.pk]),
        {"version": target.version, "damage": "10", "strength": "10", "stun": "yes"},
    )
    assert response.status_code == 302
    assert Character.objects.get(pk=trooper.pk).sheet["stuns"][0]["round"] is None
