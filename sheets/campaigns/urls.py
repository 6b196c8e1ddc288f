from __future__ import annotations

from django.urls import path

from sheets.campaigns import views

urlpatterns = [
    path("", views.campaign_list, name="campaign_list"),
    path("new/", views.campaign_new, name="campaign_new"),
    path("join/<slug:token>/", views.campaign_join, name="campaign_join"),
    path("<int:pk>/", views.campaign_detail, name="campaign_detail"),
    path("<int:pk>/edit/", views.campaign_edit, name="campaign_edit"),
    path("<int:pk>/house-rules/", views.campaign_settings, name="campaign_settings"),
    path("<int:pk>/invitations/", views.campaign_invite, name="campaign_invite"),
    path(
        "<int:pk>/invitations/<int:invitation_pk>/revoke/",
        views.campaign_invite_revoke,
        name="campaign_invite_revoke",
    ),
    path(
        "<int:pk>/members/<int:membership_pk>/remove/",
        views.campaign_member_remove,
        name="campaign_member_remove",
    ),
    path(
        "<int:pk>/members/<int:membership_pk>/role/",
        views.campaign_member_role,
        name="campaign_member_role",
    ),
    path("<int:pk>/bring/", views.campaign_bring, name="campaign_bring"),
    path("<int:pk>/leave/", views.campaign_leave, name="campaign_leave"),
]
