"""Advancement: the ledger: awards, purchases, consent, undo."""

from __future__ import annotations

from django.apps import AppConfig


class AdvancementConfig(AppConfig):
    name = "sheets.advancement"
    label = "advancement"
