"""What the live tests share: reading a stream the way a browser does, and rolls to send."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import random
from dataclasses import dataclass

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

from sheets.rolls.services import roll_make, rollables_of


def run_async(function, *args):
    """Run `function` (a coroutine function) to its end from sync code, in a thread of its
    own: a browser test earlier in this worker leaves Playwright's event loop running in
    the main thread, and asgiref refuses to start another there."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(async_to_sync(function), *args).result()


@dataclass(frozen=True)
class Frame:
    """One Server-Sent Event as the browser's EventSource reads it."""

    event: str
    data: str
    id: str


def parse(text: str) -> list[Frame]:
    frames = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "data" in fields:
            frames.append(
                Frame(fields.get("event", "message"), fields["data"], fields.get("id", ""))
            )
    return frames


@dataclass
class Answer:
    status: int
    headers: dict
    text: str

    @property
    def frames(self) -> list[Frame]:
        return parse(self.text)


def stream(user, url: str, *, last_event_id: str = "", seconds: float = 0.3, then=None) -> Answer:
    """GET `url` through Django's ASGI handler as `user` (None: nobody logged in), reading
    for `seconds` (or until `then`, a function run once the stream is open, has run and
    its events came); the stream is closed as a browser leaving the page would."""

    async def read() -> Answer:
        client = AsyncClient()
        if user is not None:
            await client.aforce_login(user)
        headers = {"Last-Event-ID": last_event_id} if last_event_id else {}
        response = await client.get(url, headers=headers)
        if not response.streaming:
            return Answer(response.status_code, dict(response.headers), response.content.decode())
        chunks: list[str] = []
        iterator = response.streaming_content.__aiter__()

        async def pull():
            async for chunk in iterator:
                chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)

        task = asyncio.ensure_future(pull())
        await asyncio.sleep(0.05)
        if then is not None:
            await asyncio.get_running_loop().run_in_executor(None, then)
        await asyncio.sleep(seconds)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await iterator.aclose()
        return Answer(response.status_code, dict(response.headers), "".join(chunks))

    return run_async(read)


@pytest.fixture
def roll():
    """Roll the character's first rollable as `user` (`secret`: a GM's secret roll)."""

    def make(user, character, *, secret: bool = False):
        return roll_make(
            user=user,
            character_id=character.pk,
            rollable_key=rollables_of(character)[0].key,
            raw={},
            secret=secret,
            drawn_campaign=character.campaign_id,
            rng=random.Random(7),
        )

    return make
