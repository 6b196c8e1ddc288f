"""History: revisions, their diff and restore."""

from __future__ import annotations

from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "sheets.history"
    label = "history"
