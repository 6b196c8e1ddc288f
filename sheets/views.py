from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from rulesets.registry import SYSTEMS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"systems": SYSTEMS.values()})


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """The icon where browsers look for it by default; pages link the SVG one."""
    return redirect(static("favicon.ico"), permanent=True)
