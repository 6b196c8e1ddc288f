"""Transfer: character files in and out, one module per format."""

from __future__ import annotations

from django.apps import AppConfig


class TransferConfig(AppConfig):
    name = "sheets.transfer"
    label = "transfer"
