"""The history list in groups: one person's consecutive edits, each within a few minutes of
the last, read as one entry. The revisions stay one per write; a group only gathers them for
the list, and opens to its versions, each with its own diff and restore.

Where groups start is found in the database (a window over the versions), so the list pages
by groups without reading a long history: a page reads its 25 groups' first versions and
then only the revisions between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.core.paginator import Page, Paginator
from django.db.models import BooleanField, Case, F, Q, QuerySet, Value, When, Window
from django.db.models.functions import Coalesce, Lag, Mod

from sheets.characters.models import Character
from sheets.history.models import Revision

GROUPS_PER_PAGE = 25
# Edits further apart than this are two sittings, not one.
GROUP_GAP = timedelta(minutes=5)
# The most versions one group gathers: a long sitting reads as a few entries, and an opened
# group stays a short list. Groups break at fixed versions (1, 26, 51...), which the
# database can tell from each row alone.
GROUP_MOST = 25


@dataclass
class Group:
    """One entry of the list: versions `first` to `last`, newest first in `revisions`."""

    revisions: list[Revision] = field(default_factory=list)

    @property
    def newest(self) -> Revision:
        return self.revisions[0]

    @property
    def first(self) -> int:
        return self.revisions[-1].version

    @property
    def last(self) -> int:
        return self.revisions[0].version

    @property
    def single(self) -> bool:
        return len(self.revisions) == 1

    @property
    def changes(self) -> list[list]:
        """The group's change lines as one: each label from its first value to its last,
        left out where the group ends where it began."""
        merged: dict[str, list] = {}
        for revision in reversed(self.revisions):
            for label, before, after in revision.changes:
                if label in merged:
                    merged[label][2] = after
                else:
                    merged[label] = [label, before, after]
        return [line for line in merged.values() if line[1] != line[2]]

    @property
    def more(self) -> int:
        return sum(revision.changes_more for revision in self.revisions)


def group_starts(character: Character) -> QuerySet[Revision]:
    """The first version of each group, newest first (as version numbers)."""
    by_version = F("version").asc()
    author = Coalesce("author_id", Value(0))
    starts = (
        Revision.objects.filter(character=character)
        .annotate(
            previous_at=Window(Lag("created_at"), order_by=by_version),
            previous_author=Window(Lag(author), order_by=by_version),
            previous_name=Window(Lag("author_name"), order_by=by_version),
            block=Mod("version", Value(GROUP_MOST)),
        )
        .annotate(
            starts=Case(
                When(previous_at__isnull=True, then=Value(True)),
                When(~Q(previous_author=author), then=Value(True)),
                When(~Q(previous_name=F("author_name")), then=Value(True)),
                When(created_at__gt=F("previous_at") + GROUP_GAP, then=Value(True)),
                When(block=1, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
    )
    return starts.filter(starts=True).order_by("-version").values_list("version", flat=True)


def history_page(character: Character, number: str | None) -> tuple[Page, list[Group]]:
    """The page `number` of the history list (the nearest one for a page that is none),
    and its groups with their revisions (the operations left out: the list reads words)."""
    starts = group_starts(character)
    page = Paginator(starts, GROUPS_PER_PAGE).get_page(number)
    firsts = list(page.object_list)
    if not firsts:
        return page, []
    offset = page.start_index() - 1
    # The group just newer than this page's first ends one version before it starts.
    newer = list(starts[offset - 1 : offset]) if offset else []
    last = newer[0] - 1 if newer else character.version
    revisions = (
        character.revisions.filter(version__gte=firsts[-1], version__lte=last)
        .select_related("author")
        .defer("ops")
        .order_by("-version")
    )
    groups = [Group() for _ in firsts]
    index = 0
    for revision in revisions:
        while revision.version < firsts[index]:
            index += 1
        groups[index].revisions.append(revision)
    return page, groups
