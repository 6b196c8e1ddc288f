from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Two backends (the login throttle's, then Django's): name the one that holds users.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("character_list")
    return render(
        request,
        "registration/signup.html",
        {"form": form},
        status=400 if form.errors else 200,
    )
