"""With REDIS_URL set, sessions are read through Redis, which every worker and app server
shares: a logout on one app server is honoured at once by another (issue 14). Two real
gunicorn servers share one database and the Redis on 127.0.0.1:6379."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import socket
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
import redis
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
REDIS = ("127.0.0.1", 6379)


def _redis_up() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Browser:
    """Just enough of a browser: cookies kept per host-less jar, redirects not followed."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(self, port: int, method: str, path: str, form: str = "") -> tuple[int, str]:
        # A worker answers once it has printed its warm-up sheets: generous on a busy machine.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if form:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=form or None, headers=headers)
        response = connection.getresponse()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        body = response.read().decode()
        connection.close()
        return response.status, body

    def csrf(self, port: int, path: str) -> str:
        _, body = self.request(port, "GET", path)
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)


def _start(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "sheets.wsgi:application", "-b", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.05)
    server.terminate()
    raise RuntimeError(f"gunicorn did not start on port {port}")


@pytest.fixture
def two_servers(tmp_path):
    if not _redis_up():
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    prefix = f"datapad-test-{secrets.token_hex(4)}"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE", "REDIS", "PYTEST"))
    } | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "CACHE_KEY_PREFIX": prefix,
        "DJANGO_SETTINGS_MODULE": "sheets.settings",
    }
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], **run)
    create = (
        "from django.contrib.auth import get_user_model; "
        "get_user_model().objects.create_user('han', password='a-long-test-password-42')"
    )
    subprocess.run([sys.executable, "manage.py", "shell", "-c", create], **run)
    servers = [_start(env, _free_port()) for _ in range(2)]
    try:
        yield [int(server.args[-1].rsplit(":", 1)[1]) for server in servers], prefix
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=120)
        client = redis.Redis(*REDIS)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def test_a_logout_on_one_server_is_honoured_on_the_other(two_servers):
    (first, second), prefix = two_servers
    browser = Browser()
    token = browser.csrf(first, "/accounts/login/")
    status, _ = browser.request(
        first,
        "POST",
        "/accounts/login/",
        f"csrfmiddlewaretoken={token}&username=han&password=a-long-test-password-42",
    )
    assert status == 302 and "sessionid" in browser.cookies
    # The other server knows the session; reading it puts it in that server's cache path.
    assert browser.request(second, "GET", "/characters/")[0] == 200
    assert browser.request(second, "GET", "/characters/")[0] == 200
    assert any(
        browser.cookies["sessionid"] in key.decode()
        for key in redis.Redis(*REDIS).scan_iter(f"{prefix}:*")
    ), "the session is not in Redis"

    token = browser.csrf(first, "/characters/")
    status, _ = browser.request(first, "POST", "/accounts/logout/", f"csrfmiddlewaretoken={token}")
    assert status in (200, 302)
    status, _ = browser.request(second, "GET", "/characters/")
    assert status == 302, "the second server still honours a session logged out on the first"


def test_without_redis_url_sessions_stay_in_the_database():
    if os.environ.get("REDIS_URL"):
        pytest.skip("this run sets REDIS_URL")
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
