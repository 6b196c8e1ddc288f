from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from sheets.accounts import services
from sheets.accounts.forms import (
    AccessTokenForm,
    LoginForm,
    PreferencesForm,
    SignupForm,
    ThrottledPasswordChangeForm,
)
from sheets.middleware import client_address

NEXT_MAX_LENGTH = 2000


def local_next(raw: str) -> str:
    """`next` when it is a path on this site, else "": a link that sends people to sign up
    must not be able to send them to another site afterwards (no scheme, no host, no
    backslash tricks, which url_has_allowed_host_and_scheme refuses, and no control
    characters anywhere, which it lets through after the first)."""
    if (
        raw.startswith("/")
        and len(raw) <= NEXT_MAX_LENGTH
        and raw.isprintable()
        and url_has_allowed_host_and_scheme(raw, allowed_hosts=None)
    ):
        return raw
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    # Kept through the form: an invitee sent here from an invitation lands back on it.
    next_url = local_next(request.POST.get("next", "") or request.GET.get("next", ""))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Two backends (the login throttle's, then Django's): name the one that holds users.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "character_list")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url},
        status=400 if form.errors else 200,
    )


class LoginView(auth_views.LoginView):
    authentication_form = LoginForm


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict:
        # The throttle counts attempts per request (its address); the form needs it.
        return super().get_form_kwargs() | {"request": self.request}


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request, throttled. Every accepted request gets the same answer,
    whether an account has the address or not, so the form never tells who is here."""

    def form_valid(self, form) -> HttpResponse:
        verdict = services.reset_request(
            client=client_address(self.request), email=form.cleaned_data["email"]
        )
        if verdict.refusal:
            form.add_error("email", verdict.refusal)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        if not verdict.send:
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)

    def form_invalid(self, form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_invalid(self, form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


@require_http_methods(["GET", "POST"])
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    """The user's own settings: their e-mail address and which review notices to mail."""
    profile = services.profile_for(request.user)
    initial = {
        "email": request.user.email,
        "mail_on_submit": profile.mail_on_submit,
        "mail_on_decision": profile.mail_on_decision,
    }
    # Bound on any POST: unticking every box posts nothing but the token.
    form = PreferencesForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.preferences_save(user=request.user, **form.cleaned_data)
        except services.PreferencesRefused as refused:
            for field, message in refused.errors.items():
                form.add_error(field, message)
        else:
            messages.success(request, "Your settings are saved.")
            return redirect("account_settings")
    return render(
        request,
        "registration/preferences.html",
        {"form": form, **_tokens_context(request.user)},
        status=400 if form.errors else 200,
    )


# Personal access tokens for the HTTP API (sheets/api), on the same settings page ----------


def _tokens_context(user, form: AccessTokenForm | None = None, secret: str = "") -> dict:
    return {
        "tokens": list(services.live_tokens(user)),
        "token_form": form or AccessTokenForm(scopes=services.SCOPES),
        "token_scopes": services.SCOPES,
        "new_secret": secret,
        "now": timezone.now(),
    }


def _settings_with_tokens(
    request: HttpRequest, token_form: AccessTokenForm | None, secret: str, status: int
) -> HttpResponse:
    profile = services.profile_for(request.user)
    form = PreferencesForm(
        initial={
            "email": request.user.email,
            "mail_on_submit": profile.mail_on_submit,
            "mail_on_decision": profile.mail_on_decision,
        }
    )
    context = {"form": form, **_tokens_context(request.user, token_form, secret)}
    return render(request, "registration/preferences.html", context, status=status)


@require_POST
@login_required
def token_create(request: HttpRequest) -> HttpResponse:
    """Make a token and show its secret, once: the page is drawn here, not redirected to,
    so the secret is stored nowhere (no session, no URL); a reload asks before posting."""
    form = AccessTokenForm(request.POST, scopes=services.SCOPES)
    if form.is_valid():
        try:
            _token, secret = services.token_create(user=request.user, **form.cleaned_data)
        except services.TokenRefused as refused:
            for field, message in refused.errors.items():
                form.add_error(field, message)
        else:
            return _settings_with_tokens(request, None, secret, 200)
    return _settings_with_tokens(request, form, "", 400)


@require_POST
@login_required
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        token = services.token_revoke(user=request.user, token_id=pk)
    except LookupError:
        raise Http404("No such token.") from None
    messages.success(request, f"The token '{token.name}' is revoked: it opens nothing now.")
    return redirect(f"{reverse('account_settings')}#tokens")
