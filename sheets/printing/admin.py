"""The admin shows table PDF builds read-only: the worker and the printing services write them."""

from __future__ import annotations

from django.contrib import admin

from sheets.characters.admin import ReadOnlyAdmin
from sheets.printing.models import TablePrint


@admin.register(TablePrint)
class TablePrintAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "state", "done", "total", "created_at")
    exclude = ("pdf",)
