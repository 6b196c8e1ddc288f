"""Deleting a vehicle: asked first, done by whoever may change it, refused while it is in a
scene (it is taken out there first), nothing deleted on a refusal."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.scenes.services import participants_add, scene_create
from sheets.vehicles.models import Vehicle
from sheets.vehicles.services import vehicle_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def speeder(player, pilot):
    return vehicle_create(user=player, name="Speeder", owner="character", character_id=pilot.pk)


def _delete(client, vehicle):
    return client.post(
        reverse("vehicle_delete", args=[vehicle.pk]), {"version": str(vehicle.version)}
    )


def test_the_owner_is_asked_then_deletes_their_vehicle(client, player, speeder, weg_table):
    client.force_login(player)
    sheet = client.get(reverse("vehicle_sheet", args=[speeder.pk])).content.decode()
    assert reverse("vehicle_delete", args=[speeder.pk]) in sheet
    ask = client.get(reverse("vehicle_delete", args=[speeder.pk]))
    assert ask.status_code == 200 and "Delete Speeder?" in ask.content.decode()
    assert Vehicle.objects.filter(pk=speeder.pk).exists()  # asking deletes nothing
    response = _delete(client, speeder)
    assert response.status_code == 302
    assert response["Location"] == reverse("vehicle_list", kwargs={"pk": weg_table.pk})
    assert not Vehicle.objects.filter(pk=speeder.pk).exists()


def test_another_player_finds_no_vehicle_to_delete(client, other_player, speeder):
    client.force_login(other_player)
    assert _delete(client, speeder).status_code == 404
    assert Vehicle.objects.filter(pk=speeder.pk).exists()


def test_a_vehicle_in_a_scene_is_not_deleted_until_taken_out(client, gm, speeder, weg_table):
    scene = scene_create(user=gm, campaign_id=weg_table.pk, name="Chase")
    participants_add(
        user=gm, scene_id=scene.pk, picks=[f"vehicle:{speeder.pk}"], expected_version=1
    )
    client.force_login(gm)
    response = _delete(client, speeder)
    assert response.status_code == 400 and "take it out of Chase first" in response.content.decode()
    assert Vehicle.objects.filter(pk=speeder.pk).exists()
    assert scene.participants.count() == 1


def test_a_stale_page_deletes_nothing(client, player, speeder):
    client.force_login(player)
    response = client.post(reverse("vehicle_delete", args=[speeder.pk]), {"version": "99"})
    assert response.status_code == 400
    assert Vehicle.objects.filter(pk=speeder.pk).exists()
