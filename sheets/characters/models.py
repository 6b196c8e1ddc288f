"""A character is one sheet of one rule system; every change to it leaves a revision."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from rulesets.registry import SYSTEMS
from sheets.campaigns.models import Campaign, new_token


class ReviewState(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    APPROVED = "approved", "Approved"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"


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
    # The owner's own rule readings; inside a campaign the campaign's are in force instead.
    rule_settings = models.JSONField(default=dict, blank=True)
    # A character sits at one table at most; leaving it keeps the character its owner's.
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
    )
    # Where the GM's review stands, and the version it was about (submitted or approved).
    review_state = models.CharField(
        max_length=20, choices=ReviewState.choices, default=ReviewState.DRAFT
    )
    review_version = models.PositiveIntegerField(null=True, blank=True)
    # Bumped by every write; a write naming an older version is refused (no lost edits).
    version = models.PositiveIntegerField(default=1)
    # The adventure the character is playing; the GM (the owner outside a campaign) marks
    # an adventure's end, which closes undo and, in WEG, reopens one pip per skill.
    adventure = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        indexes = [models.Index(fields=["owner", "name"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_system_display()})"

    @property
    def readings_in_force(self) -> dict:
        """The rule readings this sheet is judged under: its campaign's, or its own."""
        if self.campaign_id is not None:
            return self.campaign.rule_settings
        return self.rule_settings

    @property
    def review_label(self) -> str:
        """Draft, submitted, approved, changes requested, or changed since approval."""
        if self.review_state == ReviewState.APPROVED and self.version != self.review_version:
            return "Changed since approval"
        return ReviewState(self.review_state).label

    @property
    def changed_since_approval(self) -> bool:
        return self.review_state == ReviewState.APPROVED and self.version != self.review_version


class Review(models.Model):
    """One step of a sheet's review: submitted, approved or changes requested, at a version.

    An approval keeps the sheet as it stood, so the GM can later see what changed since.
    """

    class Kind(models.TextChoices):
        SUBMITTED = "submitted", "Submitted"
        APPROVED = "approved", "Approved"
        CHANGES_REQUESTED = "changes_requested", "Changes requested"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="reviews")
    campaign = models.ForeignKey(Campaign, on_delete=models.SET_NULL, null=True, related_name="+")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    version = models.PositiveIntegerField()
    comment = models.TextField(blank=True, max_length=4000)
    name = models.CharField(max_length=100)
    sheet = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.character_id} v{self.version}: {self.kind}"


class GMNote(models.Model):
    """A table's private note on a character: never shown to its player.

    It belongs to the table whose GMs wrote it, not to the sheet: a sheet that moves to
    another table takes no note along, and the old table's GMs still find it in their
    table's notes. A note with no campaign (a sheet that had left its table before notes
    were kept per table, see migration 0012) is shown to nobody.
    """

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="gm_notes"
    )
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="gm_notes")
    text = models.TextField(blank=True, max_length=20000)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "character"], name="one_gm_note_per_table_and_character"
            )
        ]

    def __str__(self) -> str:
        return f"GM note of {self.campaign_id} on {self.character_id}"


class ShareLink(models.Model):
    """A read-only link to a sheet and its PDF for people outside the table."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="shares")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Share of {self.character_id}"


class PortraitManager(models.Manager):
    """Rows without their image bytes: the sheet page asks `character.portrait` only for
    its digest and size, and a related object is read through the base manager. The bytes
    load when `image` is read (the portrait's own URL, the PDF)."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().defer("image")


class Portrait(models.Model):
    """A character's picture, one at most, as sheets/characters/portraits.py stored it:
    decoded, turned upright, fitted into a small square, its metadata dropped, re-encoded.

    The bytes live in the database rather than in MEDIA_ROOT: a backup of the database is
    then a backup of everything, every app server sees the same picture without a shared
    disk, and the picture is written, replaced and deleted in the same transaction as the
    character's version and revision (it goes with the character on delete).
    """

    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, primary_key=True, related_name="portrait"
    )
    # JPEG: browsers show it and WeasyPrint embeds it in a PDF as it is (a WebP or PNG
    # would be decoded and written out again, several times larger, in every print).
    image = models.BinaryField()
    content_type = models.CharField(max_length=40, default="image/jpeg")
    width = models.PositiveSmallIntegerField()
    height = models.PositiveSmallIntegerField()
    # SHA-256 of `image`: its URL names it, so a browser may keep each picture for good.
    digest = models.CharField(max_length=64)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = models.Manager()
    without_image = PortraitManager()

    class Meta:
        base_manager_name = "without_image"

    def __str__(self) -> str:
        return f"Portrait of {self.character_id}"

    # The sheet draws it within a SHOWN px square, from its width and height attributes
    # (no stylesheet rule: the sheet page's weight is counted), never enlarged.
    SHOWN = 128

    @property
    def shown_width(self) -> int:
        return max(1, round(self.width * self._shown_scale))

    @property
    def shown_height(self) -> int:
        return max(1, round(self.height * self._shown_scale))

    @property
    def _shown_scale(self) -> float:
        return min(1.0, self.SHOWN / max(self.width, self.height, 1))
