from __future__ import annotations

from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "sheets.characters"
    label = "characters"
