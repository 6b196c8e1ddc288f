"""A character is one sheet of one rule system; every change to it leaves a revision."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from rulesets.registry import SYSTEMS


class Character(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    name = models.CharField(max_length=100)
    system = models.CharField(
        max_length=20, choices=[(key, info.name) for key, info in SYSTEMS.items()]
    )
    # The ruleset owns the shape of `sheet`; derived values are never stored in it.
    sheet = models.JSONField(default=dict)
    # Rule readings chosen for this character (a campaign's, once campaigns exist).
    rule_settings = models.JSONField(default=dict, blank=True)
    # Bumped by every write; a write naming an older version is refused (no lost edits).
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        indexes = [models.Index(fields=["owner", "name"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_system_display()})"


class Revision(models.Model):
    """What one write changed: only the changed paths, with their values before and after."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="revisions")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(help_text="The character's version after this write.")
    summary = models.CharField(max_length=200)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "version"], name="one_revision_per_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.character_id} v{self.version}: {self.summary}"

    @property
    def changes_pair(self) -> tuple[dict, dict]:
        return self.before, self.after
