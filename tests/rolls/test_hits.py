"""Hits marked on a sheet (issue 12 §2 combat, 1o3d10 attacks): an attack roll's, or one
entered by hand, written to the TARGET's sheet through the edit service.

The wound boxes are the seed's: width makes the damage (001:L163), the height names the
location (L221-L228), Penetration takes points off the Armor Rating (L280). Who may: the
table's GM on any sheet at the table, a player on their own sheet; a refusal changes
nothing (no entry, the target's sheet and version as they were).
"""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import reverse

from rulesets.ore.combat import resolve_hit
from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.history.models import Revision
from sheets.rolls.hits import MARK, HitRefused, hit_mark, hit_targets
from sheets.rolls.models import RollEntry
from sheets.rolls.services import roll_make

pytestmark = pytest.mark.django_db

EMPTY, SHOCK, KILLING = "", "shock", "killing"


def _bring(user, campaign, name: str, system: str = "ore", sheet=None) -> Character:
    from sheets.campaigns.services import character_bring

    character = character_create(
        owner=user,
        name=name,
        system=system,
        sheet=sheet if sheet is not None else get_ruleset(system).demo_sheet(),
    )
    character_bring(user=user, campaign_id=campaign.pk, character_id=character.pk)
    character.refresh_from_db()
    return character


def _blank_wounds() -> dict:
    from rulesets.core import resolve_settings

    ore = get_ruleset("ore")
    return ore.blank_sheet(resolve_settings(ore.SETTINGS, {}))["wounds"]


def _hit_roll(user, character, key: str, raw=None, *, secret=False) -> RollEntry:
    """The first seeded roll of `key` that hits (the seeds are fixed: the test repeats)."""
    for seed in range(200):
        entry = roll_make(
            user=user,
            character_id=character.pk,
            rollable_key=key,
            raw=raw or {},
            secret=secret,
            drawn_campaign=character.campaign_id,
            rng=random.Random(seed),
        )
        if entry.success and "damage" in entry.facts:
            return entry
    raise AssertionError(f"no hit in 200 seeded rolls of {key}")


def _state(character: Character):
    character.refresh_from_db()
    return (
        character.version,
        character.sheet,
        RollEntry.objects.filter(kind=RollEntry.Kind.HIT).count(),
        Revision.objects.filter(character=character).count(),
    )


@pytest.fixture
def ore_table(table_of, other_player):
    """An O.R.E. table: the player's demo hero (a lightsaber), the other player's sheet."""
    made = table_of("ore")
    rival = _bring(other_player, made.campaign, "Rival")
    return made.campaign, made.character, rival


# The seed's hits, entered by hand on a fresh sheet ---------------------------------------------


@pytest.mark.parametrize(
    ("raw", "location", "after"),
    [
        # 3x7 with a knife's "width": three X on the torso (L163, L227).
        ({"width": "3", "height": "7"}, "torso", [KILLING] * 3 + [EMPTY] * 3),
        # 2x1 unarmed, "width in Shock" (L404): two / on the right leg (L221, L213).
        (
            {"width": "2", "height": "1", "weapon": "unarmed"},
            "right_leg",
            [SHOCK] * 2 + [EMPTY] * 3,
        ),
        # 5x10 with a blaster (width+1, L425): 6 points, the head has 4 boxes (L228).
        ({"width": "5", "height": "10", "weapon": "blaster"}, "head", [KILLING] * 4),
        # 2x9 on stun (L294): all Shock on the vitals.
        ({"width": "2", "height": "9", "stun": "yes"}, "vitals", [SHOCK] * 2 + [EMPTY] * 2),
        # 2x5 "width+2 in Shock" typed by hand (a stun baton, L407).
        (
            {"width": "2", "height": "5", "damage": "width+2 in Shock"},
            "left_arm",
            [SHOCK] * 4 + [EMPTY],
        ),
    ],
)
def test_a_hit_entered_by_hand_marks_the_seeds_boxes(ore_table, player, raw, location, after):
    _campaign, hero, _rival = ore_table
    hero.sheet["wounds"] = _blank_wounds()
    hero.save()
    entry = hit_mark(user=player, target_id=hero.pk, raw=raw, expected_version=hero.version)
    hero.refresh_from_db()
    assert hero.sheet["wounds"][location] == after
    others = {slug: boxes for slug, boxes in hero.sheet["wounds"].items() if slug != location}
    assert all(box == EMPTY for boxes in others.values() for box in boxes)
    assert entry.kind == RollEntry.Kind.HIT and entry.character == hero
    assert entry.campaign == hero.campaign and entry.follows is None


def test_penetration_takes_points_off_the_armor_never_adds_damage(ore_table, player):  # L280
    _campaign, hero, _rival = ore_table
    character_apply_edits(
        user=player,
        character_id=hero.pk,
        edits={"armor.0.worn": "yes"},
        expected_version=hero.version,
    )
    hero.refresh_from_db()
    hero.sheet["wounds"] = _blank_wounds()
    hero.save()
    # Thick furs, AR 1 everywhere. 3x7 with "width" and Penetration 0: 3 - 1 = 2 marked.
    hit_mark(
        user=player,
        target_id=hero.pk,
        raw={"width": "3", "height": "7"},
        expected_version=hero.version,
    )
    hero.refresh_from_db()
    assert hero.sheet["wounds"]["torso"][:3] == [KILLING, KILLING, EMPTY]
    # Penetration 4 against AR 1 leaves AR 0: the full 3, not 3 + 3.
    hit_mark(
        user=player,
        target_id=hero.pk,
        raw={"width": "3", "height": "10", "penetration": "4"},
        expected_version=hero.version,
    )
    hero.refresh_from_db()
    assert hero.sheet["wounds"]["head"] == [KILLING, KILLING, KILLING, EMPTY]


# From an attack roll ------------------------------------------------------------------------


def test_the_gm_marks_a_players_attack_on_another_players_sheet(ore_table, player, gm):
    _campaign, hero, rival = ore_table
    roll = _hit_roll(player, hero, "weapon.0")  # the lightsaber: width+3, Penetration 5
    assert {"width", "height", "damage", "penetration"} <= roll.facts.keys()
    expected = resolve_hit(
        rival.sheet,
        width=roll.facts["width"],
        height=roll.facts["height"],
        damage="width+3",
        penetration=5,
    )
    assert set(hit_targets(gm, roll)) == {hero, rival}
    assert list(hit_targets(player, roll)) == [hero]
    version = rival.version
    entry = hit_mark(user=gm, target_id=rival.pk, raw={}, expected_version=version, roll_id=roll.pk)
    rival.refresh_from_db()
    for trait, raw in expected.edits.items():
        _, slug, index = trait.split(".")
        assert rival.sheet["wounds"][slug][int(index)] == raw
    assert rival.version == version + 1
    assert entry.follows == roll and entry.summary == expected.summary
    assert entry.author == gm and entry.campaign == rival.campaign
    # Marked once: a second click is refused and changes nothing.
    before = _state(rival)
    with pytest.raises(HitRefused) as refused:
        hit_mark(
            user=gm, target_id=rival.pk, raw={}, expected_version=rival.version, roll_id=roll.pk
        )
    assert "already marked on Rival" in refused.value.errors[MARK]
    assert _state(rival) == before


def test_a_player_marks_another_players_hit_on_their_own_sheet(ore_table, player, other_player):
    _campaign, hero, rival = ore_table
    roll = _hit_roll(player, hero, "weapon.1")
    entry = hit_mark(
        user=other_player,
        target_id=rival.pk,
        raw={},
        expected_version=rival.version,
        roll_id=roll.pk,
    )
    assert entry.character == rival and entry.author == other_player


def test_a_player_may_not_mark_another_players_sheet(ore_table, player, other_player):
    _campaign, hero, rival = ore_table
    roll = _hit_roll(player, hero, "weapon.0")
    before = _state(rival)
    with pytest.raises(Http404):
        hit_mark(
            user=player, target_id=rival.pk, raw={}, expected_version=rival.version, roll_id=roll.pk
        )
    with pytest.raises(Http404):
        hit_mark(
            user=player, target_id=rival.pk, raw={"width": "2"}, expected_version=rival.version
        )
    assert _state(rival) == before


def test_another_tables_gm_and_rolls_of_another_table_change_nothing(
    ore_table, table_of, player, gm, other_gm
):
    from sheets.campaigns.services import campaign_create

    _campaign, hero, rival = ore_table
    roll = _hit_roll(player, hero, "weapon.0")
    before = _state(rival)
    with pytest.raises(Http404):
        hit_mark(
            user=other_gm,
            target_id=rival.pk,
            raw={},
            expected_version=rival.version,
            roll_id=roll.pk,
        )
    # The same GM runs a second O.R.E. table: its NPC may not take this table's hit.
    second = campaign_create(user=gm, name="Second table", system="ore")
    npc = _bring(gm, second, "Stranger")
    npc_before = _state(npc)
    with pytest.raises(HitRefused) as refused:
        hit_mark(user=gm, target_id=npc.pk, raw={}, expected_version=npc.version, roll_id=roll.pk)
    assert "another table" in refused.value.errors[MARK]
    assert _state(npc) == npc_before and _state(rival) == before


def test_a_secret_roll_is_not_the_players_to_use(ore_table, gm, player):
    _campaign, hero, _rival = ore_table
    roll = _hit_roll(gm, hero, "weapon.0", secret=True)
    before = _state(hero)
    with pytest.raises(HitRefused) as refused:
        hit_mark(
            user=player, target_id=hero.pk, raw={}, expected_version=hero.version, roll_id=roll.pk
        )
    assert "No roll of that number" in refused.value.errors[MARK]
    assert _state(hero) == before
    # The GM's hit from a secret roll stays with the GMs in the log.
    entry = hit_mark(
        user=gm, target_id=hero.pk, raw={}, expected_version=hero.version, roll_id=roll.pk
    )
    assert entry.secret


def test_a_refused_edit_and_a_stale_version_store_nothing(ore_table, player):
    _campaign, hero, _rival = ore_table
    before = _state(hero)
    with pytest.raises(HitRefused) as refused:
        hit_mark(user=player, target_id=hero.pk, raw={"width": "11"}, expected_version=hero.version)
    assert "width" in refused.value.errors
    with pytest.raises(HitRefused) as refused:
        hit_mark(
            user=player, target_id=hero.pk, raw={"damage": "lots"}, expected_version=hero.version
        )
    assert "damage" in refused.value.errors
    assert _state(hero) == before
    # Someone marked the torso since this form was drawn: the same boxes, so refused.
    hit_mark(
        user=player,
        target_id=hero.pk,
        raw={"width": "2", "height": "7"},
        expected_version=hero.version,
    )
    after = _state(hero)
    with pytest.raises(HitRefused):
        hit_mark(
            user=player,
            target_id=hero.pk,
            raw={"width": "2", "height": "7"},
            expected_version=before[0],
        )
    assert _state(hero) == after


# 1o3d10: damage off the HP -----------------------------------------------------------------


def test_the_gm_applies_a_1o3d10_attacks_damage(table_of, player, gm):
    made = table_of("o3d10")
    hero = made.character
    target = _bring(gm, made.campaign, "Trooper", "o3d10", get_ruleset("o3d10").demo_sheet())
    roll = _hit_roll(player, hero, "weapon.1", {"defense": "0", "modifier": "5"})
    hp = target.sheet["hp"]
    entry = hit_mark(
        user=gm, target_id=target.pk, raw={}, expected_version=target.version, roll_id=roll.pk
    )
    target.refresh_from_db()
    assert target.sheet["hp"] == hp - roll.facts["damage"]
    assert entry.total == roll.facts["damage"] and entry.follows == roll
    assert f"HP {hp} → {hp - roll.facts['damage']}" in entry.summary


def test_a_1o3d10_player_marks_damage_by_hand_on_their_own_sheet_only(
    table_of, player, other_player
):
    made = table_of("o3d10")
    hero = made.character
    other = _bring(other_player, made.campaign, "Other", "o3d10", get_ruleset("o3d10").demo_sheet())
    hp = hero.sheet["hp"]
    hit_mark(user=player, target_id=hero.pk, raw={"damage": "2"}, expected_version=hero.version)
    hero.refresh_from_db()
    assert hero.sheet["hp"] == hp - 2
    before = _state(other)
    with pytest.raises(Http404):
        hit_mark(
            user=player, target_id=other.pk, raw={"damage": "2"}, expected_version=other.version
        )
    assert _state(other) == before


def test_a_system_without_hit_rules_says_so(table, player, swd10_character):
    before = _state(swd10_character)
    with pytest.raises(HitRefused) as refused:
        hit_mark(user=player, target_id=swd10_character.pk, raw={}, expected_version=1)
    assert "no rule here" in refused.value.errors[MARK]
    assert _state(swd10_character) == before


def test_outsiders_cannot_even_load_the_target(ore_table, other_gm):
    _campaign, hero, _rival = ore_table
    with pytest.raises((Http404, PermissionDenied)):
        hit_mark(
            user=other_gm, target_id=hero.pk, raw={"width": "2"}, expected_version=hero.version
        )


# Pages --------------------------------------------------------------------------------------


def test_the_roll_result_offers_the_targets_and_the_hit_page_marks(client, ore_table, player, gm):
    _campaign, hero, rival = ore_table
    roll = _hit_roll(player, hero, "weapon.0")
    client.force_login(gm)
    page = client.get(reverse("character_roll", args=[hero.pk, "weapon.0"]), {"rolled": roll.pk})
    # The result panel is the roller's own: the GM did not roll it.
    assert reverse("character_hit", args=[rival.pk]) not in page.content.decode()
    client.force_login(player)
    page = client.get(reverse("character_roll", args=[hero.pk, "weapon.0"]), {"rolled": roll.pk})
    html = page.content.decode()
    assert "Mark these wounds on" in html
    assert f"{reverse('character_hit', args=[hero.pk])}?roll={roll.pk}" in html
    client.force_login(gm)
    url = reverse("character_hit", args=[rival.pk])
    preview = client.get(url, {"roll": roll.pk})
    assert preview.status_code == 200
    assert "Mark these wounds on Rival" in preview.content.decode()
    marked = client.post(url, {"roll": str(roll.pk), "version": str(rival.version)})
    assert marked.status_code == 302
    entry = RollEntry.objects.get(kind=RollEntry.Kind.HIT)
    shown = client.get(marked["Location"])
    assert entry.summary in shown.content.decode()
    # The table's log shows the hit's summary to every member.
    client.force_login(player)
    log = client.get(reverse("campaign_roll_log", args=[hero.campaign_id]))
    assert entry.summary in log.content.decode()


def test_a_refused_hit_page_answers_400_beside_the_field(client, ore_table, player):
    _campaign, hero, _rival = ore_table
    client.force_login(player)
    url = reverse("character_hit", args=[hero.pk])
    before = _state(hero)
    response = client.post(url, {"width": "0", "height": "7", "version": str(hero.version)})
    assert response.status_code == 400
    assert "Width: at least 1, not 0." in response.content.decode()
    response = client.post(url, {"width": "2", "height": "7"})
    assert response.status_code == 400
    assert _state(hero) == before
