"""The live streams (sheets/live): refused like their pages, carrying ids and versions and
nothing a viewer may not see, resuming after a dropped connection from Last-Event-ID."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from sheets.campaigns.models import Membership, Role
from sheets.characters.services import character_apply_edits, gm_note_save, share_link_create
from sheets.live.services import Cursor
from tests.live.conftest import stream

pytestmark = pytest.mark.django_db(transaction=True)

# Every line a stream may send: its retry delay, a keep-alive comment, an event's id
# (a cursor), its name and an id or version number. No name, no text, no dice.
STREAM_LINE = re.compile(r"(retry: \d+|: still here|id: r\d+v\d+|event: (roll|sheet)|data: \d+|)")


def _people(make_user, gm, player, other_player, other_gm, table):
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=table, user=co_gm, role=Role.GM)
    return {
        "anonymous": None,
        "owner": player,
        "other player": other_player,
        "GM": gm,
        "co-GM": co_gm,
        "other GM": other_gm,
    }


def _page_status(user, url: str) -> int:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(url).status_code


def test_a_sheet_stream_is_answered_like_the_sheet_page_for_every_person(
    make_user, gm, player, other_player, other_gm, table, other_table, swd10_character
):
    people = _people(make_user, gm, player, other_player, other_gm, table)
    page = reverse("character_sheet", args=[swd10_character.pk])
    url = reverse("live_sheet_stream", args=[swd10_character.pk])
    answers = {}
    for who, user in people.items():
        answer = stream(user, url, seconds=0.05)
        answers[who] = answer.status
        assert answer.status == _page_status(user, page), who
        if answer.status == 200:
            assert answer.headers["Content-Type"] == "text/event-stream"
            assert answer.headers["X-Accel-Buffering"] == "no"
    assert answers == {
        "anonymous": 302,
        "owner": 200,
        "other player": 404,
        "GM": 200,
        "co-GM": 200,
        "other GM": 404,
    }


def test_a_share_link_opens_the_sheet_but_no_stream(client, player, swd10_character):
    link = share_link_create(user=player, character_id=swd10_character.pk)
    assert client.get(reverse("shared_sheet", args=[link.token])).status_code == 200
    answer = stream(None, reverse("live_sheet_stream", args=[swd10_character.pk]))
    assert answer.status == 302
    assert "/accounts/login/" in answer.headers["Location"]
    assert (
        reverse("live_sheet_stream", args=[1])
        not in client.get(reverse("shared_sheet", args=[link.token])).content.decode()
    )


def test_a_campaign_stream_is_answered_like_the_campaign_page_for_every_person(
    make_user, gm, player, other_player, other_gm, table, other_table
):
    people = _people(make_user, gm, player, other_player, other_gm, table)
    page = reverse("campaign_detail", args=[table.pk])
    url = reverse("live_campaign_stream", args=[table.pk])
    answers = {who: stream(user, url, seconds=0.05).status for who, user in people.items()}
    assert answers == {who: _page_status(user, page) for who, user in people.items()}
    assert answers["owner"] == answers["GM"] == answers["co-GM"] == 200
    assert answers["other GM"] == 404


def test_a_roll_reaches_the_other_pages_as_its_id_alone(
    gm, player, other_player, table, swd10_character, roll
):
    url = reverse("live_campaign_stream", args=[table.pk])
    holder = {}
    answer = stream(
        other_player, url, then=lambda: holder.setdefault("entry", roll(player, swd10_character))
    )
    entry = holder["entry"]
    rolls = [frame for frame in answer.frames if frame.event == "roll"]
    assert rolls[-1].data == str(entry.pk)
    assert Cursor.parse(rolls[-1].id).roll == entry.pk
    assert entry.summary not in answer.text
    assert all(STREAM_LINE.fullmatch(line) for line in answer.text.split("\n"))


def test_a_gms_secret_roll_never_reaches_a_players_stream_and_does_reach_the_gms(
    gm, player, table, swd10_character, roll
):
    url = reverse("live_sheet_stream", args=[swd10_character.pk])
    before = stream(player, url, seconds=0.05)
    start = before.frames[-1].id if before.frames else ""
    players = stream(
        player,
        url,
        last_event_id=start or "r0v1",
        then=lambda: roll(gm, swd10_character, secret=True),
    )
    assert [frame for frame in players.frames if frame.event == "roll"] == []
    gms = stream(gm, url, last_event_id="r0v1")
    assert [frame.event for frame in gms.frames].count("roll") == 1


def test_a_gm_note_and_a_wound_mark_reach_the_player_as_a_version_number_only(
    gm, player, table, swd10_character
):
    secret = "Kira is an Imperial plant"

    def gm_writes():
        gm_note_save(user=gm, character_id=swd10_character.pk, text=secret)
        character_apply_edits(
            user=gm,
            character_id=swd10_character.pk,
            edits={"power": "2"},
            expected_version=swd10_character.version,
        )

    url = (
        reverse("live_sheet_stream", args=[swd10_character.pk])
        + f"?version={swd10_character.version}"
    )
    answer = stream(player, url, then=gm_writes)
    swd10_character.refresh_from_db()
    sheets = [frame for frame in answer.frames if frame.event == "sheet"]
    assert sheets[-1].data == str(swd10_character.version)
    assert secret not in answer.text
    assert gm.username not in answer.text
    assert all(STREAM_LINE.fullmatch(line) for line in answer.text.split("\n"))


def test_a_dropped_stream_resumes_from_its_last_event_id_and_misses_nothing(
    gm, player, table, swd10_character, roll
):
    url = reverse("live_sheet_stream", args=[swd10_character.pk])
    first = stream(player, url, seconds=0.05)
    last_seen = first.frames[-1].id if first.frames else str(Cursor(0, swd10_character.version))
    # While the page is away: two rolls and a GM's edit, all committed.
    roll(gm, swd10_character)
    newest = roll(player, swd10_character)
    character_apply_edits(
        user=gm,
        character_id=swd10_character.pk,
        edits={"power": "2"},
        expected_version=swd10_character.version,
    )
    swd10_character.refresh_from_db()
    resumed = stream(player, url, last_event_id=last_seen, seconds=0.05)
    told = {frame.event: frame.data for frame in resumed.frames}
    assert told == {"roll": str(newest.pk), "sheet": str(swd10_character.version)}
    # Resumed from where it is now: nothing again.
    again = stream(player, url, last_event_id=resumed.frames[-1].id, seconds=0.05)
    assert again.frames == []


def test_a_viewer_removed_from_the_table_hears_nothing_more(
    gm, player, other_player, table, swd10_character, roll
):
    url = reverse("live_campaign_stream", args=[table.pk])

    def removed_then_rolled():
        Membership.objects.filter(campaign=table, user=other_player).delete()
        roll(player, swd10_character)

    answer = stream(other_player, url, last_event_id="r0v0", then=removed_then_rolled)
    assert [frame for frame in answer.frames if frame.event == "roll"] == []
