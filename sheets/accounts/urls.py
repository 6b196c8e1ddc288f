"""Django's account pages, with the log-in and the password change that ask the login
throttle first (sheets/accounts/forms.py), the throttled password reset request, and the
user's own settings."""

from __future__ import annotations

from django.contrib.auth import urls as auth_urls
from django.urls import path

from sheets.accounts import views

OURS = {"login", "password_change", "password_reset", "password_reset_confirm"}

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("settings/", views.preferences, name="account_settings"),
    path("settings/tokens/", views.token_create, name="access_token_create"),
    path("settings/tokens/<int:pk>/revoke/", views.token_revoke, name="access_token_revoke"),
    *(pattern for pattern in auth_urls.urlpatterns if pattern.name not in OURS),
]
