"""`make load`'s live part (issue 30), `manage.py loadtest --live`: N players at one table on
uvicorn, each with their sheet's stream open, one edit every few seconds each, and rolls
made at the table. Figures only: the server's CPU per idle connected player, the time from
a roll to its arrival on the other players' streams (p50/p95), the edits' latency without
and with the streams open, and the streams lost."""

from __future__ import annotations

import http.client
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create
from sheets.rolls.services import roll_make, rollables_of

TICKS = os.sysconf("SC_CLK_TCK")


def prepare_table(count: int, password: str) -> tuple[int, list[tuple[str, int, str]]]:
    """A SWd10 table of `count` players, each with a demo sheet at it (fresh each run)."""
    users = get_user_model()
    users.objects.filter(username__startswith="live-").delete()
    gm = users.objects.create_user("live-gm", password=password)
    campaign = campaign_create(user=gm, name="Live load table", system="swd10")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    demo = get_ruleset("swd10").demo_sheet()
    made = []
    for index in range(count):
        name = f"live-{index}"
        user = users.objects.create_user(name, password=password)
        campaign_join(user=user, token=link.token)
        character = character_create(owner=user, name=f"Live {index}", system="swd10", sheet=demo)
        character_bring(user=user, campaign_id=campaign.pk, character_id=character.pk)
        made.append((name, character.pk, "swd10"))
    return campaign.pk, made


def start_uvicorn(port: int, workers: int, env: dict[str, str]) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "sheets.asgi:application",
            "--workers",
            str(workers),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--timeout-graceful-shutdown",
            "2",
        ],
        cwd=settings.BASE_DIR,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise CommandError("uvicorn did not start")


def server_cpu_seconds(pid: int) -> float:
    """CPU time of the server process and its workers (Linux /proc)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


class Stream(threading.Thread):
    """One open sheet page's stream: when each roll id arrived."""

    def __init__(self, port: int, cookies: dict[str, str], pk: int) -> None:
        super().__init__(daemon=True)
        self.port, self.cookies, self.pk = port, cookies, pk
        self.arrivals: list[tuple[int, float]] = []
        self.open = threading.Event()
        self.lost = False

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request("GET", f"/live/characters/{self.pk}/stream", headers={"Cookie": cookie})
        response = conn.getresponse()
        if response.status != 200:
            self.lost = True
            self.open.set()
            return
        self.open.set()
        event = ""
        try:
            while True:
                line = response.readline()
                if not line:
                    self.lost = True
                    return
                text = line.decode().rstrip("\r\n")
                if text.startswith("event:"):
                    event = text[6:].strip()
                elif text.startswith("data:") and event == "roll":
                    self.arrivals.append((int(text[5:].strip()), time.monotonic()))
                elif not text:
                    event = ""
        except OSError:
            self.lost = True


def run_live(
    out: Callable[[str], object],
    *,
    players: list,
    campaign_pk: int,
    port: int,
    seconds: float,
    pause: float,
    server: subprocess.Popen,
    run_phase: Callable,
    report: Callable,
) -> float:
    # The same edits first with no page's stream open: the reference for the edits' latency.
    report(run_phase("htmx trait edit, no streams", players, "edit", pause, seconds))
    streams = open_streams(players, port)
    connected = sum(not stream.lost for stream in streams)
    out(f"Live: {connected} of {len(streams)} streams open on uvicorn")

    # Idle: every page open, nobody doing anything.
    time.sleep(2)
    cpu_before, began = server_cpu_seconds(server.pid), time.monotonic()
    time.sleep(seconds)
    idle_cpu = server_cpu_seconds(server.pid) - cpu_before
    idle_seconds = time.monotonic() - began
    out(
        f"  server CPU, {connected} idle streams: {idle_cpu / idle_seconds * 100:.2f} % of a core"
        f" ({idle_cpu / idle_seconds / max(connected, 1) * 1e6:.1f} us a second per player)"
    )

    # Rolls alone, every stream open: what a roll costs the server (issue 30's one read
    # per table and visibility, against one a viewer: `make load` measures both).
    per_roll = rolls_only(out, "shared reads", players, campaign_pk, streams, seconds, server)

    edits_with_rolls(
        out, "", players, campaign_pk, streams, seconds, pause, server, run_phase, report
    )
    lost = sum(stream.lost for stream in streams)
    out(f"  streams lost during the run: {lost}")
    return per_roll


def edits_with_rolls(
    out, label, players, campaign_pk, streams, seconds, pause, server, run_phase, report
) -> None:
    """Rolls at the table while every player edits every `pause` s: the edits' latency,
    the server's CPU, and when each roll reaches the other players' streams."""
    stop = threading.Event()
    rolled: list[tuple[int, int, float]] = []
    thread = threading.Thread(
        target=_roller, args=(players, campaign_pk, rolled, stop, (0.5, 1.5)), daemon=True
    )
    cpu_before = server_cpu_seconds(server.pid)
    thread.start()
    name = "htmx trait edit, streams open, rolls" + (f" ({label})" if label else "")
    report(run_phase(name, players, "edit", pause, seconds))
    stop.set()
    thread.join(10)
    time.sleep(2)  # the last rolls' events on their way
    busy = server_cpu_seconds(server.pid) - cpu_before
    out(f"  server CPU under that load: {busy / seconds * 100:.1f} % of a core")
    out("  " + _arrivals(rolled, streams))


def open_streams(players: list, port: int) -> list[Stream]:
    streams = [Stream(port, player.cookies, player.pk) for player in players]
    for stream in streams:
        stream.start()
    for stream in streams:
        stream.open.wait(30)
    return streams


def _roller(players, campaign_pk, rolled, stop, gap: tuple[float, float]) -> None:
    from sheets.characters.models import Character

    characters = list(Character.objects.filter(pk__in=[p.pk for p in players]))
    while not stop.is_set():
        character = random.choice(characters)
        began = time.monotonic()
        entry = roll_make(
            user=character.owner,
            character_id=character.pk,
            rollable_key=rollables_of(character)[0].key,
            raw={},
            drawn_campaign=campaign_pk,
        )
        rolled.append((entry.pk, character.pk, began))
        stop.wait(random.uniform(*gap))


def _arrivals(rolled: list[tuple[int, int, float]], streams: list[Stream]) -> str:
    """When each roll reached the other players' open streams."""
    delays, missed = [], 0
    for roll_pk, character_pk, began in rolled:
        for stream in streams:
            if stream.pk == character_pk or stream.lost:
                continue
            arrived = next((at for pk, at in stream.arrivals if pk >= roll_pk), None)
            if arrived is None:
                missed += 1
            else:
                delays.append(arrived - began)
    if not delays:
        return f"roll to the other pages: {len(rolled)} rolls, none arrived"
    ordered = sorted(delays)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"roll to the other pages: {len(rolled)} rolls, {len(delays)} arrivals, "
        f"p50 {statistics.median(delays) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms, {missed} not arrived"
    )


def rolls_only(
    out: Callable[[str], object],
    label: str,
    players: list,
    campaign_pk: int,
    streams: list[Stream],
    seconds: float,
    server: subprocess.Popen,
) -> float:
    """Rolls every 0.25-0.75 s and nothing else, every stream open: the server's CPU a
    roll, less what the open streams cost idle (measured just before, as long)."""
    cpu_before, began = server_cpu_seconds(server.pid), time.monotonic()
    time.sleep(seconds / 2)
    idle_rate = (server_cpu_seconds(server.pid) - cpu_before) / (time.monotonic() - began)
    rolled: list[tuple[int, int, float]] = []
    stop = threading.Event()
    thread = threading.Thread(
        target=_roller, args=(players, campaign_pk, rolled, stop, (0.25, 0.75)), daemon=True
    )
    cpu_before, began = server_cpu_seconds(server.pid), time.monotonic()
    thread.start()
    time.sleep(seconds)
    stop.set()
    thread.join(10)
    time.sleep(2)  # the last rolls' events on their way
    busy = server_cpu_seconds(server.pid) - cpu_before - idle_rate * (time.monotonic() - began)
    per_roll = busy / max(len(rolled), 1)
    out(
        f"  rolls alone, {label}: {len(rolled)} rolls, server CPU "
        f"{per_roll * 1000:.1f} ms a roll ({per_roll / max(len(streams), 1) * 1e6:.0f} us a "
        f"roll per open page)"
    )
    out("    " + _arrivals(rolled, streams))
    return per_roll
