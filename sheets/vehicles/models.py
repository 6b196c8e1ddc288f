"""Vehicles and starships: a sheet of their own, owned by a character, an NPC or a table.

The stat block is JSON owned by the system's `rulesets/<key>/vehicles.py` (validated there
on every write); who owns it is `owner_kind` with the row it names: a character or an NPC
(an NPC is a `Character` of its table, sheets/npcs) through `character`, a table through
`campaign`. Each write bumps `version` and leaves a `VehicleRevision`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rulesets.registry import SYSTEMS
from sheets.campaigns.models import Campaign
from sheets.characters.models import Character


class OwnerKind(models.TextChoices):
    CHARACTER = "character", "A character"
    CAMPAIGN = "campaign", "The table"
    NPC = "npc", "An NPC"


class Vehicle(models.Model):
    system = models.CharField(
        max_length=20, choices=[(key, info.name) for key, info in SYSTEMS.items()]
    )
    name = models.CharField(max_length=100)
    data = models.JSONField(default=dict)
    owner_kind = models.CharField(max_length=10, choices=OwnerKind.choices)
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, null=True, blank=True, related_name="vehicles"
    )
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="vehicles"
    )
    # Bumped by every write; a write naming an older version is refused (two tabs).
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            # A table's vehicle names its table and no character; any other names its
            # character (a player's or an NPC) and no table (it goes where they go).
            models.CheckConstraint(
                condition=(
                    Q(owner_kind="campaign", campaign__isnull=False, character__isnull=True)
                    | Q(
                        owner_kind__in=("character", "npc"),
                        campaign__isnull=True,
                        character__isnull=False,
                    )
                ),
                name="vehicle_has_one_owner",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.system})"

    @property
    def table_id(self) -> int | None:
        """The table the vehicle plays at: its own, or its owner's."""
        if self.owner_kind == OwnerKind.CAMPAIGN:
            return self.campaign_id
        return self.character.campaign_id


class VehicleRevision(models.Model):
    """What one write changed: the stat block before and after, and who wrote it."""

    vehicle = models.ForeignKey(Vehicle, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=300)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)

    class Meta:
        ordering = ["-version"]

    def __str__(self) -> str:
        return f"{self.vehicle_id} v{self.version}: {self.summary}"
