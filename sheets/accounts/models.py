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


class AccessToken(models.Model):
    """A personal access token: how a table's tool (a bot, a VTT module, a script) speaks
    for its user to the HTTP API (sheets/api), within the scopes chosen for it.

    Only a digest of the secret is kept: the secret is shown once, when the token is made,
    and cannot be read back, so a copy of the database lets nobody call the API. A token is
    revoked, never deleted, so its owner can still see what it was and when it was used.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=100)
    # Space-separated scope names (sheets/accounts/services.py, SCOPES).
    scopes = models.CharField(max_length=200)
    digest = models.CharField(max_length=64, unique=True)
    # The secret's first characters, for its owner to tell one token from another.
    prefix = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # The throttle's window: when the current minute of requests began and how many came.
    # On the token's row, so every app server counts the same requests.
    window_started_at = models.DateTimeField(null=True, blank=True)
    window_requests = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Token {self.prefix}… of {self.user_id}"

    @property
    def scope_set(self) -> frozenset[str]:
        return frozenset(self.scopes.split())
