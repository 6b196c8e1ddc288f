from django.urls import path

from sheets.live import views

urlpatterns = [
    path("live/characters/<int:pk>/stream", views.sheet_stream, name="live_sheet_stream"),
    path("live/characters/<int:pk>/changes", views.sheet_changes, name="live_sheet_changes"),
    path("live/campaigns/<int:pk>/stream", views.campaign_stream, name="live_campaign_stream"),
]
