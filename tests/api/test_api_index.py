"""/api/ answers JSON everywhere: its root an index of the operations and the docs'
address, any other address under it a JSON 404 (not the site's HTML page), an endpoint's
address without its final slash the way to it, keeping the method."""

from __future__ import annotations

import json

import pytest

from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

OPERATIONS = {
    ("GET", "/api/characters/"),
    ("GET", "/api/characters/{character_id}/"),
    ("GET", "/api/characters/{character_id}/rollables/"),
    ("GET", "/api/characters/{character_id}/odds/"),
    ("POST", "/api/characters/{character_id}/rolls/"),
    ("GET", "/api/campaigns/{campaign_id}/rolls/"),
}


def test_the_root_is_an_index_of_the_api(client):
    response = client.get("/api/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["docs"] == "/api/docs"
    assert body["openapi"] == "/api/openapi.json"
    assert {(line["method"], line["path"]) for line in body["endpoints"]} == OPERATIONS
    assert all(line["summary"] for line in body["endpoints"])
    # Each address it names is where the document says it is.
    document = client.get(body["openapi"]).json()
    for line in body["endpoints"]:
        assert line["method"].lower() in document["paths"][line["path"]]
    assert set(body["scopes"]) == {"characters:read", "table:read", "rolls:write"}


def test_the_index_is_the_same_with_a_token(client, player, make_token):
    plain = client.get("/api/").json()
    assert client.get("/api/", headers=bearer(make_token(player))).json() == plain


def test_the_index_is_read_not_posted_to(client):
    assert client.post("/api/").status_code == 405


UNKNOWN = [
    "/api/nothing-here",
    "/api/nothing/here/",
    "/api/characters/12/unknown/",
    "/api/campaigns/",
    "/api/%3Cscript%3E/",
]


@pytest.mark.parametrize("url", UNKNOWN)
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_an_unknown_address_is_a_json_404(client, player, make_token, url, method):
    for headers in ({}, bearer(make_token(player))):
        response = getattr(client, method)(url, headers=headers)
        assert response.status_code == 404, (method, url)
        assert response["Content-Type"].startswith("application/json")
        body = response.json()
        assert "/api/docs" in body["detail"]
        assert body["errors"] == {}
        # Nothing of the address asked is said back.
        assert "script" not in response.content.decode()


def test_an_address_without_its_final_slash_leads_to_it(client, player, make_token):
    response = client.get("/api/characters?after=3")
    assert response.status_code == 308
    assert response["Location"] == "/api/characters/?after=3"
    # A roll posted without the slash is sent on as a POST (308), not turned into a GET.
    posted = client.post("/api/characters/5/rolls", json.dumps({}), content_type="application/json")
    assert posted.status_code == 308
    assert posted["Location"] == "/api/characters/5/rolls/"
    # Followed, with a token: the list itself.
    listed = client.get("/api/characters", headers=bearer(make_token(player)), follow=True)
    assert listed.status_code == 200
    assert isinstance(listed.json(), list)


def test_the_site_outside_api_keeps_its_own_pages(client):
    # The JSON 404 is the API's alone: a page that does not exist stays the site's page.
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")
