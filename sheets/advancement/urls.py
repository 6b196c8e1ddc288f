"""URLs of the advancement ledger (views.py)."""

from __future__ import annotations

from django.urls import path

from sheets.advancement import views

urlpatterns = [
    path("characters/<int:pk>/ledger/", views.character_ledger, name="character_ledger"),
    path("characters/<int:pk>/ledger/award/", views.ledger_award, name="ledger_award"),
    path("characters/<int:pk>/ledger/correct/", views.ledger_correct, name="ledger_correct"),
    path("characters/<int:pk>/ledger/buy/", views.ledger_buy, name="ledger_buy"),
    path("characters/<int:pk>/ledger/undo/", views.ledger_undo, name="ledger_undo"),
    path("characters/<int:pk>/ledger/ask/", views.ledger_ask, name="ledger_ask"),
    path("characters/<int:pk>/ledger/consent/", views.ledger_consent, name="ledger_consent"),
    path("characters/<int:pk>/ledger/origin/", views.ledger_origin, name="ledger_origin"),
    path("characters/<int:pk>/ledger/training/", views.ledger_training, name="ledger_training"),
    path(
        "characters/<int:pk>/ledger/correct-value/",
        views.ledger_correct_trait,
        name="ledger_correct_trait",
    ),
    path(
        "characters/<int:pk>/ledger/adventure/",
        views.ledger_end_adventure,
        name="ledger_end_adventure",
    ),
    path("characters/<int:pk>/ledger/dark-side/", views.ledger_dark_side, name="ledger_dark_side"),
    path("characters/<int:pk>/ledger/gear/", views.ledger_gear, name="ledger_gear"),
    path("campaigns/<int:campaign_id>/award/", views.campaign_award, name="campaign_award"),
]
