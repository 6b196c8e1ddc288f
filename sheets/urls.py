from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from sheets import views
from sheets.accounts import views as account_views

# One include per capability; each app's urls.py names its own pages.
urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("theme/", views.theme, name="theme"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/", include("sheets.accounts.urls")),
    path("", include("sheets.characters.urls")),
    path("", include("sheets.history.urls")),
    path("", include("sheets.transfer.urls")),
    path("", include("sheets.advancement.urls")),
    path("campaigns/", include("sheets.campaigns.urls")),
    path("compendium/", include("sheets.compendium.urls")),
    path("", include("sheets.printing.urls")),
    path("", include("sheets.rolls.urls")),
    path("", include("sheets.npcs.urls")),
    path("", include("sheets.vehicles.urls")),
    path("", include("sheets.scenes.urls")),
    # The HTTP API for a table's tools (personal access tokens; docs at /api/docs).
    path("api/", include("sheets.api.urls")),
    # Live pages: the sheet's and the table's event streams (sheets/live).
    path("", include("sheets.live.urls")),
    path("admin/", admin.site.urls),
]
