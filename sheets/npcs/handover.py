"""A character the Dark Side consumed passes to the table's GM as an NPC (WEG 1E,
003:1708-1710). Apart from the NPC services because the ledger's Dark Side roll calls it:
this module reaches neither the characters' nor the ledger's services, so no import loops
back.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser

from sheets.accounts.services import notify_after_commit
from sheets.campaigns.models import Campaign, Membership, Role
from sheets.characters.models import Character
from sheets.history.revisions import record_revision, revision_state
from sheets.npcs.models import Npc, Visibility
from sheets.permissions import campaign_role
from sheets.rolls.models import RollEntry


class NpcRefused(Exception):
    """A write was refused, nothing stored: each message keyed by the form field it is about."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = dict(errors)


# What the table's players see of a character the Dark Side took: its name, as before.
CONSUMED_VISIBILITY = Visibility.NAME


def npc_from_consumed(*, character: Character, gm: AbstractBaseUser, why: str) -> Npc:
    """Hand a player's character the Dark Side consumed to the table's GM as an NPC
    (003:1708-1710: the template goes to the GM; the player makes a new character).

    Called inside the caller's transaction with the character's row locked: the owner
    becomes the GM who rolled, the sheet gets its NPC mark and a revision, and its former
    player gets a mail if they asked for the GM's decisions. Refused at no table or by
    anyone but one of its GMs; an NPC already is left as it is."""
    if character.campaign_id is None:
        raise NpcRefused({"dark_side": "Only a character at a table passes to its GM."})
    if campaign_role(gm, character.campaign) is not Role.GM:
        raise NpcRefused({"dark_side": "Only the table's GM takes a character over."})
    existing = Npc.objects.filter(character=character).first()
    if existing is not None:
        return existing
    former = character.owner
    before = revision_state(character)
    character.owner = gm
    character.version += 1
    character.save(update_fields=["owner", "version", "updated_at"])
    record_revision(
        character,
        gm,
        f"Consumed by the Dark Side (003:1708): from {former.get_username()} to the GM "
        f"as an NPC; {why}"[:200],
        before,
    )
    npc = Npc.objects.create(character=character, visibility=CONSUMED_VISIBILITY, created_by=gm)
    if former.pk != gm.pk:
        context = {"character": character, "campaign": character.campaign, "gm": gm}
        notify_after_commit([former], "mail_on_decision", "npcs/notice_consumed.txt", context)
    return npc


def first_gm(campaign: Campaign) -> AbstractBaseUser | None:
    """The GM who has run the table longest: who takes a character over when a player's own
    roll says the Dark Side consumed it."""
    found = (
        Membership.objects.filter(campaign=campaign, role=Role.GM)
        .select_related("user")
        .order_by("joined_at", "pk")
        .first()
    )
    return None if found is None else found.user


def pass_to_gm(*, character: Character, gm: AbstractBaseUser, why: str, rolled: RollEntry) -> Npc:
    """npc_from_consumed, and the roll's line in the table's log saying the character
    passed to the GM: the player reads it there (and by mail if asked)."""
    npc = npc_from_consumed(character=character, gm=gm, why=why)
    passed = f"{character.name} passes to the GM as an NPC (003:1710)"
    rolled.summary = f"{rolled.summary}; {passed}"[:300]
    rolled.details = [*rolled.details, f"{passed}; the player makes a new character."]
    rolled.save(update_fields=["summary", "details"])
    return npc
