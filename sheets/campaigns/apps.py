from __future__ import annotations

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "sheets.campaigns"
    label = "campaigns"
