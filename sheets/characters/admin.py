from __future__ import annotations

from django.contrib import admin

from sheets.characters.models import Character, Revision


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "owner", "version", "updated_at")
    list_filter = ("system",)
    search_fields = ("name", "owner__username")


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    list_display = ("character", "version", "author", "summary", "created_at")
