from __future__ import annotations

from django.apps import AppConfig


class CompendiumConfig(AppConfig):
    name = "sheets.compendium"
    label = "compendium"
