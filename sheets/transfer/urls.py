"""URLs of character files: export, import and the file's JSON Schema."""

from __future__ import annotations

from django.urls import path

from sheets.transfer import views

urlpatterns = [
    path("characters/import/", views.character_import, name="character_import"),
    path(
        "characters/import/<slug:token>/",
        views.character_import_preview,
        name="character_import_preview",
    ),
    path("characters/<int:pk>/export/", views.character_export, name="character_export"),
    path(
        "characters/<int:pk>/import/original/",
        views.character_imported_file,
        name="character_imported_file",
    ),
    path(
        "characters/<int:pk>/export/<slug:format_key>/",
        views.character_export_foundry,
        name="character_export_foundry",
    ),
    path(
        "characters/<int:pk>/export/<slug:format_key>/preview/",
        views.character_export_foundry_preview,
        name="character_export_foundry_preview",
    ),
    path(
        "schema/character-file.json",
        views.character_file_schema_view,
        name="character_file_schema",
    ),
    path(
        "schema/compendium-file.json",
        views.compendium_file_schema_view,
        name="compendium_file_schema",
    ),
]
