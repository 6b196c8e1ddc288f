"""URLs of the compendium: a book by its key (`table-12`, `mine-weg_d6`), an entry by id."""

from __future__ import annotations

from django.urls import path, register_converter

from sheets.compendium import views
from sheets.compendium.models import BOOK_KEY


class BookConverter:
    regex = BOOK_KEY

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(BookConverter, "book")

urlpatterns = [
    path("", views.compendium_home, name="compendium_home"),
    path("<book:book>/", views.compendium_browse, name="compendium_browse"),
    path(
        "<book:book>/rulebook/<slug:kind>/<slug:slug>/",
        views.compendium_builtin,
        name="compendium_builtin",
    ),
    path("<book:book>/new/", views.compendium_entry_new, name="compendium_entry_new"),
    path("<book:book>/copy/", views.compendium_copy, name="compendium_copy"),
    path("<book:book>/export/", views.compendium_export, name="compendium_export"),
    path("<book:book>/import/", views.compendium_import, name="compendium_import"),
    path("entries/<int:pk>/", views.compendium_entry, name="compendium_entry"),
    path("sheets/<int:pk>/adopt/", views.compendium_adopt, name="compendium_adopt"),
    path("entries/<int:pk>/edit/", views.compendium_entry_edit, name="compendium_entry_edit"),
    path("entries/<int:pk>/remove/", views.compendium_entry_remove, name="compendium_entry_remove"),
    path(
        "entries/<int:pk>/visibility/",
        views.compendium_entry_visibility,
        name="compendium_entry_visibility",
    ),
]
