"""The file a character was imported from, downloaded from its history page as it came: by
whoever reads the sheet's history (its owner, its table's GMs), as JSON, under a name that
is only a name (no header, path or control character gets through)."""

from __future__ import annotations

import unicodedata

import pytest
from django.http import HttpResponse
from django.urls import reverse
from django.utils.http import content_disposition_header
from hypothesis import given
from hypothesis import strategies as st

from sheets.accounts.services import SCOPES, token_create
from sheets.campaigns.models import Membership, Role
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create
from sheets.characters.models import Character
from sheets.characters.services import share_link_create
from sheets.transfer.imports import LONGEST_NAME, download_name
from tests.transfer.test_import_pages import fixture_bytes, preview_url, upload
from tests.transfer.test_import_table import upload_to

pytestmark = pytest.mark.django_db


def imported(client, raw: bytes, name: str = "tavi.json", table=None) -> Character:
    response = upload(client, raw, name) if table is None else upload_to(client, raw, table, name)
    client.post(preview_url(response), {"action": "confirm"})
    return Character.objects.get()


def url_of(character: Character) -> str:
    return reverse("character_imported_file", args=[character.pk])


def test_the_history_page_offers_the_original_and_it_comes_back_whole(player_client):
    raw = fixture_bytes("od6s_system.json")
    character = imported(player_client, raw)
    page = player_client.get(reverse("character_history", args=[character.pk])).content.decode()
    assert "Imported from a Foundry VTT OD6S actor (“tavi.json”)" in page
    assert f'href="{url_of(character)}"' in page
    response = player_client.get(url_of(character))
    assert response.status_code == 200
    assert response.content == raw
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="tavi.json"'
    assert response["X-Content-Type-Options"] == "nosniff"


def test_a_character_not_imported_has_no_original(player_client, player):
    made = Character.objects.create(owner=player, name="Made here", system="swd10", sheet={})
    page = player_client.get(reverse("character_history", args=[made.pk]))
    assert "Download the original file" not in page.content.decode()
    assert player_client.get(url_of(made)).status_code == 404


@pytest.fixture
def at_table(client, gm, player, other_player, other_gm):
    """Tavi imported by `player` to a WEG table `gm` runs, `other_player` sitting at it."""
    table = campaign_create(user=gm, name="Hoth Base", system="weg_d6")
    token = invitation_create(user=gm, campaign_id=table.pk).token
    campaign_join(user=player, token=token)
    campaign_join(user=other_player, token=token)
    campaign_create(user=other_gm, name="Elsewhere", system="weg_d6")
    client.force_login(player)
    character = imported(client, fixture_bytes("od6s_system.json"), table=table)
    client.logout()
    return character


@pytest.mark.parametrize(
    ("person", "status"),
    [("player", 200), ("gm", 200), ("other_player", 404), ("other_gm", 404)],
)
def test_who_may_download_it(client, request, at_table, person, status):
    client.force_login(request.getfixturevalue(person))
    assert client.get(url_of(at_table)).status_code == status


def test_logged_out_it_asks_for_a_login(client, at_table):
    response = client.get(url_of(at_table))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_is_only_read(player_client, at_table):
    assert player_client.post(url_of(at_table)).status_code == 405


# The name ------------------------------------------------------------------------------------

NAMES = [
    ("tavi.json", "Tavi", "tavi.json"),
    ("Tavi Renn.JSON", "Tavi", "Tavi Renn.json"),
    ("actor", "Tavi", "actor.json"),
    ("../../etc/passwd", "Tavi", "passwd.json"),
    ("C:\\Users\\me\\tavi.json", "Tavi", "tavi.json"),
    ('x"; filename="evil.exe', "Tavi", "x filename=evil.exe.json"),
    ("a\r\nSet-Cookie: s=1.json", "Tavi", "aSet-Cookie s=1.json"),
    ("\u202egpj.exe", "Tavi", "gpj.exe.json"),
    ("", "Tavi Renn", "tavi-renn.json"),
    ("...", "", "character.json"),
    ("/", "Ünïcodé", "unicode.json"),
    ("Tävi Rënn.json", "Tavi", "Tävi Rënn.json"),
]


@pytest.mark.parametrize(("stored", "character", "expected"), NAMES)
def test_a_stored_name_becomes_only_a_name(stored, character, expected):
    assert download_name(stored, character) == expected


def test_a_name_beyond_ascii_is_sent_as_rfc_6266_says(player_client):
    raw = fixture_bytes("od6s_system.json")
    character = imported(player_client, raw, "Tävi Rënn.json")
    disposition = player_client.get(url_of(character))["Content-Disposition"]
    assert disposition == "attachment; filename*=utf-8''T%C3%A4vi%20R%C3%ABnn.json"


UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}


@given(st.text(max_size=400), st.text(max_size=120))
def test_any_stored_name_gives_a_safe_header(stored, character):
    name = download_name(stored, character)
    assert name.endswith(".json") and len(name) > len(".json")
    assert len(name) <= LONGEST_NAME + len(".json")
    assert not any(unicodedata.category(ch) in UNSAFE_CATEGORIES for ch in name)
    assert not set('"\\/:*?<>|;') & set(name)
    # Django takes it as a header value (it refuses a line break: no header is injected).
    response = HttpResponse()
    response["Content-Disposition"] = content_disposition_header(True, name)
    assert "\n" not in response["Content-Disposition"]
    assert "\r" not in response["Content-Disposition"]


# The matrix's three more people: a co-GM (answered as the table's GM), a share link's
# holder and a tool with an API token (both answered as anyone logged out: neither is a
# credential for the site's pages).


def test_a_co_gm_downloads_it_as_the_tables_gm(client, make_user, at_table):
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=at_table.campaign, user=co_gm, role=Role.GM)
    client.force_login(co_gm)
    response = client.get(url_of(at_table))
    assert response.status_code == 200
    assert response.content == fixture_bytes("od6s_system.json")


def test_a_share_links_holder_gets_only_the_login(client, player, at_table):
    share = share_link_create(user=player, character_id=at_table.pk)
    assert client.get(reverse("shared_sheet", kwargs={"token": share.token})).status_code == 200
    response = client.get(url_of(at_table))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_an_api_token_is_no_credential_for_it(client, player, at_table):
    _token, secret = token_create(user=player, name="bot", scopes=tuple(SCOPES), expiry="90")
    response = client.get(url_of(at_table), headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
