"""The GM's PDF of a scene: its NPCs (a minion's block once) and its vehicles in one PDF,
never a player's character; a player is refused; a scene with neither says so."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from sheets.npcs.services import group_create, npc_create
from sheets.scenes.services import participants_add, scene_create
from sheets.vehicles.services import vehicle_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def ambush(gm, table, swd10_character):
    villain = npc_create(user=gm, campaign_id=table.pk, name="Inquisitor Vorn")
    guards = group_create(
        user=gm, campaign_id=table.pk, block_id=str(villain.pk), name="Guards", count="2"
    )
    barge = vehicle_create(user=gm, name="Sail Barge", owner="campaign", campaign_id=table.pk)
    scene = scene_create(user=gm, campaign_id=table.pk, name="Ambush")
    picks = [f"character:{swd10_character.pk}", f"character:{villain.pk}"]
    picks += [f"member:{m.pk}" for m in guards.members.all()] + [f"vehicle:{barge.pk}"]
    participants_add(user=gm, scene_id=scene.pk, picks=picks, expected_version=1)
    return scene


def _text(response) -> str:
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_gm_prints_the_scenes_npcs_and_vehicles_in_one_pdf(client, gm, ambush):
    client.force_login(gm)
    response = client.get(reverse("scene_print", kwargs={"pk": ambush.pk}))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = _text(response)
    assert text.count("Inquisitor Vorn") >= 1 and "Sail Barge" in text
    assert "Kira Dane" not in text  # the player's character is not the GM's to hand out
    page = client.get(reverse("scene_detail", kwargs={"pk": ambush.pk})).content.decode()
    assert reverse("scene_print", kwargs={"pk": ambush.pk}) in page


def test_a_player_gets_no_gms_pdf(client, player, ambush):
    client.force_login(player)
    assert client.get(reverse("scene_print", kwargs={"pk": ambush.pk})).status_code == 403
    page = client.get(reverse("scene_detail", kwargs={"pk": ambush.pk})).content.decode()
    assert reverse("scene_print", kwargs={"pk": ambush.pk}) not in page


def test_a_scene_without_npcs_or_vehicles_says_so(client, gm, table, swd10_character):
    scene = scene_create(user=gm, campaign_id=table.pk, name="Talk")
    participants_add(
        user=gm, scene_id=scene.pk, picks=[f"character:{swd10_character.pk}"], expected_version=1
    )
    client.force_login(gm)
    response = client.get(reverse("scene_print", kwargs={"pk": scene.pk}), follow=True)
    assert "No NPC or vehicle in this scene to print" in response.content.decode()
