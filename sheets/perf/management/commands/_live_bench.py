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
from sheets.live.services import Cursor, SheetSource
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
