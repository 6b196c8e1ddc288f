"""SWd10 spends between rolls on the roll page (seed 000, issue 27): a Destiny point once a
scene (L91-94) or on a once-a-round use no roll carries (L86-89), current Power paid at a
round's start and read by every roll of it (L104-105), a full rest (L100, L176). Each writes
the sheet and a log line together; a refusal is shown beside its form and stores nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rulesets import swd10
from sheets.characters.models import Character
from sheets.rolls.models import RollEntry
from sheets.scenes.models import Scene
from sheets.scenes.services import participants_add, scene_create

pytestmark = pytest.mark.django_db


def _hero_sheet() -> dict:
    """The demo hero in play: Power 4 with 2 in the pool, Willpower 3 with 1 left, two
    Destiny points."""
    sheet = swd10.apply_edit(swd10.demo_sheet(), "stage", "play", {})
    sheet |= {"power": 4, "power_current": 2, "willpower_current": 1}
    sheet["info"] = sheet["info"] | {"destiny_points": 2}
    return sheet


@pytest.fixture
def hero(table, swd10_character):
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


def spend(client, character, action: str, **fields):
    data = {"campaign": str(character.campaign_id or ""), "spend": action} | fields
    return client.post(reverse("character_spend", args=[character.pk]), data)


def sheet_of(character) -> dict:
    return Character.objects.get(pk=character.pk).sheet


def pools(character) -> tuple[int, int, int]:
    sheet = sheet_of(character)
    return sheet["info"]["destiny_points"], sheet["willpower_current"], sheet["power_current"]


# (action, fields, (Destiny, current Willpower, current Power) after, source) from the seed's
# numbers: the hero starts at 2 Destiny, Willpower 1 of 3, Power 2 of 4.
WRITES = [
    ("destiny_willpower", {}, (1, 3, 2), "L93: all current Willpower for a point"),
    ("destiny_outstanding", {"note": "Talks the Hutt down", "approved": "yes"}, (1, 1, 2), "L94"),
    ("destiny_intercept", {"note": "Tam, the trooper's shot"}, (1, 1, 2), "L86"),
    ("destiny_flaw", {"note": "Overconfident"}, (1, 1, 2), "L88"),
    ("power_round", {"power_damage": "1", "power_actions": "1"}, (2, 1, 0), "L104-105"),
    ("full_rest", {}, (2, 2, 0), "L100 empties Power, L176 one Willpower back"),
]


@pytest.mark.parametrize(("action", "fields", "after", "source"), WRITES)
def test_each_spend_writes_the_sheet_and_its_log_line_together(
    client, player, hero, scene, action, fields, after, source
):
    client.force_login(player)
    response = spend(client, hero, action, **fields)
    assert response.status_code == 302, source
    assert pools(hero) == after, source
    entry = RollEntry.objects.get()
    assert entry.kind == RollEntry.Kind.SPEND and entry.rollable_key == action
    assert entry.facts["scene_id"] == scene.pk and entry.facts["scene_round"] == 1
    page = client.get(response["Location"]).content.decode()
    assert 'id="between-done"' in page and entry.summary.split(" ")[0] in page


# (action, fields, setup of the sheet, message beside the form)
REFUSALS = [
    ("destiny_outstanding", {"note": "A speech"}, {}, "The Storyteller approves"),
    ("destiny_outstanding", {"approved": "yes"}, {}, "say it in the note"),
    ("destiny_intercept", {"note": "x" * 201}, {}, "at most 200 characters"),
    ("destiny_death", {}, {}, "Only while Incapacitated (L89)"),
    ("destiny_willpower", {}, {"willpower_current": 3}, "already full"),
    ("destiny_flaw", {"note": "Greedy"}, {"destiny": 0}, "No Destiny point left"),
    ("power_round", {"power_damage": "3"}, {}, "Only 2 current Power left"),
    ("power_round", {"power_damage": "0"}, {}, "at least 1 point"),
    ("power_round", {"power_damage": "-1"}, {}, "a whole number"),
    ("power_round", {"power_actions": "٣"}, {}, "a whole number"),
]


@pytest.mark.parametrize(("action", "fields", "setup", "message"), REFUSALS)
def test_a_refusal_is_shown_beside_its_form_and_stores_nothing(
    client, player, hero, scene, action, fields, setup, message
):
    sheet = hero.sheet
    if "willpower_current" in setup:
        sheet["willpower_current"] = setup["willpower_current"]
    if "destiny" in setup:
        sheet["info"]["destiny_points"] = setup["destiny"]
    hero.sheet = sheet
    hero.save(update_fields=["sheet"])
    version = Character.objects.get(pk=hero.pk).version
    client.force_login(player)
    response = spend(client, hero, action, **fields)
    assert response.status_code == 400
    text = response.content.decode()
    assert re.search(rf'id="between-{action}-error"[^>]*>[^<]*{re.escape(message)}', text), text[
        text.find("between-") : text.find("between-") + 400
    ]
    assert RollEntry.objects.count() == 0
    assert Character.objects.get(pk=hero.pk).version == version


def test_a_destiny_point_once_a_scene_whatever_the_round(client, player, hero, scene):
    client.force_login(player)
    assert spend(client, hero, "destiny_willpower").status_code == 302
    Scene.objects.filter(pk=scene.pk).update(round=4)  # later in the same scene
    refused = spend(client, hero, "destiny_outstanding", note="Bluff", approved="yes")
    assert refused.status_code == 400
    assert "already spent in Ambush (restore all current Willpower)" in refused.content.decode()
    assert pools(hero) == (1, 3, 2)


def test_a_new_scene_takes_its_own_destiny_point(client, gm, player, hero, scene):
    client.force_login(player)
    assert spend(client, hero, "destiny_willpower").status_code == 302
    chase = scene_create(user=gm, campaign_id=hero.campaign_id, name="Chase")
    participants_add(
        user=gm, scene_id=chase.pk, picks=[f"character:{hero.pk}"], expected_version=chase.version
    )
    ok = spend(client, hero, "destiny_outstanding", note="Jumps the gap", approved="yes")
    assert ok.status_code == 302
    assert pools(hero)[0] == 0


def test_the_once_a_round_uses_count_with_a_rolls_destiny_point(client, player, hero, scene):
    client.force_login(player)
    assert spend(client, hero, "destiny_intercept", note="Tam").status_code == 302
    refused = spend(client, hero, "destiny_flaw", note="Greedy")
    assert refused.status_code == 400
    assert "already spent in round 1 of Ambush" in refused.content.decode()
    rolled = client.post(
        reverse("character_roll", args=[hero.pk, "abil.firearms"]),
        {"campaign": str(hero.campaign_id), "destiny_successes": "yes"},
    )
    assert rolled.status_code == 400  # L81: the intercept was this round's point
    assert pools(hero)[0] == 1
    Scene.objects.filter(pk=scene.pk).update(round=2)
    assert spend(client, hero, "destiny_flaw", note="Greedy").status_code == 302
    assert pools(hero)[0] == 0


def test_power_paid_at_the_rounds_start_counts_on_every_roll_of_it(
    client, player, hero, scene, settings
):
    settings.DICE_SEED = 5
    client.force_login(player)
    page = client.get(reverse("character_roll", args=[hero.pk, "dmg.0"])).content.decode()
    assert 'id="roll-power-damage"' not in page  # in a scene no roll pays Power itself
    assert spend(client, hero, "power_round", power_damage="2").status_code == 302
    assert pools(hero)[2] == 0
    page = client.get(reverse("character_roll", args=[hero.pk, "dmg.0"])).content.decode()
    assert "This round&#x27;s current Power: +2 damage (L104) (in the pool)." in page
    assert "5 dice at difficulty 6" in page
    for _ in range(2):
        rolled = client.post(
            reverse("character_roll", args=[hero.pk, "dmg.0"]),
            {"campaign": str(hero.campaign_id)},
        )
        assert rolled.status_code == 302
    damage = RollEntry.objects.filter(rollable_key="dmg.0")
    assert [len(entry.dice) for entry in damage] == [3 + 2, 3 + 2]  # L104, paid once
    assert all("+2 damage (L104)" in " ".join(entry.details) for entry in damage)
    # Nothing paid again: a success only adds its battle point (L100).
    assert not any("current Power spent" in " ".join(entry.details) for entry in damage)
    assert pools(hero)[2] == sum(entry.success for entry in damage)
    again = spend(client, hero, "power_round", power_actions="1")
    assert again.status_code == 400 and "already spent at the start of round 1" in (
        again.content.decode()
    )
    Scene.objects.filter(pk=scene.pk).update(round=2)  # the new round has none paid
    rolled = client.post(
        reverse("character_roll", args=[hero.pk, "dmg.0"]), {"campaign": str(hero.campaign_id)}
    )
    assert len(RollEntry.objects.filter(rollable_key="dmg.0").first().dice) == 3


def test_outside_a_scene_power_is_paid_per_roll_and_the_table_keeps_the_counts(
    client, player, hero
):
    client.force_login(player)
    page = client.get(reverse("roll_menu", args=[hero.pk])).content.decode()
    assert "One a scene (L91): outside a scene the table keeps that count." in page
    assert "spend current Power on each roll instead" in page
    refused = spend(client, hero, "power_round", power_damage="1")
    assert refused.status_code == 400 and RollEntry.objects.count() == 0
    roll_page = client.get(reverse("character_roll", args=[hero.pk, "dmg.0"])).content.decode()
    assert 'id="roll-power-damage"' in roll_page and "Outside a scene this roll pays" in roll_page
    assert spend(client, hero, "destiny_flaw", note="Greedy").status_code == 302
    assert spend(client, hero, "destiny_flaw", note="Greedy").status_code == 302  # the table's
    assert pools(hero)[0] == 0


def test_not_dying_while_incapacitated(client, player, hero, scene):
    sheet = hero.sheet
    sheet["health_marked"] = 7  # the hero's seventh level: Incapacitated (L98)
    hero.sheet = sheet
    hero.save(update_fields=["sheet"])
    client.force_login(player)
    assert spend(client, hero, "destiny_death").status_code == 302
    entry = RollEntry.objects.get()
    assert "stays Incapacitated" in " ".join(entry.details)
    assert pools(hero)[0] == 1 and sheet_of(hero)["health_marked"] == 7


def test_the_tables_gm_spends_for_a_player_and_a_stranger_cannot(
    client, gm, other_player, hero, scene
):
    client.force_login(other_player)
    assert spend(client, hero, "full_rest").status_code in (403, 404)
    assert RollEntry.objects.count() == 0
    client.force_login(gm)
    assert spend(client, hero, "destiny_intercept", note="Tam").status_code == 302
    assert pools(hero)[0] == 1


def test_an_unknown_spend_is_refused(client, player, hero):
    client.force_login(player)
    response = spend(client, hero, "buy_a_ship")
    assert response.status_code == 400
    assert "Nothing of that name to spend here." in response.content.decode()
