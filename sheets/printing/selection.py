"""Which sheets the table's PDF holds, and why it may hold none: read by the request
(sheets/printing/services.py) and by the worker's build (sheets/printing/tasks.py)."""

from __future__ import annotations

from django.db.models import F, QuerySet

from sheets.campaigns.models import Campaign
from sheets.characters.models import Character, ReviewState


class PrintRefused(Exception):
    """The table's PDF cannot be built; the message says why, in the GM's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def approved_sheets(campaign: Campaign) -> QuerySet[Character]:
    """Sheets approved as they stand now: a sheet changed since its approval is left out,
    because the GM has not seen what it says today."""
    return (
        Character.objects.filter(
            campaign=campaign, review_state=ReviewState.APPROVED, review_version=F("version")
        )
        # The GM's NPCs are no player's sheet: the table's PDF leaves them out (sheets/npcs).
        .filter(npc__isnull=True)
        .select_related("owner")
        .order_by("name", "pk")
    )


def changed_since_approval(campaign: Campaign) -> QuerySet[Character]:
    return (
        Character.objects.filter(campaign=campaign, review_state=ReviewState.APPROVED)
        .exclude(review_version=F("version"))
        .order_by("name", "pk")
    )
