"""The vehicle page offers 1E's ranges for additional weapons where a weapon's range is
typed (003:466-487), and records a hyperdrive level bought on the ship (003:1044,
002:268-287) with its price in the revision."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.vehicles.models import OwnerKind
from sheets.vehicles.services import vehicle_apply_edits, vehicle_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def wing(player, pilot):
    vehicle = vehicle_create(
        user=player, name="Red Five", owner=OwnerKind.CHARACTER, character_id=pilot.pk
    )
    vehicle = vehicle_apply_edits(
        user=player, vehicle_id=vehicle.pk, expected_version=1, edits={"rows.add": "weapons"}
    )
    return vehicle_apply_edits(
        user=player,
        vehicle_id=vehicle.pk,
        expected_version=vehicle.version,
        edits={"hyperdrive": "x2", "value": "150000", "edition": "1e"},
    )


def test_a_weapons_range_is_offered_by_category_with_the_garbled_rows_noted(client, player, wing):
    client.force_login(player)
    page = client.get(reverse("vehicle_sheet", kwargs={"pk": wing.pk})).content.decode()
    assert 'name="weapons.0.range"' in page and 'list="weg-weapon-ranges"' in page
    assert '<option value="200-5,000/5,001-25,000/25,001-50,000">' in page
    assert '<option value="500-15,000/?/?">' in page and "garbled in the seed" in page


def test_the_filled_range_is_saved_as_any_edit(client, player, wing):
    client.force_login(player)
    data = {"version": str(wing.version), "weapons.0.range": "200-5,000/5,001-25,000/25,001-50,000"}
    client.post(reverse("vehicle_edit", kwargs={"pk": wing.pk}), data)
    wing.refresh_from_db()
    assert wing.data["weapons"][0]["range"] == "200-5,000/5,001-25,000/25,001-50,000"


def test_a_hyperdrive_level_is_offered_and_recorded_with_its_price(client, player, wing):
    client.force_login(player)
    page = client.get(reverse("vehicle_sheet", kwargs={"pk": wing.pk})).content.decode()
    assert "Hyperdrive x2 → x1" in page and 'value="hyperdrive"' in page
    response = client.post(
        reverse("vehicle_improve", kwargs={"pk": wing.pk}),
        {"version": str(wing.version), "code": "hyperdrive"},
    )
    assert response.status_code == 302
    wing.refresh_from_db()
    assert wing.data["hyperdrive"] == "x1"
    assert "20 skill points, 10,000 credits" in wing.revisions.first().summary


def test_past_x_half_the_hyperdrive_is_refused_and_nothing_changes(client, player, wing):
    wing = vehicle_apply_edits(
        user=player, vehicle_id=wing.pk, expected_version=wing.version,
        edits={"hyperdrive": "x1/2"},
    )  # fmt: skip
    client.force_login(player)
    response = client.post(
        reverse("vehicle_improve", kwargs={"pk": wing.pk}),
        {"version": str(wing.version), "code": "hyperdrive"},
    )
    assert response.status_code == 400 and "no charted step" in response.content.decode()
    wing.refresh_from_db()
    assert wing.data["hyperdrive"] == "x1/2"
