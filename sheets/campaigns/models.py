"""A campaign is one GM's table: its members, its invitations, its house rules."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from rulesets.registry import SYSTEMS


def new_token() -> str:
    # 32 bytes from the OS: a link is the only secret an invitation or a share has.
    return secrets.token_urlsafe(32)


class Campaign(models.Model):
    name = models.CharField(max_length=100)
    system = models.CharField(
        max_length=20, choices=[(key, info.name) for key, info in SYSTEMS.items()]
    )
    description = models.TextField(blank=True, max_length=4000)
    # The table's house rules: the rule readings every member character is judged under.
    rule_settings = models.JSONField(default=dict, blank=True)
    # Bumped by every change of the house rules; a confirmation names the version it saw.
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_system_display()})"


class Role(models.TextChoices):
    GM = "gm", "GM"
    PLAYER = "player", "Player"


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.campaign_id} ({self.role})"


class Invitation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign_id}"

    def refusal(self, now=None) -> str:
        """Why this link can no longer be used, in plain words; empty while it can."""
        now = now or timezone.now()
        if self.revoked_at is not None:
            return "This invitation was revoked by the GM. Ask them for a new link."
        if self.expires_at is not None and self.expires_at <= now:
            return "This invitation has expired. Ask the GM for a new link."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This invitation has been used as many times as the GM allowed."
        return ""
