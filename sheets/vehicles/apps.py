from __future__ import annotations

from django.apps import AppConfig


class VehiclesConfig(AppConfig):
    name = "sheets.vehicles"
    label = "vehicles"
