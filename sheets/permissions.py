"""Who may see and change what: the one place that decides it.

- A character is seen by its owner and by the GMs of its table; a share link shows it,
  read-only, to anyone holding the link (see `shared_character`).
- Its owner changes what a player sets. Inside a campaign, the traits the seeds reserve to
  the GM (`TraitRow.setter`), the table's house rules, reviews and GM notes are the GM's;
  outside one, the owner sets everything, readings included.
- A portrait is the player's picture of their character: its owner puts it up and takes it
  down; a GM of its table may take it down (a table keeps its own standards) but not put
  one up. Whoever sees the sheet sees it, and so does a share link's holder.
- A campaign is seen by its members; only its GMs run it.
- An NPC (sheets/npcs) is a sheet its table's GMs keep: players see nothing of it until a
  GM reveals it, then its name and portrait, or its whole sheet read-only; nothing a
  player is sent (a page, a list, a roll of the table's log) names a hidden one. Groups of
  minions are the GMs' alone.
- A table's compendium is read by its members (its hidden entries by its GMs alone) and
  changed by its GMs and co-GMs; a personal compendium is its owner's alone.

A page a user may not see answers 404 (so it does not confirm the thing exists); a page
they may see but not act on answers 403.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from fnmatch import fnmatchcase

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from rulesets.core import Setter, Stage, TraitRow
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.campaigns.models import Campaign, Membership, Role
from sheets.characters.models import Character, GMNote, ShareLink
from sheets.compendium.models import Book, CompendiumEntry, parse_book_key
from sheets.npcs.models import MinionGroup, Npc, Visibility
from sheets.scenes.models import Kind, Participant, Scene
from sheets.vehicles.models import OwnerKind, Vehicle

User = AbstractBaseUser | AnonymousUser
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")

NAME_TRAIT = "character.name"
SETTING_PREFIX = "setting."


class Need(Enum):
    VIEW = "view"
    EDIT = "edit"  # change some trait: the owner, or a GM of the table
    OWNER = "owner"  # the owner's own acts: delete, copy, share, submit, join a table
    GM = "gm"  # a GM of the character's table: review, notes
    # The sheet's past and its copies (history, export, its own roll log): the owner's and
    # the table's GMs', not a player reading an NPC a GM revealed (its earlier states may
    # hold what the GM never showed).
    RECORDS = "records"


@dataclass(frozen=True)
class CharacterAccess:
    """What one user may do with one character."""

    view: bool = False
    owner: bool = False
    gm: bool = False

    @property
    def edit(self) -> bool:
        return self.owner or self.gm

    def allows(self, need: Need) -> bool:
        return {
            Need.VIEW: self.view,
            Need.EDIT: self.edit,
            Need.OWNER: self.owner,
            Need.GM: self.gm,
            Need.RECORDS: self.owner or self.gm,
        }[need]

    # What the sheet page offers for the portrait: the answers its views ask for.
    @property
    def sets_portrait(self) -> bool:
        return self.allows(PORTRAIT_SET)

    @property
    def removes_portrait(self) -> bool:
        return self.allows(PORTRAIT_REMOVE)


# Who may put up and take down a character's portrait (see the module's note).
PORTRAIT_SET = Need.OWNER
PORTRAIT_REMOVE = Need.EDIT


def _gm_of(user: User) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user, role=Role.GM)


def visible_characters(user: User) -> QuerySet[Character]:
    """Characters `user` may open: their own and those at a table they run."""
    if not user.is_authenticated:
        return Character.objects.none()
    runs_table = Exists(_gm_of(user).filter(campaign=OuterRef("campaign")))
    return Character.objects.filter(Q(owner=user) | Q(runs_table)).select_related("campaign")


def readable_characters(user: User) -> QuerySet[Character]:
    """Every character `user` may read, in one query: exactly those `character_access`
    opens one by one. Their own (not an NPC of a table they no longer run), those at a
    table they run, and the NPCs whose whole sheet a GM revealed to a table they sit at,
    which they read and never act on (`visible_characters` leaves those out: it is what
    one may act on)."""
    if not user.is_authenticated:
        return Character.objects.none()
    runs_table = Exists(_gm_of(user).filter(campaign=OuterRef("campaign")))
    sits_at = Exists(Membership.objects.filter(campaign=OuterRef("campaign"), user=user))
    own = Q(owner=user) & (Q(campaign__isnull=True) | Q(npc__isnull=True))
    revealed = Q(npc__visibility=Visibility.SHEET) & Q(sits_at)
    return Character.objects.filter(own | Q(runs_table) | revealed).select_related("campaign")


def own_characters(user: User) -> QuerySet[Character]:
    """The characters `user` plays ("My characters"): a GM's NPCs are the table's, listed
    on its page."""
    if not user.is_authenticated:
        return Character.objects.none()
    return Character.objects.filter(owner=user, npc__isnull=True).select_related("campaign")


def character_access(user: User, character: Character) -> CharacterAccess:
    if not user.is_authenticated:
        return CharacterAccess()
    owner = character.owner_id == user.pk
    gm = (
        character.campaign_id is not None
        and _gm_of(user).filter(campaign_id=character.campaign_id).exists()
    )
    if owner and not gm and character.campaign_id is not None and _npc_of(character):
        # An NPC is its table's GMs': one who stepped down to player keeps none of theirs.
        owner = False
    if not (owner or gm) and _reveals_sheet(user, character):
        # An NPC whose whole sheet its GM has shown: its table's players read, never act.
        return CharacterAccess(view=True)
    return CharacterAccess(view=owner or gm, owner=owner, gm=gm)


def character_for(
    user: User, pk: int, need: Need = Need.VIEW, *, for_update: bool = False
) -> tuple[Character, CharacterAccess]:
    """Load a character for `need`: 404 if the user may not see it, 403 if not act on it.

    Who may see it is `character_access`'s answer (the owner, a GM of its table), the same
    as `visible_characters`; the row is read by its key alone, with its campaign.
    """
    if not user.is_authenticated:
        raise Http404("No such character.")
    # With its NPC mark, if any (one join: `character_access` asks whether it is one).
    rows = Character.objects.select_related("campaign", "npc")
    if for_update:
        # Lock the character's row only, not its campaign's ("self": PostgreSQL also
        # refuses to lock the nullable side of the join).
        rows = rows.select_for_update(of=("self",))
    try:
        character = rows.get(pk=pk)
    except Character.DoesNotExist:
        character = None
    access = CharacterAccess() if character is None else character_access(user, character)
    if character is None or not access.view:
        raise Http404("No such character.")
    if not access.allows(need):
        raise PermissionDenied(_refusal(need))
    return character, access


def _refusal(need: Need) -> str:
    if need is Need.GM:
        return "Only a GM of this character's table may do this."
    if need is Need.RECORDS:
        return "Only the GMs of this NPC's table read its history and files."
    return "Only this character's player may do this."


def shared_character(token: str) -> Character:
    """The character behind a live share link, or 404."""
    # A token is URL-safe base64; anything else (a NUL, which PostgreSQL refuses) is no link.
    if not TOKEN.fullmatch(str(token)):
        raise Http404("This link was revoked or never existed.")
    link = (
        ShareLink.objects.filter(token=token, revoked_at__isnull=True)
        .select_related("character__campaign")
        .first()
    )
    if link is None:
        raise Http404("This link was revoked or never existed.")
    return link.character


def trait_refusal(
    access: CharacterAccess, character: Character, trait: str, gm_rows: set[str]
) -> str:
    """Why this user may not set `trait` on this character; empty when they may.

    `gm_rows` are the keys of the rows the ruleset marks as the GM's (`Setter.GM`).
    """
    if character.campaign_id is None:
        return "" if access.owner else "Only this character's player changes it."
    if trait.startswith(SETTING_PREFIX):
        return "At a table, the GM sets the house rules, on the campaign's page."
    if trait in gm_rows or _gm_edit(character.system, trait):
        return "" if access.gm else "At a table, only the GM sets this."
    if access.owner or (access.gm and _table_edit(character.system, trait)):
        return ""
    return "Only the player changes this; as GM you set the traits marked GM."


def stage_change_refusal(access: CharacterAccess, character: Character, to: str) -> str:
    """Why this user may not move the sheet to stage `to`; empty when they may.

    Finishing creation is the player's step, and at a table its GM's too; sending a sheet
    in play back to creation is, at a table, the GM's decision alone (outside one, the
    owner's). The sheet offers the button only to whom this allows.
    """
    at_table = character.campaign_id is not None
    if to == Stage.CREATION and at_table:
        return "" if access.gm else "At a table, only the GM sends a sheet back to creation."
    if access.owner or (at_table and access.gm):
        return ""
    return "Only this character's player changes it."


def _gm_edit(system: str, trait: str) -> bool:
    return any(fnmatchcase(trait, pattern) for pattern in get_ruleset(system).GM_EDITS)


def _table_edit(system: str, trait: str) -> bool:
    """Damage a fight leaves (O.R.E. wound boxes, 1o3d10 HP lost): the player marks it on
    their own sheet and the table's GM on any sheet at the table (`TABLE_EDITS`)."""
    patterns = getattr(get_ruleset(system), "TABLE_EDITS", ())
    return any(fnmatchcase(trait, pattern) for pattern in patterns)


def gm_rows(rows: list[TraitRow]) -> set[str]:
    return {row.key for row in rows if row.setter is Setter.GM}


def visible_campaigns(user: User) -> QuerySet[Campaign]:
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(
        Exists(Membership.objects.filter(campaign=OuterRef("pk"), user=user))
    )


def campaign_role(user: User, campaign: Campaign) -> Role | None:
    if not user.is_authenticated:
        return None
    role = (
        Membership.objects.filter(campaign=campaign, user=user)
        .values_list("role", flat=True)
        .first()
    )
    return Role(role) if role else None


def campaign_for(
    user: User, pk: int, *, gm: bool = False, for_update: bool = False
) -> tuple[Campaign, Role]:
    """Load a campaign the user belongs to (404 otherwise); with `gm`, 403 unless a GM."""
    campaigns = visible_campaigns(user)
    if for_update:
        campaigns = campaigns.select_for_update()
    campaign = campaigns.filter(pk=pk).first()
    if campaign is None:
        raise Http404("No such campaign.")
    role = campaign_role(user, campaign)
    if role is None:
        raise Http404("No such campaign.")
    if gm and role is not Role.GM:
        raise PermissionDenied("Only a GM of this campaign may do this.")
    return campaign, role


def role_change_refusal(user: User, campaign: Campaign, member: Membership) -> str:
    """Why `user`, a GM of `campaign`, may not change `member`'s role; empty when they may.

    The table is its creator's: while they are a GM, their role is theirs alone to change,
    so a co-GM they invited cannot demote them. Once the creator has stepped down by their
    own choice, the GMs left may make them a GM again. A table keeps one GM at least, so
    its only GM cannot be made a player.
    """
    if (
        member.user_id == campaign.created_by_id
        and member.role == Role.GM
        and user.pk != campaign.created_by_id
    ):
        return "Only the GM who started this table can change their own role."
    if (
        member.role == Role.GM
        and not campaign.memberships.filter(role=Role.GM).exclude(pk=member.pk).exists()
    ):
        return "A table needs one GM at least."
    return ""


def notes_left_behind(user: User, campaign: Campaign) -> QuerySet[GMNote]:
    """The table's private notes on characters that have since left it: its GMs read them
    in the table's records, though the sheets themselves are no longer theirs to see. The
    table a character moved to never sees them (a note belongs to the table that wrote it).
    """
    if campaign_role(user, campaign) is not Role.GM:
        return GMNote.objects.none()
    return (
        GMNote.objects.filter(campaign=campaign)
        .exclude(character__campaign=campaign)
        .select_related("character__owner", "updated_by")
        .order_by("character__name", "pk")
    )


# The compendium --------------------------------------------------------------------------
# A table's book is read by its members, its hidden entries by its GMs (co-GMs included)
# alone, who are also the only ones to change it; a personal book is its owner's alone.
# Nobody else learns that a book or an entry exists (404).


@dataclass(frozen=True)
class BookAccess:
    """What one user may do with one compendium book."""

    read: bool = False
    change: bool = False

    @property
    def sees_hidden(self) -> bool:
        return self.change


def book_access(user: User, book: Book) -> BookAccess:
    if not user.is_authenticated:
        return BookAccess()
    if book.campaign is None:
        mine = book.owner is not None and book.owner.pk == user.pk
        return BookAccess(read=mine, change=mine)
    role = campaign_role(user, book.campaign)
    return BookAccess(read=role is not None, change=role is Role.GM)


def _book_refusal(book: Book) -> str:
    if book.campaign is None:
        return "Only the owner of this book may change it."
    return "Only a GM of this campaign changes its compendium."


def book_for(user: User, key: str, *, change: bool = False) -> tuple[Book, BookAccess]:
    """Load a book by its key (`table-12`, `mine-weg_d6`): 404 if the user may not read
    it, 403 if `change` and they may read but not change it."""
    parsed = parse_book_key(key)
    if parsed is None or not user.is_authenticated:
        raise Http404("No such compendium.")
    where, which = parsed
    if where == "mine":
        if which not in SYSTEMS:
            raise Http404("No such compendium.")
        book = Book(system=str(which), owner=user)
    else:
        campaign = Campaign.objects.filter(pk=which).first()
        if campaign is None:
            raise Http404("No such compendium.")
        book = Book(system=campaign.system, campaign=campaign)
    access = book_access(user, book)
    if not access.read:
        raise Http404("No such compendium.")
    if change and not access.change:
        raise PermissionDenied(_book_refusal(book))
    return book, access


def book_entries(user: User, book: Book) -> QuerySet[CompendiumEntry]:
    """The stored entries of `book` that `user` may read (hidden ones for its GMs only)."""
    access = book_access(user, book)
    if not access.read:
        return CompendiumEntry.objects.none()
    entries = book.entries()
    if not access.sees_hidden:
        entries = entries.filter(hidden=False)
    return entries


def compendium_entry_for(
    user: User, pk: int, *, change: bool = False, for_update: bool = False
) -> tuple[CompendiumEntry, Book, BookAccess]:
    """Load a stored entry: 404 if the user may not read it (a hidden entry, for a player),
    403 if `change` and they may read but not change it."""
    if not user.is_authenticated:
        raise Http404("No such entry.")
    rows = CompendiumEntry.objects.select_related("campaign", "owner", "author")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    entry = rows.filter(pk=pk).first()
    if entry is None:
        raise Http404("No such entry.")
    book = Book.of(entry)
    access = book_access(user, book)
    if not access.read or (entry.hidden and not access.sees_hidden):
        raise Http404("No such entry.")
    if change and not access.change:
        raise PermissionDenied(_book_refusal(book))
    return entry, book, access


def books_of(user: User) -> list[Book]:
    """The campaign books `user` may open, then their own book of each system."""
    if not user.is_authenticated:
        return []
    tables = [Book(system=c.system, campaign=c) for c in visible_campaigns(user)]
    return tables + [Book(system=key, owner=user) for key in SYSTEMS]


# NPCs and minions ------------------------------------------------------------------------
# An NPC is seen by its table's GMs (co-GMs included) and its owner; its table's players
# see what a GM revealed (`Visibility`), nobody else anything (404). Minion groups are the
# GMs' alone.


def _npc_of(character: Character) -> Npc | None:
    """The character's NPC mark, or None (read with the row by `character_for`)."""
    try:
        return character.npc
    except Npc.DoesNotExist:
        return None


def is_npc(character: Character) -> bool:
    """Whether `character` is one of its table's NPCs: it never leaves the table nor goes
    to review (sheets/npcs)."""
    return _npc_of(character) is not None


def _reveals_sheet(user: User, character: Character) -> bool:
    """Whether `character` is an NPC whose whole sheet its GM showed to `user`'s table."""
    if character.campaign_id is None:
        return False
    npc = _npc_of(character)
    return (
        npc is not None
        and npc.visibility == Visibility.SHEET
        and Membership.objects.filter(campaign_id=character.campaign_id, user=user).exists()
    )


def players_sheets(campaign: Campaign) -> QuerySet[Character]:
    """The table's characters that are no NPC: the players' sheets."""
    return campaign.characters.filter(npc__isnull=True)


def table_npcs(user: User, campaign: Campaign) -> QuerySet[Npc]:
    """The table's NPCs `user` may know of: all of them for its GMs, the revealed ones for
    its players, none for anybody else."""
    role = campaign_role(user, campaign)
    if role is None:
        return Npc.objects.none()
    npcs = Npc.objects.filter(character__campaign=campaign).select_related("character")
    if role is not Role.GM:
        npcs = npcs.exclude(visibility=Visibility.HIDDEN)
    return npcs.order_by("character__name", "pk")


def hidden_npc_characters(campaign: Campaign) -> QuerySet[Character]:
    """The table's NPCs no player may know of yet: their rolls stay in the GMs' log."""
    return Character.objects.filter(campaign=campaign, npc__visibility=Visibility.HIDDEN)


def npc_for(user: User, pk: int, *, gm: bool = False, for_update: bool = False) -> tuple[Npc, bool]:
    """Load an NPC and whether `user` runs its table: 404 unless they run it or a GM
    revealed it to their table; with `gm`, 404 for a player too (as for a hidden one: a
    player's post learns nothing), 403 for nobody."""
    if not user.is_authenticated:
        raise Http404("No such NPC.")
    rows = Npc.objects.select_related("character__campaign", "character__owner")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    npc = rows.filter(pk=pk).first()
    if npc is None or npc.character.campaign_id is None:
        raise Http404("No such NPC.")
    role = campaign_role(user, npc.character.campaign)
    runs = role is Role.GM
    if not runs and (gm or role is None or npc.visibility == Visibility.HIDDEN):
        raise Http404("No such NPC.")
    return npc, runs


def minion_group_for(user: User, pk: int, *, for_update: bool = False) -> MinionGroup:
    """Load a group of minions for a GM of its table; 404 for everybody else."""
    if not user.is_authenticated:
        raise Http404("No such group.")
    rows = MinionGroup.objects.select_related("campaign", "block")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    group = rows.filter(pk=pk).first()
    if group is None or campaign_role(user, group.campaign) is not Role.GM:
        raise Http404("No such group.")
    return group


def table_minion_groups(user: User, campaign: Campaign) -> QuerySet[MinionGroup]:
    if campaign_role(user, campaign) is not Role.GM:
        return MinionGroup.objects.none()
    return campaign.minion_groups.select_related("block").prefetch_related("members")


# Vehicles (sheets/vehicles) ------------------------------------------------------------
# A character's vehicle (a player's or an NPC's) is seen by whoever sees the character and
# changed by whoever may edit it: an NPC's follows its visibility, so a hidden NPC's vehicle
# reaches no player. A table's vehicle is seen by its members and changed by its GMs.


@dataclass(frozen=True)
class VehicleAccess:
    view: bool = False
    edit: bool = False


def vehicle_access(user: User, vehicle: Vehicle) -> VehicleAccess:
    if not user.is_authenticated:
        return VehicleAccess()
    if vehicle.owner_kind == OwnerKind.CAMPAIGN:
        role = campaign_role(user, vehicle.campaign)
        return VehicleAccess(view=role is not None, edit=role is Role.GM)
    access = character_access(user, vehicle.character)
    return VehicleAccess(view=access.view, edit=access.edit)


def vehicle_for(
    user: User, pk: int, *, edit: bool = False, for_update: bool = False
) -> tuple[Vehicle, VehicleAccess]:
    """Load a vehicle: 404 if `user` may not see it, 403 (with `edit`) if not change it."""
    if not user.is_authenticated:
        raise Http404("No such vehicle.")
    rows = Vehicle.objects.select_related("campaign", "character__campaign")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    vehicle = rows.filter(pk=pk).first()
    access = VehicleAccess() if vehicle is None else vehicle_access(user, vehicle)
    if vehicle is None or not access.view:
        raise Http404("No such vehicle.")
    if edit and not access.edit:
        raise PermissionDenied("Only who may change its owner may change this vehicle.")
    return vehicle, access


def table_vehicles(user: User, campaign: Campaign) -> list[Vehicle]:
    """The vehicles at a table `user` may see: the table's own for its members, and those
    of the characters and NPCs at it that `user` sees."""
    if campaign_role(user, campaign) is None:
        return []
    rows = Vehicle.objects.filter(
        Q(campaign=campaign) | Q(character__campaign=campaign)
    ).select_related("campaign", "character__campaign")
    return [vehicle for vehicle in rows if vehicle_access(user, vehicle).view]


def dashboard_vehicles(user: User, campaign: Campaign) -> list[Vehicle]:
    """The vehicles the table's page lists apart from the sheets: for its GMs the table's and
    its NPCs' (a player's vehicle is on their sheet), for a player the table's and their own
    characters'; none for anybody else."""
    role = campaign_role(user, campaign)
    if role is None:
        return []
    rows = Vehicle.objects.filter(Q(campaign=campaign) | Q(character__campaign=campaign))
    if role is Role.GM:
        rows = rows.filter(Q(owner_kind=OwnerKind.CAMPAIGN) | Q(owner_kind=OwnerKind.NPC))
    else:
        rows = rows.filter(Q(owner_kind=OwnerKind.CAMPAIGN) | Q(character__owner=user)).exclude(
            owner_kind=OwnerKind.NPC
        )
    return list(rows.select_related("character").order_by("owner_kind", "name", "pk"))


def crew_characters(user: User, vehicle: Vehicle) -> list[Character]:
    """Who `user` may seat at a vehicle's controls to roll: a character they may edit at
    the vehicle's table, or for a vehicle outside any table its own character."""
    if not user.is_authenticated:
        return []
    table = vehicle.table_id
    if table is None:
        owner = vehicle.character
        return [owner] if character_access(user, owner).edit else []
    rows = Character.objects.filter(campaign_id=table).select_related("campaign")
    return [c for c in rows.order_by("name", "pk") if character_access(user, c).edit]


# Scenes (sheets/scenes) ------------------------------------------------------------------
# A scene is read by its table's members and changed by its GMs (co-GMs included); a
# player reads only what a player may know: a participant hidden from them (a hidden NPC,
# its minions, a vehicle they may not see) is left out altogether, not shown as "hidden".


def scene_for(
    user: User, pk: int, *, change: bool = False, for_update: bool = False
) -> tuple[Scene, Role]:
    """Load a scene for a member of its table (404 otherwise); with `change`, 403 unless
    a GM of it."""
    if not user.is_authenticated:
        raise Http404("No such scene.")
    rows = Scene.objects.select_related("campaign")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    scene = rows.filter(pk=pk).first()
    role = None if scene is None else campaign_role(user, scene.campaign)
    if scene is None or role is None:
        raise Http404("No such scene.")
    if change and role is not Role.GM:
        raise PermissionDenied("Only a GM of this table may change its scenes.")
    return scene, role


def table_scenes(user: User, campaign: Campaign) -> QuerySet[Scene]:
    if campaign_role(user, campaign) is None:
        return Scene.objects.none()
    return campaign.scenes.all()


def _block_hidden(group: MinionGroup) -> bool:
    npc = _npc_of(group.block)
    return npc is None or npc.visibility == Visibility.HIDDEN


def scene_participant_seen(user: User, role: Role | None, participant: Participant) -> bool:
    """Whether `user` may know this participant is in the scene (its rows read with it)."""
    if role is Role.GM:
        return True
    if role is None:
        return False
    if participant.kind == Kind.CHARACTER:
        npc = _npc_of(participant.character)
        return npc is None or npc.visibility != Visibility.HIDDEN
    if participant.kind == Kind.GROUP:
        return not _block_hidden(participant.group)
    if participant.kind == Kind.MEMBER:
        return not _block_hidden(participant.member.group)
    return vehicle_access(user, participant.vehicle).view


def scene_state_seen(user: User, role: Role | None, participant: Participant) -> bool:
    """Whether `user` sees this participant's wounds: a GM all, a player their own."""
    if role is Role.GM:
        return True
    return participant.kind == Kind.CHARACTER and participant.character.owner_id == user.pk


def scene_name_seen(user: User, role: Role | None, participant: Participant) -> bool:
    """Whether `user` may read this participant's name: as on the table's page, a player
    reads the names of their own characters and of revealed NPCs, not another player's
    character (the tracker shows "a player's character" in its place)."""
    if role is Role.GM or participant.kind != Kind.CHARACTER:
        return True
    character = participant.character
    return _npc_of(character) is not None or character.owner_id == user.pk
