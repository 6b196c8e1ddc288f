from __future__ import annotations

from django.urls import path

from sheets.scenes import views

urlpatterns = [
    path("campaigns/<int:pk>/scenes/", views.scene_list, name="scene_list"),
    path("scenes/<int:pk>/", views.scene_detail, name="scene_detail"),
    path("scenes/<int:pk>/tracker/", views.scene_tracker, name="scene_tracker"),
    path("scenes/<int:pk>/join/", views.scene_join, name="scene_join"),
    path("scenes/<int:pk>/leave/", views.scene_leave, name="scene_leave"),
    path("scenes/<int:pk>/initiative/", views.scene_initiative, name="scene_initiative"),
    path("scenes/<int:pk>/step/", views.scene_step, name="scene_step"),
    path("scenes/<int:pk>/hit/", views.scene_hit, name="scene_hit"),
    path("scenes/<int:pk>/show/", views.scene_show, name="scene_show"),
    path("scenes/<int:pk>/end/", views.scene_end, name="scene_end"),
    path("scenes/<int:pk>/print/", views.scene_print, name="scene_print"),
]
