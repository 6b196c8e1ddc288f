"""Perf: measuring tools (bench, loadtest), not part of the app's pages."""

from __future__ import annotations

from django.apps import AppConfig


class PerfConfig(AppConfig):
    name = "sheets.perf"
    label = "perf"
