"""A compendium is a book of entries (species, weapons, templates...) a table plays with.

A book is a campaign's, kept by its GMs, or one user's own, for their characters outside a
table; each holds entries of one rule system (a personal book is one per system). The
seeds' own catalogs are the read-only built-in part of every book (`rulesets/`); what is
stored here is what people added. Every write leaves an `EntryVersion`, so a sheet can name
the version it picked and the history of an entry is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from rulesets.registry import SYSTEMS
from sheets.campaigns.models import Campaign

# How a book is named in a URL: a table's book, or the visitor's own book of one system.
BOOK_KEY = r"table-[0-9]{1,18}|mine-[a-z0-9_]{1,20}"
_BOOK_KEY = re.compile(rf"(?:{BOOK_KEY})")


@dataclass(frozen=True)
class Book:
    """One book: a campaign's (its system is the campaign's), or one owner's for a system."""

    system: str
    campaign: Campaign | None = None
    owner: AbstractBaseUser | None = None

    @property
    def key(self) -> str:
        if self.campaign is not None:
            return f"table-{self.campaign.pk}"
        return f"mine-{self.system}"

    @property
    def title(self) -> str:
        if self.campaign is not None:
            return self.campaign.name
        return "Your own book"

    @property
    def system_name(self) -> str:
        return SYSTEMS[self.system].name

    @property
    def is_personal(self) -> bool:
        return self.campaign is None

    def entries(self) -> QuerySet[CompendiumEntry]:
        """Every stored entry of the book, hidden ones included."""
        if self.campaign is not None:
            rows = CompendiumEntry.objects.filter(campaign=self.campaign)
        else:
            rows = CompendiumEntry.objects.filter(owner=self.owner, campaign__isnull=True)
        return rows.filter(system=self.system)

    @classmethod
    def of(cls, entry: CompendiumEntry) -> Book:
        return cls(system=entry.system, campaign=entry.campaign, owner=entry.owner)

    @classmethod
    def of_sheet(cls, character: models.Model) -> Book:
        """The book a character picks from: its table's, or its owner's own outside one."""
        if character.campaign_id is not None:
            return cls(system=character.system, campaign=character.campaign)
        return cls(system=character.system, owner=character.owner)


def parse_book_key(key: str) -> tuple[str, int | str] | None:
    """("table", campaign pk) or ("mine", system) for a book's key; None for anything else."""
    text = str(key)
    if not _BOOK_KEY.fullmatch(text):
        return None
    if text.startswith("table-"):
        return "table", int(text.removeprefix("table-"))
    return "mine", text.removeprefix("mine-")


class CompendiumEntry(models.Model):
    # Exactly one of the two says whose book it is (the constraint below).
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="compendium_entries",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="compendium_entries",
    )
    system = models.CharField(
        max_length=20, choices=[(key, info.name) for key, info in SYSTEMS.items()]
    )
    # A kind the system declares (`COMPENDIUM_KINDS`): "species", "weapon", ...
    kind = models.CharField(max_length=40)
    # The name again, out of `data`: what the book is searched and kept unique by.
    name = models.CharField(max_length=80)
    # The entry as the kind's schema validated it (its name included).
    data = models.JSONField(default=dict)
    # Bumped by every write; a write naming an older version is refused.
    version = models.PositiveIntegerField(default=1)
    # A GM's mark: the table's players do not see this entry yet.
    hidden = models.BooleanField(default=False)
    # Written for the demo by Datapad's authors (load_demo), not by the table.
    example = models.BooleanField(default=False)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(campaign__isnull=False, owner__isnull=True)
                    | Q(campaign__isnull=True, owner__isnull=False)
                ),
                name="compendium_entry_in_one_book",
            ),
            models.UniqueConstraint(
                Lower("name"),
                "campaign",
                "system",
                "kind",
                condition=Q(campaign__isnull=False),
                name="compendium_unique_name_in_campaign_book",
            ),
            models.UniqueConstraint(
                Lower("name"),
                "owner",
                "system",
                "kind",
                condition=Q(owner__isnull=False),
                name="compendium_unique_name_in_personal_book",
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "system", "kind", "name"]),
            models.Index(fields=["owner", "system", "kind", "name"]),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind}, {self.system})"

    @property
    def ref(self) -> str:
        """How a sheet names this entry (`"compendium": {"ref": ..., "version": n}`)."""
        return f"entry:{self.pk}"


class EntryVersion(models.Model):
    """One version of an entry as it was written: what a sheet that picked it saw."""

    entry = models.ForeignKey(CompendiumEntry, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    name = models.CharField(max_length=80)
    data = models.JSONField(default=dict)
    hidden = models.BooleanField(default=False)
    # What the write was: "Added", "Edited", "Copied from ...", "Imported", "Hidden"...
    summary = models.CharField(max_length=200, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "version"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "version"], name="one_entry_version")
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} v{self.version}"
