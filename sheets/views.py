from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from rulesets.registry import SYSTEMS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"systems": SYSTEMS.values()})


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """The icon where browsers look for it by default; pages link the SVG one."""
    return redirect(static("favicon.ico"), permanent=True)


# The colour theme a visitor chose, kept in a cookie so it holds logged out too; no cookie
# means following the system (prefers-color-scheme). base.html writes it as data-theme.
THEME_COOKIE = "theme"
THEMES = {"system": "System", "light": "Light", "dark": "Dark"}
THEME_KEPT_FOR = 365 * 24 * 3600  # seconds


@require_POST
def theme(request: HttpRequest) -> HttpResponse:
    """Set the colour theme, then go back to the page the switch was on (the Referer, which
    browsers send on a same-origin POST; home when it is missing or names another site)."""
    referer = request.headers.get("Referer", "")
    back = "/"
    if url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        page = urlsplit(referer)
        back = urlunsplit(("", "", page.path or "/", page.query, ""))
    response = redirect(back)
    chosen = request.POST.get("theme", "")
    if chosen not in THEMES:
        shown = "".join(c if c.isprintable() else "\ufffd" for c in chosen[:40])
        messages.error(request, f"“{shown}” is not a theme: choose System, Light or Dark.")
    elif chosen == "system":
        response.delete_cookie(THEME_COOKIE, samesite="Lax")
    else:
        response.set_cookie(
            THEME_COOKIE,
            chosen,
            max_age=THEME_KEPT_FOR,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response
