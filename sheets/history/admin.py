"""The admin shows revisions read-only: a history is written only by the services."""

from __future__ import annotations

from django.contrib import admin

from sheets.characters.admin import ReadOnlyAdmin
from sheets.history.models import Revision


@admin.register(Revision)
class RevisionAdmin(ReadOnlyAdmin):
    list_display = ("character", "version", "author", "summary", "created_at")
