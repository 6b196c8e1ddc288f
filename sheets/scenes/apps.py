from __future__ import annotations

from django.apps import AppConfig


class ScenesConfig(AppConfig):
    name = "sheets.scenes"
    label = "scenes"
