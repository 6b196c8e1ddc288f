"""`make bench`'s live part (issue 30): what a roll-log poll with nothing new costs beside a
logged-in trivial view, and what one stream's read on a wake-up costs. Figures only."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create
from sheets.live.services import Cursor, SheetSource, table_glance
from sheets.rolls.models import RollEntry
from sheets.rolls.services import roll_make, rollables_of


def _timed(action: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


def _describe(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms"


def measure_live(out: Callable[[str], object], runs: int) -> None:
    users = get_user_model().objects
    gm = users.create_user("bench-live-gm", password="bench-pass-123")
    player = users.create_user("bench-live-player", password="bench-pass-123")
    campaign = campaign_create(user=gm, name="Bench live table", system="swd10")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character = character_create(
        owner=player, name="Live hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    character.refresh_from_db()
    rollable = rollables_of(character)[0].key
    ids = []
    for index in range(40):  # a log with some history, all of it within the poll's overlap
        entry = roll_make(
            user=player,
            character_id=character.pk,
            rollable_key=rollable,
            raw={},
            drawn_campaign=campaign.pk,
            rng=random.Random(index),
        )
        ids.append(entry.pk)
    client = Client()
    client.force_login(player)
    htmx = {"HX-Request": "true"}
    log = reverse("campaign_roll_log", args=[campaign.pk])
    # A page shows every entry written in the last 30 s ("seen"), the newest last ("after").
    seen = ",".join(map(str, ids))
    nothing_new = f"{log}?after={entry.pk}&seen={seen}"
    one_new = f"{log}?after={entry.pk - 1}&seen={','.join(map(str, ids[:-1]))}"
    if client.get(nothing_new, headers=htmx).status_code != 204:
        raise RuntimeError("the bench's poll with nothing new did not answer 204")
    page_runs = max(20, runs)
    out(f"[Live table: the roll log's poll and a stream's read, {page_runs} runs each]")
    # Interleaved, so the machine's load falls on both alike.
    trivial, polls, fresh = [], [], []
    for _ in range(page_runs):
        trivial += _timed(lambda: client.get("/bench/trivial-logged-in/"), 1)
        polls += _timed(lambda: client.get(nothing_new, headers=htmx), 1)
        fresh += _timed(lambda: client.get(one_new, headers=htmx), 1)
    with CaptureQueriesContext(connection) as queries:
        client.get(nothing_new, headers=htmx)
    with CaptureQueriesContext(connection) as reference_queries:
        client.get("/bench/trivial-logged-in/")
    reference = statistics.median(trivial)
    out(f"  trivial view, logged in           {_describe(trivial)}   (the reference)")
    out(f"  poll, nothing new (204)           {_describe(polls)}")
    out(f"  poll, one new entry (200)         {_describe(fresh)}")
    out(
        f"  poll nothing new: queries         {len(queries):7d}"
        f"   (trivial logged in: {len(reference_queries)})"
    )
    out(f"  poll nothing new / trivial        {statistics.median(polls) / reference:7.2f}x")
    out(f"  poll one new / trivial            {statistics.median(fresh) / reference:7.2f}x")
    # What each open page's stream reads when an event wakes it (one per viewer per event).
    source = SheetSource(player, character.pk)
    cursor = Cursor(entry.pk, character.version)
    wake = _timed(lambda: source.news(cursor), page_runs)
    out(f"  stream wake-up read (per viewer)  {_describe(wake)}")
    out(f"  stream read / trivial             {statistics.median(wake) / reference:7.2f}x")
    _measure_shared(out, gm, campaign, link, runs=page_runs, reference=reference)


TABLE = 50


def _measure_shared(out, gm, campaign, link, *, runs: int, reference: float) -> None:
    """A roll at a table of 50 open sheet pages: what the streams read, one read a viewer
    through the selector (as before issue 30's shared reads; still every heartbeat's) or
    one read for the table and visibility, each stream then checking its viewer's role."""
    users = get_user_model().objects
    demo = get_ruleset("swd10").demo_sheet()
    sources = []
    for index in range(TABLE):
        user = users.create_user(f"bench-live-seat-{index}")
        campaign_join(user=user, token=link.token)
        character = character_create(owner=user, name=f"Seat {index}", system="swd10", sheet=demo)
        character_bring(user=user, campaign_id=campaign.pk, character_id=character.pk)
        sources.append(SheetSource(user, character.pk))
    cursor = Cursor(0, 1)
    for source in sources:  # each stream's first read, as on opening
        source.news(cursor)
    newest = RollEntry.objects.filter(campaign=campaign).order_by("-pk").first().pk
    behind = Cursor(newest - 1, 99)

    def each_reads() -> None:
        for source in sources:
            source.news(behind)

    def shared_read() -> None:
        glance = table_glance(campaign.pk, False)
        for source in sources:
            if source.news_from(glance, behind) is None:
                raise RuntimeError("a seat at the table was not answered from the shared read")

    alone, shared = [], []
    for _ in range(max(5, runs // 4)):  # interleaved, as above
        alone += _timed(each_reads, 1)
        shared += _timed(shared_read, 1)
    with CaptureQueriesContext(connection) as alone_queries:
        each_reads()
    with CaptureQueriesContext(connection) as shared_queries:
        shared_read()
    out(f"  a roll, {TABLE} open sheet pages: one read a viewer (the reference before)")
    out(f"    each stream reads               {_describe(alone)}   {len(alone_queries)} queries")
    out(f"    one shared read                 {_describe(shared)}   {len(shared_queries)} queries")
    ratio = statistics.median(shared) / statistics.median(alone)
    out(f"    shared / each reads             {ratio:7.3f}x")
    out(f"    each reads / trivial            {statistics.median(alone) / reference:7.2f}x")
    out(f"    shared / trivial                {statistics.median(shared) / reference:7.2f}x")
