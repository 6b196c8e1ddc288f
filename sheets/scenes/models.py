"""The GM's scene tracker: who is in a scene, their initiative, whose turn it is.

A participant is one row with a `kind` and one nullable foreign key per kind (a character,
a player's or an NPC; a minion group as one; one minion of a group; a vehicle), checked by
a constraint that exactly the kind's key is set. Foreign keys rather than a kind + bare id:
the database keeps them honest (a deleted NPC or minion leaves the scene with it, never a
dangling number), one select_related reads every participant with its row, and the
permission selector can filter them with ordinary joins.

The order is derived, never stored: each participant keeps its initiative score (a small
dict, rulesets/core/initiative.Score), and the tracker sorts by it, the sheets' tie
traits and the order added. `turn` counts places in that order.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rulesets.core.initiative import SEED_TIES, TIE_RULES
from sheets.campaigns.models import Campaign
from sheets.characters.models import Character
from sheets.npcs.models import MinionGroup, MinionMember
from sheets.vehicles.models import Vehicle


class Scene(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scenes")
    name = models.CharField(max_length=100)
    # How a tie the system's traits leave is settled (rulesets/core/initiative.TIE_RULES).
    ties = models.CharField(max_length=20, choices=TIE_RULES, default=SEED_TIES)
    round = models.PositiveIntegerField(default=1)
    # The place in the derived order whose turn it is (0 = the first to act).
    turn = models.PositiveIntegerField(default=0)
    # Bumped by every write; a write naming an older version is refused (two GMs, two tabs).
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # When a GM ended the scene (null while it runs). An ended scene is read only and no
    # longer the one a character "is in" (state.running_scene_of): SWd10's once-a-round and
    # once-a-scene spends and WEG 1E's stun rounds stop counting it. A GM may reopen it.
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.campaign_id})"

    @property
    def ended(self) -> bool:
        return self.ended_at is not None


class Kind(models.TextChoices):
    CHARACTER = "character", "Character"
    GROUP = "group", "Minion group"
    MEMBER = "member", "Minion"
    VEHICLE = "vehicle", "Vehicle"


class Participant(models.Model):
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="participants")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    group = models.ForeignKey(
        MinionGroup, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    member = models.ForeignKey(
        MinionMember, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # Named so that the vehicles app can ask whether a vehicle is in a scene (it is refused
    # deletion there) without importing this app, which sits above it.
    vehicle = models.ForeignKey(
        Vehicle, on_delete=models.CASCADE, null=True, blank=True, related_name="scene_rows"
    )
    # The order added: the last tie-break, so the order is the same on every reload.
    position = models.PositiveIntegerField(default=0)
    # rulesets/core/initiative.Score.as_data(), or null before a roll.
    initiative = models.JSONField(null=True, blank=True)
    # A vehicle's damage, shown by a GM to the players who may see the vehicle (its GMs
    # always see it; a character's wounds are its player's alone, never shown here).
    shown = models.BooleanField(default=False)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.CheckConstraint(
                name="participant_one_row_of_its_kind",
                condition=(
                    Q(
                        kind="character",
                        character__isnull=False,
                        group__isnull=True,
                        member__isnull=True,
                        vehicle__isnull=True,
                    )
                    | Q(
                        kind="group",
                        character__isnull=True,
                        group__isnull=False,
                        member__isnull=True,
                        vehicle__isnull=True,
                    )
                    | Q(
                        kind="member",
                        character__isnull=True,
                        group__isnull=True,
                        member__isnull=False,
                        vehicle__isnull=True,
                    )
                    | Q(
                        kind="vehicle",
                        character__isnull=True,
                        group__isnull=True,
                        member__isnull=True,
                        vehicle__isnull=False,
                    )
                ),
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} in scene {self.scene_id}"
