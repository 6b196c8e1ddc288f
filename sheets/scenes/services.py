"""Every write of a scene: made, joined, initiative rolled or typed, turns stepped, hits
marked. Each in one transaction with the scene's row locked and its version checked; each
bumps the version and publishes `scene_changed` after commit (sheets/live), so every open
tracker re-fetches its view through the permission selector.

Reads: `tracker` computes the order (never stored) and what `user` may see of it.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac

from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.initiative import (
    SEED_TIES,
    TIE_RULES,
    Entry,
    InvalidInitiative,
    Score,
    order,
    side_tie,
    tied,
)
from rulesets.core.npcs import Condition, HitField, InvalidHit, npc_rules
from rulesets.ore import combat as ore_combat
from rulesets.ore.data import LOCATION_BY_HEIGHT, LOCATION_BY_SLUG
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.campaigns.models import Campaign, Role
from sheets.characters.models import Character
from sheets.characters.services import (
    EditRefused,
    StaleVersion,
    character_apply_edits,
    clean_name,
)
from sheets.live.bus import roll_logged, scene_changed
from sheets.npcs.models import MinionGroup, MinionMember, Visibility
from sheets.permissions import (
    campaign_for,
    hidden_npc_characters,
    scene_for,
    scene_name_seen,
    scene_participant_seen,
    scene_state_seen,
    table_vehicles,
)
from sheets.printing.pdf import render_character_pdf
from sheets.rolls.dice import dice_random
from sheets.rolls.hits import HitRefused, hit_mark, hit_options, readable_roll, roll_hits
from sheets.rolls.models import RollEntry
from sheets.scenes.models import Kind, Participant, Scene
from sheets.vehicles import services as vehicle_services
from sheets.vehicles.models import OwnerKind, Vehicle
from sheets.vehicles.pdf import render_vehicle_pdf
from sheets.vehicles.services import VehicleRefused

WHOLE = "scene"  # a refusal that belongs to no single field
MOST_PARTICIPANTS = 60
MARKS_ON_SHEET = frozenset({"ore", "o3d10"})  # hits.hit_mark: boxes and HP with a log entry


class SceneRefused(Exception):
    """A write was refused, nothing stored: each message keyed by the field it is about."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = dict(errors)


class StaleScene(Exception):
    def __init__(self) -> None:
        super().__init__(
            "This scene was changed elsewhere since the page was drawn. Nothing was saved; "
            "the current state is shown."
        )


def initiative_rules(system: str) -> ModuleType:
    """rulesets/<key>/initiative.py of a system."""
    return importlib.import_module(f"{SYSTEMS[system].module}.initiative")


def _settings(campaign: Campaign) -> dict:
    ruleset = get_ruleset(campaign.system)
    declared = ruleset.SETTINGS + npc_rules(campaign.system).NPC_SETTINGS
    return dict(resolve_settings(declared, campaign.rule_settings))


def _rows(scene: Scene):
    return scene.participants.select_related(
        "character__npc",
        "character__owner",
        "group__block__npc",
        "member__group__block__npc",
        "vehicle__character__campaign",
        "vehicle__campaign",
    )


def _changed(scene: Scene) -> None:
    scene.version += 1
    scene.save(update_fields=["round", "turn", "version"])
    scene_changed(scene.campaign_id, scene.pk)


ENDED = "This scene has ended: nothing in it changes. A GM may reopen it to go on."


def _locked(
    user: AbstractBaseUser, scene_id: int, expected_version: int, *, ended_too: bool = False
) -> Scene:
    """The scene locked for a GM's write at the version their page drew; an ended scene
    refuses every write but its reopening (`ended_too`)."""
    scene, _role = scene_for(user, scene_id, change=True, for_update=True)
    if scene.version != expected_version:
        raise StaleScene()
    if scene.ended and not ended_too:
        raise SceneRefused({WHOLE: ENDED})
    return scene


# Making a scene and picking who is in it ---------------------------------------------------


def scene_create(
    *, user: AbstractBaseUser, campaign_id: int, name: str, ties: str = SEED_TIES
) -> Scene:
    campaign, _role = campaign_for(user, campaign_id, gm=True)
    errors: dict[str, str] = {}
    try:
        clean = clean_name(name)
    except InvalidEdit as refused:
        errors["name"] = refused.message.replace("character", "scene")
    if ties not in dict(TIE_RULES):
        errors["ties"] = "Choose one of the ways to settle a tie."
    if errors:
        raise SceneRefused(errors)
    with transaction.atomic():
        scene = Scene.objects.create(campaign=campaign, name=clean, ties=ties, created_by=user)
        scene_changed(campaign.pk, scene.pk)
    return scene


def scene_end(
    *, user: AbstractBaseUser, scene_id: int, ended: bool, expected_version: int
) -> Scene:
    """End the scene (`ended`) or reopen it. An ended scene keeps its tracker to read but is
    no character's running scene (state.running_scene_of), so a stale one stops counting
    for the rules that read rounds and scenes; reopened, it counts again."""
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version, ended_too=True)
        if scene.ended == bool(ended):
            raise SceneRefused({WHOLE: ENDED if ended else "This scene is running already."})
        scene.ended_at = timezone.now() if ended else None
        scene.save(update_fields=["ended_at"])
        _changed(scene)
    return scene


@dataclass(frozen=True)
class Candidate:
    pick: str  # "character:5", "group:3", "member:9", "vehicle:2"
    label: str
    note: str = ""


def candidates(user: AbstractBaseUser, scene: Scene) -> list[Candidate]:
    """Who the GM may bring into the scene: the table's characters (players' and NPCs'),
    its minion groups and each of their members, and its vehicles; not who is in it."""
    campaign = scene.campaign
    present = {
        f"{p.kind}:{p.character_id or p.group_id or p.member_id or p.vehicle_id}"
        for p in scene.participants.all()
    }
    found: list[Candidate] = []
    for character in campaign.characters.select_related("npc").order_by("name", "pk"):
        note = "NPC" if hasattr(character, "npc") else "player's"
        found.append(Candidate(f"character:{character.pk}", character.name, note))
    groups = MinionGroup.objects.filter(campaign=campaign).prefetch_related("members")
    for group in groups:
        found.append(Candidate(f"group:{group.pk}", group.name, "minion group, as one"))
        for member in group.members.all():
            found.append(Candidate(f"member:{member.pk}", f"{group.name} {member.label}", "minion"))
    for vehicle in table_vehicles(user, campaign):
        found.append(Candidate(f"vehicle:{vehicle.pk}", vehicle.name, "vehicle"))
    return [candidate for candidate in found if candidate.pick not in present]


def _parse_pick(pick: str) -> tuple[str, int] | None:
    kind, _, number = str(pick).partition(":")
    if kind not in Kind.values or not number.isascii() or not number.isdigit() or len(number) > 10:
        return None
    return kind, int(number)


def _at_table(campaign: Campaign, kind: str, pk: int) -> dict[str, Any] | None:
    """The row a pick names, when it is at this table; None otherwise."""
    if kind == Kind.CHARACTER:
        row = Character.objects.filter(pk=pk, campaign=campaign).first()
    elif kind == Kind.GROUP:
        row = MinionGroup.objects.filter(pk=pk, campaign=campaign).first()
    elif kind == Kind.MEMBER:
        row = MinionMember.objects.filter(pk=pk, group__campaign=campaign).first()
    else:
        at_table = Q(campaign=campaign) | Q(character__campaign=campaign)
        row = Vehicle.objects.filter(at_table, pk=pk).first()
    return None if row is None else {kind: row}


def participants_add(
    *, user: AbstractBaseUser, scene_id: int, picks: Iterable[str], expected_version: int
) -> list[Participant]:
    """Bring the picked rows into the scene; one not at this table refuses them all."""
    picks = [p for p in picks if str(p).strip()]
    if not picks:
        raise SceneRefused({"picks": "Pick someone to bring into the scene."})
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version)
        present = {
            (p.kind, p.character_id or p.group_id or p.member_id or p.vehicle_id)
            for p in scene.participants.all()
        }
        rows: list[dict[str, Any]] = []
        for pick in picks:
            parsed = _parse_pick(pick)
            found = None if parsed is None else _at_table(scene.campaign, *parsed)
            if found is None:
                raise SceneRefused({"picks": f"“{str(pick)[:30]}” is no one at this table."})
            if parsed in present:
                continue
            present.add(parsed)
            rows.append(found)
        if len(present) > MOST_PARTICIPANTS:
            raise SceneRefused({"picks": f"A scene holds at most {MOST_PARTICIPANTS}."})
        last = max((p.position for p in scene.participants.all()), default=0)
        made = [
            Participant.objects.create(scene=scene, kind=next(iter(row)), position=last + n, **row)
            for n, row in enumerate(rows, start=1)
        ]
        _changed(scene)
    return made


def _participant(scene: Scene, participant_id: Any) -> Participant:
    text = str(participant_id).strip()
    found = None
    if text.isascii() and text.isdigit() and len(text) < 11:
        found = _rows(scene).filter(pk=int(text)).first()
    if found is None:
        raise SceneRefused({"participant": "Choose someone in this scene."})
    return found


def participant_remove(
    *, user: AbstractBaseUser, scene_id: int, participant_id: Any, expected_version: int
) -> None:
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version)
        _participant(scene, participant_id).delete()
        _changed(scene)


# Initiative -----------------------------------------------------------------------------------


def _sheet(participant: Participant) -> dict | None:
    """The sheet a participant rolls and breaks ties with: its own, or its block's."""
    if participant.kind == Kind.CHARACTER:
        return participant.character.sheet
    if participant.kind == Kind.GROUP:
        return participant.group.block.sheet
    if participant.kind == Kind.MEMBER:
        return participant.member.group.block.sheet
    return None


def _roll_one(participant: Participant, rules: ModuleType, settings: dict, rng) -> Score:
    sheet = _sheet(participant)
    if sheet is None:
        # A vehicle acts on its pilot's turn; the GM types its place if it needs one.
        raise SceneRefused({"initiative": "A vehicle acts with its crew: type its initiative."})
    return rules.initiative(sheet, settings, rng)


def initiative_roll(
    *,
    user: AbstractBaseUser,
    scene_id: int,
    participant_id: Any = None,
    expected_version: int,
) -> None:
    """Roll initiative with the table's dice, for one participant or for everyone who rolls
    (vehicles are typed)."""
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version)
        rules = initiative_rules(scene.campaign.system)
        settings = _settings(scene.campaign)
        rng = dice_random()
        if participant_id in (None, ""):
            targets = [p for p in _rows(scene) if p.kind != Kind.VEHICLE]
        else:
            targets = [_participant(scene, participant_id)]
        for participant in targets:
            participant.initiative = _roll_one(participant, rules, settings, rng).as_data()
            participant.save(update_fields=["initiative"])
        _changed(scene)


def initiative_type(
    *, user: AbstractBaseUser, scene_id: int, participant_id: Any, text: str, expected_version: int
) -> Participant:
    """Keep an initiative the GM typed, read the system's way (a set 3x7, a total, ...)."""
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version)
        participant = _participant(scene, participant_id)
        try:
            score = initiative_rules(scene.campaign.system).typed(text)
        except InvalidInitiative as refused:
            raise SceneRefused({f"initiative-{participant.pk}": refused.message}) from None
        participant.initiative = score.as_data()
        participant.save(update_fields=["initiative"])
        _changed(scene)
    return participant


# Turns ------------------------------------------------------------------------------------------


def turn_step(
    *, user: AbstractBaseUser, scene_id: int, direction: str, expected_version: int
) -> Scene:
    """Next or previous turn; past the last the round moves on, before the first it goes
    back (never before round 1)."""
    if direction not in ("next", "previous"):
        raise SceneRefused({WHOLE: "Step to the next or the previous turn."})
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version)
        count = scene.participants.count()
        if count == 0:
            raise SceneRefused({WHOLE: "Nobody is in the scene yet."})
        turn = min(scene.turn, count - 1)
        if direction == "next":
            if turn + 1 >= count:
                scene.turn, scene.round = 0, scene.round + 1
                _stuns_pass(user, scene)
            else:
                scene.turn = turn + 1
        elif turn > 0:
            scene.turn = turn - 1
        elif scene.round > 1:
            scene.turn, scene.round = count - 1, scene.round - 1
        _changed(scene)
    return scene


def _stuns_pass(user: AbstractBaseUser, scene: Scene) -> None:
    """WEG 1E: a stun counts for its round and the next (003:440). When the round moves on,
    each sheet in the scene keeping stun results drops those that passed, through the edit
    service (a revision each), so its rolls lose no dice for a stun that is over."""
    now = f"@{scene.pk}.{scene.round}"
    rows = scene.participants.filter(character__system="weg_d6").values("character_id")
    ruleset = get_ruleset("weg_d6")
    for character in Character.objects.filter(pk__in=rows).select_related("campaign"):
        if not character.sheet.get("stuns"):
            continue
        settings = character.readings_in_force
        if ruleset.apply_edit(character.sheet, "wound.settle", now, settings) == character.sheet:
            continue  # nothing passed this round: no revision
        try:
            character_apply_edits(
                user=user,
                character_id=character.pk,
                edits={"wound.settle": now},
                expected_version=character.version,
                ruled=frozenset({"wound.settle"}),
            )
        except (EditRefused, StaleVersion) as refused:
            raise SceneRefused({WHOLE: f"{character.name}: {refused}"}) from None


def damage_show(
    *,
    user: AbstractBaseUser,
    scene_id: int,
    participant_id: Any,
    shown: bool,
    expected_version: int,
) -> Participant:
    """Show a vehicle's damage to the players who may see the vehicle, or hide it again."""
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version)
        participant = _participant(scene, participant_id)
        if participant.kind != Kind.VEHICLE:
            raise SceneRefused(
                {"participant": "Only a vehicle's damage is shown to the players here."}
            )
        participant.shown = bool(shown)
        participant.save(update_fields=["shown"])
        _changed(scene)
    return participant


# Hits ------------------------------------------------------------------------------------------


def hit_fields(
    scene: Scene, participant: Participant, settings: dict | None = None
) -> tuple[HitField, ...]:
    """What a hit on this participant asks for: a minion's fields, or the sheet's (the
    roll log's hand-entered hit, for the systems that mark one on a sheet)."""
    system = scene.campaign.system
    settings = _settings(scene.campaign) if settings is None else settings
    if participant.kind in (Kind.GROUP, Kind.MEMBER):
        return npc_rules(system).hit_fields(_sheet(participant), settings)
    if participant.kind == Kind.VEHICLE:
        return vehicle_services.hit_fields(participant.vehicle)
    if system not in MARKS_ON_SHEET:
        # WEG's wound level and SWd10's health: the GM marks them on an NPC's sheet and, as
        # those systems' TABLE_EDITS, on a player's (the edit service judges each one).
        return initiative_rules(system).hit_fields(participant.character.sheet, settings)
    return tuple(
        HitField(
            o.key,
            o.label,
            tuple((str(k), str(v)) for k, v in (o.choices or ())),
            minimum=int(o.minimum or 0),
            maximum=int(o.maximum or 1),
            default=str(o.default),
            source=o.source,
        )
        for o in hit_options(system, from_roll=False)
        if o.kind != "flag"
    )


def scene_hit(
    *,
    user: AbstractBaseUser,
    scene_id: int,
    participant_id: Any,
    raw: Mapping[str, str],
    expected_version: int,
) -> str:
    """Mark a hit on one participant: a minion on its own track (a group's hit names its
    member), a character on its sheet through the sheets' services. Returns what was
    marked; refuses and stores nothing on any fault."""
    with transaction.atomic():
        scene = _locked(user, scene_id, expected_version)
        participant = _participant(scene, participant_id)
        settings = _settings(scene.campaign)
        system = scene.campaign.system
        roll = _applied_roll(user, scene, raw.get("roll", ""))
        if participant.kind in (Kind.GROUP, Kind.MEMBER):
            member = participant.member
            if participant.kind == Kind.GROUP:
                member = _member_of(participant.group, raw.get("member", ""))
            done = _hit_member(user, member, system, settings, raw, roll)
        elif participant.kind == Kind.CHARACTER:
            done = _hit_character(user, participant.character, system, settings, raw, roll)
        else:
            done = _hit_vehicle(user, participant.vehicle, raw, roll)
        _changed(scene)
    return done


def _member_of(group: MinionGroup, raw_id: Any) -> MinionMember:
    text = str(raw_id).strip()
    member = None
    if text.isascii() and text.isdigit() and len(text) < 11:
        member = group.members.filter(pk=int(text)).first()
    if member is None:
        raise SceneRefused({"member": "Choose a member of this group."})
    return member


# The roll log's hits applied in the tracker: an O.R.E. attack's set or a 1o3d10 attack's
# damage (rolls.hits.roll_hits), marked once (the roll's row is locked and a hit entry
# follows it, as on a sheet's hit page).
APPLIABLE = 12


def appliable_rolls(scene: Scene) -> list[RollEntry]:
    """The table's latest hits not marked yet, for the GM's "from the roll log" choice."""
    rows = (
        RollEntry.objects.filter(
            campaign=scene.campaign, kind=RollEntry.Kind.ROLL, success=True, hits__isnull=True
        )
        .select_related("character")
        .order_by("-pk")[: APPLIABLE * 4]
    )
    return [entry for entry in rows if roll_hits(entry)][:APPLIABLE]


def _applied_roll(user: AbstractBaseUser, scene: Scene, raw_id: Any) -> RollEntry | None:
    text = str(raw_id or "").strip()
    if not text:
        return None
    try:
        roll = None
        if text.isascii() and text.isdigit() and len(text) < 11:
            roll = readable_roll(user, int(text), for_update=True)
        if roll is None or roll.campaign_id != scene.campaign_id:
            raise HitRefused({"roll": "No roll of that number in this table's log."})
    except HitRefused as refused:
        raise SceneRefused({"roll": next(iter(refused.errors.values()))}) from None
    if not roll_hits(roll):
        raise SceneRefused({"roll": "That roll made no hit to mark."})
    done = roll.hits.select_related("character").first()
    if done is not None:
        raise SceneRefused({"roll": f"This hit was already marked ({done.rollable_label})."})
    return roll


def _member_raw(system: str, roll: RollEntry) -> dict[str, str]:
    """A logged hit as a minion's hit fields: O.R.E.'s location by height and the weapon's
    damage by width (001:L163, L221-L228; a minor NPC has no armor), 1o3d10's damage."""
    facts = roll.facts
    if system == "ore":
        read = ore_combat.weapon_damage(str(facts["damage"]), int(facts["width"]))
        slug = read.locations[0] if read.locations else LOCATION_BY_HEIGHT[facts["height"]].slug
        return {"location": LOCATION_BY_SLUG[slug].slug, "damage": str(max(1, read.points))}
    return {"damage": str(max(1, int(facts["damage"])))}


def _hit_member(
    user, member: MinionMember, system: str, settings: dict, raw, roll: RollEntry | None
) -> str:
    group = MinionGroup.objects.select_for_update().select_related("block").get(pk=member.group_id)
    member = MinionMember.objects.select_for_update().get(pk=member.pk)
    rules = npc_rules(system)
    fields = _member_raw(system, roll) if roll is not None else raw
    try:
        member.wounds = rules.hit(group.block.sheet, settings, member.wounds, fields)
    except InvalidHit as refused:
        raise SceneRefused({refused.field: refused.message}) from None
    member.save(update_fields=["wounds"])
    # The group's own page checks its version: a hit from here makes its open form stale.
    group.version += 1
    group.save(update_fields=["version"])
    condition = rules.condition(group.block.sheet, settings, member.wounds)
    done = f"{group.name} {member.label}: {condition.label}"
    if roll is not None:
        # The roll is marked once: its hit entry follows it, kept from the players while the
        # block is a hidden NPC (its minions' names are the GMs').
        hidden = hidden_npc_characters(group.campaign).filter(pk=group.block_id).exists()
        RollEntry.objects.create(
            kind=RollEntry.Kind.HIT,
            follows=roll,
            campaign_id=group.campaign_id,
            character=group.block,
            author=user,
            secret=roll.secret or hidden,
            system=system,
            rollable_key="hit",
            rollable_label=f"Hit on {group.name} {member.label}"[:200],
            modifiers=f"{roll.rollable_label} by {roll.character.name}"[:400],
            outcome="wounds marked",
            summary=done[:300],
            details=[],
            total=None,
            success=True,
            options={},
            odds="",
            odds_percent="",
            facts=dict(fields),
        )
        roll_logged(group.campaign_id, group.block_id)
    return done


def _hit_character(
    user, character: Character, system: str, settings: dict, raw, roll: RollEntry | None
) -> str:
    if system in MARKS_ON_SHEET:
        try:
            entry = hit_mark(
                user=user,
                target_id=character.pk,
                raw=raw,
                expected_version=character.version,
                roll_id=roll.pk if roll is not None else None,
            )
        except HitRefused as refused:
            raise SceneRefused(refused.errors) from None
        return entry.summary
    try:
        edits = initiative_rules(system).hit_edits(character.sheet, settings, raw)
    except InvalidHit as refused:
        raise SceneRefused({refused.field: refused.message}) from None
    try:
        character_apply_edits(
            user=user, character_id=character.pk, edits=edits, expected_version=character.version
        )
    except EditRefused as refused:
        raise SceneRefused({WHOLE: "Not marked: " + " ".join(refused.errors.values())}) from None
    except StaleVersion as stale:
        raise SceneRefused({WHOLE: str(stale)}) from None
    character.refresh_from_db()
    condition = initiative_rules(system).standing(character.sheet, settings)
    return f"{character.name}: {condition.label}"


def _hit_vehicle(user, vehicle: Vehicle, raw, roll: RollEntry | None) -> str:
    """A hit by hand in the vehicle's system's terms (sheets/vehicles); a logged roll's set
    or damage is a character's or a minion's, so it is refused here, nothing marked."""
    if roll is not None:
        raise SceneRefused({"roll": "A vehicle's hit is entered by hand, below."})
    try:
        vehicle, text = vehicle_services.vehicle_mark_hit(
            user=user, vehicle_id=vehicle.pk, raw=raw, expected_version=vehicle.version
        )
    except VehicleRefused as refused:
        raise SceneRefused(refused.errors) from None
    return f"{vehicle.name}: {text}"


# Reading a scene ------------------------------------------------------------------------------


@dataclass
class Row:
    participant: Participant
    label: str
    kind: str
    score: Score | None
    current: bool
    tied: bool
    condition: Condition | None = None
    conditions: list[tuple[MinionMember, Condition]] = field(default_factory=list)
    fields: tuple[HitField, ...] = ()
    error: str = ""
    hit_error: str = ""
    # For the GM: no player reads this row (a hidden NPC or its minions).
    unseen: bool = False


@dataclass
class Tracker:
    scene: Scene
    gm: bool
    rows: list[Row]
    source: str
    ties: str
    typed_help: str
    rolls: list[RollEntry] = field(default_factory=list)


def _label(participant: Participant) -> str:
    if participant.kind == Kind.CHARACTER:
        return participant.character.name
    if participant.kind == Kind.GROUP:
        return participant.group.name
    if participant.kind == Kind.MEMBER:
        return f"{participant.member.group.name} {participant.member.label}"
    return participant.vehicle.name


def _ties(rules: ModuleType, participant: Participant, rule: str) -> tuple[int, ...]:
    """The system's tie traits off the participant's sheet (its block's for a minion), then
    the scene's side rule (a vehicle has no sheet: only the side rule)."""
    sheet = _sheet(participant)
    own = () if sheet is None else tuple(rules.ties(sheet))
    if participant.kind == Kind.CHARACTER:
        npc = hasattr(participant.character, "npc")
    elif participant.kind == Kind.VEHICLE:
        npc = participant.vehicle.owner_kind != "character"
    else:
        npc = True
    return own + side_tie(rule, npc)


def tracker(user: AbstractBaseUser, scene: Scene, role: Role) -> Tracker:
    """The scene in order, as `user` may see it: a GM everything; a player the order of
    whom they may know of, and their own characters' wounds."""
    rules = initiative_rules(scene.campaign.system)
    settings = _settings(scene.campaign)
    npcs = npc_rules(scene.campaign.system)
    participants = list(_rows(scene))
    members: dict[int, list[MinionMember]] = {}
    groups = {p.group_id for p in participants if p.group_id}
    for member in MinionMember.objects.filter(group_id__in=groups) if groups else ():
        members.setdefault(member.group_id, []).append(member)
    entries = [
        Entry(p, Score.from_data(p.initiative), _ties(rules, p, scene.ties), p.position)
        for p in participants
    ]
    ordered = order(entries)
    even = tied(ordered)
    turn = min(scene.turn, max(len(ordered) - 1, 0))
    gm = role is Role.GM
    rows: list[Row] = []
    for place, entry in enumerate(ordered):
        p = entry.key
        if not scene_participant_seen(user, role, p):
            continue
        label = _label(p) if scene_name_seen(user, role, p) else "A player's character"
        row = Row(p, label, p.get_kind_display(), entry.score, place == turn, p in even)
        # A vehicle whose damage the GM shows: read by whoever may know of it (above).
        if scene_state_seen(user, role, p) or (p.kind == Kind.VEHICLE and p.shown):
            if p.kind == Kind.CHARACTER:
                row.condition = rules.standing(p.character.sheet, settings)
            elif p.kind == Kind.MEMBER:
                block = p.member.group.block.sheet
                row.condition = npcs.condition(block, settings, p.member.wounds)
            elif p.kind == Kind.VEHICLE:
                row.condition = vehicle_services.condition(p.vehicle)
            elif p.kind == Kind.GROUP:
                block = p.group.block.sheet
                row.conditions = [
                    (m, npcs.condition(block, settings, m.wounds))
                    for m in members.get(p.group_id, [])
                ]
            if gm:
                row.fields = hit_fields(scene, p, settings)
                row.unseen = p.kind != Kind.VEHICLE and not scene_participant_seen(
                    user, Role.PLAYER, p
                )
        rows.append(row)
    rolls = appliable_rolls(scene) if gm and not scene.ended else []
    ties = rules.TIES if scene.ties == SEED_TIES else f"{rules.TIES} {scene.get_ties_display()}."
    return Tracker(scene, gm, rows, rules.SOURCE, ties, rules.TYPED_HELP, rolls)


def _some_player_sees(participant: Participant) -> bool:
    """Whether any player of the table may know of this participant: `scene_participant_seen`
    with no one player in mind (a character's vehicle is seen by whoever sees the character:
    its player, or the table's players for an NPC whose whole sheet is shown)."""
    if participant.kind != Kind.VEHICLE:
        return scene_participant_seen(AnonymousUser(), Role.PLAYER, participant)
    vehicle = participant.vehicle
    if vehicle.owner_kind != OwnerKind.NPC:
        return True
    npc = getattr(vehicle.character, "npc", None)
    return npc is not None and npc.visibility == Visibility.SHEET


def view_key(scene: Scene, gm: bool) -> int:
    """A number that changes when what the table's GMs (`gm`) or any of its players see of
    the scene changes: the round, the order, whose turn, the names and scores, the wounds.
    A live stream sends a scene frame when it moves, so a GM's hidden NPC moving in the
    order, or its wounds, never wakes a player's page. Its players' key covers what any
    one of them sees (each their own wounds): a page may fetch and find nothing new for
    it, never miss what is. Keyed with SECRET_KEY: the number tells nobody what it covers."""
    view = tracker(AnonymousUser(), scene, Role.GM)
    facts: list[Any] = [scene.round, scene.ties, scene.ended]
    for row in view.rows:
        p = row.participant
        if not gm and not _some_player_sees(p):
            continue
        score = None if row.score is None else (row.score.text, row.score.actions)
        shown = gm or p.kind == Kind.CHARACTER or (p.kind == Kind.VEHICLE and p.shown)
        condition = row.condition if shown else None
        conditions = [(m.pk, c) for m, c in row.conditions] if gm else []
        facts.append((p.pk, row.label, score, row.current, condition, conditions, p.shown))
    digest = salted_hmac("scenes.view_key", repr(facts)).hexdigest()
    return int(digest[:14], 16)


# The GM's PDF --------------------------------------------------------------------------------


def gm_print_rows(scene: Scene) -> tuple[list[Character], list[Vehicle]]:
    """What the GM's PDF of a scene holds: its NPCs (a minion's block once, as the NPC it
    is) and its vehicles, in the order they joined; never a player's character."""
    npcs: dict[int, Character] = {}
    vehicles: dict[int, Vehicle] = {}
    for p in _rows(scene).order_by("position", "pk"):
        if p.kind == Kind.CHARACTER and hasattr(p.character, "npc"):
            npcs.setdefault(p.character.pk, p.character)
        elif p.kind == Kind.GROUP:
            npcs.setdefault(p.group.block_id, p.group.block)
        elif p.kind == Kind.MEMBER:
            npcs.setdefault(p.member.group.block_id, p.member.group.block)
        elif p.kind == Kind.VEHICLE:
            vehicles.setdefault(p.vehicle.pk, p.vehicle)
    return list(npcs.values()), list(vehicles.values())


def gm_pdf(user: AbstractBaseUser, scene_id: int) -> tuple[Scene, bytes]:
    """One PDF of the scene's NPCs and vehicles for its GMs (403 for a player): each sheet
    through its own print (sheets/printing, sheets/vehicles), one after another. Refused
    when the scene has neither."""
    scene, _role = scene_for(user, scene_id, change=True)
    npcs, vehicles = gm_print_rows(scene)
    if not npcs and not vehicles:
        raise SceneRefused({WHOLE: "No NPC or vehicle in this scene to print."})
    # Imported here as the table's PDF does (sheets/printing/pdf.TableBook): pypdf stays out
    # of a web worker until a GM asks for one.
    from pypdf import PdfWriter

    writer = PdfWriter()
    for character in npcs:
        writer.append(io.BytesIO(render_character_pdf(character)))
    for vehicle in vehicles:
        writer.append(io.BytesIO(render_vehicle_pdf(vehicle)))
    writer.add_metadata({"/Title": f"{scene.name}: the GM's NPCs and vehicles"})
    out = io.BytesIO()
    writer.write(out)
    return scene, out.getvalue()
