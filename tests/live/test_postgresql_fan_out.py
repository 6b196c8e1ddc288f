"""Across app servers on PostgreSQL: an event published on one connection after its commit
reaches the streams listening on another (LISTEN/NOTIFY), and a stream there wakes on it.
Run with DATABASE_URL=postgres://…; skipped on SQLite, which serves streams in one process."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.urls import reverse

from sheets.live import bus
from tests.live.conftest import run_async, stream

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("set DATABASE_URL=postgres://… to run the fan-out tests on PostgreSQL")


def test_an_event_committed_on_one_connection_reaches_a_listener_on_another():
    def publish_and_commit():
        with transaction.atomic():
            bus.roll_logged(7, 9)
            # Not before the commit: a listener hears nothing of a write still open.
            assert connection.run_on_commit

    def publish_and_roll_back():
        try:
            with transaction.atomic():
                bus.roll_logged(8, 10)
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass

    async def scenario() -> list[bus.Event]:
        heard: list[bus.Event] = []
        listening = asyncio.Event()
        # A second server's listener: its own connection, its own loop's streams.
        listener = asyncio.ensure_future(bus._listen_postgresql(listening))
        await asyncio.wait_for(listening.wait(), 10)
        queue: asyncio.Queue = asyncio.Queue()
        bus.HUB._queues.add((asyncio.get_running_loop(), queue))
        try:
            await sync_to_async(publish_and_roll_back, thread_sensitive=False)()
            await sync_to_async(publish_and_commit, thread_sensitive=False)()
            heard.append(await asyncio.wait_for(queue.get(), 5))
            await asyncio.sleep(0.3)
            while not queue.empty():
                heard.append(queue.get_nowait())
        finally:
            bus.HUB._queues.discard((asyncio.get_running_loop(), queue))
            listener.cancel()
        return heard

    heard = run_async(scenario)
    assert heard == [bus.Event("roll", 7, 9)]


def test_a_stream_wakes_on_a_roll_made_through_another_connection(
    player, other_player, table, swd10_character, roll
):
    holder = {}

    def roll_after_the_listener_is_up():
        import time

        time.sleep(0.5)
        holder["entry"] = roll(player, swd10_character)

    answer = stream(
        other_player,
        reverse("live_campaign_stream", args=[table.pk]),
        then=roll_after_the_listener_is_up,
        seconds=1.0,
    )
    rolls = [frame.data for frame in answer.frames if frame.event == "roll"]
    assert rolls == [str(holder["entry"].pk)]


def test_a_stream_that_subscribed_before_the_listener_heard_is_woken_once_it_hears():
    """The first page of a fresh process subscribes, reads the database, and only then does
    its loop's listener hold LISTEN: a write committed in between had its notice sent to
    nobody. Once the listener hears, every stream is woken to read again."""

    async def scenario() -> bus.Event:
        async with bus.HUB.subscribe() as queue:  # starts this loop's listener
            try:
                return await asyncio.wait_for(queue.get(), 10)
            finally:
                # Its connection closes with it, before the test database is dropped.
                listener = bus.HUB._listeners.pop(asyncio.get_running_loop(), None)
                if listener is not None:
                    listener.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await listener

    assert run_async(scenario) == bus.RESYNC
