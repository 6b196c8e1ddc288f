"""Account writes and mail: a person's own choices, the reset throttle, and review notices.

Notices are mailed after the transaction that caused them commits (`transaction.on_commit`):
never while a character's row lock is held, never for a step that was rolled back, and a
mail server that fails or does not answer only leaves a line in the log.
"""

from __future__ import annotations

import hashlib
import logging
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

from sheets.accounts.models import Profile, ResetRequest

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
