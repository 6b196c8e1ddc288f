"""Every route of the HTTP API, asked by every person, with their token and without one:
the exact answer each gets. tests/web/test_permission_matrix.py delegates the routes
under /api/ here (its walk reverses names without the API's namespace).

The people are the page matrix's five, a co-GM (a second GM of the table, answered as the
GM), and a share link's holder (logged out, having opened the shared sheet: a share link
is no API credential). Each person with a token holds one with every scope; without one,
they are logged in with a session, which the API does not read (401).

As in the page matrix, every body is searched for what is not the person's to see, and a
GET or a refused request leaves the stored data exactly as it was.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from sheets.accounts.models import AccessToken
from sheets.campaigns.models import Membership, Role
from tests.api.conftest import bearer
from tests.web.test_permission_matrix import SECRETS, World, stored_state

pytestmark = pytest.mark.django_db

PEOPLE = ("anonymous", "owner", "other_player", "gm", "co_gm", "other_gm", "share_holder")
# Who reads what the page matrix's SECRETS name: a co-GM what the GM does, a share link's
# holder what anyone logged out does.
AS_READER = {"co_gm": "gm", "share_holder": "anonymous"}


def _row(*answers: int) -> dict[str, int]:
    assert len(answers) == len(PEOPLE)
    return dict(zip(PEOPLE, answers, strict=True))


def _all(answer: int) -> dict[str, int]:
    return _row(*(answer,) * len(PEOPLE))


# With a token: (url name) -> {method: {person: status}}. Nobody logged out holds a token,
# so the anonymous visitor and the share link's holder ask with none (401).
#                   anonymous, owner, other_player, gm, co_gm, other_gm, share_holder
API_MATRIX: dict[str, dict[str, dict[str, int]]] = {
    # The document and its page: public, as any API's documentation.
    "openapi-json": {"GET": _all(200), "POST": _all(405)},
    "openapi-view": {"GET": _all(200), "POST": _all(405)},
    # /api/ itself: the index of the API (its operations and the docs' address), public
    # as the docs; read, never posted to.
    "api-root": {"GET": _all(200), "POST": _all(405)},
    # Any other address under /api/: a JSON 404 for everyone, token or none.
    "api-not-found": {"GET": _all(404), "POST": _all(404)},
    # One's own characters and those at tables one runs: everyone with a token.
    "api_characters": {"GET": _row(401, 200, 200, 200, 200, 200, 401), "POST": _all(405)},
    # The owner's sheet: its owner and the table's GMs; nobody else finds it (404).
    "api_character": {"GET": _row(401, 200, 404, 200, 200, 404, 401), "POST": _all(405)},
    "api_character_rollables": {
        "GET": _row(401, 200, 404, 200, 200, 404, 401),
        "POST": _all(405),
    },
    "api_character_odds": {"GET": _row(401, 200, 404, 200, 200, 404, 401), "POST": _all(405)},
    "api_character_roll": {"GET": _all(405), "POST": _row(401, 201, 404, 201, 201, 404, 401)},
    # The table's log: its members; another table's GM finds no table (404).
    "api_campaign_rolls": {"GET": _row(401, 200, 200, 200, 200, 404, 401), "POST": _all(405)},
}

OPEN = {"openapi-json", "openapi-view", "api-root", "api-not-found"}


def api_route_names() -> set[str]:
    """The names of every route under /api/ (ninja's own, namespaced "api")."""

    def walk(patterns, prefix: str = ""):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                yield route, pattern.name

    return {name for route, name in walk(get_resolver().url_patterns) if route.startswith("api/")}


def test_every_api_route_is_in_the_api_matrix():
    assert api_route_names() == API_MATRIX.keys()


def _url(name: str, w: World) -> str:
    kwargs = {
        "api_character": {"character_id": w.kira.pk},
        "api_character_rollables": {"character_id": w.kira.pk},
        "api_character_odds": {"character_id": w.kira.pk},
        "api_character_roll": {"character_id": w.kira.pk},
        "api_campaign_rolls": {"campaign_id": w.table.pk},
        "api-not-found": {"rest": "no-such-endpoint/"},
    }.get(name, {})
    return reverse(f"api:{name}", kwargs=kwargs)


ROLL = {"rollable": "attr.strength", "options": {"difficulty": 7}}


def _ask(client, method: str, name: str, w: World, headers: dict[str, str]):
    url = _url(name, w)
    if method == "GET":
        query = {"rollable": "attr.strength"} if name == "api_character_odds" else {}
        return client.get(url, query, headers=headers)
    body = json.dumps(ROLL if name == "api_character_roll" else {})
    return client.post(url, body, content_type="application/json", headers=headers)


@pytest.fixture
def people(world, make_user, client) -> dict[str, Any]:
    """The page matrix's people, a co-GM of the table, and a share link's holder."""
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=world.table, user=co_gm, role=Role.GM)
    return world.users | {"co_gm": co_gm, "share_holder": None}


def _cases(with_token: bool):
    for name, methods in API_MATRIX.items():
        for method, answers in methods.items():
            for person in PEOPLE:
                expected = answers[person]
                if not with_token and name not in OPEN and expected != 405:
                    # A session is no API credential: every operation asks for a token.
                    expected = 401
                yield pytest.param(name, method, person, expected, id=f"{name}-{method}-{person}")


def _check(client, world, people, name, method, person, expected, *, with_token, make_token):
    user = people[person]
    headers: dict[str, str] = {}
    if person == "share_holder":
        opened = client.get(reverse("shared_sheet", kwargs={"token": world.share.token}))
        assert opened.status_code == 200
    elif user is not None:
        if with_token:
            headers = bearer(make_token(user))
        else:
            client.force_login(user)
    before = stored_state()
    tokens_before = list(AccessToken.objects.values_list("pk", "revoked_at"))

    response = _ask(client, method, name, world, headers)

    assert response.status_code == expected, f"{method} {name} as {person}: {response.content}"
    if expected == 201:
        assert stored_state() != before
    else:
        assert stored_state() == before
    assert list(AccessToken.objects.values_list("pk", "revoked_at")) == tokens_before
    if name in {"api-root", "api-not-found"} and expected != 405:
        # The index and the answer for an unknown address are JSON too, not a page.
        assert response["Content-Type"].startswith("application/json")
        assert response.json()
    if name not in OPEN and expected != 405:
        # Every answer of an operation is JSON, refusals with a message.
        body = response.json()
        if response.status_code >= 400:
            assert body["detail"]
    text = response.content.decode()
    reader = AS_READER.get(person, person)
    for secret in SECRETS:
        if reader in secret.readers:
            continue
        assert secret.value(world) not in text, f"{person} was shown {secret.label} by {name}"


@pytest.mark.parametrize(("name", "method", "person", "expected"), list(_cases(True)))
def test_with_a_token(client, world, people, make_token, name, method, person, expected):
    _check(
        client,
        world,
        people,
        name,
        method,
        person,
        expected,
        with_token=True,
        make_token=make_token,
    )


@pytest.mark.parametrize(("name", "method", "person", "expected"), list(_cases(False)))
def test_without_a_token(client, world, people, make_token, name, method, person, expected):
    _check(
        client,
        world,
        people,
        name,
        method,
        person,
        expected,
        with_token=False,
        make_token=make_token,
    )


@pytest.mark.parametrize("name", sorted(set(API_MATRIX) - OPEN))
def test_a_share_links_token_is_no_api_credential(client, world, name):
    method = "POST" if name == "api_character_roll" else "GET"
    before = stored_state()
    response = _ask(client, method, name, world, bearer(world.share.token))
    assert response.status_code == 401
    assert response.json()["detail"] == "This token is not one Datapad knows."
    assert stored_state() == before


# The search above proves no leak only if the words are where they belong.
SHOWN = [
    ("gm", "api_character", ("Kira Dane", "GMNOTE-ZX81-only-for-the-gm")),
    ("co_gm", "api_character", ("Kira Dane", "GMNOTE-ZX81-only-for-the-gm")),
    ("owner", "api_characters", ("Kira Dane", "Dax Morrow", "Outer Rim")),
    ("gm", "api_characters", ("Kira Dane", "Orrin Vashti", "Moff NPCSECRET-7Q")),
    ("other_gm", "api_characters", ()),
]


@pytest.mark.parametrize(("person", "name", "words"), SHOWN, ids=[f"{n}-{p}" for p, n, _ in SHOWN])
def test_the_secrets_are_found_where_they_belong(
    client, world, people, make_token, person, name, words
):
    response = _ask(client, "GET", name, world, bearer(make_token(people[person])))
    assert response.status_code == 200
    text = response.content.decode()
    for word in words:
        assert word in text, f"{word} missing from {name} for {person}"
