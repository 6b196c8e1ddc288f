"""The live streams (Server-Sent Events) and what a page fetches when one tells it of a
change. Each stream is refused like its page (404 for a sheet or table the viewer may not
see) and sends only ids and version numbers; the page fetches what they name through the
usual views, under the same permission selector.
"""

from __future__ import annotations

import asyncio
import copy
import os
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rulesets.core.parsing import ascii_number
from sheets.characters.layouts import Snapshot, drawn_swaps, edit_context, review_status
from sheets.history.revisions import HistoryBroken, state_at
from sheets.live.bus import HUB, Event
from sheets.live.services import (
    CampaignSource,
    Cursor,
    Glance,
    News,
    SheetSource,
    glance,
)
from sheets.permissions import character_for

EVENT_STREAM = "text/event-stream"
RETRY = "retry: 2000\n\n"
# Under WSGI a stream is a poll of the sheet's version: its roll log polls on its own every
# 2 s meanwhile, so the sheet's news may wait longer.
WSGI_RETRY = "retry: 10000\n\n"
# A comment line this often keeps proxies from closing an idle stream, and re-reads the
# database (a notification lost between servers costs at most this long).
HEARTBEAT = 15.0


def _seconds() -> float:
    """How long one stream lasts before the browser reconnects (with Last-Event-ID):
    bounds what a stream holds, and moves viewers onto a restarted server."""
    return float(getattr(settings, "LIVE_STREAM_SECONDS", 300))


def _read(function, *args):
    """A database read from a stream, on the shared worker threads (not one thread per
    stream, each holding its own connection): 500 streams hold a handful of connections."""

    def run():
        try:
            return function(*args)
        finally:
            # Kept for the thread's next read (the pool of threads is small and lives as
            # long as the server): closed only when broken, as after a database restart.
            for each in connections.all(initialized_only=True):
                if each.errors_occurred and not each.is_usable():
                    each.close()

    return sync_to_async(run, thread_sensitive=False)()


def _read_in_request(function, *args):
    """A read on the request's own thread and connection: under WSGI, where the request
    ends with the answer (and a test's transaction is that connection's)."""
    return sync_to_async(function, thread_sensitive=True)(*args)


def _frame(news: News) -> str:
    lines = []
    if news.roll is not None:
        lines.append(f"id: {news.cursor}\nevent: roll\ndata: {news.roll}\n\n")
    if news.version is not None:
        lines.append(f"id: {news.cursor}\nevent: sheet\ndata: {news.version}\n\n")
    if news.scene is not None:
        lines.append(f"id: {news.cursor}\nevent: scene\ndata: {news.scene}\n\n")
    return "".join(lines)


def _start(request: HttpRequest, source) -> Cursor:
    """Where to resume: the browser's Last-Event-ID, else what the page was drawn with
    (?after=<roll id>&version=<n>), else now."""
    resumed = Cursor.parse(request.headers.get("Last-Event-ID"))
    if resumed is not None:
        return resumed
    after = ascii_number(request.GET.get("after", ""))
    version = ascii_number(request.GET.get("version", ""))
    if after is None and version is None:
        return source.start()
    return Cursor(after or 0, version or 0)


def _let_go_of_connections() -> None:
    for each in connections.all(initialized_only=True):
        each.close()


# Streams opening at once (a table's pages reconnecting after a restart): each reads its
# session on its request's own thread and connection until it lets go of it. Without a
# bound, 500 of them held 500 connections together, past PostgreSQL's max_connections.
_OPENING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _opening_gate() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    gate = _OPENING.get(loop)
    if gate is None:
        gate = _OPENING[loop] = asyncio.Semaphore(
            int(getattr(settings, "LIVE_STREAMS_OPENING_AT_ONCE", 20))
        )
    return gate


# One read per event, table and visibility, shared by every stream of this process that
# the event wakes (a table of 50 open pages: one read a roll, not 50). Keyed by the event
# object itself, which the hub hands to every queue alike; the newest few are kept, so a
# stream that lags reads for itself at worst.
_GLANCES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
GLANCES_KEPT = 64


def shared_glance(event: Event, kind: str, pk: int, gm: bool) -> asyncio.Future[Glance]:
    """The one read of a table's rolls or a scene (`kind`, `pk`) as seen as a GM or not,
    for `event`: started by the first stream that asks, awaited by the rest."""
    loop = asyncio.get_running_loop()
    kept = _GLANCES.get(loop)
    if kept is None:
        kept = _GLANCES[loop] = OrderedDict()
    key = (id(event), kind, pk, gm)
    found = kept.get(key)
    if found is not None and found[0] is event:
        return found[1]
    task = loop.create_task(_read(glance, kind, pk, gm))
    # The event is kept beside its read: while it lives, no other object takes its id.
    kept[key] = (event, task)
    while len(kept) > GLANCES_KEPT:
        kept.popitem(last=False)
    return task


# Whether streams share their reads (the default). `make load` turns it off on a server of
# its own (DATAPAD_LIVE_SHARED_READS=0): the one-read-a-viewer reference it measures the
# shared reads against, in the same run.
SHARING = os.environ.get("DATAPAD_LIVE_SHARED_READS", "1") != "0"


async def _news(source, cursor: Cursor, event: Event | None) -> News:
    """What is new for this stream: from the read shared by every stream the event woke
    when it is a roll at a table or a change to a scene, else (a heartbeat, the sheet's
    own version, a resync) read for this viewer alone through the selector."""
    shared = source.shared(event) if event is not None and SHARING else None
    if shared is not None:
        try:
            seen = await asyncio.shield(shared_glance(event, *shared))
        except Exception:
            # The shared read failed (the database away a moment): each reads for itself,
            # and a viewer refused now ends its stream there.
            seen = None
        news = None if seen is None else source.news_from(seen, cursor)
        if news is not None:
            return news
    return await _read(source.news, cursor)


async def _events(source, cursor: Cursor) -> AsyncIterator[str]:
    # First the browser's reconnection delay (2 s after the stream ends).
    yield RETRY
    async with HUB.subscribe() as queue:
        ends = time.monotonic() + _seconds()
        event = None
        while True:
            try:
                news = await _news(source, cursor, event)
            except Exception:
                # Refused now (removed from the table, the sheet deleted): end the stream;
                # the browser's reconnect is refused like the page.
                return
            cursor = news.cursor
            if frame := _frame(news):
                yield frame
            event = None
            while event is None or not source.wants(event):
                left = ends - time.monotonic()
                if left <= 0:
                    return
                try:
                    event = await asyncio.wait_for(queue.get(), min(HEARTBEAT, left))
                except TimeoutError:
                    # Keeps proxies from closing an idle stream; and reads anew.
                    yield ": still here\n\n"
                    break


async def _stream(request: HttpRequest, make_source, pk: int) -> HttpResponse:
    # Only an async server holds a stream open. Under WSGI the answer is what is new
    # alone, and the browser asks again in 10 s: polling, never a sync worker held.
    hold = isinstance(request, ASGIRequest)
    if not hold:
        return await _opened(request, make_source, pk, hold=False)
    async with _opening_gate():
        try:
            return await _opened(request, make_source, pk, hold=True)
        finally:
            # The request's own thread read the session and the user: its connection would
            # stay open as long as the stream does (one per viewer).
            await sync_to_async(_let_go_of_connections, thread_sensitive=True)()


async def _opened(request: HttpRequest, make_source, pk: int, *, hold: bool) -> HttpResponse:
    user = await request.auser()
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    read = _read if hold else _read_in_request
    # Http404 from the selector here is the page's own 404, before any byte is sent.
    source = await read(make_source, user, pk)
    cursor = await read(_start, request, source)
    if hold:
        response: HttpResponse = StreamingHttpResponse(
            _events(source, cursor), content_type=EVENT_STREAM
        )
    else:
        news = await read(source.news, cursor)
        response = HttpResponse(WSGI_RETRY + _frame(news), content_type=EVENT_STREAM)
    # Never kept by a cache; not compressed (GZipMiddleware leaves an encoded answer be),
    # as a compressor may hold events back until its buffer fills.
    response["Cache-Control"] = "private, no-cache, no-store"
    response["Content-Encoding"] = "identity"
    # nginx and other proxies that buffer answers would hold the events back.
    response["X-Accel-Buffering"] = "no"
    return response


@require_GET
async def sheet_stream(request: HttpRequest, pk: int) -> HttpResponse:
    return await _stream(request, SheetSource, pk)


@require_GET
async def campaign_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's stream: its roll log's news; with ?scene=<id>, one of its scenes' instead
    (a scene page: a frame when what its viewer sees of the scene changed)."""
    if "scene" not in request.GET:
        return await _stream(request, CampaignSource, pk)
    scene = ascii_number(request.GET["scene"])
    if scene is None:
        raise Http404("No such scene.")
    return await _stream(request, lambda user, pk: CampaignSource(user, pk, scene), pk)


@require_GET
def sheet_changes(request: HttpRequest, pk: int) -> HttpResponse:
    """What changed on a sheet since the version a page shows (?since=<n>): the rows,
    sections and panels that differ, each swapped by its id, the version, and who wrote
    them, as an edit's answer would. Not logged in, or not a sheet this viewer may see:
    refused like the page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    character, access = character_for(request.user, pk)
    since = ascii_number(request.GET.get("since", "")) or 0
    if since >= character.version:
        return HttpResponse(status=204)
    try:
        before = _snapshot_at(character, since)
    except HistoryBroken:
        before = None
    others = sorted(
        {
            revision.author.username
            for revision in character.revisions.filter(version__gt=since)
            .exclude(author=request.user)
            .select_related("author")
            if revision.author is not None
        }
    )
    if before is None:
        before = Snapshot.of(character)
    context = edit_context(character, access=access, before=before)
    context |= review_status(character, access)
    # The ledger's sums are today's on both sides: show the budget whatever moved.
    context["swap_budget"] = True
    if others:
        context["merged"] = f"Changed by {', '.join(others)}."
    context["live_version"] = character.version
    return render(request, "live/changes.html", drawn_swaps(request, context))


def _snapshot_at(character, version: int) -> Snapshot:
    state = state_at(character, version)
    old = copy.copy(character)
    old.__dict__.update(
        name=state["name"], rule_settings=state["settings"], sheet=state["sheet"], version=version
    )
    return Snapshot.of(old)
