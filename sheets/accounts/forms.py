"""Account forms: the log-in and password change ask the login throttle (django-axes)
first; sign-up and the preferences page keep an e-mail address for resets and notices."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.http import HttpRequest


def username_max_length() -> int:
    user_model = get_user_model()
    return user_model._meta.get_field(user_model.USERNAME_FIELD).max_length


def lockout_message(what: str) -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return (
        f"Too many failed log-ins for this user name or from this address. {what} is "
        f"blocked for {minutes} minutes, even with the right password; try again later."
    )


class LoginForm(AuthenticationForm):
    """Django's log-in form, refusing a user name no account can have before anything
    looks it up: the throttle stores the names it counts in a 255-character column, and a
    longer one failed on PostgreSQL (a server error instead of an answer)."""

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username", "")
        limit = username_max_length()
        if len(username) > limit:
            raise forms.ValidationError(
                f"A user name is at most {limit} characters; check the one you typed.",
                code="max_length",
            )
        return username


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change, its old password checked the way a log-in is: through
    authenticate(), so django-axes counts each wrong one against the user name and the
    address, and refuses any once either is locked out (the form would otherwise let anyone
    at an unlocked session guess the password without limit)."""

    def __init__(self, user, *args, request: HttpRequest | None = None, **kwargs) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        checked = authenticate(
            self.request, username=self.user.get_username(), password=old_password
        )
        if getattr(self.request, "axes_locked_out", False):
            raise forms.ValidationError(lockout_message("Changing the password"), code="locked_out")
        if checked is None or checked.pk != self.user.pk:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class SignupForm(UserCreationForm):
    """Django's sign-up, with an e-mail address kept for a forgotten password (optional)."""

    email = forms.EmailField(
        required=False,
        max_length=254,
        help_text="Optional: where a password reset link is sent if you forget yours.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class PreferencesForm(forms.Form):
    email = forms.EmailField(
        required=False,
        max_length=254,
        label="E-mail address",
        help_text="Where password reset links and the notices you tick below are sent.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    mail_on_submit = forms.BooleanField(
        required=False,
        label="Mail me when a player of my table submits a sheet for review (as a GM)",
    )
    mail_on_decision = forms.BooleanField(
        required=False,
        label="Mail me when a GM approves my sheet or asks for changes",
    )


class AccessTokenForm(forms.Form):
    """A new personal access token for the HTTP API: what it is for, what it may do, how
    long it lasts (sheets/accounts/services.py checks each again)."""

    name = forms.CharField(
        max_length=100,
        label="Token name",
        help_text="The tool that will use it, e.g. 'Dice bot on our Discord'.",
    )
    scopes = forms.MultipleChoiceField(
        choices=[],
        widget=forms.CheckboxSelectMultiple,
        label="It may",
        error_messages={"required": "Tick at least one thing the token may do."},
    )
    expiry = forms.ChoiceField(
        choices=[
            ("30", "30 days"),
            ("90", "90 days"),
            ("365", "A year"),
            ("never", "Until I revoke it"),
        ],
        initial="90",
        label="It lasts",
    )

    def __init__(self, *args, scopes: dict[str, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["scopes"].choices = list(scopes.items())
