"""Production-safe defaults: deploy checks, Content Security Policy, private and compressed
pages, the login throttle and the PDF cache (issue 14)."""

from __future__ import annotations

import gzip
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse

from rulesets.swd10 import demo_sheet
from sheets.characters.services import character_apply_edits, character_create
from sheets.middleware import client_address
from sheets.printing.pdf import PDF_CACHE

ROOT = Path(settings.BASE_DIR)


def _production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SECURE_", "HTTPS", "REDIS", "DATABASE"))
    }
    return env | {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "datapad.example",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        **extra,
    }


def _setting_values(env: dict[str, str], *names: str) -> list[str]:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        f"print(*(getattr(settings, n) for n in {names!r}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "sheets.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


def test_production_settings_pass_the_deploy_checks(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(tmp_path),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNINGS" not in result.stdout + result.stderr


def test_production_defaults_are_on_and_each_can_be_turned_off(tmp_path):
    names = (
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
    )
    assert _setting_values(_production_env(tmp_path), *names) == [
        "True",
        "31536000",
        "True",
        "True",
    ]
    # Plain HTTP on a LAN: one switch turns all four off.
    lan = _production_env(tmp_path, HTTPS="0")
    assert _setting_values(lan, *names) == ["False", "0", "False", "False"]
    # Or one at a time.
    no_redirect = _production_env(tmp_path, SECURE_SSL_REDIRECT="0")
    assert _setting_values(no_redirect, *names) == ["False", "31536000", "True", "True"]


@pytest.mark.django_db
def test_development_and_tests_serve_plain_http(client):
    assert not settings.SECURE_SSL_REDIRECT
    assert not settings.SESSION_COOKIE_SECURE
    assert client.get(reverse("login")).status_code == 200


@pytest.fixture
def sheet_url(player_client, player):
    character = character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())
    return reverse("character_sheet", args=[character.pk])


# --- Content Security Policy --------------------------------------------------------------


@pytest.mark.django_db
def test_pages_send_a_policy_without_inline_script_or_style(player_client, sheet_url):
    policy = player_client.get(sheet_url)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.DOTALL)
# What htmx would evaluate as code, which allowEval=false (and the policy) refuse.
EVAL = re.compile(
    r"hx-on|hx-vars|hx-(?:vals|headers)\s*=\s*[\"']\s*(?:js|javascript):|hx-trigger\s*=\s*\"[^\"]*\["
)


@pytest.mark.parametrize(
    "template",
    sorted(ROOT.glob("templates/**/*.html")) + sorted(ROOT.glob("sheets/**/templates/**/*.html")),
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_no_template_carries_inline_script(template):
    text = COMMENT.sub("", template.read_text())
    for attributes in SCRIPT_TAG.findall(text):
        assert "src=" in attributes, "an inline <script> block: move it to static/js/"
    assert not HANDLER.search(text), "an on*= handler: use htmx attributes or static/js/"
    assert not EVAL.search(text), "hx-on, js: values and trigger filters need eval"


# --- Private, compressed pages ------------------------------------------------------------


@pytest.mark.django_db
def test_sheet_and_list_pages_are_private_and_not_stored(player_client, sheet_url):
    for url in (sheet_url, reverse("character_list"), sheet_url + "pdf/"):
        control = player_client.get(url)["Cache-Control"]
        assert "private" in control and "no-store" in control, url


@pytest.mark.django_db
def test_html_is_compressed_for_clients_that_accept_it(player_client, sheet_url):
    plain = player_client.get(sheet_url)
    packed = player_client.get(sheet_url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) * 3 < len(plain.content)
    assert b"Kira Dane" in gzip.decompress(packed.content)


# --- Login throttle (django-axes) ---------------------------------------------------------


def _log_in(client, username: str, password: str, address: str):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


@pytest.mark.django_db
def test_wrong_passwords_for_one_user_lock_that_user_only(client, player, other_player, password):
    # Failures spread over addresses, each below the limit: the user name itself is locked.
    limit = settings.AXES_FAILURE_LIMIT
    for attempt in range(limit):
        response = _log_in(client, player.username, "wrong", f"10.0.{attempt}.1")
        assert response.status_code in (200, 429)
    locked = _log_in(client, player.username, password, "10.9.9.9")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another player, from the same fresh address, is not affected.
    other = _log_in(client, other_player.username, password, "10.9.9.9")
    assert other.status_code == 302
    assert other["Location"] == reverse("character_list")


@pytest.mark.django_db
def test_wrong_passwords_from_one_address_lock_that_address(client, player, password):
    limit = settings.AXES_FAILURE_LIMIT
    for attempt in range(limit):
        _log_in(client, f"guess{attempt}", "wrong", "10.1.1.1")
    locked = _log_in(client, player.username, password, "10.1.1.1")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert _log_in(client, player.username, password, "10.2.2.2").status_code == 302


@pytest.mark.django_db
def test_a_few_wrong_passwords_still_let_the_right_one_in(client, player, password):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = _log_in(client, player.username, "wrong", "10.3.3.3")
        assert response.status_code == 200
        assert "Too many" not in response.content.decode()
    assert _log_in(client, player.username, password, "10.3.3.3").status_code == 302


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "1.1.1.1", "10.0.0.5"),  # no proxy trusted: the header is anyone's to write
        (1, "1.1.1.1", "1.1.1.1"),
        (1, "6.6.6.6, 1.1.1.1", "1.1.1.1"),  # the client wrote 6.6.6.6 itself
        (2, "6.6.6.6, 1.1.1.1, 172.16.0.2", "1.1.1.1"),
        (2, "", "10.0.0.5"),
    ],
)
def test_the_client_address_behind_trusted_proxies(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


# --- PDF cache ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_repeat_download_is_not_rendered_again(player_client, player):
    character = character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())
    url = reverse("character_pdf", args=[character.pk])
    PDF_CACHE.clear()
    renders, hits = PDF_CACHE.renders, PDF_CACHE.hits
    first = player_client.get(url).content
    second = player_client.get(url).content
    assert (PDF_CACHE.renders - renders, PDF_CACHE.hits - hits) == (1, 1)
    assert first == second
    # A change to the sheet makes a new version, and so a new render.
    character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"abil.stealth": "2"},
        expected_version=character.version,
    )
    third = player_client.get(url).content
    assert (PDF_CACHE.renders - renders, PDF_CACHE.hits - hits) == (2, 1)
    assert third != first
