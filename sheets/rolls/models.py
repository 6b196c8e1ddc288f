"""A roll, as the table's log shows it: who rolled what, the dice, and the odds it had."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from rulesets.registry import SYSTEMS
from sheets.campaigns.models import Campaign
from sheets.characters.models import Character


class RollEntry(models.Model):
    """One roll made from a sheet, or a hit marked on one (`kind`).

    Inside a campaign it belongs to the table's log (`campaign` set); outside one it shows
    on the sheet's own recent rolls. Everything the log prints is stored as it was at the
    roll, so a later edit of the sheet or of the house rules does not rewrite history.
    """

    class Kind(models.TextChoices):
        ROLL = "roll", "Roll"
        # Wounds (O.R.E.) or damage (1o3d10) marked on the sheet `character` from a hit:
        # an attack roll's (`follows`) or one entered by hand.
        HIT = "hit", "Hit"
        # Points spent between rolls (SWd10's Destiny once a scene, current Power at a
        # round's start, a full rest): written on the sheet, never a hit to apply.
        SPEND = "spend", "Spend"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ROLL)
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="rolls"
    )
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="rolls")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A GM's secret roll: shown to the table's GMs only, never to its players.
    secret = models.BooleanField(default=False)
    system = models.CharField(
        max_length=20, choices=[(key, info.name) for key, info in SYSTEMS.items()]
    )
    rollable_key = models.CharField(max_length=120)
    rollable_label = models.CharField(max_length=200)
    # What the pool was made of when rolled ("5 dice", "4D+2"), as the table reads it.
    pool = models.CharField(max_length=120, blank=True)
    # The player's modifiers, by option key, and the same in words for the log.
    options = models.JSONField(default=dict)
    modifiers = models.CharField(max_length=400, blank=True)
    dice = models.JSONField(default=list)
    kept = models.CharField(max_length=200, blank=True)
    outcome = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    details = models.JSONField(default=list)
    total = models.IntegerField(null=True, blank=True)
    success = models.BooleanField()
    # The exact chance of success before the roll, as "n/d", and as the page printed it.
    odds = models.TextField()
    odds_percent = models.CharField(max_length=12)
    question = models.CharField(max_length=200, blank=True)
    # What a next step reads without parsing text, as the roll gave it: an O.R.E. hit's
    # "width", "height", the weapon's "damage" and "penetration"; a 1o3d10 hit's "damage"
    # and "location".
    facts = models.JSONField(default=dict, blank=True)
    # A hit marked from an attack roll names that roll (once marked, not again).
    follows = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="hits"
    )

    class Meta:
        ordering = ["-pk"]
        indexes = [
            models.Index(fields=["campaign", "-id"], name="roll_campaign_newest"),
            models.Index(fields=["character", "-id"], name="roll_character_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.rollable_label} by {self.author_id}: {self.outcome}"
