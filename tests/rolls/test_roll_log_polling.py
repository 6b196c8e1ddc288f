"""The log's poll with two app servers: ids are handed out at insert and become visible at
commit, so entry 1010 can appear after entry 1011 was shown. A poll sends the last id
shown and the ids shown lately; it brings every entry the page lacks, once.

The entries are made here with their ids in the order the servers would hand them out and
stored in the order they would commit (the later id first).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from sheets.rolls.models import RollEntry
from sheets.rolls.services import POLL_OVERLAP

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _committed(table, author, pk: int, *, secret: bool = False) -> RollEntry:
    """An entry as a roll on some app server would store it, with the id it was handed."""
    return RollEntry.objects.create(
        pk=pk,
        campaign=table.campaign,
        character=table.character,
        author=author,
        secret=secret,
        system=table.campaign.system,
        rollable_key="stat.body",
        rollable_label="Body",
        outcome="success",
        summary=f"Roll number {pk}",
        success=True,
        odds="1/2",
        odds_percent="50.0%",
    )


def _ids(text: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'id="roll-entry-(\d+)"', text)]


def _inputs(text: str) -> dict[str, str]:
    found = re.findall(
        r'<input type="hidden" name="(after|seen)" id="roll-log-\1" value="([^"]*)"', text
    )
    return dict(found)


def _poll(client, url: str, state: dict[str, str]):
    """One poll as htmx makes it: the hidden inputs sent, moved on by the answer."""
    answer = client.get(url, state, headers=HTMX)
    if answer.status_code == 200:
        state.update(_inputs(answer.content.decode()))
    return answer


def test_an_entry_committed_after_a_newer_one_still_reaches_the_log(
    client, table_of, player, other_player
):
    table = table_of("ore")
    client.force_login(other_player)
    page = client.get(reverse("campaign_detail", args=[table.campaign.pk])).content.decode()
    state = _inputs(page)
    assert state == {"after": "0", "seen": ""}
    url = reverse("campaign_roll_log", args=[table.campaign.pk])

    # Server B hands out 1011 and commits; server A handed out 1010 and has not yet.
    _committed(table, player, 1011)
    answer = _poll(client, url, state)
    assert _ids(answer.content.decode()) == [1011]
    assert state == {"after": "1011", "seen": "1011"}

    # Server A commits 1010: an id below the last shown, and it is brought all the same.
    _committed(table, player, 1010)
    answer = _poll(client, url, state)
    assert answer.status_code == 200
    assert _ids(answer.content.decode()) == [1010]
    assert state == {"after": "1011", "seen": "1010,1011"}

    # Nothing is brought twice.
    assert _poll(client, url, state).status_code == 204
    _committed(table, player, 1012)
    assert _ids(_poll(client, url, state).content.decode()) == [1012]
    assert _poll(client, url, state).status_code == 204


def test_the_overlap_is_bounded_and_the_seen_list_forgets_what_left_it(
    client, table_of, player, other_player
):
    table = table_of("ore")
    client.force_login(other_player)
    url = reverse("campaign_roll_log", args=[table.campaign.pk])
    shown = _committed(table, player, 2001)
    state = {"after": "0", "seen": ""}
    _poll(client, url, state)
    assert state == {"after": "2001", "seen": "2001"}
    # An entry written before the overlap with an id below the last shown is history, not
    # a late commit: a poll leaves it (the page drawn whole shows it).
    old = _committed(table, player, 2000)
    long_ago = timezone.now() - POLL_OVERLAP - timedelta(seconds=5)
    RollEntry.objects.filter(pk__in=[old.pk, shown.pk]).update(created_at=long_ago)
    assert _poll(client, url, state).status_code == 204
    fresh = _committed(table, player, 2002)
    assert _ids(_poll(client, url, state).content.decode()) == [fresh.pk]
    # 2001 left the overlap: the page no longer needs to name it.
    assert state == {"after": "2002", "seen": "2002"}
    assert old.pk in _ids(client.get(url).content.decode())


def test_a_late_secret_entry_stays_with_the_gms(client, table_of, gm, player, other_player):
    table = table_of("ore")
    url = reverse("campaign_roll_log", args=[table.campaign.pk])
    _committed(table, player, 3002)
    _committed(table, gm, 3001, secret=True)
    client.force_login(other_player)
    state = {"after": "3002", "seen": "3002"}
    assert _poll(client, url, state).status_code == 204
    client.force_login(gm)
    state = {"after": "3002", "seen": "3002"}
    assert _ids(_poll(client, url, state).content.decode()) == [3001]


def test_odd_seen_lists_are_read_as_far_as_they_make_sense(client, table_of, player):
    table = table_of("ore")
    _committed(table, player, 4001)
    client.force_login(player)
    url = reverse("campaign_roll_log", args=[table.campaign.pk])
    for seen in ("x,,4001,-3,²", "4001" + ",1" * 500):
        answer = client.get(url, {"after": "0", "seen": seen}, headers=HTMX)
        assert answer.status_code in (200, 204)
    answer = client.get(url, {"after": "0", "seen": "x,,4001,²"}, headers=HTMX)
    assert answer.status_code == 204


def test_a_sheet_at_no_table_polls_the_same_way(client, loner_of, player):
    character = loner_of("ore")

    def committed(pk: int) -> RollEntry:
        return RollEntry.objects.create(
            pk=pk,
            character=character,
            author=player,
            system="ore",
            rollable_key="stat.body",
            rollable_label="Body",
            outcome="success",
            summary=f"Roll number {pk}",
            success=True,
            odds="1/2",
            odds_percent="50.0%",
        )

    client.force_login(player)
    url = reverse("character_roll_log", args=[character.pk])
    committed(5002)
    state = {"after": "0", "seen": ""}
    assert _ids(_poll(client, url, state).content.decode()) == [5002]
    committed(5001)
    assert _ids(_poll(client, url, state).content.decode()) == [5001]
    assert _poll(client, url, state).status_code == 204
