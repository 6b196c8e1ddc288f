"""What an import of another tool's file keeps: the upload waiting for its preview to be
confirmed, and the original file beside the character it became."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from sheets.campaigns.models import Campaign
from sheets.characters.models import Character


class PendingImport(models.Model):
    """An uploaded file between its preview and the person's answer.

    The file stays here, never in the browser: confirming reads it again from this row,
    so what is stored is what the server read, not what a client sends back. Rows live an
    hour at most (imports.PENDING_LIFETIME) and a person keeps a few (PENDING_KEPT).
    """

    token = models.CharField(max_length=64, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pending_imports"
    )
    format = models.CharField(max_length=40)
    filename = models.CharField(max_length=200, blank=True)
    raw = models.BinaryField()
    # What the person gave when asked (a species' minimums), checked when given.
    answers = models.JSONField(default=dict, blank=True)
    # The table the character is to join when confirmed (None: no table). The preview
    # judges the sheet by its readings; whether the person still sits at it is asked again
    # at the preview and at the confirmation, not trusted from when it was chosen.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "created_at"])]

    def __str__(self) -> str:
        return f"{self.filename or 'upload'} ({self.format}), waiting"


class ImportedFile(models.Model):
    """The file a character was imported from, kept as it came, so nothing of it is lost."""

    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, related_name="imported_file"
    )
    format = models.CharField(max_length=40)
    filename = models.CharField(max_length=200, blank=True)
    raw = models.BinaryField()
    size = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.filename or 'file'} ({self.format}) of {self.character_id}"
