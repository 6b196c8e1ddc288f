"""The admin shows characters read-only (and `ReadOnlyAdmin` does the same for every app).

Every write to a character goes through services.character_apply_edits (lock, version
check, revision); an admin form would be a second write path that skips all three.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from sheets.characters.models import Character


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Character)
class CharacterAdmin(ReadOnlyAdmin):
    list_display = ("name", "system", "owner", "version", "updated_at")
    list_filter = ("system",)
    search_fields = ("name", "owner__username")
