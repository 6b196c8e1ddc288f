"""Fan-out of live events: published after commit, delivered to every stream of every
app server.

- PostgreSQL (DATABASE_URL): `NOTIFY` on one channel; each server process holds one
  connection that `LISTEN`s (no new service).
- Redis (REDIS_URL set, on a database other than PostgreSQL): pub/sub on the same channel.
- SQLite: in-process only, so one process serves the streams (`make run`).

An event is a wake-up call, never the data: `{"kind": "roll"|"sheet"|"scene_changed",
"campaign": id, "character": id, "scene": id}`. A lost notification costs a delay, not an
entry: every stream re-reads the database on its heartbeat too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction

log = logging.getLogger(__name__)

CHANNEL = "datapad_live"
# A queue a stream has not read this far behind is dropped to a wake-up: the stream
# re-reads the database anyway, so nothing is lost.
QUEUE_SIZE = 64


@dataclass(frozen=True)
class Event:
    kind: str
    campaign: int | None = None
    character: int | None = None
    scene: int | None = None

    def encode(self) -> str:
        return json.dumps(
            {
                "kind": self.kind,
                "campaign": self.campaign,
                "character": self.character,
                "scene": self.scene,
            }
        )

    @classmethod
    def decode(cls, raw: str | bytes) -> Event | None:
        try:
            data = json.loads(raw)
            return cls(
                str(data["kind"]), data.get("campaign"), data.get("character"), data.get("scene")
            )
        except (ValueError, KeyError, TypeError):
            return None


# A catch-all wake-up: a listener that reconnected may have missed events.
RESYNC = Event("resync")


def backend() -> str:
    """Which fan-out this deployment uses."""
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        return "postgresql"
    if getattr(settings, "REDIS_URL", ""):
        return "redis"
    return "local"


# Publishing --------------------------------------------------------------------------------


def publish(event: Event) -> None:
    """Send `event` once the current transaction commits (at once outside one): a stream
    never hears of a write that rolled back, nor before its rows can be read."""
    transaction.on_commit(lambda: _send(event))


def _send(event: Event) -> None:
    try:
        kind = backend()
        if kind == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, event.encode()])
        elif kind == "redis":
            _redis().publish(CHANNEL, event.encode())
        else:
            HUB.deliver(event)
    except Exception:
        # The write is committed: a page still catches up on its next heartbeat or poll.
        log.exception("live event not sent: %s", event)


_redis_client: Any = None


def _redis() -> Any:
    global _redis_client
    if _redis_client is None:
        import redis

        _redis_client = redis.Redis.from_url(settings.REDIS_URL)
    return _redis_client


# Receiving ---------------------------------------------------------------------------------


class Hub:
    """This process's streams, each a queue on its event loop; and, for PostgreSQL or
    Redis, one listener task per event loop that feeds them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = set()
        self._listeners: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}

    def deliver(self, event: Event) -> None:
        with self._lock:
            queues = list(self._queues)
        for loop, queue in queues:
            with contextlib.suppress(RuntimeError):  # a loop that closed meanwhile
                loop.call_soon_threadsafe(_offer, queue, event)

    @property
    def streams(self) -> int:
        return len(self._queues)

    @contextlib.asynccontextmanager
    async def subscribe(self) -> AsyncIterator[asyncio.Queue]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        entry = (loop, queue)
        with self._lock:
            self._queues.add(entry)
            self._ensure_listener(loop)
        try:
            yield queue
        finally:
            with self._lock:
                self._queues.discard(entry)

    def _ensure_listener(self, loop: asyncio.AbstractEventLoop) -> None:
        kind = backend()
        if kind == "local":
            return
        task = self._listeners.get(loop)
        if task is None or task.done():
            listen = _listen_postgresql if kind == "postgresql" else _listen_redis
            self._listeners[loop] = loop.create_task(_keep_listening(listen))


def _offer(queue: asyncio.Queue, event: Event) -> None:
    try:
        queue.put_nowait(event)
    except asyncio.QueueFull:
        # Far behind: one wake-up in place of the rest (the stream re-reads the database).
        with contextlib.suppress(asyncio.QueueEmpty):
            while True:
                queue.get_nowait()
        queue.put_nowait(RESYNC)


HUB = Hub()


async def _keep_listening(listen) -> None:
    """Listen until the loop ends; after a dropped connection, listen again and wake
    every stream (what was sent meanwhile is in the database). Each time the listener
    starts to hear, it wakes every stream too: a stream that subscribed before the
    listener held its LISTEN (the first page of a fresh process) read the database before
    a write whose notice nobody heard, and would wait for its heartbeat to see it."""
    pause = 0.5
    while True:
        started = asyncio.Event()
        wake = asyncio.get_running_loop().create_task(_wake_once(started))
        try:
            await listen(started)
            pause = 0.5
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("live listener lost its connection; listening again", exc_info=True)
        finally:
            wake.cancel()
        HUB.deliver(RESYNC)
        await asyncio.sleep(pause)
        pause = min(pause * 2, 10)


async def _wake_once(started: asyncio.Event) -> None:
    await started.wait()
    HUB.deliver(RESYNC)


def postgres_conninfo() -> str:
    """The default database's connection, as psycopg's key=value string."""
    from psycopg.conninfo import make_conninfo

    db = settings.DATABASES["default"]
    parts = {
        "dbname": db.get("NAME"),
        "user": db.get("USER"),
        "password": db.get("PASSWORD"),
        "host": db.get("HOST"),
        "port": str(db["PORT"]) if db.get("PORT") else None,
    }
    return make_conninfo(**{key: value for key, value in parts.items() if value})


async def _listen_postgresql(started: asyncio.Event | None = None) -> None:
    import psycopg

    async with await psycopg.AsyncConnection.connect(postgres_conninfo(), autocommit=True) as conn:
        await conn.execute(f"LISTEN {CHANNEL}")
        if started is not None:
            started.set()
        async for notice in conn.notifies():
            event = Event.decode(notice.payload)
            if event is not None:
                HUB.deliver(event)


async def _listen_redis(started: asyncio.Event | None = None) -> None:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        async with client.pubsub() as pubsub:
            await pubsub.subscribe(CHANNEL)
            if started is not None:
                started.set()
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                event = Event.decode(message["data"])
                if event is not None:
                    HUB.deliver(event)
    finally:
        await client.aclose()


# What the writing services call (one line each) ------------------------------------------


def roll_logged(campaign_id: int | None, character_id: int | None) -> None:
    """A roll entered a log: the table's, or, outside any table, its character's."""
    publish(Event("roll", campaign_id, character_id))


def sheet_written(character_id: int, campaign_id: int | None) -> None:
    """A character's sheet has a new version (an edit, a mark, an award, a restore)."""
    publish(Event("sheet", campaign_id, character_id))


SCENE_CHANGED = "scene_changed"


def scene_changed(campaign_id: int, scene_id: int) -> None:
    """What the players may see of a scene may have changed (its order, a wound, a ship)."""
    publish(Event(SCENE_CHANGED, campaign_id, scene=scene_id))
