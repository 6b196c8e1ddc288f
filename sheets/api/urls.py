"""The HTTP API's routes, all under /api/ (sheets/api/views.py)."""

from __future__ import annotations

from django.urls import path

from sheets.api.views import api

urlpatterns = [path("", api.urls)]
