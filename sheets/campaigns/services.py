"""Every write to a campaign goes through here: membership, invitations, house rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from rulesets.core import InvalidEdit, Status, resolve_settings
from rulesets.core.parsing import clean_text
from rulesets.registry import SYSTEMS, get_ruleset, system_info
from sheets.advancement import services as ledger
from sheets.campaigns.models import Campaign, Invitation, Membership, Role
from sheets.characters.models import Character, ReviewState
from sheets.permissions import Need, campaign_for, character_for, is_npc, role_change_refusal

NAME_MAX = 100
DESCRIPTION_MAX = 4000
INVITATION_TWIN_WINDOW = timedelta(seconds=10)


class CampaignRefused(Exception):
    """A campaign action was refused. `field` names the form field at fault, if one is."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _cleaned(field: str, raw: str, *, label: str, limit: int, lines: bool = False) -> str:
    """Typed text through the one cleaner every sheet uses; a refusal names its field."""
    try:
        return clean_text(field, raw, label=label, limit=limit, lines=lines)
    except InvalidEdit as refused:
        raise CampaignRefused(refused.message, field) from None


def _clean_name(raw: str) -> str:
    if len(" ".join(str(raw).split())) > NAME_MAX:
        raise CampaignRefused(f"A name is at most {NAME_MAX} characters.", "name")
    name = _cleaned("name", raw, label="The name", limit=NAME_MAX)
    if not name:
        raise CampaignRefused("A campaign needs a name.", "name")
    return name


def _clean_description(raw: str) -> str:
    if len(str(raw).replace("\r\n", "\n").strip()) > DESCRIPTION_MAX:
        raise CampaignRefused(
            f"A description is at most {DESCRIPTION_MAX} characters.", "description"
        )
    return _cleaned("description", raw, label="The description", limit=DESCRIPTION_MAX, lines=True)


# Invitation tokens are URL-safe base64 (secrets.token_urlsafe); anything else names none,
# and is never sent to the database (PostgreSQL refuses a NUL in a query).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _token_or_none(token: str) -> str | None:
    text = str(token)
    return text if _TOKEN.fullmatch(text) else None


def campaign_create(
    *, user: AbstractBaseUser, name: str, system: str, description: str = ""
) -> Campaign:
    """Open a table; its creator is its first GM."""
    if system not in SYSTEMS or not system_info(system).ready:
        raise CampaignRefused("Pick one of the rule systems listed.", "system")
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=_clean_name(name),
            system=system,
            description=_clean_description(description),
            created_by=user,
        )
        Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
    return campaign


def campaign_update(
    *, user: AbstractBaseUser, campaign_id: int, name: str, description: str
) -> Campaign:
    with transaction.atomic():
        campaign, _ = campaign_for(user, campaign_id, gm=True, for_update=True)
        campaign.name = _clean_name(name)
        campaign.description = _clean_description(description)
        campaign.save(update_fields=["name", "description"])
    return campaign


# Invitations -----------------------------------------------------------------------------

MAX_INVITATION_USES = 1000


def invitation_create(
    *,
    user: AbstractBaseUser,
    campaign_id: int,
    expires_at: datetime | None = None,
    max_uses: int | None = None,
) -> Invitation:
    campaign, _ = campaign_for(user, campaign_id, gm=True)
    if expires_at is not None and expires_at <= timezone.now():
        raise CampaignRefused("Pick an expiry in the future, or none.", "expires_at")
    if max_uses is not None and not 1 <= max_uses <= MAX_INVITATION_USES:
        raise CampaignRefused(
            f"Allow from 1 to {MAX_INVITATION_USES} uses, or leave it empty for no limit.",
            "max_uses",
        )
    with transaction.atomic():
        # A double click sends the form twice: the second answer is the link the first
        # made (same terms, unused, a few seconds old). The campaign's row lock makes the
        # two requests take turns.
        Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
        twin = campaign.invitations.filter(
            created_by=user,
            expires_at=expires_at,
            max_uses=max_uses,
            uses=0,
            revoked_at__isnull=True,
            created_at__gte=timezone.now() - INVITATION_TWIN_WINDOW,
        ).first()
        if twin is not None:
            return twin
        return Invitation.objects.create(
            campaign=campaign, created_by=user, expires_at=expires_at, max_uses=max_uses
        )


def invitation_revoke(*, user: AbstractBaseUser, campaign_id: int, invitation_id: int) -> None:
    with transaction.atomic():
        campaign, _ = campaign_for(user, campaign_id, gm=True)
        invitation = campaign.invitations.select_for_update().filter(pk=invitation_id).first()
        if invitation is None:
            raise CampaignRefused("No such invitation in this campaign.")
        if invitation.revoked_at is None:
            invitation.revoked_at = timezone.now()
            invitation.save(update_fields=["revoked_at"])


def invitation_by_token(token: str) -> Invitation | None:
    clean = _token_or_none(token)
    if clean is None:
        return None
    return Invitation.objects.select_related("campaign").filter(token=clean).first()


def campaign_join(*, user: AbstractBaseUser, token: str) -> Campaign:
    """Follow an invitation link: join as a player, and count one use."""
    with transaction.atomic():
        clean = _token_or_none(token)
        invitation = (
            None
            if clean is None
            else Invitation.objects.select_for_update().filter(token=clean).first()
        )
        if invitation is None:
            raise CampaignRefused("This invitation link is not valid. Check it with your GM.")
        refusal = invitation.refusal()
        if refusal:
            raise CampaignRefused(refusal)
        campaign = invitation.campaign
        if Membership.objects.filter(campaign=campaign, user=user).exists():
            raise CampaignRefused(f"You are already at the table of “{campaign.name}”.")
        try:
            with transaction.atomic():
                Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        except IntegrityError:
            raise CampaignRefused(f"You are already at the table of “{campaign.name}”.") from None
        invitation.uses += 1
        invitation.save(update_fields=["uses"])
    return campaign


# Membership ------------------------------------------------------------------------------


def _leave_with_characters(campaign: Campaign, user_id: int) -> int:
    """Take a player's characters off the table; they stay their owner's."""
    return Character.objects.filter(campaign=campaign, owner_id=user_id).update(
        campaign=None, review_state=ReviewState.DRAFT, review_version=None
    )


def campaign_leave(*, user: AbstractBaseUser, campaign_id: int) -> Campaign:
    with transaction.atomic():
        campaign, role = campaign_for(user, campaign_id, for_update=True)
        if role is Role.GM and campaign.memberships.filter(role=Role.GM).count() == 1:
            raise CampaignRefused(
                "You are this table's only GM: make another member a GM before you leave."
            )
        _leave_with_characters(campaign, user.pk)
        campaign.memberships.filter(user=user).delete()
    return campaign


def member_remove(*, user: AbstractBaseUser, campaign_id: int, membership_id: int) -> str:
    """A GM removes a player; their characters leave the table with them."""
    with transaction.atomic():
        campaign, _ = campaign_for(user, campaign_id, gm=True, for_update=True)
        member = campaign.memberships.select_related("user").filter(pk=membership_id).first()
        if member is None:
            raise CampaignRefused("No such member at this table.")
        if member.role == Role.GM:
            raise CampaignRefused("A GM leaves by themselves; you can only remove players.")
        _leave_with_characters(campaign, member.user_id)
        member.delete()
    return member.user.get_username()


def member_set_role(
    *, user: AbstractBaseUser, campaign_id: int, membership_id: int, role: str
) -> Membership:
    """Make a player a co-GM, or a co-GM a player again (a table keeps one GM at least;
    the creator's role, while they are a GM, is theirs alone to change)."""
    if role not in Role.values:
        raise CampaignRefused("A member is a GM or a player.", "role")
    with transaction.atomic():
        campaign, _ = campaign_for(user, campaign_id, gm=True, for_update=True)
        member = campaign.memberships.filter(pk=membership_id).first()
        if member is None:
            raise CampaignRefused("No such member at this table.")
        refusal = role_change_refusal(user, campaign, member)
        if refusal:
            raise CampaignRefused(refusal)
        if (
            role == Role.PLAYER
            and member.role == Role.GM
            and campaign.memberships.filter(role=Role.GM).count() == 1
        ):
            raise CampaignRefused("A table needs one GM at least.")
        member.role = role
        member.save(update_fields=["role"])
    return member


# Characters at the table -----------------------------------------------------------------


def character_bring(*, user: AbstractBaseUser, campaign_id: int, character_id: int) -> Character:
    """A member brings one of their own characters of the campaign's system to the table."""
    with transaction.atomic():
        campaign, _ = campaign_for(user, campaign_id)
        character, _ = character_for(user, character_id, Need.OWNER, for_update=True)
        if character.system != campaign.system:
            raise CampaignRefused(
                f"“{character.name}” is a {character.get_system_display()} character; "
                f"this table plays {campaign.get_system_display()}.",
                "character",
            )
        if character.campaign_id == campaign.pk:
            raise CampaignRefused(f"“{character.name}” is already at this table.", "character")
        if character.campaign_id is not None:
            raise CampaignRefused(
                f"“{character.name}” already sits at “{character.campaign.name}”: "
                "take it out of that campaign first.",
                "character",
            )
        character.campaign = campaign
        character.review_state = ReviewState.DRAFT
        character.review_version = None
        character.save(update_fields=["campaign", "review_state", "review_version"])
        # Points from elsewhere (off-table, another table, an import) count here only
        # once this table's GM accepts them.
        ledger.mark_origins(character)
    return character


def character_take_out(*, user: AbstractBaseUser, character_id: int) -> Character:
    """The owner takes their character off its table; it keeps its own readings again."""
    with transaction.atomic():
        character, _ = character_for(user, character_id, Need.OWNER, for_update=True)
        if character.campaign_id is None:
            raise CampaignRefused(f"“{character.name}” is not at any table.")
        if is_npc(character):
            raise CampaignRefused(f"“{character.name}” is one of this table's NPCs: it stays.")
        character.campaign = None
        character.review_state = ReviewState.DRAFT
        character.review_version = None
        character.save(update_fields=["campaign", "review_state", "review_version"])
    return character


# House rules -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Breakage:
    """A member sheet that a change of house rules would make illegal, or more so."""

    character: Character
    before: Status
    after: Status
    new_problems: tuple[str, ...]


def _coerce_settings(system: str, submitted: dict[str, str], current: dict) -> dict[str, Any]:
    """Read the submitted readings; a refused value raises with the reading's key."""
    ruleset = get_ruleset(system)
    chosen = dict(current)
    errors = {}
    for setting in ruleset.SETTINGS:
        if setting.key not in submitted:
            continue
        try:
            value = setting.coerce(submitted[setting.key])
        except (ValueError, TypeError) as error:
            errors[setting.key] = str(error)
            continue
        if setting.key in chosen or value != setting.default:
            chosen[setting.key] = value
    unknown = set(submitted) - {s.key for s in ruleset.SETTINGS}
    for key in unknown:
        errors[key] = f"“{key}” is not a rule reading of this system."
    if errors:
        raise SettingsRefused(errors)
    return chosen


class SettingsRefused(Exception):
    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def _messages(report) -> set[str]:
    return {v.message for v in report.violations if v.severity == "error"}


def settings_breakage(
    campaign: Campaign, chosen: dict, characters: list[Character]
) -> list[Breakage]:
    """The member sheets whose errors would grow under `chosen` instead of today's rules."""
    ruleset = get_ruleset(campaign.system)
    now = resolve_settings(ruleset.SETTINGS, campaign.rule_settings)
    then = resolve_settings(ruleset.SETTINGS, chosen)
    broken = []
    for character in characters:
        errors_now = _messages(ruleset.check(character.sheet, now))
        errors_then = _messages(ruleset.check(character.sheet, then))
        new = tuple(sorted(errors_then - errors_now))
        if new:
            broken.append(
                Breakage(
                    character,
                    ruleset.status(character.sheet, now),
                    ruleset.status(character.sheet, then),
                    new,
                )
            )
    return broken


def campaign_settings_preview(
    *, user: AbstractBaseUser, campaign_id: int, submitted: dict[str, str]
) -> tuple[Campaign, dict, list[Breakage]]:
    """What saving these readings would do, without saving: the readings and the breakage."""
    campaign, _ = campaign_for(user, campaign_id, gm=True)
    chosen = _coerce_settings(campaign.system, submitted, campaign.rule_settings)
    members = list(campaign.characters.select_related("owner"))
    return campaign, chosen, settings_breakage(campaign, chosen, members)


def campaign_settings_save(
    *,
    user: AbstractBaseUser,
    campaign_id: int,
    submitted: dict[str, str],
    expected_version: int,
    confirmed: bool,
) -> tuple[Campaign, list[Breakage], bool]:
    """Save the table's readings; say which sheets they break and whether they were saved.

    When sheets would break and the GM has not confirmed (having seen the list at
    `expected_version`), nothing is saved.
    """
    with transaction.atomic():
        campaign, _ = campaign_for(user, campaign_id, gm=True, for_update=True)
        if campaign.version != expected_version:
            raise CampaignRefused(
                "The house rules changed since you opened this page; look at them again."
            )
        chosen = _coerce_settings(campaign.system, submitted, campaign.rule_settings)
        if chosen == campaign.rule_settings:
            return campaign, [], False
        members = list(campaign.characters.select_related("owner").select_for_update(of=("self",)))
        broken = settings_breakage(campaign, chosen, members)
        if broken and not confirmed:
            return campaign, broken, False
        campaign.rule_settings = chosen
        campaign.version += 1
        campaign.save(update_fields=["rule_settings", "version"])
    return campaign, broken, True
