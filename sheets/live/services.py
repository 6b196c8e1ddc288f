"""What a stream reads from the database on each wake-up: the newest roll the viewer may
see and the sheet's version, through the one permission selector and the roll log's own
rules (a secret roll and a hidden NPC's rolls only for the table's GMs).

A stream's place is a cursor, "r<roll id>v<version>": the event id the browser sends back
as `Last-Event-ID` when it reconnects, so it resumes where it stopped, and a restarted
server misses nothing that was committed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from django.db import connection
from django.utils import timezone

from sheets.campaigns.models import Campaign, Membership, Role
from sheets.characters.models import Character
from sheets.live.bus import Event
from sheets.permissions import (
    CharacterAccess,
    User,
    campaign_for,
    campaign_role,
    character_for,
)
from sheets.rolls.models import RollEntry
from sheets.rolls.services import POLL_OVERLAP, sheet_log, table_log

_CURSOR = re.compile(r"r(\d{1,18})v(\d{1,18})")


@dataclass(frozen=True)
class Cursor:
    roll: int = 0
    version: int = 0

    def __str__(self) -> str:
        return f"r{self.roll}v{self.version}"

    @classmethod
    def parse(cls, raw: str | None) -> Cursor | None:
        match = _CURSOR.fullmatch((raw or "").strip())
        return cls(int(match[1]), int(match[2])) if match else None


@dataclass(frozen=True)
class News:
    """What is new past a cursor: the newest roll id and the sheet's version, when moved."""

    cursor: Cursor
    roll: int | None = None
    version: int | None = None


class SheetSource:
    """A sheet page's stream: its table's roll log (or its own, off-table) and its version."""

    def __init__(self, user: User, pk: int) -> None:
        self.user, self.pk = user, pk
        # Refused like the page (Http404) before any byte is sent.
        character, _ = character_for(user, pk)
        self.campaign_id = character.campaign_id

    def wants(self, event: Event) -> bool:
        if event.kind == "sheet":
            return event.character == self.pk
        if event.kind == "roll":
            if self.campaign_id is not None:
                return event.campaign == self.campaign_id
            return event.character == self.pk and event.campaign is None
        return True

    def news(self, cursor: Cursor) -> News:
        """Read anew, through the selector, every time: a viewer removed from the table
        meanwhile gets Http404 here and the stream ends."""
        character, access = character_for(self.user, self.pk)
        self.campaign_id = character.campaign_id
        newest = _newest_roll(self.user, character, access, cursor.roll)
        moved = character.version if character.version > cursor.version else None
        after = replace(
            cursor,
            roll=max(cursor.roll, newest or 0),
            version=max(cursor.version, character.version),
        )
        return News(after, newest, moved)

    def start(self) -> Cursor:
        character, access = character_for(self.user, self.pk)
        return Cursor(_newest_roll(self.user, character, access, 0) or 0, character.version)


class CampaignSource:
    """A campaign page's stream: the table's roll log."""

    def __init__(self, user: User, pk: int) -> None:
        self.user, self.pk = user, pk
        campaign_for(user, pk)

    def wants(self, event: Event) -> bool:
        return event.kind != "sheet" and (event.kind != "roll" or event.campaign == self.pk)

    def news(self, cursor: Cursor) -> News:
        campaign, role = campaign_for(self.user, self.pk)
        newest = _newest_table_roll(self.user, campaign, role, cursor.roll)
        return News(replace(cursor, roll=max(cursor.roll, newest or 0)), newest)

    def start(self) -> Cursor:
        campaign, role = campaign_for(self.user, self.pk)
        return Cursor(_newest_table_roll(self.user, campaign, role, 0) or 0)


def _newest_table_roll(user: User, campaign: Campaign, role: Role | None, after: int) -> int | None:
    return table_log(user, campaign, after=after, role=role).values_list("pk", flat=True).first()


def _newest_roll(
    user: User, character: Character, access: CharacterAccess, after: int
) -> int | None:
    """The newest roll of the log the sheet page shows (rolls/context.log_for_character)."""
    if character.campaign_id is not None:
        role = campaign_role(user, character.campaign)
        if role is not None:
            return _newest_table_roll(user, character.campaign, role, after)
    return sheet_log(character, access, after=after).values_list("pk", flat=True).first()


def nothing_new_at_table(user: User, campaign_pk: int, after: int, seen: frozenset[int]) -> bool:
    """A table log's poll with nothing to bring, answered from one indexed read: the
    viewer is at the table, and no entry is newer than `after` nor recent and unseen.

    False sends the poll down its full path, which applies the log's rules (a GM's secret
    roll is "new" here and filtered there): never a wrong "nothing", only a dearer one.
    A stranger to the table is never told "nothing new": the full path refuses them.
    One fixed statement, as `advancement.figures` sums the ledger: built through the ORM,
    the query cost more than running it (about 5 ms a poll on a busy machine).
    """
    unseen = sorted(seen)
    not_seen = f" AND id NOT IN ({', '.join(['%s'] * len(unseen))})" if unseen else ""
    sql = (
        f"SELECT EXISTS(SELECT 1 FROM {_MEMBERSHIPS} WHERE campaign_id = %s AND user_id = %s),"
        f" EXISTS(SELECT 1 FROM {_ROLLS} WHERE campaign_id = %s"
        f" AND (id > %s OR created_at >= %s){not_seen})"
    )
    since = timezone.now() - POLL_OVERLAP
    with connection.cursor() as cursor:
        cursor.execute(sql, [campaign_pk, user.pk, campaign_pk, after, since, *unseen])
        member, fresh = cursor.fetchone()
    return bool(member) and not fresh


_MEMBERSHIPS = Membership._meta.db_table
_ROLLS = RollEntry._meta.db_table
