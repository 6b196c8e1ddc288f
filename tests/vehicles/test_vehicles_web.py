"""Vehicles through their pages: made by a character's player or a table's GM, edited live,
hit, rolled into the table's log with exact odds, printed; and who sees what."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.core.rolls import dice_readings
from rulesets.weg_d6 import dice as weg_dice
from rulesets.weg_d6 import vehicles as weg_vehicles
from rulesets.weg_d6.demo import demo_sheet
from sheets.campaigns.services import character_bring
from sheets.characters.services import character_create
from sheets.npcs.models import Visibility
from sheets.npcs.services import npc_create, npc_reveal
from sheets.rolls.models import RollEntry
from sheets.rolls.services import character_settings, rollables_of
from sheets.vehicles.models import OwnerKind, Vehicle, VehicleRevision
from sheets.vehicles.services import vehicle_apply_edits, vehicle_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def falcon(player, pilot):
    vehicle = vehicle_create(
        user=player, name="Outrider", owner=OwnerKind.CHARACTER, character_id=pilot.pk
    )
    return vehicle_apply_edits(
        user=player,
        vehicle_id=vehicle.pk,
        expected_version=1,
        edits={"maneuverability": "1D+2", "hull": "4D", "shields": "1D", "value": "100000"},
    )


def _edit(client, vehicle, **fields):
    return client.post(
        reverse("vehicle_edit", kwargs={"pk": vehicle.pk}),
        {"version": str(vehicle.version), **fields},
    )


def test_a_player_makes_a_vehicle_for_their_character(client, player, pilot):
    client.force_login(player)
    response = client.post(
        reverse("character_vehicles", kwargs={"pk": pilot.pk}), {"name": "Bucket", "edition": "1e"}
    )
    vehicle = Vehicle.objects.get(name="Bucket")
    assert response.status_code == 302
    assert (vehicle.owner_kind, vehicle.character, vehicle.data["edition"]) == (
        "character",
        pilot,
        "1e",
    )
    assert vehicle.revisions.get().summary == "Created"


def test_a_vehicle_without_a_name_is_refused_beside_the_field(client, player, pilot):
    client.force_login(player)
    response = client.post(reverse("character_vehicles", kwargs={"pk": pilot.pk}), {"name": " "})
    assert response.status_code == 400 and "Give the vehicle a name." in response.content.decode()
    assert not Vehicle.objects.exists()


def test_an_edit_changes_the_stat_block_and_leaves_a_revision(client, player, falcon):
    client.force_login(player)
    response = _edit(client, falcon, space="6", hyperdrive="x2")
    falcon.refresh_from_db()
    assert response.status_code == 302
    assert (falcon.data["space"], falcon.data["hyperdrive"], falcon.version) == (6, "x2", 3)
    assert falcon.revisions.first().before["space"] == 0


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"hull": "4Q"}, "hull", "is not a die code"),
        ({"maneuverability": "4D+5"}, "maneuverability", "has 5 pips"),
        ({"space": "99"}, "space", "from 0 to 30"),
        ({"space": "fast"}, "space", "Expected a whole number."),
        ({"crew": "-3"}, "crew", "from 0 to"),
        ({"weapons.0.damage": ""}, "weapons.0.damage", "is not a die code"),
        ({"bogus.path": "1"}, "bogus.path", "No such field."),
    ],
)
def test_bad_input_is_refused_beside_its_field_and_changes_nothing(
    client, player, falcon, fields, field, message
):
    client.force_login(player)
    falcon_data = _with_weapon(player, falcon)
    before = (falcon_data.data, falcon_data.version)
    response = _edit(client, falcon_data, **fields)
    body = response.content.decode()
    falcon_data.refresh_from_db()
    assert response.status_code == 400
    assert message in body
    if field != "bogus.path":  # a field the page has: the message stands beside it
        assert f'id="e-{field.replace(".", "")}"' in body
    assert (falcon_data.data, falcon_data.version) == before


def _with_weapon(player, vehicle):
    return vehicle_apply_edits(
        user=player,
        vehicle_id=vehicle.pk,
        expected_version=vehicle.version,
        edits={"rows.add": "weapons"},
    )


def test_a_weapon_row_is_added_with_codes_and_removed(client, player, falcon):
    client.force_login(player)
    _edit(client, falcon, **{"rows.add": "weapons"})
    falcon.refresh_from_db()
    assert falcon.data["weapons"][0]["damage"] == "1D"
    _edit(client, falcon, **{"rows.remove": "weapons.0"})
    falcon.refresh_from_db()
    assert falcon.data["weapons"] == []


def test_a_stale_version_is_refused(client, player, falcon):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_edit", kwargs={"pk": falcon.pk}), {"version": "1", "space": "3"}
    )
    falcon.refresh_from_db()
    assert (
        response.status_code == 400
        and "changed since the page was drawn" in response.content.decode()
    )
    assert falcon.data["space"] == 0


def test_a_live_edit_answers_with_the_stat_block_only(client, player, falcon):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_edit", kwargs={"pk": falcon.pk}),
        {"version": str(falcon.version), "hull": "5D"},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="vehicle-stat">')
    assert 'name="version" value="3"' in body and "<html" not in body


def test_a_live_edit_refused_draws_the_message_beside_the_field(client, player, falcon):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_edit", kwargs={"pk": falcon.pk}),
        {"version": str(falcon.version), "hull": "banana"},
        headers={"HX-Request": "true"},
    )
    assert 'id="e-hull"' in response.content.decode()


@pytest.mark.parametrize(
    ("damage", "hull", "state", "shield_dice_lost"),
    [("6", "10", "intact", 1), ("12", "10", "heavily", 0), ("31", "10", "destroyed", 0)],
)
def test_a_hit_marks_the_damage_state(
    client, player, falcon, damage, hull, state, shield_dice_lost
):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_hit", kwargs={"pk": falcon.pk}),
        {"version": str(falcon.version), "damage_roll": damage, "hull_roll": hull},
    )
    falcon.refresh_from_db()
    assert response.status_code == 302
    assert falcon.data["damage"]["state"] == state
    assert falcon.data["damage"]["shield_dice_lost"] == shield_dice_lost


def test_a_hit_typed_as_text_is_refused(client, player, falcon):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_hit", kwargs={"pk": falcon.pk}),
        {"version": str(falcon.version), "damage_roll": "lots", "hull_roll": "10"},
    )
    falcon.refresh_from_db()
    assert response.status_code == 400 and "whole number from 1 to 999" in response.content.decode()
    assert falcon.data["damage"]["state"] == "intact" and falcon.version == 2


def test_the_pilots_odds_are_the_skill_plus_maneuverability(client, player, pilot, falcon):
    client.force_login(player)
    response = client.get(
        reverse("vehicle_roll", kwargs={"pk": falcon.pk}),
        {
            "code": "maneuverability",
            "crew": pilot.pk,
            "trait": "skill.space_transports",
            "difficulty": "15",
        },
    )
    assert response.status_code == 200
    # Space transports 5D+2 + maneuverability 1D+2 = 7D+1, rolled as the pilot's own code.
    skill = next(r for r in rollables_of(pilot) if r.key == "skill.space_transports")
    readings = dice_readings(character_settings(pilot), weg_dice.DICE_READINGS)
    expected = weg_dice.odds(replace(skill, dice=22), {"difficulty": 15} | readings)
    assert response.context["odds"].success == expected.success
    assert expected.percent in response.content.decode()


def test_a_roll_lands_in_the_tables_log_naming_the_vehicle_and_crew(
    client, player, pilot, falcon, settings
):
    settings.DICE_SEED = 7
    client.force_login(player)
    response = client.post(
        reverse("vehicle_roll", kwargs={"pk": falcon.pk}),
        {
            "code": "maneuverability",
            "crew": pilot.pk,
            "trait": "skill.space_transports",
            "difficulty": "12",
        },
    )
    entry = RollEntry.objects.get()
    assert response.status_code == 200
    assert entry.campaign_id == pilot.campaign_id and entry.character == pilot
    assert entry.rollable_label.startswith("Outrider: Space transports + Maneuverability 1D+2")
    assert entry.pool == "7D+1" and not entry.secret


def test_a_crewed_roll_without_a_skill_is_refused_and_logs_nothing(client, player, pilot, falcon):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_roll", kwargs={"pk": falcon.pk}),
        {"code": "maneuverability", "crew": pilot.pk, "trait": ""},
    )
    assert response.status_code == 400 and "Pick the crew member" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_another_players_character_cannot_crew(client, other_player, pilot, falcon, weg_table, gm):
    vehicle = vehicle_create(
        user=gm, name="Tantive", owner=OwnerKind.CAMPAIGN, campaign_id=weg_table.pk
    )
    client.force_login(other_player)
    response = client.post(
        reverse("vehicle_roll", kwargs={"pk": vehicle.pk}),
        {"code": "hull", "crew": pilot.pk},
    )
    assert response.status_code == 400 and not RollEntry.objects.exists()


def test_the_pdf_prints_the_stat_block(client, player, falcon):
    client.force_login(player)
    response = client.get(reverse("vehicle_print", kwargs={"pk": falcon.pk}))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert response["Content-Type"] == "application/pdf"
    assert "Outrider" in text and "1D+2" in text and "Maneuverability" in text


# --- who sees what -------------------------------------------------------------------------


def test_a_characters_vehicle_is_seen_by_its_player_and_the_gm_only(
    client, player, other_player, gm, falcon
):
    url = reverse("vehicle_sheet", kwargs={"pk": falcon.pk})
    for user, status in ((player, 200), (gm, 200), (other_player, 404)):
        client.force_login(user)
        assert client.get(url).status_code == status


def test_a_tables_vehicle_is_seen_by_its_members_and_changed_by_its_gms(
    client, player, gm, other_gm, weg_table
):
    vehicle = vehicle_create(
        user=gm, name="Tantive", owner=OwnerKind.CAMPAIGN, campaign_id=weg_table.pk
    )
    sheet = reverse("vehicle_sheet", kwargs={"pk": vehicle.pk})
    for user, status in ((player, 200), (gm, 200), (other_gm, 404)):
        client.force_login(user)
        assert client.get(sheet).status_code == status
    client.force_login(player)
    assert _edit(client, vehicle, space="2").status_code == 403
    client.force_login(gm)
    assert _edit(client, vehicle, space="2").status_code == 302


def test_a_player_cannot_make_a_vehicle_for_the_table(client, player, weg_table):
    client.force_login(player)
    response = client.post(reverse("vehicle_list", kwargs={"pk": weg_table.pk}), {"name": "Mine"})
    assert response.status_code == 403 and not Vehicle.objects.exists()


def test_a_hidden_npcs_vehicle_never_reaches_a_player(client, player, gm, weg_table, pilot):
    boss = npc_create(user=gm, campaign_id=weg_table.pk, name="Moff Jerjerrod")
    shuttle = vehicle_create(
        user=gm, name="Lambda SECRETSHIP", owner=OwnerKind.CHARACTER, character_id=boss.pk
    )
    assert shuttle.owner_kind == OwnerKind.NPC
    client.force_login(player)
    assert client.get(reverse("vehicle_sheet", kwargs={"pk": shuttle.pk})).status_code == 404
    listing = client.get(reverse("vehicle_list", kwargs={"pk": weg_table.pk})).content.decode()
    assert "SECRETSHIP" not in listing
    client.force_login(gm)
    assert (
        "SECRETSHIP"
        in client.get(reverse("vehicle_list", kwargs={"pk": weg_table.pk})).content.decode()
    )
    npc_reveal(user=gm, character_id=boss.pk, visibility=Visibility.SHEET, expected_version=1)
    client.force_login(player)
    assert client.get(reverse("vehicle_sheet", kwargs={"pk": shuttle.pk})).status_code == 200


def test_a_hidden_npcs_vehicle_rolls_in_secret(client, gm, weg_table):
    boss = npc_create(user=gm, campaign_id=weg_table.pk, name="Moff Jerjerrod")
    shuttle = vehicle_create(
        user=gm, name="Lambda", owner=OwnerKind.CHARACTER, character_id=boss.pk
    )
    client.force_login(gm)
    client.post(
        reverse("vehicle_roll", kwargs={"pk": shuttle.pk}), {"code": "hull", "crew": boss.pk}
    )
    assert RollEntry.objects.get().secret


# --- the other systems ------------------------------------------------------------------------


def test_an_ore_vehicle_starts_from_a_seed_sample(client, gm, other_gm):
    from sheets.campaigns.services import campaign_create

    table = campaign_create(user=gm, name="Ord Mantell", system="ore")
    client.force_login(gm)
    client.post(
        reverse("vehicle_list", kwargs={"pk": table.pk}), {"name": "Red Five", "sample": "x_wing"}
    )
    vehicle = Vehicle.objects.get()
    assert vehicle.data["shield_points"] == 10
    page = client.get(reverse("vehicle_sheet", kwargs={"pk": vehicle.pk})).content.decode()
    assert "Astromech droid" in page


def test_a_1o3d10_table_says_it_has_no_vehicles(client, gm):
    from sheets.campaigns.services import campaign_create

    table = campaign_create(user=gm, name="Kessel", system="o3d10")
    client.force_login(gm)
    page = client.get(reverse("vehicle_list", kwargs={"pk": table.pk})).content.decode()
    assert "no vehicles or starships" in page
    response = client.post(reverse("vehicle_list", kwargs={"pk": table.pk}), {"name": "Speeder"})
    assert response.status_code == 400 and not Vehicle.objects.exists()


def test_an_swd10_vehicles_page_shows_what_its_size_does(client, gm, table):
    client.force_login(gm)
    client.post(reverse("vehicle_list", kwargs={"pk": table.pk}), {"name": "Freighter"})
    vehicle = Vehicle.objects.get()
    _edit(client, vehicle, size="colossal")
    page = client.get(reverse("vehicle_sheet", kwargs={"pk": vehicle.pk})).content.decode()
    assert "-2 dice, +1 difficulty" in page


def test_revisions_count_every_write(player, falcon):
    assert VehicleRevision.objects.filter(vehicle=falcon).count() == 2


def test_a_pip_bought_is_recorded_with_its_price(client, player, falcon):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_improve", kwargs={"pk": falcon.pk}),
        {"version": str(falcon.version), "code": "maneuverability"},
    )
    falcon.refresh_from_db()
    assert response.status_code == 302
    assert falcon.data["maneuverability"] == "2D" and falcon.data["improved"] == {
        "maneuverability": 1
    }
    assert "5% = 5,000 credits" in falcon.revisions.first().summary


def test_a_pip_on_an_unknown_code_is_refused_and_changes_nothing(client, player, falcon):
    client.force_login(player)
    response = client.post(
        reverse("vehicle_improve", kwargs={"pk": falcon.pk}),
        {"version": str(falcon.version), "code": "weapons.7.damage"},
    )
    falcon.refresh_from_db()
    assert response.status_code == 400 and "no such code" in response.content.decode()
    assert falcon.version == 2


@pytest.fixture
def pilot_1e(player, weg_table):
    sheet = demo_sheet() | {"edition": "1e"}
    character = character_create(owner=player, name="Biggs", system="weg_d6", sheet=sheet)
    character_bring(user=player, campaign_id=weg_table.pk, character_id=character.pk)
    character.refresh_from_db()
    return character


def test_a_crew_member_of_the_other_edition_is_refused(client, player, pilot, pilot_1e):
    vehicle = vehicle_create(
        user=player, name="Snub", owner=OwnerKind.CHARACTER, character_id=pilot.pk
    )
    client.force_login(player)
    response = client.post(
        reverse("vehicle_roll", kwargs={"pk": vehicle.pk}),
        {"code": "hull", "crew": pilot_1e.pk},
    )
    assert response.status_code == 400 and "other edition" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_a_1e_gunners_odds_against_a_smaller_scale_are_capped(client, player, pilot_1e):
    pilot = pilot_1e
    vehicle = vehicle_create(
        user=player, name="Snub", owner=OwnerKind.CHARACTER, character_id=pilot.pk
    )
    vehicle = vehicle_apply_edits(
        user=player,
        vehicle_id=vehicle.pk,
        expected_version=1,
        edits={"scale": "capital", "rows.add": "weapons"},
    )
    client.force_login(player)
    url = reverse("vehicle_roll", kwargs={"pk": vehicle.pk})
    ask = {
        "code": "weapons.0.fire_control",
        "crew": pilot.pk,
        "trait": "skill.starship_gunnery",
        "difficulty": "10",
    }
    same = client.get(url, ask | {"target_scale": "capital"}).context["odds"]
    small = client.get(url, ask | {"target_scale": "speeder"}).context["odds"]
    # Starship gunnery 4D+2 + fire control 1D = 5D+2; a capital gun at a speeder: cap 3.
    assert small.success == weg_vehicles.capped_chance(5, 2, 3, 10) < same.success
    response = client.post(url, ask | {"target_scale": "speeder"})
    assert response.status_code == 200 and "die cap 3" in RollEntry.objects.get().summary


def test_a_target_the_chart_forbids_is_refused(client, player, pilot_1e):
    pilot = pilot_1e
    vehicle = vehicle_create(
        user=player, name="Big gun", owner=OwnerKind.CHARACTER, character_id=pilot.pk
    )
    vehicle_apply_edits(
        user=player,
        vehicle_id=vehicle.pk,
        expected_version=1,
        edits={"scale": "death_star", "rows.add": "weapons"},
    )
    client.force_login(player)
    response = client.post(
        reverse("vehicle_roll", kwargs={"pk": vehicle.pk}),
        {
            "code": "weapons.0.fire_control",
            "crew": pilot.pk,
            "trait": "skill.starship_gunnery",
            "target_scale": "character",
        },
    )
    assert response.status_code == 400 and "003:634" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_notes_are_edited_and_printed(client, player, falcon):
    client.force_login(player)
    _edit(client, falcon, notes="Hidden compartment under the deck plates.")
    falcon.refresh_from_db()
    response = client.get(reverse("vehicle_print", kwargs={"pk": falcon.pk}))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Hidden compartment" in text
