"""URLs of characters: the list, the sheet and its live edits, reviews, notes and shares."""

from __future__ import annotations

from django.urls import path

from sheets.characters import catalog_views, portrait_views, views

urlpatterns = [
    path("characters/", views.character_list, name="character_list"),
    path("characters/new/", views.character_new, name="character_new"),
    path("characters/<int:pk>/", views.character_sheet, name="character_sheet"),
    path("characters/<int:pk>/edit/", views.character_edit, name="character_edit"),
    path("characters/<int:pk>/copy/", views.character_copy, name="character_copy"),
    # One kind's compendium entries the sheet may pick (the pick itself is an edit).
    path("characters/<int:pk>/pick/<slug:kind>/", views.character_pick, name="character_pick"),
    path("characters/<int:pk>/delete/", views.character_remove, name="character_remove"),
    # The sheet's rule readings panel, fetched when opened (a page of its own without JS).
    path("characters/<int:pk>/readings/", views.character_readings, name="character_readings"),
    path(
        "characters/<int:pk>/submit/",
        views.character_submit_review,
        name="character_submit",
    ),
    path(
        "characters/<int:pk>/approve/",
        views.character_approve_review,
        name="character_approve",
    ),
    path(
        "characters/<int:pk>/request-changes/",
        views.character_request_changes_review,
        name="character_request_changes",
    ),
    path("characters/<int:pk>/gm-notes/", views.character_gm_note, name="gm_note_save"),
    path(
        "characters/<int:pk>/leave-campaign/",
        views.character_leave_campaign,
        name="character_leave_campaign",
    ),
    path(
        "characters/<int:pk>/share/",
        views.character_share_create,
        name="character_share_create",
    ),
    path(
        "characters/<int:pk>/share/<int:link_id>/revoke/",
        views.character_share_revoke,
        name="character_share_revoke",
    ),
    # The portrait: put up, taken down, and the picture itself (its digest in its URL).
    path(
        "characters/<int:pk>/portrait/",
        portrait_views.portrait_upload,
        name="character_portrait_upload",
    ),
    path(
        "characters/<int:pk>/portrait/remove/",
        portrait_views.portrait_delete,
        name="character_portrait_remove",
    ),
    path(
        "characters/<int:pk>/portrait/<slug:digest>.jpg",
        portrait_views.portrait_image,
        name="character_portrait",
    ),
    # Read-only share links: no login, no form, nothing private.
    path("s/<slug:token>/", views.shared_sheet, name="shared_sheet"),
    path("s/<slug:token>/readings/", views.shared_readings, name="shared_readings"),
    path(
        "s/<slug:token>/portrait/<slug:digest>.jpg",
        portrait_views.shared_portrait,
        name="shared_portrait",
    ),
    # Catalog suggestions while typing into an "add" row (nothing of anyone's is read).
    path(
        "catalogs/ore/weapons/",
        catalog_views.ore_weapon_matches,
        name="ore_weapon_matches",
    ),
]
