from __future__ import annotations

from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "sheets.rolls"
    label = "rolls"
