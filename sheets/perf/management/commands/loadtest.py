"""Load: N players against gunicorn, each editing their own sheet every few seconds, beside
the same load on the logged-in home page; figures only, nothing asserted. `make load`.

It uses the database DATABASE_URL names (make load: PostgreSQL, database datapad_load,
created if missing) and replaces the load users in it. It starts gunicorn on a loopback
port with production settings (DEBUG off, plain HTTP), so it collects the static files
first. Each phase is bounded in time; then gunicorn is stopped.

Phases: the home page, then edits that flip a trait between a few values (whose drawings
the workers keep), then a text typed anew each time (a sheet no process has seen), each
with the pause between one player's requests (default 2 s: 50 players offer 25 requests a
second), then all three again with no pause at all (saturated: the server's ceiling). The
client is Python threads on the same machine, so on a small machine it takes some of the
CPU the server would have.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from rulesets.registry import get_ruleset, ready_systems
from sheets.characters.services import character_create
from sheets.perf.management.commands._live_load import (
    edits_with_rolls,
    open_streams,
    prepare_table,
    rolls_only,
    run_live,
    start_uvicorn,
)

PASSWORD = "load-test-pass-2024"
VERSION = re.compile(r'<input[^>]*id="sheet-version"[^>]*>')
VALUE = re.compile(r'value="(\d+)"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# What a player changes at the table, on each system's demo sheet (some are in play, where
# only tracking edits go straight onto the sheet): values taken in turn.
EDITS = {
    "swd10": ("abil.stealth", ["1", "2", "3", "0"]),
    "ore": ("willpower.current", ["11", "12"]),
    "weg_d6": ("attr.dexterity", ["3D+1", "3D+2", "3D"]),
    "o3d10": ("hp.current", ["2", "3"]),
}


# A text each player types, new every time: every such edit makes a sheet no process has
# seen, so nothing kept by content answers for it (the edits above cycle through a few
# values, whose drawings the workers keep).
TEXT_EDITS = {
    "swd10": "info.chronicle",
    "ore": "info.career",
    "weg_d6": "info.quote",
    "o3d10": "info.species",
}


@dataclass
class Phase:
    name: str
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    duration: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, seconds: float, error: str = "") -> None:
        with self.lock:
            self.latencies.append(seconds)
            if error:
                self.errors.append(error)


class Player:
    """One logged-in player: cookies, CSRF token, their character and its version."""

    def __init__(self, port: int, username: str, pk: int, system: str) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.pk = pk
        self.trait, self.values = EDITS[system]
        self.text_trait = TEXT_EDITS[system]
        self.step = 0
        self.version = 0
        page = self.get("/accounts/login/")[1]
        form = {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": ""}
        form["csrfmiddlewaretoken"] = TOKEN.search(page).group(1)
        status, _ = self.send("POST", "/accounts/login/", urlencode(form))
        if status != 302:
            raise CommandError(f"{username} could not log in ({status})")
        self.version = self.read_version(self.get(f"/characters/{pk}/")[1])

    def send(self, method: str, path: str, body: str = "", **headers: str) -> tuple[int, str]:
        # gunicorn's sync workers close every connection: one connection per request.
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body or None, headers=headers)
            response = conn.getresponse()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, response.read().decode()
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, str]:
        return self.send("GET", path)

    @staticmethod
    def read_version(body: str) -> int:
        tag = VERSION.search(body)
        value = VALUE.search(tag.group(0)) if tag else None
        if value is None:
            raise ValueError("no sheet version in the answer")
        return int(value.group(1))

    def home(self) -> str:
        status, _ = self.get("/")
        return "" if status == 200 else f"home {status}"

    def edit(self) -> str:
        self.step += 1
        value = self.values[self.step % len(self.values)]
        return self.post({"edit": f"{self.trait}={value}"})

    def type_text(self) -> str:
        self.step += 1
        text = f"Typed {self.step} {secrets.token_hex(4)}"
        return self.post({"only": self.text_trait, self.text_trait: text})

    def post(self, form: dict[str, str]) -> str:
        status, body = self.send(
            "POST",
            f"/characters/{self.pk}/edit/",
            urlencode(form | {"version": self.version}),
            **{"HX-Request": "true", "X-CSRFToken": self.cookies.get("csrftoken", "")},
        )
        if status != 200:
            return f"edit {status}"
        if 'role="alert"' in body:
            return "edit refused"
        try:
            self.version = self.read_version(body)
        except ValueError as missing:
            return f"edit: {missing}"
        return ""


class Command(BaseCommand):
    help = "Run N players against gunicorn and print throughput and latency (make load)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=50)
        parser.add_argument("--pause", type=float, default=2.0, help="seconds between requests")
        parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
        parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
        parser.add_argument("--port", type=int, default=0, help="default: a free port")
        parser.add_argument("--no-saturate", action="store_true", help="skip no-pause phases")
        parser.add_argument(
            "--live",
            action="store_true",
            help="only the live table: players at one table on uvicorn, streams open (issue 30)",
        )

    def handle(self, *args, **options) -> None:
        out = self.stdout.write
        self.ensure_database()
        call_command("migrate", verbosity=0, interactive=False)
        players = self.prepare(options["players"])
        env = os.environ | {
            "DEBUG": "0",
            "HTTPS": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
        }
        out("Collecting static files for DEBUG-off gunicorn...")
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=settings.BASE_DIR,
            env=env,
            check=True,
        )
        port = options["port"] or _free_port()
        if options["live"]:
            self.live(options, env, port)
            return
        server = self.start_server(port, options["workers"], env)
        try:
            logged_in = [Player(port, name, pk, system) for name, pk, system in players]
            out(
                f"Datapad load: {len(logged_in)} players, gunicorn {options['workers']} workers, "
                f"{connection.vendor}, {options['seconds']:.0f} s a phase, {os.cpu_count()} CPUs"
            )
            out(
                f"{'phase':42} {'requests':>8} {'per s':>7} {'p50 ms':>7} {'p95 ms':>7} "
                f"{'p99 ms':>7} {'errors':>6}"
            )
            pauses = [options["pause"]] + ([] if options["no_saturate"] else [0.0])
            for pause in pauses:
                for kind, label in PHASES:
                    when = f"pause {pause:g} s" if pause else "no pause (saturated)"
                    self.report(
                        run_phase(f"{label}, {when}", logged_in, kind, pause, options["seconds"])
                    )
        finally:
            server.terminate()
            server.wait(timeout=20)

    def live(self, options: dict, env: dict[str, str], port: int) -> None:
        """The live table (sheets/perf/management/commands/_live_load.py)."""
        campaign_pk, made = prepare_table(options["players"], PASSWORD)
        server = start_uvicorn(port, options["workers"], env)
        try:
            logged_in = [Player(port, name, pk, system) for name, pk, system in made]
            self.stdout.write(
                f"Datapad live load: {len(logged_in)} players at one table, uvicorn "
                f"{options['workers']} workers, {connection.vendor}, {os.cpu_count()} CPUs"
            )
            shared = run_live(
                self.stdout.write,
                players=logged_in,
                campaign_pk=campaign_pk,
                port=port,
                seconds=options["seconds"],
                pause=options["pause"],
                server=server,
                run_phase=run_phase,
                report=self.report,
            )
            # The reference, in the same run: a server whose streams each read for their
            # viewer on every roll (as before the shared reads), the same rolls alone.
            server.terminate()
            server.wait(timeout=20)
            alone_env = env | {"DATAPAD_LIVE_SHARED_READS": "0"}
            server = start_uvicorn(port, options["workers"], alone_env)
            streams = open_streams(logged_in, port)
            time.sleep(2)
            alone = rolls_only(
                self.stdout.write,
                "one read a viewer (the reference)",
                logged_in,
                campaign_pk,
                streams,
                options["seconds"],
                server,
            )
            ratio = shared / alone if alone > 0 else float("nan")
            self.stdout.write(f"  server CPU a roll, shared / one read a viewer: {ratio:.3f}x")
            edits_with_rolls(
                self.stdout.write,
                "one read a viewer",
                logged_in,
                campaign_pk,
                streams,
                options["seconds"],
                options["pause"],
                server,
                run_phase,
                self.report,
            )
        finally:
            server.terminate()
            server.wait(timeout=20)

    def ensure_database(self) -> None:
        if connection.vendor != "postgresql":
            return
        import psycopg

        params = connection.get_connection_params()
        name = params.pop("dbname")
        with psycopg.connect(**params, dbname="postgres", autocommit=True) as admin:
            exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if exists.fetchone() is None:
                admin.execute(f'CREATE DATABASE "{name}"')

    def prepare(self, count: int) -> list[tuple[str, int, str]]:
        """Fresh load users, one character each, the systems in turn."""
        users = get_user_model()
        users.objects.filter(username__startswith="load-").delete()
        systems = [info.key for info in ready_systems()]
        made = []
        for index in range(count):
            name = f"load-{index}"
            user = users.objects.create_user(name, password=PASSWORD)
            system = systems[index % len(systems)]
            character = character_create(
                owner=user,
                name=f"Load {index}",
                system=system,
                sheet=get_ruleset(system).demo_sheet(),
            )
            made.append((name, character.pk, system))
        return made

    def start_server(self, port: int, workers: int, env: dict[str, str]) -> subprocess.Popen:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "sheets.wsgi:application",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            cwd=settings.BASE_DIR,
            env=env,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return server
            except OSError:
                time.sleep(0.1)
        server.terminate()
        raise CommandError("gunicorn did not start")

    def report(self, phase: Phase) -> None:
        ordered = sorted(phase.latencies)

        def pct(share: float) -> float:
            return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000

        rate = len(ordered) / phase.duration if ordered else 0.0
        errors = len(phase.errors)
        self.stdout.write(
            f"{phase.name:42} {len(ordered):8d} {rate:7.1f} {pct(0.50):7.1f} {pct(0.95):7.1f} "
            f"{pct(0.99):7.1f} {errors:6d}"
        )
        if errors:
            common = statistics.mode(phase.errors)
            self.stdout.write(f"    most common error: {common}")


PHASES = (
    ("home", "logged-in home page"),
    ("edit", "htmx trait edit"),
    ("text", "htmx text edit, new text"),
)


def run_phase(name: str, players: list[Player], kind: str, pause: float, seconds: float) -> Phase:
    """Every player requests, waits `pause` from the start of the last request (never
    piling up when the server is slow), until `seconds` are over."""
    phase = Phase(name)
    start = time.monotonic()
    end = start + seconds

    def play(player: Player) -> None:
        action = {"home": player.home, "edit": player.edit, "text": player.type_text}[kind]
        due = start + random.uniform(0, pause)  # players do not all start at once
        while True:
            now = time.monotonic()
            if due > now:
                time.sleep(due - now)
            began = time.monotonic()
            if began >= end:
                return
            try:
                error = action()
            except (OSError, http.client.HTTPException) as failure:
                error = f"{type(failure).__name__}: {failure}"
            phase.record(time.monotonic() - began, error)
            due = began + pause

    threads = [threading.Thread(target=play, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phase.duration = time.monotonic() - start
    return phase


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
