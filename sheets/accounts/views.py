from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from sheets.accounts.forms import LoginForm, ThrottledPasswordChangeForm


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


class LoginView(auth_views.LoginView):
    authentication_form = LoginForm


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict:
        # The throttle counts attempts per request (its address); the form needs it.
        return super().get_form_kwargs() | {"request": self.request}
