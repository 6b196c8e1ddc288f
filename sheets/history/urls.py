"""URLs of a character's history: the list of versions, a diff and a restore."""

from __future__ import annotations

from django.urls import path

from sheets.history import views

urlpatterns = [
    path("characters/<int:pk>/history/", views.character_history, name="character_history"),
    path(
        "characters/<int:pk>/history/diff/",
        views.character_history_diff,
        name="character_history_diff",
    ),
    path(
        "characters/<int:pk>/history/<int:version>/restore/",
        views.character_history_restore,
        name="character_history_restore",
    ),
]
