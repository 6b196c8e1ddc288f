"""Account writes and mail: a person's own choices, the reset throttle, and review notices.

Notices are mailed after the transaction that caused them commits (`transaction.on_commit`):
never while a character's row lock is held, never for a step that was rolled back, and a
mail server that fails or does not answer only leaves a line in the log.
"""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from sheets.accounts.models import AccessToken, Profile, ResetRequest

logger = logging.getLogger(__name__)


# A person's own choices --------------------------------------------------------------------


def profile_for(user: AbstractBaseUser) -> Profile:
    """The user's choices as stored, or the defaults (all notices off) when none are."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


class PreferencesRefused(Exception):
    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def preferences_save(
    *, user: AbstractBaseUser, email: str, mail_on_submit: bool, mail_on_decision: bool
) -> Profile:
    """Store the user's e-mail address and which review notices they want mailed."""
    if (mail_on_submit or mail_on_decision) and not email:
        raise PreferencesRefused(
            {"email": "Give an e-mail address to get notices, or untick them."}
        )
    user_model = get_user_model()
    with transaction.atomic():
        locked = user_model.objects.select_for_update().get(pk=user.pk)
        email_field = user_model.get_email_field_name()
        if getattr(locked, email_field) != email:
            setattr(locked, email_field, email)
            locked.save(update_fields=[email_field])
            setattr(user, email_field, email)
        profile, _ = Profile.objects.update_or_create(
            user=locked,
            defaults={"mail_on_submit": mail_on_submit, "mail_on_decision": mail_on_decision},
        )
    return profile


# The password reset throttle ---------------------------------------------------------------

RESET_WINDOW = timedelta(hours=1)
# Requests from one address in the window: past these, the form says to wait. Counted for
# every request, whether an account has the address or not, so the refusal tells nothing.
RESET_PER_CLIENT = 10
# Mails to one address in the window: past these, the request is answered as any other
# but nothing is sent (nobody can flood a mailbox through the form).
RESET_PER_EMAIL = 3


@dataclass(frozen=True)
class ResetVerdict:
    refusal: str = ""  # shown beside the e-mail field: too many requests from this client
    send: bool = True  # False: answer as usual, send nothing


def _digest(email: str) -> str:
    return hashlib.sha256(email.strip().casefold().encode()).hexdigest()


def reset_request(*, client: str, email: str) -> ResetVerdict:
    """Count one reset request and say whether it may go on, and whether to send."""
    now = timezone.now()
    since = now - RESET_WINDOW
    digest = _digest(email)
    with transaction.atomic():
        # Requests older than the window count for nothing any more.
        ResetRequest.objects.filter(created_at__lt=since).delete()
        recent = ResetRequest.objects.filter(created_at__gte=since)
        if recent.filter(client=client[:64]).count() >= RESET_PER_CLIENT:
            minutes = int(RESET_WINDOW.total_seconds() // 60)
            return ResetVerdict(
                refusal=(
                    "Too many password reset requests from your connection. Try again in "
                    f"{minutes} minutes, or ask whoever runs this Datapad."
                ),
                send=False,
            )
        mailed = recent.filter(email_digest=digest).count()
        ResetRequest.objects.create(client=client[:64], email_digest=digest)
    return ResetVerdict(send=mailed < RESET_PER_EMAIL)


# Review notices ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    subject: str
    body: str
    to: str


def _deliver(notices: list[Notice]) -> None:
    """Send the notices through one connection; a failure is logged, never raised: the
    review it tells of is stored already, and its page must not fail for the mail."""
    try:
        with get_connection(fail_silently=False) as connection:
            for notice in notices:
                EmailMessage(
                    notice.subject, notice.body, to=[notice.to], connection=connection
                ).send()
    except Exception:
        logger.exception("Review notices not sent (%d mail)", len(notices))


def notify_after_commit(
    recipients: Iterable[AbstractBaseUser], choice: str, template: str, context: dict
) -> None:
    """Mail `template` to each recipient who ticked `choice` and has an address, once the
    current transaction commits (at once outside one)."""
    people = {user.pk: user for user in recipients}
    if not people:
        return
    wanted = set(
        Profile.objects.filter(user_id__in=people, **{choice: True}).values_list(
            "user_id", flat=True
        )
    )
    email_field = get_user_model().get_email_field_name()
    notices = []
    for pk in sorted(wanted):
        user = people[pk]
        address = getattr(user, email_field, "")
        if not address:
            continue
        text = render_to_string(
            template, context | {"recipient": user, "site_url": settings.SITE_URL}
        )
        subject, _, body = text.strip().partition("\n")
        # One line, whatever a name held: a header with a line break is refused.
        notices.append(Notice(" ".join(subject.split()), body.strip() + "\n", address))
    if notices:
        transaction.on_commit(lambda: _deliver(notices), robust=True)


# Personal access tokens (the HTTP API, sheets/api) ----------------------------------------

# What a token may do, each chosen when it is made. Reading a sheet and reading a table's
# log are apart so a dice bot needs no sheet, and posting rolls is apart from both.
SCOPES = {
    "characters:read": "Read my characters and those at tables I run: sheet, derived, status",
    "table:read": "Read my tables' roll logs",
    "rolls:write": "Roll from my characters and those at tables I run, into the table's log",
}
# Choices of a token's life, in days; None: until revoked.
EXPIRY_DAYS = {"30": 30, "90": 90, "365": 365, "never": None}
# Live tokens one person may hold: enough for every tool of several tables.
MOST_TOKENS = 20
TOKEN_PREFIX = "dpat_"
# The throttle's window (its length in seconds); the requests allowed in it are
# settings.API_REQUESTS_PER_MINUTE.
THROTTLE_WINDOW = 60


class TokenRefused(Exception):
    """A token that cannot be made (`errors` by form field), or a secret that opens
    nothing (`errors` under "token")."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def token_digest(secret: str) -> str:
    # The secret is 256 random bits: a plain digest cannot be reversed or guessed, and
    # unlike a password hash it can be looked up by its value.
    return hashlib.sha256(secret.encode()).hexdigest()


def live_tokens(user: AbstractBaseUser):
    """The user's tokens not revoked, newest first (expired ones included: they show as such)."""
    return AccessToken.objects.filter(user=user, revoked_at__isnull=True)


def token_create(
    *, user: AbstractBaseUser, name: str, scopes: Iterable[str], expiry: str
) -> tuple[AccessToken, str]:
    """Make a token and return it with its secret, which nothing stores: shown once."""
    name = " ".join(str(name).split())
    chosen = sorted(set(scopes))
    errors = {}
    if not name:
        errors["name"] = "Name the token after the tool that will use it."
    elif len(name) > 100 or not name.isprintable():
        errors["name"] = "A token's name is at most 100 printable characters."
    unknown = [scope for scope in chosen if scope not in SCOPES]
    if not chosen:
        errors["scopes"] = "Tick at least one thing the token may do."
    elif unknown:
        errors["scopes"] = f"No such scope: {', '.join(unknown)}."
    if expiry not in EXPIRY_DAYS:
        errors["expiry"] = "Choose how long the token lasts from the list."
    if errors:
        raise TokenRefused(errors)
    user_model = get_user_model()
    with transaction.atomic():
        # The user's row serialises two creations racing past the limit.
        user_model.objects.select_for_update().get(pk=user.pk)
        if live_tokens(user).count() >= MOST_TOKENS:
            raise TokenRefused(
                {"name": f"You hold {MOST_TOKENS} tokens already; revoke one you no longer use."}
            )
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        days = EXPIRY_DAYS[expiry]
        token = AccessToken.objects.create(
            user=user,
            name=name,
            scopes=" ".join(chosen),
            digest=token_digest(secret),
            prefix=secret[: len(TOKEN_PREFIX) + 4],
            expires_at=None if days is None else timezone.now() + timedelta(days=days),
        )
    return token, secret


def token_revoke(*, user: AbstractBaseUser, token_id: int) -> AccessToken:
    """Revoke one of the user's own tokens; another's, or none, is LookupError (404)."""
    with transaction.atomic():
        token = AccessToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if token is None:
            raise LookupError("No such token.")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token


def token_authenticate(secret: str) -> AccessToken:
    """The live token behind `secret`, with its user; TokenRefused saying why not."""
    secret = str(secret).strip()
    token = None
    if secret.startswith(TOKEN_PREFIX) and len(secret) <= 100 and secret.isascii():
        token = (
            AccessToken.objects.filter(digest=token_digest(secret)).select_related("user").first()
        )
    if token is None or not token.user.is_active:
        raise TokenRefused({"token": "This token is not one Datapad knows."})
    if token.revoked_at is not None:
        raise TokenRefused({"token": "This token was revoked by its owner."})
    if token.expires_at is not None and token.expires_at <= timezone.now():
        raise TokenRefused(
            {"token": "This token has expired; make a new one on your settings page."}
        )
    return token


def token_count_request(token: AccessToken) -> float:
    """Count one request of `token` against its throttle and note when it was used.

    Returns 0 when the request may go on, else the seconds until the window ends (the
    request is refused and not counted). A fixed window of THROTTLE_WINDOW seconds, kept on
    the token's row under its lock.
    """
    allowed = settings.API_REQUESTS_PER_MINUTE
    now = timezone.now()
    with transaction.atomic():
        row = AccessToken.objects.select_for_update().get(pk=token.pk)
        started = row.window_started_at
        if started is None or (now - started).total_seconds() >= THROTTLE_WINDOW:
            row.window_started_at, row.window_requests = now, 0
        if row.window_requests >= allowed:
            elapsed = (now - row.window_started_at).total_seconds()
            return max(1.0, math.ceil(THROTTLE_WINDOW - elapsed))
        row.window_requests += 1
        row.last_used_at = now
        row.save(update_fields=["window_started_at", "window_requests", "last_used_at"])
    return 0.0
