"""URLs of PDFs: a sheet's, a share link's, and the table's (start a build, its status,
its download) under the campaign's pages."""

from __future__ import annotations

from django.urls import path

from sheets.printing import views

urlpatterns = [
    path("characters/<int:pk>/pdf/", views.character_pdf, name="character_pdf"),
    path("s/<slug:token>/pdf/", views.shared_pdf, name="shared_pdf"),
    path("campaigns/<int:pk>/print/", views.table_print_start, name="table_print_start"),
    path(
        "campaigns/<int:pk>/print/<int:print_pk>/",
        views.table_print_status,
        name="table_print_status",
    ),
    path(
        "campaigns/<int:pk>/print/<int:print_pk>/pdf/",
        views.table_print_pdf,
        name="table_print_pdf",
    ),
]
