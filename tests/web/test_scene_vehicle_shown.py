"""A vehicle's damage in a scene: its GMs always read it; the players read it once a GM
shows it, and only of a vehicle they may know of. A player's page's live key (the scene
frame's) moves with what players see, never with what only the GMs see."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.campaigns.models import Role
from sheets.npcs.services import npc_create
from sheets.scenes.models import Participant, Scene
from sheets.scenes.services import (
    initiative_type,
    participants_add,
    scene_create,
    scene_hit,
    tracker,
    view_key,
)
from sheets.vehicles.models import OwnerKind
from sheets.vehicles.services import vehicle_create

pytestmark = pytest.mark.django_db

SHUTTLE = "Lambda shuttle"
NPC_SHIP = "Secretmarker's gunship"


@pytest.fixture
def scene(gm, table, swd10_character):
    shuttle = vehicle_create(user=gm, name=SHUTTLE, owner=OwnerKind.CAMPAIGN, campaign_id=table.pk)
    hidden = npc_create(user=gm, campaign_id=table.pk, name="Inquisitor Vex")
    gunship = vehicle_create(user=gm, name=NPC_SHIP, owner=OwnerKind.NPC, character_id=hidden.pk)
    made = scene_create(user=gm, campaign_id=table.pk, name="Dogfight")
    picks = [
        f"character:{swd10_character.pk}",
        f"character:{hidden.pk}",
        f"vehicle:{shuttle.pk}",
        f"vehicle:{gunship.pk}",
    ]
    participants_add(user=gm, scene_id=made.pk, picks=picks, expected_version=1)
    made.refresh_from_db()
    return made


def _row(scene: Scene, name: str) -> Participant:
    return Participant.objects.get(scene=scene, vehicle__name=name)


def _show(client, scene: Scene, participant: Participant, shown: str = "1"):
    scene.refresh_from_db()
    return client.post(
        reverse("scene_show", kwargs={"pk": scene.pk}),
        {"version": scene.version, "participant": participant.pk, "shown": shown},
    )


def _hit_shuttle(gm, scene: Scene) -> None:
    scene.refresh_from_db()
    scene_hit(
        user=gm,
        scene_id=scene.pk,
        participant_id=_row(scene, SHUTTLE).pk,
        raw={"levels": "2"},
        expected_version=scene.version,
    )


def _players_row(player, scene: Scene, name: str):
    scene.refresh_from_db()
    rows = tracker(player, scene, Role.PLAYER).rows
    return next((row for row in rows if row.label == name), None)


def test_the_players_read_a_vehicles_damage_once_the_gm_shows_it(client, gm, player, scene):
    _hit_shuttle(gm, scene)
    gm_label = tracker(gm, scene, Role.GM).rows
    damaged = next(row for row in gm_label if row.label == SHUTTLE).condition.label
    assert _players_row(player, scene, SHUTTLE).condition is None

    client.force_login(gm)
    before = view_key(Scene.objects.get(pk=scene.pk), False)
    assert _show(client, scene, _row(scene, SHUTTLE)).status_code == 302
    assert _row(scene, SHUTTLE).shown
    assert _players_row(player, scene, SHUTTLE).condition.label == damaged
    assert view_key(Scene.objects.get(pk=scene.pk), False) != before

    client.force_login(player)
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert damaged in page
    # Hidden again: gone from the players' rows.
    client.force_login(gm)
    assert _show(client, scene, _row(scene, SHUTTLE), "0").status_code == 302
    assert _players_row(player, scene, SHUTTLE).condition is None


def test_a_hidden_npcs_vehicle_stays_out_of_the_players_order_even_shown(client, gm, player, scene):
    client.force_login(gm)
    assert _show(client, scene, _row(scene, NPC_SHIP)).status_code == 302
    assert _players_row(player, scene, NPC_SHIP) is None
    client.force_login(player)
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert "Secretmarker" not in page


def test_a_player_may_not_show_a_vehicles_damage_and_nothing_changes(client, player, scene):
    client.force_login(player)
    version = Scene.objects.get(pk=scene.pk).version
    assert _show(client, scene, _row(scene, SHUTTLE)).status_code == 403
    assert not _row(scene, SHUTTLE).shown
    assert Scene.objects.get(pk=scene.pk).version == version


@pytest.mark.parametrize(
    ("participant", "shown", "message"),
    [
        ("character", "1", "Only a vehicle"),
        ("", "1", "Choose someone in this scene."),
        ("x9", "1", "Choose someone in this scene."),
    ],
)
def test_showing_anything_but_a_vehicle_is_refused_beside_the_row(
    client, gm, scene, swd10_character, participant, shown, message
):
    client.force_login(gm)
    if participant == "character":
        participant = Participant.objects.get(scene=scene, character=swd10_character).pk
    scene.refresh_from_db()
    before = scene.version
    response = client.post(
        reverse("scene_show", kwargs={"pk": scene.pk}),
        {"version": before, "participant": participant, "shown": shown},
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Participant.objects.filter(scene=scene, shown=True).exists()
    assert Scene.objects.get(pk=scene.pk).version == before


def test_a_stale_page_shows_nothing(client, gm, scene):
    client.force_login(gm)
    response = client.post(
        reverse("scene_show", kwargs={"pk": scene.pk}),
        {"version": 1, "participant": _row(scene, SHUTTLE).pk, "shown": "1"},
    )
    assert response.status_code == 409
    assert not _row(scene, SHUTTLE).shown


def test_the_players_key_moves_with_what_they_see_and_not_with_the_gms_secrets(
    gm, scene, swd10_character
):
    def keys():
        fresh = Scene.objects.get(pk=scene.pk)
        return view_key(fresh, False), view_key(fresh, True)

    def typed(participant: Participant, text: str) -> None:
        scene.refresh_from_db()
        initiative_type(
            user=gm,
            scene_id=scene.pk,
            participant_id=participant.pk,
            text=text,
            expected_version=scene.version,
        )

    hidden = Participant.objects.get(scene=scene, character__name="Inquisitor Vex")
    kira = Participant.objects.get(scene=scene, character=swd10_character)
    # Kira acts first whatever the hidden NPC rolls: its moves change no row a player sees.
    typed(kira, "30")
    typed(hidden, "2")
    players, gms = keys()
    typed(hidden, "3")
    after_players, after_gms = keys()
    assert after_players == players
    assert after_gms != gms
    # The shuttle's damage is the GMs' until shown: its hit moves their key alone.
    _hit_shuttle(gm, scene)
    hit_players, hit_gms = keys()
    assert hit_players == players and hit_gms != after_gms
    # Kira's own initiative is the players' news.
    typed(kira, "31")
    assert keys()[0] != players
