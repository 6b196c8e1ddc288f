"""What a person chooses for their own account, and the password reset requests counted by
the reset throttle."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """A user's own choices. Made on first use: a user without one has chosen nothing, and
    every notice is off until its box is ticked (nobody gets mail they did not ask for)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    # A GM: mail me when a player of my table submits a sheet for review.
    mail_on_submit = models.BooleanField(default=False)
    # A player: mail me when a GM approves my sheet or asks for changes.
    mail_on_decision = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Choices of {self.user_id}"


class ResetRequest(models.Model):
    """One "Forgot your password?" request, kept for the throttle's window.

    Kept in the database, not a per-process cache, so every app server counts the same
    requests. The address typed is kept only as a digest: a stranger's typing is not stored.
    """

    client = models.CharField(max_length=64)
    email_digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["client", "created_at"]),
            models.Index(fields=["email_digest", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"Reset request from {self.client}"
