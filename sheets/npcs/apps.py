from __future__ import annotations

from django.apps import AppConfig


class NpcsConfig(AppConfig):
    name = "sheets.npcs"
    label = "npcs"
