from __future__ import annotations

from django.urls import path

from sheets.vehicles import views

urlpatterns = [
    path("campaigns/<int:pk>/vehicles/", views.vehicle_list, name="vehicle_list"),
    path("characters/<int:pk>/vehicles/", views.character_vehicles, name="character_vehicles"),
    path("vehicles/<int:pk>/", views.vehicle_sheet, name="vehicle_sheet"),
    path("vehicles/<int:pk>/edit/", views.vehicle_edit, name="vehicle_edit"),
    path("vehicles/<int:pk>/hit/", views.vehicle_hit, name="vehicle_hit"),
    path("vehicles/<int:pk>/improve/", views.vehicle_improve, name="vehicle_improve"),
    path("vehicles/<int:pk>/roll/", views.vehicle_roll, name="vehicle_roll"),
    path("vehicles/<int:pk>/print/", views.vehicle_print, name="vehicle_print"),
    path("vehicles/<int:pk>/delete/", views.vehicle_delete, name="vehicle_delete"),
]
