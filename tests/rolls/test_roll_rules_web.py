"""The roll panel and log over HTTP for the rules of issue 27: what a WEG roll is for and the
Character Points it takes (002:483-485), the Wild Die's complication beside the chance of
success (002:420-424), the O.R.E. attack tables (001 L171-L185) and suppressing fire
(L340-L350), the 1o3d10 bleeding roll (004 L47-L51) and its ranged house rules (L78). Bad
input is named beside its field and stores nothing."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db


def _url(character, key: str, name: str = "character_roll") -> str:
    return reverse(name, args=[character.pk, key])


def _page(client, character, key: str, **query) -> str:
    return html.unescape(client.get(_url(character, key), query).content.decode())


def _stored(character) -> tuple:
    character.refresh_from_db()
    return (
        character.version,
        character.sheet,
        RollEntry.objects.count(),
        LedgerEntry.objects.filter(character=character).count(),
    )


def _set(user, character, edits: dict) -> None:
    character.refresh_from_db()
    character_apply_edits(
        user=user, character_id=character.pk, edits=edits, expected_version=character.version
    )
    character.refresh_from_db()


@pytest.fixture
def weg_in_play(loner_of, player):
    character = loner_of("weg_d6")  # R&E: its 5 Character Points are the ledger's in play
    _set(player, character, {"stage": "play"})
    return character


# --- WEG d6 ---------------------------------------------------------------------------------


def test_the_roll_panel_asks_what_a_dexterity_roll_is_for_with_its_source(
    client, weg_in_play, player
):
    client.force_login(player)
    page = _page(client, weg_in_play, "attr.dexterity")
    assert 'title="Source: 002:483-485">What the roll is for</label>' in page
    for value in ("use", "dodge", "parry"):
        assert f'<option value="{value}"' in page
    assert "Up to 2 on a use, 5 on the others." in page


def test_the_odds_show_the_complication_beside_success(client, weg_in_play, player):
    client.force_login(player)
    page = _page(client, weg_in_play, "attr.dexterity")
    beside = re.search(r'<ul class="odds-beside" id="roll-beside">(.*?)</ul>', page, re.S)
    assert beside is not None
    assert "A complication (a 1 on the Wild Die)" in beside.group(1)
    assert "<small>1/6</small>" in beside.group(1)
    assert "Success with a complication" in beside.group(1)
    assert 'title="Source: 002:422"' in beside.group(1)


def test_a_parry_takes_four_character_points_and_the_log_says_what_for(client, weg_in_play, player):
    client.force_login(player)
    response = client.post(
        _url(weg_in_play, "attr.dexterity"),
        {"purpose": "parry", "character_points": "4", "campaign": ""},
    )
    assert response.status_code == 302
    entry = RollEntry.objects.get(character=weg_in_play)
    assert "What the roll is for: A parry (a lightsaber's too)" in entry.modifiers
    assert "Character Points spent 4" in entry.modifiers
    assert figures(weg_in_play).balance == 1
    log = client.get(reverse("character_roll_log", args=[weg_in_play.pk])).content.decode()
    assert "A parry (a lightsaber&#x27;s too)" in log


@pytest.mark.parametrize(
    ("raw", "field", "message"),
    [
        ({"purpose": "sneeze"}, "purpose", "What the roll is for: choose one of"),
        (
            {"purpose": "use", "character_points": "4"},
            "character_points",
            "At most 2 Character Points on a skill or attribute use (an attack too) (002:483), "
            "not 4.",
        ),
        ({"character_points": "6"}, "character_points", "at most 5, not 6"),
    ],
)
def test_a_bad_purpose_or_spend_is_named_beside_its_field_and_stores_nothing(
    client, weg_in_play, player, raw, field, message
):
    client.force_login(player)
    before = _stored(weg_in_play)
    response = client.post(_url(weg_in_play, "attr.dexterity"), raw | {"campaign": ""})
    assert response.status_code == 400
    text = html.unescape(response.content.decode())
    shown = re.search(rf'id="roll-{field.replace("_", "-")}-error"[^>]*>([^<]*)<', text)
    assert shown is not None and message in shown.group(1)
    assert _stored(weg_in_play) == before


def test_a_first_edition_force_roll_offers_the_unmastered_power(client, loner_of, player):
    character = loner_of("weg_d6")
    sheet = character.sheet | {"edition": "1e"}
    sheet["force"] = sheet["force"] | {"sensitive": True, "sense": 6}
    Character.objects.filter(pk=character.pk).update(sheet=sheet)
    client.force_login(player)
    page = _page(client, character, "force.sense", unmastered="yes", difficulty="10")
    assert 'title="Source: 003:1802-1804"' in page
    assert "10 +5 for a power not yet mastered." in page
    assert "against 15" in page


# --- Star O.R.E. ----------------------------------------------------------------------------


def test_an_attack_offers_its_table_and_the_log_shows_the_circumstance(
    client, loner_of, player, settings
):
    settings.DICE_SEED = 11
    character = loner_of("ore")
    client.force_login(player)
    page = _page(client, character, "weapon.1")  # the hold-out blaster
    assert 'title="Source: L174-L175">Cover</label>' in page
    assert "Partial cover (+4 Difficulty)" in page
    assert "Attacking from behind" not in page
    client.post(_url(character, "weapon.1"), {"cover": "partial", "campaign": ""})
    entry = RollEntry.objects.get(character=character)
    assert "Cover: Partial cover (+4 Difficulty)" in entry.modifiers


def test_mixed_circumstances_are_refused_beside_the_field(client, loner_of, player):
    character = loner_of("ore")
    sheet = character.sheet
    sheet["weapons"].append(
        {"from": "", "name": "Odd gun", "damage": "width", "penetration": 0,
         "initiative": 0, "special": ""}
    )  # fmt: skip
    Character.objects.filter(pk=character.pk).update(sheet=sheet)
    client.force_login(player)
    before = _stored(character)
    response = client.post(
        _url(character, "weapon.2"), {"cover": "partial", "from_behind": "yes", "campaign": ""}
    )
    assert response.status_code == 400
    assert "do not mix" in response.content.decode()
    assert _stored(character) == before


def test_suppressing_fire_shows_the_chance_a_target_is_hit(client, loner_of, player, settings):
    settings.DICE_SEED = 5
    character = loner_of("ore")
    client.force_login(player)
    page = _page(client, character, "suppress.1", targets="2")
    assert 'id="roll-percent">10.0%<' in page
    assert "An exposed target is hit <small>1/100</small>" in page
    assert "At least one of the 2 targets is hit" in page
    client.post(_url(character, "suppress.1"), {"targets": "2", "campaign": ""})
    entry = RollEntry.objects.get(character=character)
    assert "Exposed targets 2" in entry.modifiers
    assert entry.question.startswith("2d: at least one set")


# --- 1o3d10 ---------------------------------------------------------------------------------


def test_the_bleeding_roll_shows_its_odds_and_costs_the_hp_it_rolls(
    client, loner_of, player, settings
):
    character = loner_of("o3d10")
    _set(player, character, {"hp.current": "-2"})
    client.force_login(player)
    page = _page(client, character, "bleed")
    assert 'id="roll-percent">50.0%<' in page
    assert "Dies this turn <small>0/1</small>" in page
    for seed in range(40):  # roll until a d10 of 5 or less costs HP
        settings.DICE_SEED = seed
        client.post(_url(character, "bleed"), {"campaign": ""})
        entry = RollEntry.objects.filter(character=character).latest("pk")
        character.refresh_from_db()
        if entry.total <= 5:
            assert character.sheet["hp"] == -2 - entry.total
            assert f"loses {entry.total} HP" in entry.summary
            break
        assert character.sheet["hp"] == -2
    else:
        raise AssertionError("no bleeding d10 of 5 or less in 40 seeds")


def test_a_stabilised_character_has_no_bleeding_roll(client, loner_of, player):
    character = loner_of("o3d10")
    _set(player, character, {"hp.current": "-2", "hp.stabilised": "yes"})
    client.force_login(player)
    assert client.get(_url(character, "bleed")).status_code == 404


def test_a_ranged_shot_shows_the_gms_house_value(client, loner_of, player):
    character = loner_of("o3d10")
    Character.objects.filter(pk=character.pk).update(rule_settings={"ranged_mod_running": 6})
    client.force_login(player)
    weapon = next(
        key
        for key in (f"weapon.{n}" for n in range(len(character.sheet["weapons"])))
        if "Distance in cells" in _page(client, character, key)
    )
    page = _page(client, character, weapon, cells="5", running="yes")
    assert "Target running (+6)" in page
    assert "running +6" in page  # the question the odds answer
