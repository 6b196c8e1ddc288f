"""The advancement ledger's entries: one model for every system."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from sheets.campaigns.models import Campaign
from sheets.characters.models import Character


class LedgerEntry(models.Model):
    """One dated line of a character's advancement: an award, a purchase, a refund or a
    GM's correction. The balance is the sum of `amount` over a character's entries and is
    never stored, so it cannot disagree with the entries."""

    class Kind(models.TextChoices):
        AWARD = "award", "Award"
        PURCHASE = "purchase", "Purchase"
        REFUND = "refund", "Refund"
        CORRECTION = "correction", "Correction"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # Signed, in the system's unit: awards +, purchases −, refunds + (undo of a purchase),
    # corrections ±.
    amount = models.IntegerField()
    unit = models.CharField(max_length=20)
    trait = models.CharField(max_length=200, blank=True)
    trait_label = models.CharField(max_length=200, blank=True)
    # As the sheet shows them ("3", "4D+1").
    from_value = models.CharField(max_length=100, blank=True)
    to_value = models.CharField(max_length=100, blank=True)
    reason = models.TextField(blank=True, max_length=500)
    # WEG: who taught a Force skill (a purchase without a teacher costs double).
    teacher = models.CharField(max_length=100, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(help_text="The character's version after this entry.")
    # A refund points at the purchase (or entry) it undoes; an entry is undone at most once.
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by"
    )
    # WEG: the adventure the entry belongs to (one pip per skill between adventures).
    adventure = models.PositiveIntegerField(default=1)
    # SWd10: a merit bought in play waits for the Storyteller's consent.
    pending = models.BooleanField(default=False)
    # Carries over what a sheet held before its ledger (the XP it came with, the raises it
    # had already bought, what creation left): never undone, only corrected.
    carried = models.BooleanField(default=False)
    # Points from elsewhere (awarded off-table or at another table, or carried in by an
    # import) wait for the GM of the table the sheet is brought to: while the sheet sits
    # there they do not count (`figures`) until that GM accepts them (issue 25). Set when
    # the sheet joins a table (`mark_origins`); off-table the owner is their own GM and
    # every entry counts, whatever this says.
    needs_acceptance = models.BooleanField(default=False)
    # The table whose GM accepted it: bringing the sheet back there asks no more.
    accepted_in = models.ForeignKey(
        Campaign, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Read from an imported file: its author is a name from elsewhere, none is kept.
    imported = models.BooleanField(default=False)
    # WEG: the attribute improvement roll the purchase made (002:53), as the roll log keeps it.
    roll = models.ForeignKey(
        "rolls.RollEntry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The purchase left the sheet as it was: the improvement roll failed, so the attribute
    # stays and only half its price was kept (002:53). Its undo gives that back and touches
    # no value.
    unchanged = models.BooleanField(default=False)

    class Meta:
        # Moved here from the characters app; the table kept its name and its rows.
        db_table = "characters_ledgerentry"
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["character", "kind"])]

    def __str__(self) -> str:
        return f"{self.character_id} {self.kind} {self.amount} {self.unit}"


class Training(models.Model):
    """The training a purchase needs (WEG, 002:43-59, 002:798, 003:1762, 003:1798), counted
    in in-game days: the GM lets days pass, marks it done or cuts it short. Its length is
    what the purchase recorded; what is left is computed, never stored."""

    entry = models.OneToOneField(LedgerEntry, on_delete=models.CASCADE, related_name="training")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="trainings")
    trait_label = models.CharField(max_length=200)
    # In-game days: the length after the extra points, before them, and the least the seed
    # (or the reading where it names none) lets it be cut to.
    days = models.PositiveIntegerField()
    full_days = models.PositiveIntegerField()
    minimum_days = models.PositiveIntegerField()
    # Points spent only to shorten it (part of the purchase's amount).
    extra = models.PositiveIntegerField(default=0)
    # "day" or "week": how the seed counts it, for showing it.
    unit = models.CharField(max_length=10)
    taught = models.BooleanField(default=False)
    explanation = models.CharField(max_length=500)
    source = models.CharField(max_length=40)
    days_done = models.PositiveIntegerField(default=0)
    # Ended: its days passed, or the GM marked it done; with the GM's words when they did.
    finished = models.BooleanField(default=False)
    note = models.CharField(max_length=500, blank=True)
    # The raise waits for the end (the WEG reading `training_counts`): paid at once, while
    # the sheet keeps the old value until the training ends; `new_value` is what it rises
    # to then (pips, Move, or 1 for a power), as the purchase priced it.
    holds_raise = models.BooleanField(default=False)
    new_value = models.IntegerField(default=0)
    # The version at which its end wrote the raise (or the roll that refused it).
    ended_version = models.PositiveIntegerField(null=True, blank=True)
    # What a failed attribute improvement roll at the end gave back (002:53): the rest of
    # the price comes back with the purchase's undo.
    refunded = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.character_id} {self.trait_label} {self.days_done}/{self.days} days"

    @property
    def days_left(self) -> int:
        return 0 if self.finished else max(0, self.days - self.days_done)

    @property
    def waiting(self) -> bool:
        """Whether its raise is paid but not yet on the sheet."""
        return self.holds_raise and self.ended_version is None
