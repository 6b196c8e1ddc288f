"""WEG 1E hits on the hit page (sheets/rolls/hits.py): the damage roll against the target's
Strength roll on the damage summary (003:472), and for a weapon set for stun its own column
(003:430-436): no effect below Strength, 1 stun at it, 2 stuns at twice, unconscious at
three times; stuns never wound. The result goes on the TARGET's sheet as any hit, through
the edit service, with a log entry; R&E (whose chart the seeds do not print) is refused
with a clear message and nothing written."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def trooper(player):
    sheet = copy.deepcopy(demo_sheet())
    sheet["edition"] = "1e"
    sheet["attributes"].update(dexterity=11, strength=9)  # 3D+2, 3D: stamina 3D
    return character_create(owner=player, name="TK-421", system="weg_d6", sheet=sheet)


def _mark(client, user, target, **fields):
    client.force_login(user)
    target = Character.objects.get(pk=target.pk)
    data = {"version": target.version, "csrfmiddlewaretoken": "x"} | {
        k: str(v) for k, v in fields.items()
    }
    return client.post(reverse("character_hit", args=[target.pk]), data)


@pytest.mark.parametrize(
    ("damage", "strength", "stun", "wound", "words"),
    [
        (4, 10, "yes", "healthy", "no effect"),  # 2xDR < SR (003:452)
        (9, 10, "yes", "healthy", "no effect"),  # DR < SR on the stun column (003:433)
        (10, 10, "yes", "stunned", "1 stun (−1D)"),  # DR >= SR (003:434)
        (20, 10, "yes", "stunned", "2 stuns (−2D)"),  # DR >= 2xSR (003:435)
        (30, 10, "yes", "stunned", "unconscious"),  # DR >= 3xSR (003:436)
        (9, 10, "no", "stunned", "1 stun (−1D)"),  # the damage column: DR < SR stuns
        (10, 10, "no", "wounded", "wounded"),
        (20, 10, "no", "incapacitated", "incapacitated"),
        (30, 10, "no", "mortally_wounded", "mortally wounded"),
    ],
)
def test_a_1e_hit_is_read_on_its_column_and_written_on_the_target(
    client, player, trooper, damage, strength, stun, wound, words
):
    response = _mark(client, player, trooper, damage=damage, strength=strength, stun=stun)
    assert response.status_code == 302
    target = Character.objects.get(pk=trooper.pk)
    assert target.sheet["wound"] == wound
    entry = RollEntry.objects.get(character=target, kind=RollEntry.Kind.HIT)
    assert f": {words} (" in entry.summary


def test_stuns_reaching_dexteritys_dice_immobilise_and_staminas_knock_out(client, player, trooper):
    # Two stuns the sheet already keeps (no scene: they count until marked over).
    sheet = copy.deepcopy(trooper.sheet)
    sheet["stuns"] = [
        {"stuns": 2, "unconscious": False, "scene": None, "round": None, "woke": False}
    ]
    Character.objects.filter(pk=trooper.pk).update(sheet=sheet)
    client.force_login(player)
    url = reverse("character_hit", args=[trooper.pk])
    page = client.get(url, {"damage": 10, "strength": 10, "stun": "yes"})
    text = page.content.decode()
    # 3 stuns this round and last against stamina 3D: unconscious (003:448).
    assert "3 stuns this round and last" in text and "Unconscious" in text
    assert Character.objects.get(pk=trooper.pk).sheet["stuns"] == sheet["stuns"]  # a preview


def test_a_stun_never_worsens_a_wound(client, player, trooper):
    sheet = copy.deepcopy(trooper.sheet)
    sheet["wound"] = "wounded"
    Character.objects.filter(pk=trooper.pk).update(sheet=sheet)
    assert _mark(client, player, trooper, damage=30, strength=10, stun="yes").status_code == 302
    assert Character.objects.get(pk=trooper.pk).sheet["wound"] == "wounded"


def test_the_sheet_offers_the_hit_page(client, player, trooper):
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[trooper.pk])).content.decode()
    assert reverse("character_hit", args=[trooper.pk]) in page


def test_an_r_and_e_hit_is_refused_with_the_reason_and_nothing_is_written(client, player):
    hero = character_create(owner=player, name="Kell", system="weg_d6", sheet=demo_sheet())
    response = _mark(client, player, hero, damage=12, strength=5, stun="no")
    assert response.status_code in (200, 400)
    assert "core book" in response.content.decode()
    hero = Character.objects.get(pk=hero.pk)
    assert hero.version == 1 and not RollEntry.objects.filter(character=hero).exists()


@pytest.mark.parametrize(
    ("field", "value"), [("damage", "-1"), ("strength", "x"), ("damage", "5000")]
)
def test_bad_rolls_are_named_beside_their_field(client, player, trooper, field, value):
    fields = {"damage": 10, "strength": 10, "stun": "no"} | {field: value}
    response = _mark(client, player, trooper, **fields)
    assert 'aria-invalid="true"' in response.content.decode()
    assert Character.objects.get(pk=trooper.pk).version == trooper.version
