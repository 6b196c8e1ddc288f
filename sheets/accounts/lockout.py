"""The answer django-axes gives a locked-out log-in or password change: the same page,
saying why and for how long, with status 429 (Too Many Requests)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from sheets.accounts.forms import LoginForm, ThrottledPasswordChangeForm, lockout_message


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    match = request.resolver_match
    if match is not None and match.url_name == "password_change" and request.user.is_authenticated:
        form = ThrottledPasswordChangeForm(request.user, request=request)
        # Not validated (that would try the password again); add_error needs the cleaned
        # data validation would have left.
        form.cleaned_data = {}
        form.add_error("old_password", lockout_message("Changing the password"))
        return render(request, "registration/password_change_form.html", {"form": form}, status=429)
    form = LoginForm(request, initial={"username": (credentials or {}).get("username")})
    form.cleaned_data = {}
    form.add_error(None, lockout_message("Logging in"))
    return render(
        request,
        "registration/login.html",
        {"form": form, "next": request.POST.get("next", "")},
        status=429,
    )
