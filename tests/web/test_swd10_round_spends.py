"""SWd10 spends where Datapad knows the round (seed 000): a Destiny point once a round in a
scene of the table (L81), the table's own count elsewhere; current Power a battle roll
gains (L100) and spends after Stamina's soak as a second step (L106); a Path roll's lost
grade written with the roll, at a table too, and in the sheet's history (L124-126). Bad
input is refused beside its field and stores nothing."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from rulesets import swd10
from rulesets.core import resolve_settings
from rulesets.core.rolls import dice_readings, parse_roll_options
from sheets.characters.models import Character
from sheets.history.models import Revision
from sheets.history.services import character_restore
from sheets.rolls.models import RollEntry
from sheets.rolls.services import roll_make
from sheets.scenes.models import Scene
from sheets.scenes.services import participants_add, scene_create

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _hero_sheet() -> dict:
    """The demo hero in play: Power 4 with 2 in the pool, Light side 4, two Destiny points."""
    sheet = swd10.apply_edit(swd10.demo_sheet(), "stage", "play", {})
    sheet |= {"power": 4, "power_current": 2, "light_side": 4}
    sheet["info"] = sheet["info"] | {"destiny_points": 2}
    return sheet


@pytest.fixture
def hero(table, swd10_character):
    """Kira Dane at the GM's table, as the hero above."""
    swd10_character.sheet = _hero_sheet()
    swd10_character.save(update_fields=["sheet"])
    return swd10_character


@pytest.fixture
def scene(gm, table, hero):
    made = scene_create(user=gm, campaign_id=table.pk, name="Ambush")
    participants_add(
        user=gm, scene_id=made.pk, picks=[f"character:{hero.pk}"], expected_version=made.version
    )
    return Scene.objects.get(pk=made.pk)


def url(character, key: str, name: str = "character_roll") -> str:
    return reverse(name, args=[character.pk, key])


def post(client, character, key: str, **fields):
    data = {"campaign": str(character.campaign_id or "")} | fields
    return client.post(url(character, key), data)


def sheet_of(character) -> dict:
    return Character.objects.get(pk=character.pk).sheet


# --- a Destiny point once a round (L81) ------------------------------------------------------


def test_outside_a_scene_the_form_says_the_table_keeps_the_count(client, player, hero):
    client.force_login(player)
    page = client.get(url(hero, "abil.firearms")).content.decode()
    assert "One a round (L81): outside a scene the table keeps that count." in page


def test_outside_a_scene_two_destiny_points_in_a_row_are_the_tables_to_count(
    client, player, hero, settings
):
    settings.DICE_SEED = 3
    client.force_login(player)
    assert post(client, hero, "abil.firearms", destiny_successes="yes").status_code == 302
    assert post(client, hero, "abil.firearms", destiny_successes="yes").status_code == 302
    assert sheet_of(hero)["info"]["destiny_points"] == 0


def test_in_a_scene_a_second_destiny_point_in_the_round_is_refused_and_stores_nothing(
    client, player, hero, scene, settings
):
    settings.DICE_SEED = 3
    client.force_login(player)
    page = client.get(url(hero, "abil.firearms")).content.decode()
    assert "One a round (L81): round 1 of Ambush." in page
    assert post(client, hero, "abil.firearms", destiny_successes="yes").status_code == 302
    first = RollEntry.objects.get()
    assert (
        first.facts.items()
        >= {"scene_id": scene.pk, "scene_round": 1, "destiny": "successes"}.items()
    )
    version = Character.objects.get(pk=hero.pk).version

    refused = post(client, hero, "abil.melee", destiny_successes="yes")
    text = refused.content.decode()
    assert refused.status_code == 400
    assert re.search(
        r'id="roll-destiny-successes-error"[^>]*>A Destiny point was already spent in round 1 '
        r"of Ambush: one a round \(L81\)",
        text,
    )
    assert RollEntry.objects.count() == 1
    assert Character.objects.get(pk=hero.pk).version == version
    assert sheet_of(hero)["info"]["destiny_points"] == 1


def test_the_next_round_takes_a_destiny_point_again(client, player, hero, scene, settings):
    settings.DICE_SEED = 3
    client.force_login(player)
    post(client, hero, "abil.firearms", destiny_successes="yes")
    Scene.objects.filter(pk=scene.pk).update(round=2)  # the GM's tracker moved on
    assert post(client, hero, "abil.firearms", destiny_successes="yes").status_code == 302
    assert sheet_of(hero)["info"]["destiny_points"] == 0
    assert RollEntry.objects.filter(facts__scene_round=2).count() == 1


# --- current Power a battle roll gains (L100) ----------------------------------------------


def test_a_successful_roll_in_a_scene_writes_its_power_gain_with_the_roll(
    client, player, hero, scene, settings
):
    settings.DICE_SEED = 5
    client.force_login(player)
    page = client.get(url(hero, "attr.strength")).content.decode()
    assert re.search(r'name="battle" value="yes" checked', page)  # ticked in a scene
    post(client, hero, "attr.strength", battle="yes", difficulty="2")
    entry = RollEntry.objects.get()
    assert entry.success  # two dice at difficulty 2 under this seed
    assert "current Power +1: a battle roll (L100), never past Power" in entry.details
    assert sheet_of(hero)["power_current"] == 3


def test_outside_a_scene_the_battle_flag_waits_for_the_player(client, player, hero, settings):
    settings.DICE_SEED = 5
    client.force_login(player)
    page = client.get(url(hero, "attr.strength")).content.decode()
    assert 'name="battle"' in page and not re.search(r'name="battle" value="yes" checked', page)
    post(client, hero, "attr.strength", difficulty="2")
    assert sheet_of(hero)["power_current"] == 2


# --- current Power after Stamina's soak: a second step (L106) ------------------------------


def _soaked(client, hero, incoming: str = "9"):
    post(client, hero, "soak.stamina", incoming=incoming)
    return RollEntry.objects.get()


def test_the_soak_shows_its_result_then_offers_power_for_what_is_left(
    client, player, hero, settings
):
    settings.DICE_SEED = 5
    client.force_login(player)
    soak = _soaked(client, hero)
    left = soak.facts["soak_left"]
    assert soak.facts["incoming"] == 9 and left >= 6  # three dice soak at most three of nine
    page = client.get(url(hero, "soak.stamina"), {"rolled": soak.pk}).content.decode()
    assert 'name="step" value="power_soak"' in page and "000:L106" in page
    assert 'max="2"' in page  # two points in the pool, fewer than the levels left

    response = post(
        client, hero, "soak.stamina", step="power_soak", roll=str(soak.pk), power_soak="2"
    )
    assert response.status_code == 302
    assert sheet_of(hero)["power_current"] == 0
    follow = RollEntry.objects.exclude(pk=soak.pk).get()
    assert follow.total == 2 and "(L106)" in follow.summary
    soak.refresh_from_db()
    assert soak.facts["power_soaked"] == 2
    assert any(f"{left - 2} of 9 damage left (L106)" in line for line in soak.details)


@pytest.mark.parametrize(
    ("points", "message"),
    [("3", "Only 2 current Power left to spend."), ("x", "a whole number"), ("0", "at least 1")],
)
def test_power_the_sheet_cannot_pay_after_the_soak_is_refused_and_stores_nothing(
    client, player, hero, settings, points, message
):
    settings.DICE_SEED = 5
    client.force_login(player)
    soak = _soaked(client, hero)
    version = Character.objects.get(pk=hero.pk).version
    response = post(
        client, hero, "soak.stamina", step="power_soak", roll=str(soak.pk), power_soak=points
    )
    assert response.status_code == 400
    assert re.search(
        r'id="roll-power-soak-error"[^>]*>[^<]*' + re.escape(message), response.content.decode()
    )
    assert RollEntry.objects.count() == 1
    assert Character.objects.get(pk=hero.pk).version == version


def test_power_follows_a_soak_once_only(client, player, hero, settings):
    settings.DICE_SEED = 5
    client.force_login(player)
    soak = _soaked(client, hero)
    post(client, hero, "soak.stamina", step="power_soak", roll=str(soak.pk), power_soak="1")
    again = post(client, hero, "soak.stamina", step="power_soak", roll=str(soak.pk), power_soak="1")
    assert again.status_code == 400
    assert "Current Power was already spent on this soak." in again.content.decode()
    assert sheet_of(hero)["power_current"] == 1


def test_another_players_soak_cannot_be_followed(client, other_player, hero, settings):
    settings.DICE_SEED = 5
    client.force_login(other_player)
    response = post(client, hero, "soak.stamina", step="power_soak", roll="1", power_soak="1")
    assert response.status_code in (403, 404)
    assert sheet_of(hero)["power_current"] == 2


# --- a Path roll's lost grade (L124-126) ----------------------------------------------------


def _seed_for(hero, outcome: str) -> int:
    """A generator seed under which the Light side roll after a grade-1 mistake (difficulty
    4 − 1 + 6 = 9, L120) comes out as `outcome`."""
    defaults = resolve_settings(swd10.SETTINGS, {})
    target = {r.key: r for r in swd10.rollables(hero.sheet, defaults)}["path.light_side"]
    chosen = parse_roll_options(swd10.roll_options(target, defaults), {"grade": "1"})
    options = chosen | dice_readings(defaults, swd10.DICE_READINGS)
    for seed in range(500):
        if swd10.roll(target, options, random.Random(seed)).outcome == outcome:
            return seed
    raise AssertionError(f"no {outcome} in 500 seeds")


@pytest.mark.parametrize(("outcome", "after"), [("failure", 3), ("botch", 2)])
def test_a_players_path_roll_at_the_table_writes_the_lost_grade_into_the_history(
    player, gm, hero, outcome, after
):
    seed = _seed_for(hero, outcome)
    entry = roll_make(
        user=player,
        character_id=hero.pk,
        rollable_key="path.light_side",
        raw={"grade": "1"},
        drawn_campaign=hero.campaign_id,
        rng=random.Random(seed),
    )
    assert entry.outcome == outcome
    assert "the Path's lost grade is written on the sheet (L124-126)" in entry.details
    assert sheet_of(hero)["light_side"] == after
    revision = Revision.objects.filter(character=hero).first()
    assert revision.changes == [["Light side", "4", str(after)]]
    # The table's GM undoes it from the history, as any write.
    character_restore(
        user=gm,
        character_id=hero.pk,
        version=revision.version - 1,
        expected_version=revision.version,
    )
    assert sheet_of(hero)["light_side"] == 4


def test_a_path_roll_kept_changes_nothing(player, hero):
    seed = _seed_for(hero, "success")
    version = Character.objects.get(pk=hero.pk).version
    roll_make(
        user=player,
        character_id=hero.pk,
        rollable_key="path.light_side",
        raw={"grade": "1"},
        drawn_campaign=hero.campaign_id,
        rng=random.Random(seed),
    )
    assert Character.objects.get(pk=hero.pk).version == version


# --- the evasion penalty (L206) and converted armor (L1374) on the page --------------------


def test_the_roll_panel_offers_evasions_and_converted_armor_with_their_sources(
    client, player, hero
):
    hero.sheet["armor"] = [
        {"name": "Blast vest", "kind": "armor", "rating": 3, "lost": 0, "worn": True}
    ]
    hero.save(update_fields=["sheet"])
    client.force_login(player)
    page = client.get(url(hero, "attr.dexterity")).content.decode()
    assert 'name="evasions"' in page and "Source: L206" in page
    assert 'name="armor_swse"' in page and "Source: L741, L1374" in page
    assert "converted from SWSE, max Dex bonus +4: −1 dice" in page
    odds = client.get(url(hero, "attr.dexterity", "roll_odds"), {"evasions": "1"}, headers=HTMX)
    assert "1 die at difficulty 6" in odds.content.decode()  # Dexterity 4 − 2 armor − 1
