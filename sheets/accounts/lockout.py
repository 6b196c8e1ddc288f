"""The answer django-axes gives a locked-out login: the login page, saying why and for how
long, with status 429 (Too Many Requests)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username")})
    # The form is not validated (that would try the password again); add_error needs the
    # cleaned data validation would have left.
    form.cleaned_data = {}
    form.add_error(
        None,
        "Too many failed log-ins for this user name or from this address. Logging in is "
        f"blocked for {minutes} minutes, even with the right password; try again later.",
    )
    return render(
        request,
        "registration/login.html",
        {"form": form, "next": request.POST.get("next", "")},
        status=429,
    )
