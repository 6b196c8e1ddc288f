"""What a stream reads from the database on each wake-up: the newest roll the viewer may
see and the sheet's version, through the one permission selector and the roll log's own
rules (a secret roll and a hidden NPC's rolls only for the table's GMs).

A stream's place is a cursor, "r<roll id>v<version>": the event id the browser sends back
as `Last-Event-ID` when it reconnects, so it resumes where it stopped, and a restarted
server misses nothing that was committed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import Http404
from django.utils import timezone

from sheets.campaigns.models import Campaign, Membership, Role
from sheets.characters.models import Character
from sheets.live.bus import SCENE_CHANGED, Event
from sheets.permissions import (
    CharacterAccess,
    User,
    campaign_for,
    campaign_role,
    character_for,
    scene_for,
)
from sheets.rolls.models import RollEntry
from sheets.rolls.services import POLL_OVERLAP, sheet_log, table_entries, table_log
from sheets.scenes.models import Scene
from sheets.scenes.services import view_key

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
    # A scene page's stream: what its viewer sees of the scene changed (its new key).
    scene: int | None = None


@dataclass(frozen=True)
class TableGlance:
    """What one roll at a table tells every stream there that sees as `gm` does, read once
    per event and process (views.shared_glance) in place of one read per open page: who
    sits at the table in which role, and the newest roll that visibility may read."""

    campaign: int
    gm: bool
    roles: Mapping[int, Role]
    newest: int | None


def table_glance(campaign_id: int, gm: bool) -> TableGlance:
    """Two indexed reads, whoever and however many are watching. The roll log's own rule
    (rolls.services: a secret roll and a hidden NPC's rolls only for the GMs) picks the
    rolls, by role alone, as it does for each viewer; the roles are `campaign_role`'s
    answer for every member at once."""
    roles = _roles(campaign_id)
    role = Role.GM if gm else Role.PLAYER
    visible = table_entries(AnonymousUser(), Campaign(pk=campaign_id), role)
    newest = visible.order_by("-pk").values_list("pk", flat=True).first() if roles else None
    return TableGlance(campaign_id, gm, roles, newest)


@dataclass(frozen=True)
class SceneGlance:
    """What one change at a table tells every open page of one of its scenes that sees as
    `gm` does, read once per event and process: who sits at the table in which role, and
    the scene's key for that visibility (scenes.services.view_key; None: no such scene)."""

    scene: int
    gm: bool
    roles: Mapping[int, Role]
    key: int | None


def _roles(campaign_id: int) -> dict[int, Role]:
    """`campaign_role`'s answer for every member of a table at once, by user id."""
    rows = Membership.objects.filter(campaign_id=campaign_id).values_list("user_id", "role")
    return {user_id: Role(role) for user_id, role in rows}


def scene_glance(scene_id: int, gm: bool) -> SceneGlance:
    scene = Scene.objects.select_related("campaign").filter(pk=scene_id).first()
    if scene is None:
        return SceneGlance(scene_id, gm, {}, None)
    return SceneGlance(scene_id, gm, _roles(scene.campaign_id), view_key(scene, gm))


Glance = TableGlance | SceneGlance


def _from_glance(glance: Glance, user: User, role: Role | None, cursor: Cursor) -> News | None:
    """A stream's news from the shared read; None when the viewer's standing at the table
    is not what its own last read found (removed, or made GM or player): then the stream
    reads for itself, through the selector, and is refused or sees as its new role."""
    if role is None or glance.roles.get(user.pk) is not role or glance.gm != (role is Role.GM):
        return None
    if isinstance(glance, SceneGlance):
        if glance.key is None:
            return None
        moved = glance.key if glance.key != cursor.version else None
        return News(replace(cursor, version=glance.key), scene=moved)
    newest = glance.newest if glance.newest is not None and glance.newest > cursor.roll else None
    return News(replace(cursor, roll=max(cursor.roll, newest or 0)), newest)


class SheetSource:
    """A sheet page's stream: its table's roll log (or its own, off-table) and its version."""

    def __init__(self, user: User, pk: int) -> None:
        self.user, self.pk = user, pk
        # Refused like the page (Http404) before any byte is sent.
        character, _ = character_for(user, pk)
        self.campaign_id = character.campaign_id
        # The viewer's role at the sheet's table as the last full read found it (None:
        # not at it, or the sheet at none): what a shared read is checked against.
        self.role: Role | None = None

    def wants(self, event: Event) -> bool:
        if event.kind == "sheet":
            return event.character == self.pk
        if event.kind == "roll":
            if self.campaign_id is not None:
                return event.campaign == self.campaign_id
            return event.character == self.pk and event.campaign is None
        # A scene's change is its tracker's news, none of a sheet's (a hit marked on the
        # sheet is a sheet event of its own).
        return event.kind != SCENE_CHANGED

    def news(self, cursor: Cursor) -> News:
        """Read anew, through the selector, every time: a viewer removed from the table
        meanwhile gets Http404 here and the stream ends."""
        character, access = character_for(self.user, self.pk)
        self.campaign_id = character.campaign_id
        self.role = None
        if character.campaign_id is not None:
            self.role = campaign_role(self.user, character.campaign)
        newest = _newest_roll(self.user, character, access, cursor.roll, self.role)
        moved = character.version if character.version > cursor.version else None
        after = replace(
            cursor,
            roll=max(cursor.roll, newest or 0),
            version=max(cursor.version, character.version),
        )
        return News(after, newest, moved)

    def shared(self, event: Event) -> tuple[str, int, bool] | None:
        """The shared read a roll at the sheet's table is answered from, as ("roll", table,
        seen as a GM); None for any other event (a sheet's own version is read for itself)."""
        if event.kind != "roll" or self.role is None or event.campaign != self.campaign_id:
            return None
        return ("roll", self.campaign_id, self.role is Role.GM)

    def news_from(self, glance: Glance, cursor: Cursor) -> News | None:
        return _from_glance(glance, self.user, self.role, cursor)

    def start(self) -> Cursor:
        character, access = character_for(self.user, self.pk)
        return Cursor(_newest_roll(self.user, character, access, 0) or 0, character.version)


class CampaignSource:
    """A campaign page's stream: the table's roll log. A scene page's (`scene`): what its
    viewer sees of that scene, as a key that moves when it changes (no rolls)."""

    def __init__(self, user: User, pk: int, scene: int | None = None) -> None:
        self.user, self.pk, self.scene = user, pk, scene
        _, self.role = campaign_for(user, pk)
        if scene is not None:
            self._scene()  # refused like the scene's page, and a scene of this table only

    def _scene(self) -> Scene:
        scene, self.role = scene_for(self.user, self.scene)
        if scene.campaign_id != self.pk:
            raise Http404("No such scene.")
        return scene

    def wants(self, event: Event) -> bool:
        if self.scene is not None:
            # The scene's own changes, and a sheet's at the table (a wound marked on it).
            if event.kind == SCENE_CHANGED:
                return event.campaign == self.pk and event.scene in (None, self.scene)
            if event.kind in ("sheet", "roll"):
                return event.kind == "sheet" and event.campaign == self.pk
            return True
        if event.kind == "roll":
            return event.campaign == self.pk
        return event.kind not in ("sheet", SCENE_CHANGED)

    def news(self, cursor: Cursor) -> News:
        if self.scene is not None:
            campaign_for(self.user, self.pk)
            key = view_key(self._scene(), self.role is Role.GM)
            moved = key if key != cursor.version else None
            return News(replace(cursor, version=key), scene=moved)
        campaign, self.role = campaign_for(self.user, self.pk)
        newest = _newest_table_roll(self.user, campaign, self.role, cursor.roll)
        return News(replace(cursor, roll=max(cursor.roll, newest or 0)), newest)

    def shared(self, event: Event) -> tuple[str, int, bool] | None:
        gm = self.role is Role.GM
        if self.scene is not None:
            if event.kind in (SCENE_CHANGED, "sheet") and event.campaign == self.pk:
                return ("scene", self.scene, gm)
            return None
        if event.kind != "roll" or event.campaign != self.pk:
            return None
        return ("roll", self.pk, gm)

    def news_from(self, glance: Glance, cursor: Cursor) -> News | None:
        return _from_glance(glance, self.user, self.role, cursor)

    def start(self) -> Cursor:
        if self.scene is not None:
            campaign_for(self.user, self.pk)
            return Cursor(0, view_key(self._scene(), self.role is Role.GM))
        campaign, role = campaign_for(self.user, self.pk)
        return Cursor(_newest_table_roll(self.user, campaign, role, 0) or 0)


def glance(kind: str, pk: int, gm: bool) -> Glance:
    """The one shared read a kind of event asks for (views.shared_glance)."""
    return scene_glance(pk, gm) if kind == "scene" else table_glance(pk, gm)


def _newest_table_roll(user: User, campaign: Campaign, role: Role | None, after: int) -> int | None:
    return table_log(user, campaign, after=after, role=role).values_list("pk", flat=True).first()


def _newest_roll(
    user: User,
    character: Character,
    access: CharacterAccess,
    after: int,
    role: Role | None = None,
) -> int | None:
    """The newest roll of the log the sheet page shows (rolls/context.log_for_character)."""
    if character.campaign_id is not None:
        role = role or campaign_role(user, character.campaign)
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
