from __future__ import annotations

from django.urls import path

from sheets.rolls import views

# A rollable's key ("attr.wits", "pool.attack.0") is part of the path; the odds route comes
# first because a key may, in principle, hold a slash.
urlpatterns = [
    path("characters/<int:pk>/roll/", views.roll_menu, name="roll_menu"),
    path("characters/<int:pk>/spend/", views.character_spend, name="character_spend"),
    path("characters/<int:pk>/roll/<path:key>/odds/", views.roll_odds, name="roll_odds"),
    path("characters/<int:pk>/roll/<path:key>/", views.character_roll, name="character_roll"),
    path("characters/<int:pk>/hit/", views.character_hit, name="character_hit"),
    path("characters/<int:pk>/rolls/", views.character_roll_log, name="character_roll_log"),
    path("campaigns/<int:pk>/rolls/", views.campaign_roll_log, name="campaign_roll_log"),
]
