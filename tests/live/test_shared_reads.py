"""A roll at a table wakes every open page there; their streams share one read per event
and visibility (GM or player) in place of one read each, and still each hears only what
its viewer's role may see (sheets/live/views.shared_glance)."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest
from django.test import AsyncClient
from django.urls import reverse

from sheets.campaigns.models import Membership, Role
from sheets.live import views
from sheets.rolls.services import roll_make, rollables_of
from tests.live.conftest import parse, run_async

pytestmark = pytest.mark.django_db(transaction=True)


def _open_all(viewers: list, url: str, then) -> tuple[list[str], set]:
    """Open `url`'s stream for every viewer on one event loop (as one server process holds
    them), run `then` once all are open, and read a moment more; each stream's text and
    the shared reads this process made meanwhile, as (table, seen as a GM)."""

    async def run():
        answers = []
        for user in viewers:
            client = AsyncClient()
            await client.aforce_login(user)
            answers.append(await client.get(url, headers={"Last-Event-ID": "r0v0"}))
        texts: list[list[str]] = [[] for _ in answers]

        async def pull(response, into):
            async for chunk in response.streaming_content:
                into.append(chunk.decode() if isinstance(chunk, bytes) else chunk)

        tasks = [asyncio.ensure_future(pull(a, t)) for a, t in zip(answers, texts, strict=True)]
        await asyncio.sleep(0.3)
        await asyncio.get_running_loop().run_in_executor(None, then)
        await asyncio.sleep(0.6)
        reads = [key[1:] for key in views._GLANCES.get(asyncio.get_running_loop(), {})]
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return ["".join(t) for t in texts], reads

    texts, reads = run_async(run)
    return texts, reads


def _roll(user, character, *, secret=False):
    return roll_make(
        user=user,
        character_id=character.pk,
        rollable_key=rollables_of(character)[0].key,
        raw={},
        secret=secret,
        drawn_campaign=character.campaign_id,
        rng=random.Random(3),
    )


def _players(make_user, table, count: int) -> list:
    made = []
    for index in range(count):
        user = make_user(f"watcher_{index}")
        Membership.objects.create(campaign=table, user=user, role=Role.PLAYER)
        made.append(user)
    return made


def test_ten_open_pages_share_one_read_of_a_roll_and_each_hears_it(
    make_user, player, table, swd10_character
):
    viewers = _players(make_user, table, 10)
    holder = {}
    texts, reads = _open_all(
        viewers,
        reverse("live_campaign_stream", args=[table.pk]),
        lambda: holder.setdefault("entry", _roll(player, swd10_character)),
    )
    # One read for the roll, for the players' visibility: not ten.
    assert reads == [("roll", table.pk, False)]
    for text in texts:
        rolls = [f.data for f in parse(text) if f.event == "roll"]
        assert rolls[-1] == str(holder["entry"].pk)


def test_a_secret_roll_is_read_apart_for_the_gms_and_never_reaches_the_players(
    make_user, gm, player, table, swd10_character
):
    co_gm = make_user("co_gm_watching")
    Membership.objects.create(campaign=table, user=co_gm, role=Role.GM)
    viewers = [*_players(make_user, table, 4), gm, co_gm]
    holder = {}
    texts, reads = _open_all(
        viewers,
        reverse("live_campaign_stream", args=[table.pk]),
        lambda: holder.setdefault("entry", _roll(gm, swd10_character, secret=True)),
    )
    assert sorted(reads) == [("roll", table.pk, False), ("roll", table.pk, True)]
    *players, gm_text, co_gm_text = texts
    for text in players:
        assert [f for f in parse(text) if f.event == "roll"] == []
    for text in (gm_text, co_gm_text):
        assert [f.data for f in parse(text) if f.event == "roll"] == [str(holder["entry"].pk)]


def test_a_viewer_made_player_meanwhile_reads_for_themself_and_no_secret_reaches_them(
    make_user, gm, table, swd10_character
):
    demoted = make_user("gm_made_player")
    Membership.objects.create(campaign=table, user=demoted, role=Role.GM)

    def demote_then_roll():
        Membership.objects.filter(campaign=table, user=demoted).update(role=Role.PLAYER)
        _roll(gm, swd10_character, secret=True)

    texts, _ = _open_all(
        [demoted], reverse("live_campaign_stream", args=[table.pk]), demote_then_roll
    )
    assert [f for f in parse(texts[0]) if f.event == "roll"] == []


def test_sheet_pages_at_a_table_share_the_tables_read(
    make_user, player, table, swd10_character, gm
):
    # The table's GM and the owner on the same sheet's page: one read each visibility.
    holder = {}
    texts, reads = _open_all(
        [player, gm],
        reverse("live_sheet_stream", args=[swd10_character.pk]),
        lambda: holder.setdefault("entry", _roll(player, swd10_character)),
    )
    assert sorted(reads) == [("roll", table.pk, False), ("roll", table.pk, True)]
    for text in texts:
        assert [f.data for f in parse(text) if f.event == "roll"][-1] == str(holder["entry"].pk)
