"""Every write of the GM's side of a table: NPCs (made, quick, from a template, revealed)
and groups of minions (made, hit, healed). Each in one transaction under a row lock; each
change of an existing row checks the version it was asked about and bumps it.

An NPC's sheet is written by the characters' write service (`character_create`), so it
has its revision like any sheet; its mark, its visibility and its minions live here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.compendium import InvalidEntry
from rulesets.core.npcs import (
    Condition,
    HitField,
    InvalidHit,
    NpcReport,
    members_refusal,
    npc_rules,
    quick_edits,
)
from rulesets.registry import get_ruleset
from sheets.campaigns.models import Campaign
from sheets.characters.models import Character
from sheets.characters.services import character_create, clean_name
from sheets.compendium.models import Book
from sheets.npcs.handover import NpcRefused
from sheets.npcs.models import MinionGroup, MinionMember, Npc, Visibility
from sheets.permissions import (
    book_entries,
    campaign_for,
    minion_group_for,
    npc_for,
)

NPC_TEMPLATE = "npc_template"


class StaleNpc(Exception):
    """The write named a version older than the one stored."""

    def __init__(self) -> None:
        super().__init__(
            "This was changed elsewhere since the page was drawn. Nothing was saved; the "
            "current state is shown."
        )


def _in_force(campaign: Campaign) -> dict:
    ruleset = get_ruleset(campaign.system)
    rules = npc_rules(campaign.system)
    return dict(resolve_settings(ruleset.SETTINGS + rules.NPC_SETTINGS, campaign.rule_settings))


def npc_templates(user: AbstractBaseUser, campaign: Campaign) -> list:
    """The table's compendium NPC templates its GM may start an NPC from."""
    book = Book(system=campaign.system, campaign=campaign)
    return list(book_entries(user, book).filter(kind=NPC_TEMPLATE).order_by("name", "pk"))


def _from_template(
    user: AbstractBaseUser, campaign: Campaign, sheet: dict, template: str, settings: dict
) -> dict:
    if not template:
        return sheet
    entry = next((e for e in npc_templates(user, campaign) if str(e.pk) == str(template)), None)
    if entry is None:
        raise NpcRefused({"template": "Choose one of this table's NPC templates."})
    try:
        return get_ruleset(campaign.system).pick_entry(
            sheet, NPC_TEMPLATE, entry.ref, entry.version, entry.data, settings
        )
    except InvalidEntry as refused:
        raise NpcRefused({"template": str(refused)}) from None


def npc_create(
    *,
    user: AbstractBaseUser,
    campaign_id: int,
    name: str,
    quick: bool = False,
    traits: Mapping[str, str] | None = None,
    lines: str = "",
    template: str = "",
) -> Character:
    """Make an NPC of the table's system, hidden, owned by the GM who made it.

    A full NPC starts as a blank sheet held to the system's NPC budget; a quick one takes
    only `traits` (the few the form offers) and `lines` ("Blaster 5D"), and no budget.
    Either may start from one of the table's NPC templates. Any refused value refuses the
    whole NPC: nothing is stored.
    """
    campaign, _role = campaign_for(user, campaign_id, gm=True)
    errors: dict[str, str] = {}
    try:
        clean = clean_name(name)
    except InvalidEdit as refused:
        errors["name"] = refused.message
    ruleset = get_ruleset(campaign.system)
    rules = npc_rules(campaign.system)
    settings = _in_force(campaign)
    sheet = rules.prepare_npc(
        ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, settings)), settings
    )
    try:
        sheet = _from_template(user, campaign, sheet, template, settings)
    except NpcRefused as refused:
        errors.update(refused.errors)
    if quick:
        sheet = _quick_traits(ruleset, sheet, settings, traits or {}, lines, errors)
    if errors:
        raise NpcRefused(errors)
    with transaction.atomic():
        character = character_create(
            owner=user,
            name=clean,
            system=campaign.system,
            sheet=sheet,
            campaign=campaign,
            summary="Created as a quick NPC" if quick else "Created as an NPC",
        )
        Npc.objects.create(character=character, quick=quick, created_by=user)
    return character


def _quick_traits(
    ruleset: Any,
    sheet: dict,
    settings: dict,
    traits: Mapping[str, str],
    lines: str,
    errors: dict[str, str],
) -> dict:
    offered = set(npc_rules(ruleset.KEY).QUICK_TRAITS)
    edits = [(key, str(raw)) for key, raw in traits.items() if key in offered and str(raw).strip()]
    more, problems = quick_edits(ruleset.trait_rows(sheet, settings), lines)
    if problems:
        errors["lines"] = " ".join(problems)
    for key, raw in edits:
        sheet = _edit(ruleset, sheet, settings, key, raw, key, errors)
    for key, raw in more:
        sheet = _edit(ruleset, sheet, settings, key, raw, "lines", errors)
    return sheet


def _edit(ruleset, sheet, settings, key, raw, field, errors) -> dict:
    try:
        return ruleset.apply_edit(sheet, key, raw, settings)
    except InvalidEdit as refused:
        message = f"{ruleset.trait_label(key)}: {refused.message}"
        errors[field] = f"{errors[field]} {message}" if field in errors else message
        return sheet


def npc_reveal(
    *, user: AbstractBaseUser, character_id: int, visibility: str, expected_version: int
) -> Npc:
    """Set what the table's players see of an NPC (a GM's act; a player gets 404)."""
    if visibility not in Visibility.values:
        raise NpcRefused({"visibility": "Choose hidden, name and portrait, or the whole sheet."})
    with transaction.atomic():
        npc, _runs = npc_for(user, character_id, gm=True, for_update=True)
        if npc.version != expected_version:
            raise StaleNpc()
        npc.visibility = visibility
        npc.version += 1
        npc.save(update_fields=["visibility", "version"])
    return npc


def npc_report(character: Character, npc: Npc) -> NpcReport:
    """The NPC's budget under its table's settings (a quick NPC has none)."""
    settings = character.readings_in_force
    return npc_rules(character.system).npc_report(character.sheet, settings, quick=npc.quick)


# Minions ---------------------------------------------------------------------------------


def group_create(
    *, user: AbstractBaseUser, campaign_id: int, block_id: str, name: str, count: str
) -> MinionGroup:
    """Make a group of `count` minions sharing the stat block of one of the table's NPCs."""
    campaign, _role = campaign_for(user, campaign_id, gm=True)
    errors: dict[str, str] = {}
    block = (
        Character.objects.filter(campaign=campaign, npc__isnull=False, pk=_whole(block_id))
        .select_related("campaign")
        .first()
    )
    if block is None:
        errors["block"] = "Choose one of this table's NPCs as the stat block."
    try:
        clean = clean_name(name)
    except InvalidEdit as refused:
        errors["name"] = refused.message.replace("character", "group")
    refusal = members_refusal(count)
    if refusal:
        errors["count"] = refusal
    if errors:
        raise NpcRefused(errors)
    rules = npc_rules(campaign.system)
    settings = _in_force(campaign)
    fresh = rules.fresh_wounds(block.sheet, settings)
    with transaction.atomic():
        group = MinionGroup.objects.create(
            campaign=campaign, block=block, name=clean, created_by=user
        )
        MinionMember.objects.bulk_create(
            MinionMember(group=group, number=number, wounds=fresh)
            for number in range(1, int(count) + 1)
        )
    return group


def _whole(raw: Any) -> int:
    text = str(raw).strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else 0


@dataclass(frozen=True)
class MemberState:
    member: MinionMember
    condition: Condition


def group_state(group: MinionGroup) -> tuple[list[MemberState], tuple[HitField, ...]]:
    """Each member's condition on its track, and the fields a hit asks for."""
    rules = npc_rules(group.campaign.system)
    settings = _in_force(group.campaign)
    block = group.block.sheet
    members = [
        MemberState(m, rules.condition(block, settings, m.wounds)) for m in group.members.all()
    ]
    return members, rules.hit_fields(block, settings)


def member_hit(
    *,
    user: AbstractBaseUser,
    group_id: int,
    member_id: str,
    raw: Mapping[str, str],
    expected_version: int,
) -> MinionMember:
    """Mark one hit on one member of the group, in the system's terms."""
    with transaction.atomic():
        group = minion_group_for(user, group_id, for_update=True)
        if group.version != expected_version:
            raise StaleNpc()
        member = group.members.filter(pk=_whole(member_id)).first()
        if member is None:
            raise NpcRefused({"member": "Choose a member of this group."})
        rules = npc_rules(group.campaign.system)
        try:
            wounds = rules.hit(group.block.sheet, _in_force(group.campaign), member.wounds, raw)
        except InvalidHit as refused:
            raise NpcRefused({refused.field: refused.message}) from None
        member.wounds = wounds
        member.save(update_fields=["wounds"])
        _bump(group)
    return member


def member_heal(
    *, user: AbstractBaseUser, group_id: int, member_id: str, expected_version: int
) -> MinionMember:
    """Clear one member's wounds (the fight is over, or the GM marked the wrong one)."""
    with transaction.atomic():
        group = minion_group_for(user, group_id, for_update=True)
        if group.version != expected_version:
            raise StaleNpc()
        member = group.members.filter(pk=_whole(member_id)).first()
        if member is None:
            raise NpcRefused({"member": "Choose a member of this group."})
        member.wounds = npc_rules(group.campaign.system).fresh_wounds(
            group.block.sheet, _in_force(group.campaign)
        )
        member.save(update_fields=["wounds"])
        _bump(group)
    return member


def _bump(group: MinionGroup) -> None:
    group.version += 1
    group.save(update_fields=["version"])


# The NPC rules a GM may change ---------------------------------------------------------


def npc_settings(campaign: Campaign) -> list[tuple[Any, Any]]:
    """The table's NPC settings (rulesets/<key>/npcs.py), each with the value in force."""
    declared = npc_rules(campaign.system).NPC_SETTINGS
    in_force = resolve_settings(declared, campaign.rule_settings)
    return [(setting, in_force[setting.key]) for setting in declared]


def npc_settings_save(
    *,
    user: AbstractBaseUser,
    campaign_id: int,
    submitted: Mapping[str, str],
    expected_version: int,
) -> Campaign:
    """Save the table's NPC settings among its house rules (the campaign's version moves
    on, as for any house rule); a refused value refuses them all, nothing stored."""
    with transaction.atomic():
        campaign, _ = campaign_for(user, campaign_id, gm=True, for_update=True)
        if campaign.version != expected_version:
            raise StaleNpc()
        chosen = dict(campaign.rule_settings)
        errors: dict[str, str] = {}
        for setting in npc_rules(campaign.system).NPC_SETTINGS:
            if setting.key not in submitted:
                continue
            try:
                chosen[setting.key] = setting.coerce(submitted[setting.key])
            except (ValueError, TypeError) as refused:
                errors[setting.key] = str(refused)
        if errors:
            raise NpcRefused(errors)
        if chosen != campaign.rule_settings:
            campaign.rule_settings = chosen
            campaign.version += 1
            campaign.save(update_fields=["rule_settings", "version"])
    return campaign
