"""Datapad's own middleware and the client-address reader the login throttle uses."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

# Views that answer anyone holding a share link: what they show is one player's sheet, and
# a link can be revoked, so no cache may keep a copy to hand out afterwards.
SHARED_VIEWS = frozenset({"shared_sheet", "shared_pdf"})


def private_pages(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    """Mark every answer about one person's data as private and not to be stored: no
    shared cache (a proxy, a CDN) may keep one person's sheet to hand to another, and the
    browser keeps no copy on disk to show after logging out. That is every answer drawn
    from the session (every page that looks at who is logged in does), every answer through
    a share link (read by no session), and every file (a PDF, an export), however it was
    asked for. A view that says how it may be cached itself is left as it said."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.has_header("Cache-Control"):
            return response
        session = getattr(request, "session", None)
        if (
            (session is not None and session.accessed)
            or _through_share_link(request)
            or _is_file(response)
        ):
            patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


def _through_share_link(request: HttpRequest) -> bool:
    match = getattr(request, "resolver_match", None)
    return match is not None and match.url_name in SHARED_VIEWS


def _is_file(response: HttpResponse) -> bool:
    return response.has_header("Content-Disposition") or response.get(
        "Content-Type", ""
    ).startswith("application/pdf")


def client_address(request: HttpRequest) -> str:
    """The address a request comes from. Behind TRUSTED_PROXIES reverse proxies, the one
    the outermost trusted proxy saw (X-Forwarded-For, read from the right, since a client
    can write anything at its left); otherwise the connection's own address."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    return forwarded[-proxies] if len(forwarded) >= proxies else remote
