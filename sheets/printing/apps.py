from __future__ import annotations

from django.apps import AppConfig


class PrintingConfig(AppConfig):
    """A sheet's PDF, the table's PDF (built by the task worker), the print cache and the
    print warm-up."""

    name = "sheets.printing"
    label = "printing"
