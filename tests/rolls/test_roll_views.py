"""The roll pages and the logs over HTTP: the odds and chart, the roll, the refusals beside
their fields, the log fragment that brings only newer entries, and secret rolls kept from
the players."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.rolls.models import RollEntry
from sheets.rolls.services import roll_make, roll_setup, rollables_of
from tests.rolls.conftest import SYSTEM_KEYS

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _with_difficulty(character):
    for rollable in rollables_of(character):
        setup = roll_setup(character, rollable.key)
        if any(option.key == "difficulty" for option in setup.definitions):
            return setup
    raise AssertionError(f"{character.system}: nothing rolls against a difficulty")


def _roll_url(character, key: str, name: str = "character_roll") -> str:
    return reverse(name, args=[character.pk, key])


@pytest.mark.parametrize("system", SYSTEM_KEYS)
def test_the_roll_page_shows_the_exact_chance_and_its_chart(system, client, loner_of, player):
    character = loner_of(system)
    setup = _with_difficulty(character)
    client.force_login(player)
    page = client.get(_roll_url(character, setup.rollable.key)).content.decode()
    options = {o.key: o.default for o in setup.definitions} | setup.readings
    odds = get_ruleset(system).odds(setup.rollable, options)
    assert f'id="roll-percent">{odds.percent}<' in page
    assert f"{odds.success.numerator}/{odds.success.denominator}" in page
    assert "<svg" in page and 'role="img"' in page
    assert '<title id="roll-chart-title">' in page and '<desc id="roll-chart-desc">' in page
    assert page.count('<g class="bar') == len(odds.bars)
    if any(bar.threshold for bar in odds.bars):
        assert 'class="threshold"' in page
    if odds.note:
        assert "odds-note" in page


def test_changing_a_modifier_answers_new_odds_as_a_fragment(client, loner_of, player):
    character = loner_of("ore")
    setup = _with_difficulty(character)
    client.force_login(player)
    url = _roll_url(character, setup.rollable.key, "roll_odds")
    easy = client.get(url, {"difficulty": "0"}, headers=HTMX).content.decode()
    hard = client.get(url, {"difficulty": "9"}, headers=HTMX).content.decode()
    assert 'id="roll-odds"' in easy and 'hx-swap-oob="true"' in easy
    assert "<html" not in easy

    def percent(text: str) -> str:
        return re.search(r'id="roll-percent">([^<]+)<', text).group(1)

    assert percent(easy) != percent(hard)


def test_a_modifier_out_of_range_is_named_beside_its_field_in_the_fragment(
    client, loner_of, player
):
    character = loner_of("ore")
    setup = _with_difficulty(character)
    client.force_login(player)
    response = client.get(
        _roll_url(character, setup.rollable.key, "roll_odds"), {"difficulty": "-1"}, headers=HTMX
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert re.search(
        r'id="roll-difficulty-error" class="field-error error"[^>]*>[^<]*at least', text
    )
    assert 'id="roll-percent"' not in text


def test_a_roll_without_javascript_lands_on_the_page_showing_it(client, loner_of, player, settings):
    settings.DICE_SEED = 7
    character = loner_of("ore")
    setup = _with_difficulty(character)
    client.force_login(player)
    response = client.post(
        _roll_url(character, setup.rollable.key), {"difficulty": "2", "campaign": ""}
    )
    assert response.status_code == 302
    entry = RollEntry.objects.get()
    assert f"rolled={entry.pk}" in response["Location"]
    assert "difficulty=2" in response["Location"]
    page = client.get(response["Location"]).content.decode()
    assert 'id="roll-result"' in page
    assert entry.summary in page
    # The form comes back as it was rolled.
    assert 'name="difficulty" type="number" inputmode="numeric" value="2"' in page


def test_a_roll_with_htmx_answers_the_panel_and_tells_the_log(client, loner_of, player, settings):
    settings.DICE_SEED = 7
    character = loner_of("ore")
    setup = _with_difficulty(character)
    client.force_login(player)
    response = client.post(_roll_url(character, setup.rollable.key), {"campaign": ""}, headers=HTMX)
    assert response.status_code == 200
    assert response["HX-Trigger"] == "rolled"
    text = response.content.decode()
    assert text.lstrip().startswith('<section class="panel roll-panel" id="roll-panel"')
    assert 'id="roll-result"' in text


def test_a_refused_roll_shows_the_reason_beside_the_field_and_stores_nothing(
    client, loner_of, player
):
    character = loner_of("ore")
    setup = _with_difficulty(character)
    client.force_login(player)
    version = character.version
    response = client.post(
        _roll_url(character, setup.rollable.key), {"difficulty": "-3", "campaign": ""}
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert re.search(
        r'id="roll-difficulty-error" class="field-error error"[^>]*>[^<]*at least', text
    )
    assert 'aria-invalid="true" aria-describedby="roll-difficulty-error"' in text
    assert not RollEntry.objects.exists()
    assert Character.objects.get(pk=character.pk).version == version
    htmx = client.post(
        _roll_url(character, setup.rollable.key),
        {"difficulty": "-3", "campaign": ""},
        headers=HTMX,
    )
    assert htmx.status_code == 200 and "at least" in htmx.content.decode()


def test_a_spend_of_thousands_of_digits_is_refused_not_a_server_error(client, loner_of, player):
    """Found by the fuzz test: a Willpower spend of 4,400 nines reached int() and raised."""
    character = loner_of("swd10")
    client.force_login(player)
    version = character.version
    response = client.post(
        _roll_url(character, "attr.strength"),
        {"difficulty": "6", "willpower": "9" * 4400, "campaign": ""},
    )
    assert response.status_code == 400
    assert not RollEntry.objects.exists()
    assert Character.objects.get(pk=character.pk).version == version


def test_a_roll_posted_for_another_table_is_refused(client, table_of, other_table, player):
    table = table_of("ore")
    client.force_login(player)
    setup = _with_difficulty(table.character)
    response = client.post(
        _roll_url(table.character, setup.rollable.key), {"campaign": str(other_table.pk)}
    )
    assert response.status_code == 400
    assert 'id="roll-campaign-error"' in response.content.decode()
    assert not RollEntry.objects.exists()


def test_an_unknown_rollable_is_not_found(client, loner_of, player):
    character = loner_of("ore")
    client.force_login(player)
    assert client.get(_roll_url(character, "stat.nothing")).status_code == 404
    assert client.get(_roll_url(character, "stat.nothing", "roll_odds")).status_code == 404


def _roll(user, table, *, secret: bool = False, seed: int = 1) -> RollEntry:
    return roll_make(
        user=user,
        character_id=table.character.pk,
        rollable_key=rollables_of(table.character)[0].key,
        raw={},
        secret=secret,
        drawn_campaign=table.campaign.pk,
        rng=random.Random(seed),
    )


def _ids(text: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'id="roll-entry-(\d+)"', text)]


def test_the_log_fragment_brings_only_entries_newer_than_the_last_shown(
    client, table_of, player, other_player
):
    table = table_of("ore")
    first = _roll(player, table, seed=1)
    second = _roll(player, table, seed=2)
    client.force_login(other_player)
    url = reverse("campaign_roll_log", args=[table.campaign.pk])
    answer = client.get(url, {"after": first.pk}, headers=HTMX)
    assert answer.status_code == 200
    text = answer.content.decode()
    assert _ids(text) == [second.pk]
    assert f'id="roll-log-after" value="{second.pk}" hx-swap-oob="true"' in text
    nothing = client.get(url, {"after": second.pk}, headers=HTMX)
    assert nothing.status_code == 204 and nothing.content == b""
    third = _roll(player, table, seed=3)
    assert _ids(client.get(url, {"after": second.pk}, headers=HTMX).content.decode()) == [third.pk]


def test_a_log_entry_shows_who_what_the_dice_the_modifiers_the_result_and_the_odds(
    client, table_of, player, other_player
):
    table = table_of("ore")
    entry = _roll(player, table)
    client.force_login(other_player)
    text = client.get(
        reverse("campaign_roll_log", args=[table.campaign.pk]), {"after": 0}, headers=HTMX
    ).content.decode()
    for shown in (
        player.username,
        table.character.name,
        entry.rollable_label,
        entry.modifiers,
        entry.outcome.capitalize(),
        entry.odds_percent,
    ):
        assert shown in text, shown
    for die in entry.dice:
        assert f'<span class="die">{die}</span>' in text


def test_a_secret_roll_never_reaches_a_player(client, table_of, gm, player, other_player):
    table = table_of("ore")
    secret = _roll(gm, table, secret=True, seed=8)
    shown = _roll(player, table, seed=9)
    url = reverse("campaign_roll_log", args=[table.campaign.pk])
    for person in (player, other_player):
        client.force_login(person)
        for after in (0, secret.pk - 1):
            fragment = client.get(url, {"after": after}, headers=HTMX).content.decode()
            assert _ids(fragment) == [shown.pk]
        for page in (
            url,
            reverse("campaign_detail", args=[table.campaign.pk]),
        ):
            text = client.get(page).content.decode()
            assert f"roll-entry-{secret.pk}" not in text
            assert f"roll-entry-{shown.pk}" in text
    client.force_login(player)
    sheet = client.get(reverse("character_sheet", args=[table.character.pk])).content.decode()
    assert f"roll-entry-{secret.pk}" not in sheet and f"roll-entry-{shown.pk}" in sheet
    client.force_login(gm)
    fragment = client.get(url, {"after": 0}, headers=HTMX).content.decode()
    assert _ids(fragment) == [shown.pk, secret.pk]
    assert "Secret: GMs only" in fragment


def test_the_gm_sees_the_secret_box_and_a_player_does_not(client, table_of, gm, player):
    table = table_of("ore")
    key = rollables_of(table.character)[0].key
    client.force_login(gm)
    assert 'name="secret"' in client.get(_roll_url(table.character, key)).content.decode()
    client.force_login(player)
    assert 'name="secret"' not in client.get(_roll_url(table.character, key)).content.decode()
    response = client.post(
        _roll_url(table.character, key), {"secret": "yes", "campaign": str(table.campaign.pk)}
    )
    assert response.status_code == 400
    assert "Only a GM" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_a_sheet_at_no_table_keeps_its_own_recent_rolls(client, loner_of, player, settings):
    settings.DICE_SEED = 2
    character = loner_of("ore")
    client.force_login(player)
    key = rollables_of(character)[0].key
    client.post(_roll_url(character, key), {"campaign": ""})
    entry = RollEntry.objects.get()
    sheet = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert "Recent rolls" in sheet and f"roll-entry-{entry.pk}" in sheet
    log = reverse("character_roll_log", args=[character.pk])
    assert client.get(log, {"after": entry.pk}, headers=HTMX).status_code == 204
    assert _ids(client.get(log, {"after": 0}, headers=HTMX).content.decode()) == [entry.pk]


@pytest.mark.parametrize("system", SYSTEM_KEYS)
def test_the_sheet_offers_a_roll_for_each_rollable(system, client, loner_of, player):
    character = loner_of(system)
    client.force_login(player)
    sheet = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    for rollable in rollables_of(character):
        assert f'href="{_roll_url(character, rollable.key)}"' in sheet, rollable.key
    assert 'id="roll-menu"' in sheet


def test_a_shared_sheet_offers_no_roll(client, loner_of, player):
    from sheets.characters.services import share_link_create

    character = loner_of("ore")
    link = share_link_create(user=player, character_id=character.pk)
    page = client.get(reverse("shared_sheet", args=[link.token])).content.decode()
    assert "roll-link" not in page and 'id="roll-menu"' not in page and "roll-log" not in page


def test_the_exact_odds_stored_with_a_roll_are_the_ones_shown(client, loner_of, player, settings):
    settings.DICE_SEED = 4
    character = loner_of("ore")
    setup = _with_difficulty(character)
    client.force_login(player)
    url = _roll_url(character, setup.rollable.key)
    page = client.get(url, {"difficulty": "3"}).content.decode()
    client.post(url, {"difficulty": "3", "campaign": ""})
    entry = RollEntry.objects.get()
    assert f'id="roll-percent">{entry.odds_percent}<' in page
    assert Fraction(entry.odds) > 0
