"""Datapad's own middleware and the client-address reader the login throttle uses."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


def private_pages(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    """Mark every answer drawn from the session (every page that looks at who is logged
    in does) as private and not to be stored: no shared cache (a proxy, a CDN) may keep
    one person's sheet to hand to another, and the browser keeps no copy on disk to show
    after logging out."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        session = getattr(request, "session", None)
        if session is not None and session.accessed and not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


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
