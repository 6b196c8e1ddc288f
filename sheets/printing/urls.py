"""The table's PDF, under campaigns/ as before: start a build, its status, its download."""

from __future__ import annotations

from django.urls import path

from sheets.printing import views as print_views

urlpatterns = [
    path("<int:pk>/print/", print_views.table_print_start, name="table_print_start"),
    path(
        "<int:pk>/print/<int:print_pk>/",
        print_views.table_print_status,
        name="table_print_status",
    ),
    path(
        "<int:pk>/print/<int:print_pk>/pdf/",
        print_views.table_print_pdf,
        name="table_print_pdf",
    ),
]
