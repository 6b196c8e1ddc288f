"""Datapad settings, read from the environment with safe development defaults.

DATABASE_URL  database (default: SQLite file db.sqlite3 beside manage.py)
SECRET_KEY    required when DEBUG is off
DEBUG         "1"/"true" for development (default on, for `make run`)
ALLOWED_HOSTS comma-separated host names
HTTPS         "0" when served over plain HTTP (a LAN): turns off the four settings below,
              which are on by default when DEBUG is off
SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS, SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE
              each one alone ("0"/"1"; seconds for HSTS)
SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD  HSTS extras (default on / off)
PROXY_SSL_HEADER "1" behind a reverse proxy that terminates TLS and sets X-Forwarded-Proto
TRUSTED_PROXIES number of reverse proxies in front (login throttling reads the client's
              address from X-Forwarded-For then; default 0: the connection's address)
REDIS_URL     e.g. redis://127.0.0.1:6379/0: sessions read through this shared cache
EMAIL_URL     how mail leaves: console:// (default: printed), smtp://user:pass@host:port,
              smtp+tls://… (STARTTLS), smtp+ssl://… (TLS from the start)
DEFAULT_FROM_EMAIL  the sender of password resets and review notices
SITE_URL      where the links in review notices point (default http://127.0.0.1:8000)
API_REQUESTS_PER_MINUTE  requests one API access token may make a minute (default 120;
              past them: 429 with Retry-After)
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool) -> bool:
    return os.environ.get(name, "1" if default else "0").strip().lower() in {"1", "true", "yes"}


DEBUG = _flag("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY when DEBUG is off.")
    SECRET_KEY = "datapad-development-only-not-secret"

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "django_tasks",
    # Before django_tasks_db: its db_worker command (the same worker) first retries the
    # table PDFs a killed worker left running (sheets/printing/management/commands).
    "sheets.printing",
    "django_tasks_db",
    "sheets.accounts",
    "sheets.campaigns",
    "sheets.characters",
    "sheets.advancement",
    "sheets.history",
    "sheets.transfer",
    "sheets.rolls",
    "sheets.compendium",
    "sheets.npcs",
    "sheets.vehicles",
    "sheets.scenes",
    "sheets.perf",
    # django-ninja's own templates and static files: the API's docs page (/api/docs) from
    # this server, not a CDN the Content Security Policy refuses.
    "ninja",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses HTML and htmx answers (static files are compressed by WhiteNoise). BREACH:
    # Django pads every gzip answer with random bytes, and masks the CSRF token afresh in
    # every response, so a secret's compressed length leaks nothing usable.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "sheets.middleware.private_pages",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "sheets.urls"
WSGI_APPLICATION = "sheets.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60
    )
}
# Under ASGI (sheets/asgi.py sets DATAPAD_ASGI) each request's sync code runs on a thread
# of its own, which a kept connection would outlive, one more open connection a request
# until the database refuses: there each request closes its own (the live streams keep a
# few on their shared threads, sheets/live/views.py).
if os.environ.get("DATAPAD_ASGI"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL: the task worker's writes and the pages' reads go on together. IMMEDIATE: a
    # transaction takes the write lock when it begins, so two writers wait their turn (up
    # to `timeout` seconds) instead of one failing with "database is locked" when it tries
    # to turn its read into a write (tests/printing/test_sqlite_under_the_worker.py).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"init_command": "PRAGMA journal_mode=WAL", "transaction_mode": "IMMEDIATE", "timeout": 20}
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
# English only: without translation machinery every template variable renders faster.
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            # WhiteNoise's hashed, compressed files, from our CSS and scripts minified.
            else "sheets.storage.MinifiedStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "character_list"
LOGOUT_REDIRECT_URL = "home"

# Background work (the table's PDF) goes through a task queue kept in the database, so
# `manage.py db_worker` can run on this machine or on others sharing the same database.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    }
}

# An imported character file larger than this is refused before it is parsed. The first
# upload handler refuses a larger body from its declared size, before storing any of it;
# the file under the limit stays in memory.
# A file carries the sheet's history and ledger too: 1,000 row edits keep under 2 MB of
# revisions (tests/web/test_history.py), so a long-played character still fits.
CHARACTER_IMPORT_MAX_BYTES = 8 * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "sheets.transfer.uploads.SizeLimitHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
FILE_UPLOAD_MAX_MEMORY_SIZE = CHARACTER_IMPORT_MAX_BYTES + 16 * 1024

# --- Production security ---------------------------------------------------------------
# On by default when DEBUG is off; HTTPS=0 turns them off together for a plain-HTTP LAN,
# and each can be set alone. `manage.py check --deploy` is clean with the defaults.
HTTPS = _flag("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = _flag("SECURE_SSL_REDIRECT", HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Preloading commits the domain and its subdomains to HTTPS in browsers for months: a
# choice for whoever owns the domain, so it is off and its check (W021) is not a warning.
SECURE_HSTS_PRELOAD = _flag("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SESSION_COOKIE_SECURE = _flag("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = _flag("CSRF_COOKIE_SECURE", HTTPS)
if _flag("PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))

# Content Security Policy (django-csp): scripts and styles only from our own static files,
# no inline script, no eval (htmx is told so in base.html), no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one user
# name, or from one address, that user name or address is refused for AXES_COOLOFF_TIME,
# even with the right password. A success does not wipe the failures of an address.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "sheets.accounts.lockout.locked_out"
AXES_CLIENT_IP_CALLABLE = "sheets.middleware.client_address"
AXES_RESET_ON_SUCCESS = False
AXES_VERBOSE = False

# The HTTP API (sheets/api): requests one personal access token may make in a minute
# (a bot polling the roll log every 2 s makes 30); past them it answers 429 with Retry-After.
API_REQUESTS_PER_MINUTE = int(os.environ.get("API_REQUESTS_PER_MINUTE", "120"))

# Live pages (sheets/live): how long one event stream lasts before the browser reconnects
# with Last-Event-ID (bounds what one stream holds; moves viewers onto a restarted server).
LIVE_STREAM_SECONDS = int(os.environ.get("LIVE_STREAM_SECONDS", "300"))

# Sessions: in the database, or read through Redis when REDIS_URL is set. The cache must be
# one every worker and app server shares: a per-process cache would keep a logged-out
# session alive in the other processes. cached_db still writes the database, so a Redis
# restart logs nobody out.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "datapad"),
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- E-mail ----------------------------------------------------------------------------------
# Password resets and review notices. One URL names the way out, as DATABASE_URL does; the
# default prints each mail on the console, so development needs no mail server.
EMAIL_SCHEMES = {
    "console": ("django.core.mail.backends.console.EmailBackend", None, None),
    "smtp": ("django.core.mail.backends.smtp.EmailBackend", None, 25),
    "smtp+tls": ("django.core.mail.backends.smtp.EmailBackend", "tls", 587),
    "smtp+ssl": ("django.core.mail.backends.smtp.EmailBackend", "ssl", 465),
}


def email_settings(url: str) -> dict:
    """The EMAIL_* settings an EMAIL_URL stands for; a URL we cannot read stops the start
    with the reason (a typo would otherwise lose every reset mail without a word)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL is not a URL we can read: {error}.") from None
    scheme = parts.scheme.lower()
    if scheme not in EMAIL_SCHEMES:
        known = ", ".join(f"{name}://" for name in EMAIL_SCHEMES)
        raise ImproperlyConfigured(f"EMAIL_URL starts with {scheme or 'nothing'}://; use {known}")
    backend, security, default_port = EMAIL_SCHEMES[scheme]
    if default_port is None:
        return {
            "EMAIL_BACKEND": backend,
            "EMAIL_HOST": "localhost",
            "EMAIL_PORT": 25,
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
            "EMAIL_USE_TLS": False,
            "EMAIL_USE_SSL": False,
        }
    if not parts.hostname:
        raise ImproperlyConfigured(f"EMAIL_URL names no mail server: {scheme}://host:port")
    return {
        "EMAIL_BACKEND": backend,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or default_port,
        # Percent-encoded in the URL, so a password may hold "@", ":" or "/".
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": security == "tls",
        "EMAIL_USE_SSL": security == "ssl",
    }


_email = email_settings(os.environ.get("EMAIL_URL", "console://"))
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
# A mail server that does not answer makes a reset or a review wait this long, no longer.
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Datapad <datapad@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
