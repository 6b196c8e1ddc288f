"""The HTTP API's endpoints: what each answers, to whom, within which scope; refusals as
JSON with a message, writing nothing; the throttle; the OpenAPI document."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulesets.registry import get_ruleset
from sheets.accounts.models import AccessToken
from sheets.advancement.figures import engine_sheet, figures
from sheets.api.views import _json_safe
from sheets.campaigns.models import Membership, Role
from sheets.characters.models import GMNote
from sheets.characters.services import character_create, gm_note_save
from sheets.characters.state import sheet_state
from sheets.npcs.services import npc_create, npc_reveal
from sheets.rolls.models import RollEntry
from sheets.rolls.services import roll_make, roll_odds, roll_setup
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

ROLL = {"rollable": "attr.strength", "options": {"difficulty": 7}}


def characters_url() -> str:
    return reverse("api:api_characters")


def character_url(pk: int) -> str:
    return reverse("api:api_character", args=[pk])


def roll_url(pk: int) -> str:
    return reverse("api:api_character_roll", args=[pk])


def rollables_url(pk: int) -> str:
    return reverse("api:api_character_rollables", args=[pk])


def odds_url(pk: int) -> str:
    return reverse("api:api_character_odds", args=[pk])


def log_url(pk: int) -> str:
    return reverse("api:api_campaign_rolls", args=[pk])


# Tokens and scopes -------------------------------------------------------------------------


def test_no_token_is_refused_401_saying_how_to_send_one(api, table):
    response = api.get(characters_url())
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert "Authorization: Bearer" in response.json()["detail"]


@pytest.mark.parametrize("header", ["Token abc", "Bearer", "Basic dXNlcjpwYXNz", "bearer  "])
def test_a_header_that_is_no_bearer_token_is_refused_401(client, player, header):
    response = client.get(characters_url(), headers={"Authorization": header})
    assert response.status_code == 401
    assert response.json()["detail"]


def test_a_logged_in_session_is_no_api_credential(player_client, swd10_character):
    before = RollEntry.objects.count()
    assert player_client.get(characters_url()).status_code == 401
    response = player_client.post(
        roll_url(swd10_character.pk), ROLL, content_type="application/json"
    )
    assert response.status_code == 401
    assert RollEntry.objects.count() == before


def test_a_revoked_token_is_refused_401_saying_so(api, player, make_token):
    secret = make_token(player)
    AccessToken.objects.update(revoked_at=timezone.now())
    response = api.get(characters_url(), secret)
    assert response.status_code == 401
    assert response.json()["detail"] == "This token was revoked by its owner."
    assert 'error="invalid_token"' in response["WWW-Authenticate"]


def test_an_expired_token_is_refused_401_saying_so(api, player, make_token):
    secret = make_token(player)
    AccessToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = api.get(characters_url(), secret)
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]


def test_a_token_notes_when_it_was_last_used(api, player, make_token):
    secret = make_token(player)
    assert AccessToken.objects.get().last_used_at is None
    api.get(characters_url(), secret)
    used = AccessToken.objects.get().last_used_at
    assert used is not None
    assert timezone.now() - used < timedelta(minutes=1)


# Which scope opens which endpoint (a missing one: 403, before anything is looked up).
SCOPED = [
    ("characters:read", "GET", "characters", 200),
    ("characters:read", "GET", "character", 200),
    ("characters:read", "GET", "rollables", 200),
    ("characters:read", "GET", "odds", 200),
    ("characters:read", "GET", "log", 403),
    ("characters:read", "POST", "roll", 403),
    ("table:read", "GET", "characters", 403),
    ("table:read", "GET", "character", 403),
    ("table:read", "GET", "rollables", 403),
    ("table:read", "GET", "odds", 403),
    ("table:read", "GET", "log", 200),
    ("table:read", "POST", "roll", 403),
    ("rolls:write", "GET", "characters", 403),
    ("rolls:write", "GET", "character", 403),
    ("rolls:write", "GET", "rollables", 200),
    ("rolls:write", "GET", "odds", 200),
    ("rolls:write", "GET", "log", 403),
    ("rolls:write", "POST", "roll", 201),
]


def _target(what: str, character_id: int, campaign_id: int) -> str:
    return {
        "characters": characters_url(),
        "character": character_url(character_id),
        "rollables": rollables_url(character_id),
        "odds": odds_url(character_id) + "?rollable=attr.strength",
        "log": log_url(campaign_id),
        "roll": roll_url(character_id),
    }[what]


@pytest.mark.parametrize(("scope", "method", "what", "expected"), SCOPED)
def test_each_scope_opens_its_endpoints_and_no_other(
    api, player, table, swd10_character, make_token, scope, method, what, expected
):
    secret = make_token(player, scopes=[scope])
    url = _target(what, swd10_character.pk, table.pk)
    before = RollEntry.objects.count()
    response = api.get(url, secret) if method == "GET" else api.post(url, ROLL, secret)
    assert response.status_code == expected, response.content
    if expected == 403:
        assert "needs the scope" in response.json()["detail"]
        assert RollEntry.objects.count() == before


def test_a_missing_scope_tells_nothing_of_what_exists(api, player, make_token):
    secret = make_token(player, scopes=["table:read"])
    # A character that does not exist is answered as one that does: the scope comes first.
    response = api.get(character_url(999_999), secret)
    assert response.status_code == 403


# The throttle ------------------------------------------------------------------------------


def test_a_token_past_its_requests_a_minute_is_answered_429_with_retry_after(
    api, settings, player, table, swd10_character, make_token
):
    settings.API_REQUESTS_PER_MINUTE = 3
    secret = make_token(player)
    for _ in range(3):
        assert api.get(characters_url(), secret).status_code == 200
    refused = api.post(roll_url(swd10_character.pk), ROLL, secret)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert f"try again in {refused['Retry-After']} seconds" in refused.json()["detail"]
    # Refused, so not rolled.
    assert not RollEntry.objects.exists()
    # Another token of the same person counts its own requests.
    assert api.get(characters_url(), make_token(player, name="Other tool")).status_code == 200
    # Once the minute is over, the token is answered again.
    AccessToken.objects.update(window_started_at=timezone.now() - timedelta(seconds=61))
    assert api.get(characters_url(), secret).status_code == 200


# Characters --------------------------------------------------------------------------------


def test_my_characters_are_mine_and_those_at_tables_i_run(api, player, gm, table, make_token):
    spare = character_create(owner=player, name="Dax Morrow", system="weg_d6")
    npc = npc_create(user=gm, campaign_id=table.pk, name="Moff Hidden")
    mine = {row["name"]: row for row in api.get(characters_url(), make_token(player)).json()}
    assert set(mine) == {"Kira Dane", "Dax Morrow"}
    assert mine["Kira Dane"]["campaign"] == {"id": table.pk, "name": table.name}
    assert mine["Dax Morrow"]["campaign"] is None
    assert mine["Dax Morrow"]["system"] == "weg_d6"
    assert mine["Kira Dane"]["owner"] is True
    assert mine["Kira Dane"]["gm"] is False
    gms = {row["name"]: row for row in api.get(characters_url(), make_token(gm)).json()}
    assert set(gms) == {"Kira Dane", "Moff Hidden"}
    assert gms["Kira Dane"]["gm"] is True
    assert gms["Kira Dane"]["owner"] is False
    assert gms["Moff Hidden"]["npc"] is True
    assert spare.pk not in {row["id"] for row in gms.values()}
    assert npc.pk in {row["id"] for row in gms.values()}


def test_a_characters_sheet_derived_values_and_status_are_the_engines(
    api, player, table, swd10_character, make_token
):
    body = api.get(character_url(swd10_character.pk), make_token(player)).json()
    character = swd10_character
    state = sheet_state(
        get_ruleset("swd10"),
        engine_sheet(character, figures(character)),
        character.readings_in_force,
    )
    assert body["sheet"] == character.sheet
    assert body["derived"] == _json_safe(state.derived)
    assert body["derived"]
    assert body["status"]["stage"] == state.status.stage.value
    assert body["status"]["legal"] == state.status.legal
    assert body["status"]["errors"] == state.status.errors
    assert [check["message"] for check in body["checks"]] == [
        violation.message for violation in state.report.violations
    ]
    assert body["gm_note"] is None


def test_the_gm_note_is_read_by_the_tables_gms_only(
    api, player, gm, make_user, table, swd10_character, make_token
):
    gm_note_save(user=gm, character_id=swd10_character.pk, text="Owes Jabba.")
    co_gm = make_user("leia")
    Membership.objects.create(campaign=table, user=co_gm, role=Role.GM)
    assert api.get(character_url(swd10_character.pk), make_token(gm)).json()["gm_note"] == (
        "Owes Jabba."
    )
    assert api.get(character_url(swd10_character.pk), make_token(co_gm)).json()["gm_note"] == (
        "Owes Jabba."
    )
    owner = api.get(character_url(swd10_character.pk), make_token(player))
    assert owner.json()["gm_note"] is None
    assert "Owes Jabba" not in owner.content.decode()


def test_a_note_another_table_wrote_stays_with_that_table(
    api, gm, other_gm, other_table, table, swd10_character, make_token
):
    # Kira's old table's note, as if she had moved here from the other GM's table.
    GMNote.objects.create(
        campaign=other_table, character=swd10_character, text="Old table's secret"
    )
    body = api.get(character_url(swd10_character.pk), make_token(gm))
    assert body.json()["gm_note"] == ""
    assert "Old table's secret" not in body.content.decode()


def test_a_hidden_npc_is_not_found_by_the_tables_players(api, player, gm, table, make_token):
    npc = npc_create(user=gm, campaign_id=table.pk, name="Moff Hidden")
    secret = make_token(player)
    response = api.get(character_url(npc.pk), secret)
    assert response.status_code == 404
    assert response.json()["detail"] == "No such character."
    assert api.get(character_url(999_999), secret).json() == response.json()
    assert api.get(character_url(npc.pk), make_token(gm)).json()["npc"] is True


def test_a_revealed_npc_sheet_is_read_but_not_rolled_by_a_player(
    api, player, gm, table, make_token
):
    npc = npc_create(user=gm, campaign_id=table.pk, name="Moff Shown")
    npc_reveal(user=gm, character_id=npc.pk, visibility="sheet", expected_version=1)
    secret = make_token(player)
    body = api.get(character_url(npc.pk), secret).json()
    assert body["name"] == "Moff Shown"
    assert body["owner"] is False
    assert body["gm"] is False
    assert api.get(rollables_url(npc.pk), secret).status_code == 403
    refused = api.post(roll_url(npc.pk), ROLL, secret)
    assert refused.status_code == 403
    assert refused.json()["detail"]
    assert not RollEntry.objects.exists()


def test_the_rollables_are_those_of_the_roll_menu(api, player, table, swd10_character, make_token):
    body = api.get(rollables_url(swd10_character.pk), make_token(player)).json()
    strength = next(line for line in body if line["key"] == "attr.strength")
    setup = roll_setup(swd10_character, "attr.strength")
    assert [option["key"] for option in strength["options"]] == [
        option.key for option in setup.definitions
    ]
    assert strength["label"] == setup.rollable.label


# Rolls -------------------------------------------------------------------------------------


def test_the_odds_are_the_roll_panels_exact_odds_and_nothing_is_written(
    api, player, table, swd10_character, make_token
):
    before = (RollEntry.objects.count(), swd10_character.version)
    response = api.get(
        odds_url(swd10_character.pk), make_token(player), rollable="attr.strength", difficulty=7
    )
    assert response.status_code == 200
    body = response.json()
    _chosen, odds = roll_odds(roll_setup(swd10_character, "attr.strength"), {"difficulty": "7"})
    assert body["odds"] == f"{odds.success.numerator}/{odds.success.denominator}"
    assert body["percent"] == odds.percent
    assert body["question"] == odds.question
    assert body["options"]["difficulty"] == 7
    assert [bar["chance"] for bar in body["bars"]] == [
        f"{bar.chance.numerator}/{bar.chance.denominator}" for bar in odds.bars
    ]
    swd10_character.refresh_from_db()
    assert (RollEntry.objects.count(), swd10_character.version) == before


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"rollable": "attr.nothing"}, "roll"),
        ({"rollable": "attr.strength", "difficulty": "hard"}, "difficulty"),
        ({"difficulty": "7"}, "query.rollable"),
    ],
)
def test_odds_asked_wrong_are_refused_400_by_field(
    api, player, table, swd10_character, make_token, query, field
):
    response = api.get(odds_url(swd10_character.pk), make_token(player), **query)
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert response.json()["detail"]


def test_a_roll_is_made_by_the_rolls_service_into_the_tables_log_with_its_exact_odds(
    api, player, table, swd10_character, make_token
):
    secret = make_token(player)
    response = api.post(roll_url(swd10_character.pk), ROLL, secret)
    assert response.status_code == 201
    body = response.json()
    entry = RollEntry.objects.get()
    assert body["id"] == entry.pk
    assert entry.campaign == table
    assert entry.author == player
    _chosen, odds = roll_odds(roll_setup(swd10_character, "attr.strength"), {"difficulty": "7"})
    assert body["odds"] == f"{odds.success.numerator}/{odds.success.denominator}"
    assert body["odds_percent"] == odds.percent
    assert body["options"]["difficulty"] == 7
    assert body["success"] is entry.success
    assert body["dice"] == entry.dice
    # And the table's log holds it.
    log = api.get(log_url(table.pk), secret).json()
    assert [item["id"] for item in log["items"]] == [entry.pk]


def test_a_roll_at_no_table_goes_to_the_sheets_own_log(api, player, make_token):
    loner = character_create(owner=player, name="Dax Morrow", system="swd10")
    response = api.post(roll_url(loner.pk), ROLL, make_token(player))
    assert response.status_code == 201
    assert RollEntry.objects.get().campaign is None


def test_the_gm_rolls_in_secret_and_only_gms_read_it(
    api, player, other_player, gm, table, swd10_character, make_token
):
    secret_roll = api.post(roll_url(swd10_character.pk), ROLL | {"secret": True}, make_token(gm))
    assert secret_roll.status_code == 201
    assert secret_roll.json()["secret"] is True
    open_roll = api.post(roll_url(swd10_character.pk), ROLL, make_token(player))
    gm_log = api.get(log_url(table.pk), make_token(gm)).json()
    assert [item["id"] for item in gm_log["items"]] == [
        open_roll.json()["id"],
        secret_roll.json()["id"],
    ]
    for person in (player, other_player):
        log = api.get(log_url(table.pk), make_token(person, name=f"{person}'s bot")).json()
        assert [item["id"] for item in log["items"]] == [open_roll.json()["id"]]


def test_a_player_may_not_roll_in_secret(api, player, table, swd10_character, make_token):
    response = api.post(roll_url(swd10_character.pk), ROLL | {"secret": True}, make_token(player))
    assert response.status_code == 400
    assert "secret" in response.json()["errors"]
    assert not RollEntry.objects.exists()


def test_a_hidden_npcs_rolls_stay_in_the_gms_log(api, player, gm, table, make_token):
    npc = npc_create(user=gm, campaign_id=table.pk, name="Moff Hidden")
    rolled = api.post(roll_url(npc.pk), ROLL, make_token(gm))
    assert rolled.status_code == 201
    assert api.get(log_url(table.pk), make_token(gm)).json()["items"]
    player_log = api.get(log_url(table.pk), make_token(player))
    assert player_log.json()["items"] == []
    assert "Moff Hidden" not in player_log.content.decode()


def test_the_log_pages_back_by_id_and_polls_forward(
    api, player, table, swd10_character, make_token
):
    ids = [
        roll_make(
            user=player,
            character_id=swd10_character.pk,
            rollable_key="attr.strength",
            raw={},
            drawn_campaign=table.pk,
        ).pk
        for _ in range(5)
    ]
    secret = make_token(player)
    first = api.get(log_url(table.pk), secret, limit=2).json()
    assert [item["id"] for item in first["items"]] == ids[::-1][:2]
    second = api.get(log_url(table.pk), secret, limit=2, before=first["next_before"]).json()
    assert [item["id"] for item in second["items"]] == ids[::-1][2:4]
    last = api.get(log_url(table.pk), secret, limit=2, before=second["next_before"]).json()
    assert [item["id"] for item in last["items"]] == [ids[0]]
    assert last["next_before"] is None
    newer = api.get(log_url(table.pk), secret, after=ids[2]).json()
    assert [item["id"] for item in newer["items"]] == [ids[4], ids[3]]


@pytest.mark.parametrize(
    "query", [{"limit": 0}, {"limit": 101}, {"limit": "many"}, {"before": -1}, {"after": "x"}]
)
def test_a_log_asked_out_of_bounds_is_refused_400_by_field(api, player, table, make_token, query):
    response = api.get(log_url(table.pk), make_token(player), **query)
    assert response.status_code == 400
    body = response.json()
    assert body["detail"]
    assert list(body["errors"]) == [f"query.{next(iter(query))}"]


BAD_ROLLS = [
    ({"rollable": "attr.nothing"}, "roll", "nothing of that name to roll"),
    (
        {"rollable": "attr.strength", "options": {"difficulty": "hard"}},
        "difficulty",
        "whole number",
    ),
    ({"rollable": "attr.strength", "options": {"difficulty": 99}}, "difficulty", ""),
    ({"rollable": ""}, "rollable", ""),
    ({}, "rollable", "required"),
    ({"rollable": "attr.strength", "options": ["difficulty"]}, "options", ""),
    ({"rollable": "attr.strength", "extra": 1}, "extra", "not permitted"),
    ({"rollable": "attr.strength", "campaign": "table"}, "campaign", ""),
    ({"rollable": "attr.strength", "campaign": 999_999}, "campaign", "another table"),
]


@pytest.mark.parametrize(("body", "field", "words"), BAD_ROLLS)
def test_a_bad_roll_is_refused_400_beside_its_field_and_writes_nothing(
    api, player, table, swd10_character, make_token, body, field, words
):
    before = (RollEntry.objects.count(), swd10_character.version)
    response = api.post(roll_url(swd10_character.pk), body, make_token(player))
    assert response.status_code == 400, response.content
    refusal = response.json()
    assert refusal["detail"]
    assert field in refusal["errors"], refusal
    assert words in refusal["errors"][field]
    swd10_character.refresh_from_db()
    assert (RollEntry.objects.count(), swd10_character.version) == before


@pytest.mark.parametrize("raw", ["{broken", "", "[]", "null", '"roll"', "\x00"])
def test_a_body_that_is_no_json_object_is_refused_400_and_writes_nothing(
    api, player, table, swd10_character, make_token, raw
):
    response = api.post(roll_url(swd10_character.pk), raw, make_token(player), raw=True)
    assert response.status_code == 400
    assert response.json()["detail"]
    assert not RollEntry.objects.exists()


# Any JSON at all, and bodies shaped like a roll with any modifiers in them.
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["rollable", "options", "secret", "campaign", "difficulty", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=8,
)
MODIFIER = st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=6)
ROLL_SHAPED = st.fixed_dictionaries(
    {"rollable": st.sampled_from(["attr.strength", "attr.wits", "attr.nothing", ""])},
    optional={
        "options": st.dictionaries(
            st.sampled_from(["difficulty", "needed", "actions", "action", "willpower", "x"]),
            MODIFIER,
            max_size=4,
        ),
        "secret": st.booleans(),
    },
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=ROLL_SHAPED | ANY_JSON)
def test_any_json_is_rolled_or_refused_with_a_message_never_a_server_error(
    client, player, table, swd10_character, body
):
    from sheets.accounts.services import token_create

    _token, secret = token_create(user=player, name="Fuzz", scopes=["rolls:write"], expiry="30")
    before = RollEntry.objects.count()
    response = client.post(
        roll_url(swd10_character.pk),
        json.dumps(body),
        content_type="application/json",
        headers=bearer(secret),
    )
    assert response.status_code in (201, 400), response.content
    event(f"answered {response.status_code}")
    if response.status_code == 400:
        assert response.json()["detail"]
        assert RollEntry.objects.count() == before
    else:
        assert RollEntry.objects.count() == before + 1
    AccessToken.objects.all().delete()


# What every answer carries -----------------------------------------------------------------


def test_no_cache_keeps_an_answer(api, player, make_token):
    for response in (api.get(characters_url(), make_token(player)), api.get(characters_url())):
        assert "private" in response["Cache-Control"]
        assert "no-store" in response["Cache-Control"]


def test_a_token_needs_no_csrf_token_and_a_session_gets_none_through(
    client, player, table, swd10_character, make_token
):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    body = json.dumps(ROLL)
    alone = strict.post(roll_url(swd10_character.pk), body, content_type="application/json")
    assert alone.status_code == 401
    with_token = strict.post(
        roll_url(swd10_character.pk),
        body,
        content_type="application/json",
        headers=bearer(make_token(player)),
    )
    assert with_token.status_code == 201


def test_the_openapi_document_describes_every_endpoint_and_the_bearer_token(client):
    response = client.get(reverse("api:openapi-json"))
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert set(document["paths"]) == {
        "/api/characters/",
        "/api/characters/{character_id}/",
        "/api/characters/{character_id}/rollables/",
        "/api/characters/{character_id}/odds/",
        "/api/characters/{character_id}/rolls/",
        "/api/campaigns/{campaign_id}/rolls/",
    }
    schemes = document["components"]["securitySchemes"]
    assert any(scheme == {"type": "http", "scheme": "bearer"} for scheme in schemes.values())
    post = document["paths"]["/api/characters/{character_id}/rolls/"]["post"]
    assert {"201", "400", "401", "403", "404", "429"} <= set(post["responses"])
    for scope in ("characters:read", "table:read", "rolls:write"):
        assert scope in document["info"]["description"]


def test_the_docs_page_loads_its_scripts_from_this_server(client):
    response = client.get(reverse("api:openapi-view"))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<script src="/static/ninja/swagger-ui-bundle.js">' in page
    assert "cdn" not in page.lower()
    assert "script-src 'self'" in response["Content-Security-Policy"]
