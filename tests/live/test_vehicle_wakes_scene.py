"""A ship hit or edited on its own page wakes the scenes it is in: a player whose GM shows
its damage gets a scene frame at once, not at the next heartbeat; a ship whose damage is
not shown to them changes nothing they see, so their page is not woken."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.rolls.models import RollEntry
from sheets.scenes.models import Participant, Scene
from sheets.scenes.services import damage_show, participants_add, scene_create, view_key
from sheets.vehicles.models import OwnerKind
from sheets.vehicles.services import vehicle_apply_edits, vehicle_create
from tests.live.conftest import stream

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dogfight(gm, table, swd10_character) -> tuple[Scene, Participant]:
    shuttle = vehicle_create(
        user=gm, name="Lambda shuttle", owner=OwnerKind.CAMPAIGN, campaign_id=table.pk
    )
    scene = scene_create(user=gm, campaign_id=table.pk, name="Dogfight")
    picks = [f"character:{swd10_character.pk}", f"vehicle:{shuttle.pk}"]
    participants_add(user=gm, scene_id=scene.pk, picks=picks, expected_version=1)
    return scene, Participant.objects.get(scene=scene, vehicle=shuttle)


def _scene_frames(player, gm, scene: Scene, row: Participant) -> list[str]:
    scene.refresh_from_db()
    newest = RollEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    url = reverse("live_campaign_stream", args=[scene.campaign_id]) + f"?scene={scene.pk}"

    def gm_hits_the_ship_on_its_page():
        row.vehicle.refresh_from_db()
        vehicle_apply_edits(
            user=gm,
            vehicle_id=row.vehicle.pk,
            edits={"health_marked": str(row.vehicle.data["health_marked"] + 2)},
            expected_version=row.vehicle.version,
        )

    answer = stream(
        player,
        url,
        last_event_id=f"r{newest}v{view_key(scene, False)}",
        seconds=0.4,
        then=gm_hits_the_ship_on_its_page,
    )
    assert answer.status == 200
    return [frame.event for frame in answer.frames if frame.event == "scene"]


def test_a_ship_shown_to_the_players_wakes_their_scene_page_when_hit_on_its_own_page(
    player, gm, dogfight
):
    scene, row = dogfight
    scene.refresh_from_db()
    damage_show(
        user=gm,
        scene_id=scene.pk,
        participant_id=row.pk,
        shown=True,
        expected_version=scene.version,
    )
    assert _scene_frames(player, gm, scene, row) == ["scene"]


def test_a_ship_whose_damage_is_not_shown_leaves_the_players_page_asleep(player, gm, dogfight):
    scene, row = dogfight
    assert _scene_frames(player, gm, scene, row) == []
