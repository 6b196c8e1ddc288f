from __future__ import annotations

from django.urls import path

from sheets.npcs import views

urlpatterns = [
    path("campaigns/<int:pk>/npcs/new/", views.npc_new, name="npc_new"),
    path("campaigns/<int:pk>/npcs/quick/", views.npc_quick, name="npc_quick"),
    path("campaigns/<int:pk>/npcs/settings/", views.npc_settings, name="npc_settings"),
    path("campaigns/<int:pk>/minions/new/", views.group_new, name="minion_group_new"),
    path("npcs/<int:pk>/", views.npc_detail, name="npc_detail"),
    path("npcs/<int:pk>/reveal/", views.npc_reveal, name="npc_reveal"),
    path("npcs/<int:pk>/portrait/<str:digest>/", views.npc_portrait, name="npc_portrait"),
    path("minions/<int:pk>/", views.minion_group, name="minion_group"),
    path("minions/<int:pk>/hit/", views.minion_hit, name="minion_hit"),
    path("minions/<int:pk>/heal/", views.minion_heal, name="minion_heal"),
]
