"""The GM's side of a table: which sheets are non-player characters, and groups of minions.

An NPC is an ordinary `Character` of the table's system (its sheet, history, rolls and
PDF work as any sheet's) with one row here saying so. Keeping the mark in its own table
adds nothing to `characters_character` (SQLite rebuilds a table for any column it cannot
add as nullable), and a sheet is an NPC exactly when this row exists.

A later scene tracker names a participant as a `Character` (a player's or an NPC) or a
`MinionMember`: both carry their own wound state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from sheets.campaigns.models import Campaign
from sheets.characters.models import Character


class Visibility(models.TextChoices):
    HIDDEN = "hidden", "Hidden from the players"
    NAME = "name", "Name and portrait"
    SHEET = "sheet", "The whole sheet, read-only"


class Npc(models.Model):
    """Marks a character as a non-player character of its table's GMs."""

    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, primary_key=True, related_name="npc"
    )
    # What the table's players see of it; a new NPC is hidden until a GM reveals it.
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.HIDDEN
    )
    # A quick NPC holds only the traits that matter and is judged by no budget.
    quick = models.BooleanField(default=False)
    # Bumped by each change of what players see; a change naming an older one is refused.
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"NPC {self.character_id} ({self.visibility})"


class MinionGroup(models.Model):
    """Several minions sharing one stat block (an NPC sheet of the same table)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="minion_groups")
    block = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="minion_groups")
    name = models.CharField(max_length=100)
    # Bumped by every hit or change; a write naming an older version is refused.
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.campaign_id})"


class MinionMember(models.Model):
    """One minion of a group: its number, an optional name, its own wounds."""

    group = models.ForeignKey(MinionGroup, on_delete=models.CASCADE, related_name="members")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, blank=True)
    # The system's wound state for this member (rulesets/<key>/npcs.py): a hit's result.
    wounds = models.JSONField(default=dict)

    class Meta:
        ordering = ["group", "number"]
        constraints = [
            models.UniqueConstraint(fields=["group", "number"], name="one_member_per_number")
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return self.name or f"#{self.number}"
