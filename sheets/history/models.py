"""A character's history: one revision per write, holding only what that write changed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from sheets.characters.models import Character


class Revision(models.Model):
    """What one write changed, as operations down to one row of a list (see revisions.py)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="revisions")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Who wrote it, as an imported file names them: a name from elsewhere is no account here.
    author_name = models.CharField(max_length=150, blank=True)
    # A default rather than auto_now_add, so an imported history keeps its dates.
    created_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(help_text="The character's version after this write.")
    summary = models.CharField(max_length=200)
    ops = models.JSONField(default=list)
    # [label, before, after] as the player read them when it was written; the first
    # CHANGES_KEPT of them, and how many more there were.
    changes = models.JSONField(default=list)
    changes_more = models.PositiveIntegerField(default=0)

    class Meta:
        # Moved here from the characters app; the table kept its name and its rows.
        db_table = "characters_revision"
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "version"], name="one_revision_per_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.character_id} v{self.version}: {self.summary}"

    @property
    def who(self) -> str:
        if self.author is not None:
            return self.author.get_username()
        return f"{self.author_name} (from a file)" if self.author_name else "—"
