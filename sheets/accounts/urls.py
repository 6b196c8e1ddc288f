"""Django's account pages, with the log-in and the password change that ask the login
throttle first (sheets/accounts/forms.py)."""

from __future__ import annotations

from django.contrib.auth import urls as auth_urls
from django.urls import path

from sheets.accounts import views

OURS = {"login", "password_change"}

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    *(pattern for pattern in auth_urls.urlpatterns if pattern.name not in OURS),
]
