"""Vehicles in the scene tracker take hits in their system's terms (WEG's damage summary,
an O.R.E. location's boxes, SWd10's health levels by size), and the GM's tracker reads
where each one stands; bad input is refused and marks nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.campaigns.models import Role
from sheets.campaigns.services import campaign_create
from sheets.scenes.models import Participant
from sheets.scenes.services import (
    SceneRefused,
    hit_fields,
    participants_add,
    scene_create,
    scene_hit,
    tracker,
)
from sheets.vehicles.models import OwnerKind, Vehicle
from sheets.vehicles.services import vehicle_create

pytestmark = pytest.mark.django_db


def _scene_with_vehicle(gm, system: str, sample: str = ""):
    campaign = campaign_create(user=gm, name=f"Table {system}", system=system)
    vehicle = vehicle_create(
        user=gm, name="Tantive", owner=OwnerKind.CAMPAIGN, campaign_id=campaign.pk, sample=sample
    )
    scene = scene_create(user=gm, campaign_id=campaign.pk, name="Dogfight")
    participants_add(
        user=gm, scene_id=scene.pk, picks=[f"vehicle:{vehicle.pk}"], expected_version=1
    )
    scene.refresh_from_db()
    return scene, vehicle, Participant.objects.get(scene=scene)


def _hit(gm, scene, participant, raw):
    scene.refresh_from_db()
    return scene_hit(
        user=gm,
        scene_id=scene.pk,
        participant_id=participant.pk,
        raw=raw,
        expected_version=scene.version,
    )


def test_a_weg_starship_takes_a_hit_from_the_damage_summary(gm):
    scene, vehicle, participant = _scene_with_vehicle(gm, "weg_d6")
    assert [f.name for f in hit_fields(scene, participant)] == ["damage_roll", "hull_roll", "ion"]
    assert tracker(gm, scene, Role.GM).rows[0].condition.label == "Undamaged"
    # Damage 30 against hull 10: three times the hull roll or more (003:571-579).
    _hit(gm, scene, participant, {"damage_roll": "30", "hull_roll": "10"})
    vehicle.refresh_from_db()
    assert vehicle.data["damage"]["state"] != "intact" and vehicle.version == 2
    scene.refresh_from_db()
    assert tracker(gm, scene, Role.GM).rows[0].condition.label != "Undamaged"


def test_an_ore_vehicle_marks_boxes_on_the_location_chosen(gm):
    scene, vehicle, participant = _scene_with_vehicle(gm, "ore", sample="at_st")
    cockpit = next(i for i, row in enumerate(vehicle.data["locations"]) if row["name"] == "Cockpit")
    _hit(gm, scene, participant, {"location": str(cockpit), "killing": "10", "shock": "0"})
    vehicle.refresh_from_db()
    row = vehicle.data["locations"][cockpit]
    assert row["killing"] == 10 and all(
        other["killing"] == 0 for other in vehicle.data["locations"] if other is not row
    )
    scene.refresh_from_db()
    assert "Cockpit destroyed" in tracker(gm, scene, Role.GM).rows[0].condition.label


def test_a_swd10_vehicle_marks_health_levels_by_its_size(gm):
    scene, vehicle, participant = _scene_with_vehicle(gm, "swd10")
    # Gargantuan, the default size: injured, mauled, incapacitated (000:L1400).
    (levels,) = hit_fields(scene, participant)
    assert levels.maximum == 3
    _hit(gm, scene, participant, {"levels": "2"})
    vehicle.refresh_from_db()
    assert vehicle.data["health_marked"] == 2
    scene.refresh_from_db()
    assert tracker(gm, scene, Role.GM).rows[0].condition.label == "Mauled"


def test_a_vehicle_hit_of_text_or_from_the_roll_log_marks_nothing(gm):
    scene, vehicle, participant = _scene_with_vehicle(gm, "swd10")
    with pytest.raises(SceneRefused) as refused:
        _hit(gm, scene, participant, {"levels": "lots"})
    assert "levels" in refused.value.errors
    with pytest.raises(SceneRefused) as refused:
        _hit(gm, scene, participant, {"levels": "9"})
    assert "between 1 and 3" in refused.value.errors["levels"]
    vehicle.refresh_from_db()
    assert vehicle.data["health_marked"] == 0 and vehicle.version == 1


def test_the_gm_marks_a_vehicle_hit_from_the_tracker_page(client, gm):
    scene, vehicle, participant = _scene_with_vehicle(gm, "weg_d6")
    client.force_login(gm)
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert 'name="damage_roll"' in page and 'name="hull_roll"' in page
    response = client.post(
        reverse("scene_hit", kwargs={"pk": scene.pk}),
        {"version": scene.version, "participant": participant.pk, "damage_roll": "x"},
    )
    assert response.status_code == 400 and "whole number" in response.content.decode()
    assert Vehicle.objects.get(pk=vehicle.pk).version == 1
    scene.refresh_from_db()
    response = client.post(
        reverse("scene_hit", kwargs={"pk": scene.pk}),
        {
            "version": scene.version,
            "participant": participant.pk,
            "damage_roll": "30",
            "hull_roll": "10",
        },
    )
    assert response.status_code == 302
    assert Vehicle.objects.get(pk=vehicle.pk).version == 2


def test_a_swd10_vehicles_health_track_follows_its_size():
    from rulesets.core.edits import InvalidSheet
    from rulesets.swd10 import vehicles

    def names(size):
        return [level.name for level in vehicles.health_levels(vehicles.validate_vehicle(size))]

    assert len(names({"size": "colossal_cruiser"})) == 7  # "full scale" (000:L1393)
    assert names({"size": "large"}) == ["Mauled", "Incapacitated"]  # 000:L1403
    assert names({"size": "fine"}) == ["Incapacitated"]  # 000:L1408
    with pytest.raises(InvalidSheet, match="health_marked"):
        vehicles.validate_vehicle({"size": "fine", "health_marked": 2})
