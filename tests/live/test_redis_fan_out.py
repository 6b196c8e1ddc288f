"""Across app servers with Redis (REDIS_URL set, on a database other than PostgreSQL): an
event published after commit reaches a listener on another connection, through a real
redis-server on a free loopback port (skipped where none is installed)."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, transaction

from sheets.live import bus
from tests.live.conftest import run_async

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def redis_url(settings):
    if connection.vendor == "postgresql":
        pytest.skip("on PostgreSQL the events go through NOTIFY, not Redis")
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no redis-server installed")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.05)
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    bus._redis_client = None
    yield settings.REDIS_URL
    bus._redis_client = None
    process.terminate()
    process.wait(10)


def test_an_event_committed_reaches_a_redis_listener_and_a_rolled_back_one_does_not(redis_url):
    assert bus.backend() == "redis"

    def publish(campaign: int, roll_back: bool) -> None:
        try:
            with transaction.atomic():
                bus.roll_logged(campaign, 1)
                if roll_back:
                    raise RuntimeError("rolled back")
        except RuntimeError:
            pass

    async def scenario() -> list[bus.Event]:
        listening = asyncio.Event()
        listener = asyncio.ensure_future(bus._listen_redis(listening))
        await asyncio.wait_for(listening.wait(), 10)
        queue: asyncio.Queue = asyncio.Queue()
        entry = (asyncio.get_running_loop(), queue)
        bus.HUB._queues.add(entry)
        try:
            await sync_to_async(publish, thread_sensitive=False)(5, True)
            await sync_to_async(publish, thread_sensitive=False)(6, False)
            heard = [await asyncio.wait_for(queue.get(), 5)]
            await asyncio.sleep(0.3)
            while not queue.empty():
                heard.append(queue.get_nowait())
            return heard
        finally:
            bus.HUB._queues.discard(entry)
            listener.cancel()

    assert run_async(scenario) == [bus.Event("roll", 6, 1)]
