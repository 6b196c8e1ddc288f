"""A Datapad of its own for a test: a file SQLite database, `manage.py runserver` and
`manage.py db_worker` as real processes, and a browser-like HTTP client (session cookie,
CSRF token, htmx header). What the tests here do to it (kill -9 a worker, edit while a
worker writes) needs real processes sharing a real database file."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
CSRF = "t" * 32  # any 32 letters serve as the CSRF secret when cookie and header agree

SEED = """
import json
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create
from sheets.characters.services import character_approve, character_create, character_submit

approved, others = APPROVED, OTHERS
User = get_user_model()
gm = User.objects.create_user("gm_live", password="a-long-test-password-42")
player = User.objects.create_user("player_live", password="a-long-test-password-42")
campaign = campaign_create(user=gm, name="Live Table", system="swd10")
campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
for number in range(approved):
    sheet = character_create(owner=player, name=f"Pilot {number:02d}", system="swd10",
                             campaign=campaign)
    sheet = character_submit(user=player, character_id=sheet.pk, version=sheet.version)
    character_approve(user=gm, character_id=sheet.pk, version=sheet.version)
edited = [character_create(owner=player, name=f"Scout {number}", system="swd10").pk
          for number in range(others)]

def session(user):
    store = SessionStore()
    store["_auth_user_id"] = str(user.pk)
    store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    store["_auth_user_hash"] = user.get_session_auth_hash()
    store.create()
    return store.session_key

print(json.dumps({"campaign": campaign.pk, "edited": edited,
                  "gm": session(gm), "player": session(player)}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Answer:
    status: int
    text: str
    headers: dict


@dataclass
class LiveSite:
    root: Path
    port: int = field(default_factory=free_port)
    processes: list[subprocess.Popen] = field(default_factory=list)
    seeded: dict = field(default_factory=dict)

    @property
    def database(self) -> Path:
        return self.root / "db.sqlite3"

    @property
    def env(self) -> dict[str, str]:
        return os.environ | {
            "DATABASE_URL": f"sqlite:///{self.database}",
            "DJANGO_SETTINGS_MODULE": "tests.printing.live_settings",
            "PYTHONPATH": str(BASE_DIR),
            "DEBUG": "1",
        }

    def manage(self, *args: str, timeout: float = 300) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def seed(self, *, approved: int, others: int = 0) -> dict:
        # `shell -c` passes no arguments on: the counts are written into the script.
        script = SEED.replace("APPROVED", str(approved)).replace("OTHERS", str(others))
        out = self.manage("shell", "-c", script, timeout=300)
        self.seeded = json.loads(out.strip().splitlines()[-1])
        return self.seeded

    def start(self, *args: str, log: str) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env,
            stdout=open(self.root / f"{log}.log", "ab"),  # noqa: SIM115 (lives with the process)
            stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        return process

    def serve(self) -> None:
        self.start("runserver", f"127.0.0.1:{self.port}", "--noreload", "--skip-checks", log="web")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=5)
                return
            except OSError:  # refused, reset or timed out while it starts (URLError too)
                time.sleep(0.2)
        raise AssertionError("the web server did not start: " + self.log("web"))

    def worker(self) -> subprocess.Popen:
        return self.start(
            "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.1", log="worker"
        )

    def kill(self, process: subprocess.Popen) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)  # reaped: no zombie left to look alive

    def log(self, name: str) -> str:
        path = self.root / f"{name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def request(
        self, who: str, method: str, path: str, data: dict | None = None, *, htmx: bool = True
    ) -> Answer:
        headers = {
            "Cookie": f"sessionid={self.seeded[who]}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
        }
        if htmx:
            headers["HX-Request"] = "true"
        body = urllib.parse.urlencode(data or {}).encode() if method == "POST" else None
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=body, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return Answer(
                    response.status,
                    response.read().decode(errors="replace"),
                    dict(response.headers),
                )
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read().decode(errors="replace"), dict(error.headers))

    def rows(self, sql: str, *params) -> list[tuple]:
        """Read the site's database directly, as an operator would."""
        with sqlite3.connect(self.database, timeout=20) as db:
            return db.execute(sql, params).fetchall()


def build_status_path(panel: str) -> str:
    """The status address the panel polls (hx-get), from the panel's HTML."""
    found = re.search(r'hx-get="(/campaigns/\d+/print/\d+/)"', panel)
    assert found, panel[:2000]
    return found.group(1)


def migrated_copy(template: Path, root: Path) -> LiveSite:
    """A site whose database starts as a copy of `template`, a migrated empty database."""
    site = LiveSite(root)
    shutil.copy(template, site.database)
    return site
