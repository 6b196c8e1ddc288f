"""The admin lists rolls read-only: a log is only ever written by a roll."""

from __future__ import annotations

from django.contrib import admin

from sheets.characters.admin import ReadOnlyAdmin
from sheets.rolls.models import RollEntry


@admin.register(RollEntry)
class RollEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "character", "author", "rollable_label", "outcome", "secret")
    list_filter = ("system", "secret")
    search_fields = ("character__name", "author__username", "rollable_label")
