"""Load the demo: a player with one complete character per rule system (and, for WEG d6, a
1st-edition Force student and a droid as well), and a GM's table for each system with
three players and sheets in every review state."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from rulesets.registry import get_ruleset, ready_systems
from rulesets.weg_d6 import demo as weg_demo
from sheets.campaigns.models import Campaign
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create
from sheets.characters.services import (
    character_apply_edits,
    character_approve,
    character_create,
    character_request_changes,
    character_submit,
    gm_note_save,
)

DEMO_NAMES = {
    "swd10": "Kira Dane",
    "ore": "Kael Varrin",
    "weg_d6": "Jax Durran",
    "o3d10": "Kira Vant",
}
# More of the demo player's characters: the other sides of a system the first leaves unseen.
EXTRA_DEMOS = {
    "weg_d6": (
        ("Ven Aurel", weg_demo.force_student_1e_sheet),  # 1st edition, a Force template
        ("R2-K5", weg_demo.demo_droid_sheet),  # the seed's R2 from 1E building dice
    ),
}
GM_NAME = "gm"
PLAYERS = ("ana", "ben", "cara")
TABLE_NAMES = {
    "swd10": "Shadows of Nar Shaddaa",
    "ore": "The Clinic on Ord Mantell",
    "weg_d6": "Run to Kessel",
    "o3d10": "Embers of the Old Republic",
}
# The players' characters at each table: ana's, ben's, cara's, and cara's second (a draft).
TABLE_CHARACTERS = {
    "swd10": ("Tessa Vos", "Oren Kalt", "Mira Sol", "Dax Orrin"),
    "ore": ("Varo Teth", "Lyra Quin", "Bren Tokk", "Sella Marr"),
    "weg_d6": ("Rix Calder", "Nema Jor", "Tavi Brel", "Corran Hask"),
    "o3d10": ("Ilsa Dray", "Kor Vendt", "Pell Anari", "Zan Ferro"),
}
# What each player's sheet at every table shows: one review state per player, and the
# first table's approved sheet changed afterwards.
PLAYER_STATES = {"ana": "approved", "ben": "submitted", "cara": "changes_requested"}


class Command(BaseCommand):
    help = (
        "Load demo data: user 'demo' with one character per system, and GM 'gm' running a "
        "campaign of each system with players ana, ben and cara (all with the same password)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="demo-pass")

    @transaction.atomic
    def handle(self, *args, username: str, password: str, **options) -> None:
        user, created = self._user(username, password)
        for info in ready_systems():
            demos = (
                (DEMO_NAMES.get(info.key, info.name), get_ruleset(info.key).demo_sheet),
                *EXTRA_DEMOS.get(info.key, ()),
            )
            for name, make_sheet in demos:
                if user.characters.filter(system=info.key, name=name).exists():
                    continue
                character_create(
                    owner=user,
                    name=name,
                    system=info.key,
                    sheet=make_sheet(),
                    summary="Loaded as demo data",
                )
                self.stdout.write(f"Created {name} ({info.name}).")
        self._tables(password)
        login = f"log in as {username} / {password}" if created else f"log in as {username}"
        self.stdout.write(self.style.SUCCESS(f"Demo characters ready: {login}."))
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tables ready: the GM is {GM_NAME}, the players {', '.join(PLAYERS)} "
                f"(password {password})."
            )
        )

    def _user(self, username: str, password: str):
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
        return user, created

    def _tables(self, password: str) -> None:
        gm, _ = self._user(GM_NAME, password)
        players = [self._user(name, password)[0] for name in PLAYERS]
        first = True
        for info in ready_systems():
            title = TABLE_NAMES.get(info.key, f"{info.name} table")
            if Campaign.objects.filter(created_by=gm, name=title).exists():
                continue
            campaign = campaign_create(
                user=gm,
                name=title,
                system=info.key,
                # "Star O.R.E." already ends with a full stop.
                description=f"A demo table playing {info.name.rstrip('.')}.",
            )
            invitation = invitation_create(user=gm, campaign_id=campaign.pk)
            names = TABLE_CHARACTERS[info.key]
            for index, player in enumerate(players):
                campaign_join(user=player, token=invitation.token)
                self._player_sheet(gm, player, campaign, names[index], changed_after_approval=first)
            character_create(
                owner=players[-1],
                name=names[-1],
                system=info.key,
                campaign=campaign,
                summary="Loaded as demo data",
            )
            gm_note_save(
                user=gm,
                character_id=campaign.characters.order_by("pk").first().pk,
                text="Owes Jabba a favour; the bounty hunter in act two is after them.",
            )
            first = False
            self.stdout.write(f"Created the table “{title}” ({info.name}).")

    def _player_sheet(
        self, gm, player, campaign: Campaign, name: str, *, changed_after_approval: bool
    ) -> None:
        ruleset = get_ruleset(campaign.system)
        character = character_create(
            owner=player,
            name=name,
            system=campaign.system,
            sheet=ruleset.demo_sheet(),
            campaign=campaign,
            summary="Loaded as demo data",
        )
        state = PLAYER_STATES[player.username]
        character_submit(user=player, character_id=character.pk, version=character.version)
        if state == "approved":
            character_approve(user=gm, character_id=character.pk, version=character.version)
            if changed_after_approval:
                character_apply_edits(
                    user=player,
                    character_id=character.pk,
                    edits={"info.player": player.username.capitalize()},
                    expected_version=character.version,
                )
        elif state == "changes_requested":
            character_request_changes(
                user=gm,
                character_id=character.pk,
                version=character.version,
                comment="Please pick a background that fits the Outer Rim.",
            )
