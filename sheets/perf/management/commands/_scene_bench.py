"""`make bench`'s scene part (issue 28 item 4): a scene of 30 participants (a hero, four
NPCs, 25 minions one by one), what its tracker costs to draw, a turn step and a hit on a
minion, each beside a logged-in trivial view in the same run. Figures only."""

from __future__ import annotations

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
from sheets.npcs.services import group_create, npc_create
from sheets.scenes.models import Participant, Scene
from sheets.scenes.services import initiative_roll, participants_add, scene_create

PARTICIPANTS = 30


def _once(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _describe(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms"


def measure_scene(out: Callable[[str], object], runs: int) -> None:
    users = get_user_model().objects
    gm = users.create_user("bench-scene-gm", password="bench-pass-123")
    player = users.create_user("bench-scene-player", password="bench-pass-123")
    campaign = campaign_create(user=gm, name="Bench scene table", system="swd10")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    hero = character_create(
        owner=player, name="Scene hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=hero.pk)
    npcs = [npc_create(user=gm, campaign_id=campaign.pk, name=f"Villain {n}") for n in range(4)]
    group = group_create(
        user=gm,
        campaign_id=campaign.pk,
        block_id=str(npcs[0].pk),
        name="Troopers",
        count=str(PARTICIPANTS - 5),
    )
    scene = scene_create(user=gm, campaign_id=campaign.pk, name="Bench scene")
    picks = [f"character:{hero.pk}", *(f"character:{npc.pk}" for npc in npcs)]
    picks += [f"member:{member.pk}" for member in group.members.all()]
    participants_add(user=gm, scene_id=scene.pk, picks=picks, expected_version=1)
    initiative_roll(user=gm, scene_id=scene.pk, expected_version=2)
    if Participant.objects.filter(scene=scene).count() != PARTICIPANTS:
        raise RuntimeError("the bench's scene does not hold 30 participants")
    target = Participant.objects.filter(scene=scene, kind="member").first()

    client = Client()
    client.force_login(gm)
    tracker = reverse("scene_tracker", args=[scene.pk])
    step = reverse("scene_step", args=[scene.pk])
    hit = reverse("scene_hit", args=[scene.pk])

    def version() -> int:
        return Scene.objects.values_list("version", flat=True).get(pk=scene.pk)

    def post(url: str, data: dict) -> float:
        data = {"version": version(), **data}  # read before the clock starts
        start = time.perf_counter()
        response = client.post(url, data)
        spent = time.perf_counter() - start
        if response.status_code != 302:
            raise RuntimeError(f"the bench's post to {url} answered {response.status_code}")
        return spent

    page_runs = max(20, runs)
    out(f"[Scene tracker: {PARTICIPANTS} participants, {page_runs} runs each]")
    trivial, draws, steps, hits = [], [], [], []
    for _ in range(page_runs):  # interleaved, so the machine's load falls on all alike
        trivial.append(_once(lambda: client.get("/bench/trivial-logged-in/")))
        draws.append(_once(lambda: client.get(tracker)))
        steps.append(post(step, {"direction": "next"}))
        hits.append(post(hit, {"participant": target.pk, "levels": "1"}))
    with CaptureQueriesContext(connection) as queries:
        client.get(tracker)
    reference = statistics.median(trivial)
    out(f"  trivial view, logged in           {_describe(trivial)}   (the reference)")
    out(f"  tracker drawn (GM)                {_describe(draws)}")
    out(f"  turn step (POST, redirect)        {_describe(steps)}")
    out(f"  hit on a minion (POST, redirect)  {_describe(hits)}")
    out(f"  tracker drawn: queries            {len(queries):7d}")
    out(f"  tracker / trivial                 {statistics.median(draws) / reference:7.2f}x")
    out(f"  turn step / trivial               {statistics.median(steps) / reference:7.2f}x")
    out(f"  hit / trivial                     {statistics.median(hits) / reference:7.2f}x")
