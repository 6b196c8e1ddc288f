"""WEG 1E gear on the ledger (003:1006-1066): the owner buys a pip of a weapon's damage with
skill points and credits, then the technology roll (logged with its odds) decides whether it
works; a failure wastes both and leaves the weapon. The one entry's undo gives back the
points and the credits and puts the damage back, whatever the dice said. Bad input is named
beside the form and writes nothing."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


@pytest.fixture
def tinkerer(player):
    sheet = copy.deepcopy(demo_sheet())
    sheet.update(edition="1e", specializations={})
    sheet["weapons"] = [{"name": "Blaster pistol", "damage": "4D", "range": "", "ammo": ""}]
    sheet["gear"]["credits"] = 300
    hero = character_create(owner=player, name="Kell", system="weg_d6", sheet=sheet)
    character_apply_edits(
        user=player, character_id=hero.pk, edits={"stage": "play"}, expected_version=hero.version
    )
    ledger.award(user=player, character_id=hero.pk, amount="20", reason="Run")
    return _fresh(hero)


def _improve(client, player, hero, weapon="0"):
    client.force_login(player)
    data = {"version": _fresh(hero).version, "weapon": weapon}
    return client.post(reverse("ledger_gear", args=[hero.pk]), data)


def test_the_ledger_offers_each_weapons_next_pip_with_its_price(client, player, tinkerer):
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[tinkerer.pk])).content.decode()
    assert 'id="gear-0"' in page
    assert "Blaster pistol damage 4D → 4D+1: 4" in page and "40 credits" in page


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_pip_bought_and_undone_leaves_points_credits_and_damage(
    client, player, tinkerer, settings, seed
):
    settings.DICE_SEED = seed
    balance = figures(tinkerer).balance
    assert _improve(client, player, tinkerer).status_code == 302
    hero = _fresh(tinkerer)
    entry = LedgerEntry.objects.get(character=hero, trait="gear.weapon.0")
    roll = RollEntry.objects.get(pk=entry.roll_id)
    assert figures(hero).balance == balance - 4 and hero.sheet["gear"]["credits"] == 260
    assert hero.sheet["weapons"][0]["damage"] == ("4D+1" if roll.success else "4D")
    assert Fraction(roll.odds) > 0 and "against 3" in roll.pool  # the first pip: Very Easy
    ledger.undo(user=player, character_id=hero.pk, entry_id=entry.pk, expected_version=hero.version)
    hero = _fresh(hero)
    assert figures(hero).balance == balance and hero.sheet["gear"]["credits"] == 300
    assert hero.sheet["weapons"][0] == tinkerer.sheet["weapons"][0]


def test_the_fourth_pip_asks_a_difficult_roll(client, player, tinkerer):
    sheet = copy.deepcopy(tinkerer.sheet)
    sheet["weapons"][0].update(damage="5D", stock="4D")
    Character.objects.filter(pk=tinkerer.pk).update(sheet=sheet)
    step = ledger.gear_steps(_fresh(tinkerer))[0]
    assert (step.skill_points, step.credits, step.technology, step.difficulty) == (
        5, 50, "Difficult", 16
    )  # fmt: skip


@pytest.mark.parametrize(
    ("weapon", "credits", "message"),
    [("7", 300, "Choose one of the sheet"), ("x", 300, "Choose one of the sheet"),
     ("0", 10, "40 credits; 10 in hand")],
)  # fmt: skip
def test_bad_input_is_named_and_nothing_is_written(
    client, player, tinkerer, weapon, credits, message
):
    sheet = copy.deepcopy(tinkerer.sheet)
    sheet["gear"]["credits"] = credits
    Character.objects.filter(pk=tinkerer.pk).update(sheet=sheet)
    version, entries = _fresh(tinkerer).version, LedgerEntry.objects.count()
    response = _improve(client, player, tinkerer, weapon)
    assert response.status_code == 400
    assert 'id="gear-error"' in response.content.decode() and message in response.content.decode()
    assert _fresh(tinkerer).version == version and LedgerEntry.objects.count() == entries
    assert not RollEntry.objects.filter(character=tinkerer).exists()


def test_a_failed_technology_roll_wastes_the_points_and_credits_and_keeps_the_weapon(
    client, player, tinkerer
):
    # Five pips over stock: the sixth is Very Difficult (21), past what 3D can roll in 1E.
    sheet = copy.deepcopy(tinkerer.sheet)
    sheet["weapons"][0].update(damage="5D+2", stock="4D")
    sheet["skills"].pop("technology", None)
    Character.objects.filter(pk=tinkerer.pk).update(sheet=sheet)
    balance = figures(_fresh(tinkerer)).balance
    assert _improve(client, player, tinkerer).status_code == 302
    hero = _fresh(tinkerer)
    entry = LedgerEntry.objects.get(character=hero, trait="gear.weapon.0")
    assert entry.unchanged and not RollEntry.objects.get(pk=entry.roll_id).success
    assert hero.sheet["weapons"][0]["damage"] == "5D+2"
    assert figures(hero).balance == balance - 5 and hero.sheet["gear"]["credits"] == 250
    ledger.undo(user=player, character_id=hero.pk, entry_id=entry.pk, expected_version=hero.version)
    hero = _fresh(hero)
    assert figures(hero).balance == balance and hero.sheet["gear"]["credits"] == 300


@pytest.fixture
def modder(player):
    sheet = copy.deepcopy(demo_sheet())
    sheet["weapons"] = [{"name": "Blaster pistol", "damage": "4D", "range": "", "ammo": ""}]
    sheet["gear"]["credits"] = 1000
    hero = character_create(owner=player, name="Vex", system="weg_d6", sheet=sheet)
    character_apply_edits(
        user=player, character_id=hero.pk, edits={"stage": "play"}, expected_version=hero.version
    )
    return _fresh(hero)


@pytest.mark.parametrize(("worker", "credits"), [("self", 75), ("hired", 150), ("hired_dear", 225)])
def test_an_r_and_e_modification_is_a_share_of_the_value_and_undone_whole(
    client, player, modder, settings, worker, credits
):
    # The first step: +1, Easy, 15% of 500 credits (002:372-395), double or triple hired.
    settings.DICE_SEED = 7
    balance = figures(modder).balance
    client.force_login(player)
    data = {"version": modder.version, "weapon": "0", "value": "500", "worker": worker}
    assert client.post(reverse("ledger_gear", args=[modder.pk]), data).status_code == 302
    hero = _fresh(modder)
    entry = LedgerEntry.objects.get(character=hero, trait="gear.weapon.0")
    roll = RollEntry.objects.get(pk=entry.roll_id)
    assert entry.amount == 0 and figures(hero).balance == balance
    assert hero.sheet["gear"]["credits"] == 1000 - credits and "against 6" in roll.pool
    assert hero.sheet["weapons"][0]["damage"] == ("4D+1" if roll.success else "4D")
    ledger.undo(user=player, character_id=hero.pk, entry_id=entry.pk, expected_version=hero.version)
    hero = _fresh(hero)
    assert hero.sheet["gear"]["credits"] == 1000
    assert hero.sheet["weapons"][0] == modder.sheet["weapons"][0]


@pytest.mark.parametrize(
    ("fields", "message"),
    [({"value": ""}, "value"), ({"value": "500", "worker": "droid"}, "Who does the work")],
)
def test_an_r_and_e_modification_without_a_value_or_worker_is_refused(
    client, player, modder, fields, message
):
    client.force_login(player)
    data = {"version": modder.version, "weapon": "0"} | fields
    response = client.post(reverse("ledger_gear", args=[modder.pk]), data)
    assert response.status_code == 400 and message in response.content.decode()
    assert _fresh(modder).version == modder.version


def test_past_one_d_two_above_stock_an_r_and_e_weapon_is_refused(client, player, modder):
    sheet = copy.deepcopy(modder.sheet)
    sheet["weapons"][0].update(damage="5D+2", stock="4D")
    Character.objects.filter(pk=modder.pk).update(sheet=sheet)
    client.force_login(player)
    data = {"version": modder.version, "weapon": "0", "value": "500"}
    response = client.post(reverse("ledger_gear", args=[modder.pk]), data)
    assert response.status_code == 400 and "002:264" in response.content.decode()
