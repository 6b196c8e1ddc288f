from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rulesets.registry import SYSTEMS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"systems": SYSTEMS.values()})
