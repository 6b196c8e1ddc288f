from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from sheets import views
from sheets.accounts import views as account_views
from sheets.characters import catalog_views, history_views
from sheets.characters import views as character_views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/", include("sheets.accounts.urls")),
    path("characters/", character_views.character_list, name="character_list"),
    path("characters/new/", character_views.character_new, name="character_new"),
    path("characters/import/", character_views.character_import, name="character_import"),
    path("characters/<int:pk>/", character_views.character_sheet, name="character_sheet"),
    path("characters/<int:pk>/edit/", character_views.character_edit, name="character_edit"),
    path("characters/<int:pk>/copy/", character_views.character_copy, name="character_copy"),
    path("characters/<int:pk>/delete/", character_views.character_remove, name="character_remove"),
    path("characters/<int:pk>/pdf/", character_views.character_pdf, name="character_pdf"),
    path("characters/<int:pk>/export/", character_views.character_export, name="character_export"),
    path("characters/<int:pk>/history/", history_views.character_history, name="character_history"),
    path(
        "characters/<int:pk>/history/diff/",
        history_views.character_history_diff,
        name="character_history_diff",
    ),
    path(
        "characters/<int:pk>/history/<int:version>/restore/",
        history_views.character_history_restore,
        name="character_history_restore",
    ),
    path(
        "characters/<int:pk>/submit/",
        character_views.character_submit_review,
        name="character_submit",
    ),
    path(
        "characters/<int:pk>/approve/",
        character_views.character_approve_review,
        name="character_approve",
    ),
    path(
        "characters/<int:pk>/request-changes/",
        character_views.character_request_changes_review,
        name="character_request_changes",
    ),
    path("characters/<int:pk>/gm-notes/", character_views.character_gm_note, name="gm_note_save"),
    path(
        "characters/<int:pk>/leave-campaign/",
        character_views.character_leave_campaign,
        name="character_leave_campaign",
    ),
    path(
        "characters/<int:pk>/share/",
        character_views.character_share_create,
        name="character_share_create",
    ),
    path(
        "characters/<int:pk>/share/<int:link_id>/revoke/",
        character_views.character_share_revoke,
        name="character_share_revoke",
    ),
    # Read-only share links: no login, no form, nothing private.
    path("s/<slug:token>/", character_views.shared_sheet, name="shared_sheet"),
    path("s/<slug:token>/pdf/", character_views.shared_pdf, name="shared_pdf"),
    # Catalog suggestions while typing into an "add" row (nothing of anyone's is read).
    path(
        "catalogs/ore/weapons/",
        catalog_views.ore_weapon_matches,
        name="ore_weapon_matches",
    ),
    path(
        "schema/character-file.json",
        character_views.character_file_schema_view,
        name="character_file_schema",
    ),
    # The advancement ledger: awards, purchases, undo (sheets/characters/ledger_urls.py).
    path("", include("sheets.characters.ledger_urls")),
    # Campaign pages (sheets/campaigns/urls.py) and the table's PDF (sheets/printing/urls.py).
    path("campaigns/", include("sheets.campaigns.urls")),
    path("campaigns/", include("sheets.printing.urls")),
    # Rolls from a sheet, their odds and the logs (sheets/rolls/urls.py).
    path("", include("sheets.rolls.urls")),
    path("admin/", admin.site.urls),
]
