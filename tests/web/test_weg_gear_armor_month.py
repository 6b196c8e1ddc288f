"""WEG gear on the ledger beyond a weapon's damage: an armor line's codes (1E skill points,
the Dexterity pip lost or bought back, 003:1026-1040; R&E a share of its value), R&E's one
modification roll an item a month (002:266, counted by adventure under the default reading),
and what a failed R&E roll keeps of the credits (a reading)."""

from __future__ import annotations

import copy
import random

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet, gear
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db
VEST = "Blast vest (armor: +1D physical, torso)"


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _hero(player, edition: str) -> Character:
    sheet = copy.deepcopy(demo_sheet())
    sheet.update(edition=edition, specializations={})
    sheet["weapons"] = [{"name": "Blaster pistol", "damage": "4D", "range": "", "ammo": ""}]
    sheet["gear"].update(credits=1000, equipment=f"Glow rod\n{VEST}")
    hero = character_create(owner=player, name="Kell", system="weg_d6", sheet=sheet)
    character_apply_edits(
        user=player, character_id=hero.pk, edits={"stage": "play"}, expected_version=hero.version
    )
    ledger.award(user=player, character_id=hero.pk, amount="30", reason="Run")
    return _fresh(hero)


def _post(client, player, hero, **fields):
    client.force_login(player)
    data = {"version": _fresh(hero).version} | fields
    return client.post(reverse("ledger_gear", args=[hero.pk]), data)


def test_the_ledger_offers_armor_with_and_without_the_dexterity_bought_back(client, player):
    hero = _hero(player, "1e")
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[hero.pk])).content.decode()
    assert 'id="gear-armor1physical"' in page and 'id="gear-armor1physicaldex"' in page
    assert "Blast vest physical +1D → +1D+1, Dexterity −1 pip: 4" in page
    assert "Blast vest physical +1D → +1D+1, Dexterity bought back: 8" in page


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize(("key", "points", "line"), [
    ("armor.1.physical", 4, "Blast vest (armor: +1D+1 physical, 0D-1 Dexterity, torso)"),
    ("armor.1.physical.dex", 8, "Blast vest (armor: +1D+1 physical, torso)"),
])  # fmt: skip
def test_a_1e_armor_pip_is_paid_rolled_and_undone_whole(
    client, player, settings, seed, key, points, line
):
    settings.DICE_SEED = seed
    hero = _hero(player, "1e")
    balance = figures(hero).balance
    assert _post(client, player, hero, weapon=key).status_code == 302
    hero = _fresh(hero)
    entry = LedgerEntry.objects.get(character=hero, trait=f"gear.{key}")
    roll = RollEntry.objects.get(pk=entry.roll_id)
    assert figures(hero).balance == balance - points
    assert hero.sheet["gear"]["credits"] == 1000 - 10 * points
    assert hero.sheet["gear"]["equipment"] == f"Glow rod\n{line if roll.success else VEST}"
    ledger.undo(user=player, character_id=hero.pk, entry_id=entry.pk, expected_version=hero.version)
    hero = _fresh(hero)
    assert figures(hero).balance == balance and hero.sheet["gear"]["credits"] == 1000
    assert hero.sheet["gear"]["equipment"] == f"Glow rod\n{VEST}"


def test_the_next_armor_pip_counts_the_pips_kept_for_its_technology_roll(player):
    hero = _hero(player, "1e")
    for seed in range(40):  # until one pip holds
        version = _fresh(hero).version
        ledger.improve_gear(user=player, character_id=hero.pk, weapon="armor.1.physical",
                            expected_version=version, rng=random.Random(seed))  # fmt: skip
        if "+1D+1" in _fresh(hero).sheet["gear"]["equipment"]:
            break
    steps = {s.key: s for s in ledger.gear_steps(_fresh(hero))}
    assert steps["armor.1.physical"].technology == "Easy"  # the second pip (003:1062)


def test_a_bad_armor_key_is_named_and_nothing_is_written(client, player):
    hero = _hero(player, "1e")
    response = _post(client, player, hero, weapon="armor.7.physical")
    assert response.status_code == 400 and "armor codes" in response.content.decode()
    assert _fresh(hero).version == hero.version


def test_r_and_e_allows_one_modification_roll_an_item_until_the_adventure_ends(
    client, player, settings
):
    settings.DICE_SEED = 3
    hero = _hero(player, "2e_re")
    assert _post(client, player, hero, weapon="0", value="500").status_code == 302
    again = _post(client, player, hero, weapon="0", value="500")
    assert again.status_code == 400 and "One modification roll a month" in again.content.decode()
    assert LedgerEntry.objects.filter(character=hero, trait="gear.weapon.0").count() == 1
    page = client.get(reverse("character_ledger", args=[hero.pk])).content.decode()
    weapon_line = page.split('id="gear-0"')[1].split("</li>")[0]
    assert "rolled this month" in weapon_line and "<button" not in weapon_line
    # Another item is another roll; the armor's own month starts now.
    assert _post(client, player, hero, weapon="armor.1.physical", value="400").status_code == 302
    hero = _fresh(hero)
    ledger.end_adventure_alone(user=player, character_id=hero.pk, expected_version=hero.version)
    assert _post(client, player, hero, weapon="0", value="500").status_code == 302


def test_the_month_reading_off_leaves_the_calendar_to_the_gm(client, player, settings):
    settings.DICE_SEED = 3
    hero = _hero(player, "2e_re")
    Character.objects.filter(pk=hero.pk).update(rule_settings={gear.MONTH_READING: "off"})
    assert _post(client, player, hero, weapon="0", value="500").status_code == 302
    assert _post(client, player, hero, weapon="0", value="500").status_code == 302


@pytest.mark.parametrize(("reading", "kept_share"), [("spent", 0), ("half", 2), ("kept", 1)])
@pytest.mark.parametrize("seed", range(6))
def test_a_failed_r_and_e_roll_keeps_the_credits_the_reading_says(
    player, reading, kept_share, seed
):
    hero = _hero(player, "2e_re")
    # Four steps above stock: the fifth is Heroic (31), 50% of 1000 credits (002:372-395).
    sheet = copy.deepcopy(hero.sheet)
    sheet["weapons"][0].update(damage="5D+1", stock="4D")
    Character.objects.filter(pk=hero.pk).update(
        sheet=sheet, rule_settings={gear.FAILURE_READING: reading}
    )
    ledger.improve_gear(user=player, character_id=hero.pk, weapon="0", value="1000",
                        expected_version=_fresh(hero).version, rng=random.Random(seed))  # fmt: skip
    hero = _fresh(hero)
    roll = RollEntry.objects.get(
        pk=LedgerEntry.objects.get(character=hero, trait="gear.weapon.0").roll_id
    )
    paid = 500 if roll.success else {"spent": 500, "half": 250, "kept": 0}[reading]
    assert hero.sheet["gear"]["credits"] == 1000 - paid and roll.facts["credits"] == paid
    assert hero.sheet["weapons"][0]["damage"] == ("5D+2" if roll.success else "5D+1")
