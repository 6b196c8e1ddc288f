"""Load the demo: a player with one complete character per rule system (and, for WEG d6, a
1st-edition Force student and a droid as well), and a GM's table for each system with
three players and sheets in every review state; each table's compendium holds a few
entries written for the demo (marked as examples)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from rulesets.core.compendium import blank_form, entry_from_form, find_kind
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
from sheets.compendium.models import Book
from sheets.compendium.services import entry_create

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
# Each table's compendium: a species (or the system's nearest kind), a template, three
# weapons, as their forms would be filled in. Written for the demo: the names are made up
# and the words are ours, from no book.
DEMO_ENTRIES = {
    "swd10": (
        (
            "species",
            {
                "name": "Veshari",
                "kind": "species",
                "description": "Tall dune folk of an invented world; they read the wind.",
            },
        ),
        (
            "npc_template",
            {
                "name": "Dock enforcer",
                "description": "Muscle a crime boss posts at a landing bay.",
                "traits": "Strength 3\nBrawl 2\nWits 2\nAlertness 2",
            },
        ),
        (
            "weapon",
            {
                "name": "Kestrel hold-out",
                "difficulty": "6",
                "rate": "1",
                "damage": "3",
                "clip": "6",
                "description": "Fits in a boot; a last resort.",
            },
        ),
        (
            "weapon",
            {
                "name": "Marrow carbine",
                "difficulty": "6",
                "rate": "3",
                "damage": "5",
                "clip": "30",
                "description": "A surplus carbine with a folding stock.",
            },
        ),
        (
            "weapon",
            {
                "name": "Shock baton",
                "difficulty": "5",
                "rate": "1",
                "damage": "2",
                "description": "A dock guard's stun stick.",
            },
        ),
    ),
    "ore": (
        (
            "species",
            {
                "name": "Veshari",
                "cost": "4",
                "stat_max_bonus.sense": "1",
                "abilities": "Reads the wind",
                "description": "Tall dune folk of an invented desert world.",
            },
        ),
        (
            "npc_template",
            {
                "name": "Dock enforcer",
                "stats.body": "3",
                "stats.coordination": "2",
                "stats.sense": "2",
                "stats.brains": "1",
                "stats.command": "2",
                "stats.cool": "2",
                "skills": "Athletics 2",
                "description": "Muscle a crime boss posts at a landing bay.",
            },
        ),
        (
            "weapon",
            {
                "name": "Kestrel hold-out",
                "category": "pistol",
                "damage": "width in Shock",
                "description": "Fits in a boot; a last resort.",
            },
        ),
        (
            "weapon",
            {
                "name": "Marrow carbine",
                "category": "rifle",
                "damage": "width+1",
                "penetration": "1",
                "description": "A surplus carbine with a folding stock.",
            },
        ),
        (
            "weapon",
            {
                "name": "Shock baton",
                "category": "melee",
                "damage": "width in Shock",
                "description": "A dock guard's stun stick.",
            },
        ),
    ),
    "weg_d6": (
        (
            "species",
            {
                "name": "Veshari",
                "minimum.dexterity": "1D",
                "maximum.dexterity": "4D",
                "minimum.knowledge": "1D",
                "maximum.knowledge": "4D",
                "minimum.mechanical": "1D",
                "maximum.mechanical": "3D+2",
                "minimum.perception": "2D",
                "maximum.perception": "4D+2",
                "minimum.strength": "1D",
                "maximum.strength": "4D",
                "minimum.technical": "1D",
                "maximum.technical": "3D+1",
                "move": "10",
                "move_max": "12",
                "special_abilities": "Wind reading: +1D to search outdoors",
                "story_factors": "Rarely seen off their homeworld",
                "description": "Tall dune folk of an invented desert world.",
            },
        ),
        (
            "template",
            {
                "name": "Salvage pilot",
                "attributes.dexterity": "3D",
                "attributes.knowledge": "2D+1",
                "attributes.mechanical": "4D",
                "attributes.perception": "3D",
                "attributes.strength": "2D+2",
                "attributes.technical": "3D",
                "skills": "space transports 1D\nstarship gunnery 1D",
                "equipment": "Kestrel hold-out\ncomlink\ntool kit",
                "credits": "500",
                "background": "Pulled wrecks apart in an asteroid yard",
                "description": "Flies anything that still holds air.",
            },
        ),
        (
            "weapon",
            {
                "name": "Kestrel hold-out",
                "skill": "blaster",
                "damage": "3D",
                "range.short": "3",
                "range.medium": "10",
                "range.long": "20",
                "ammo": "6",
                "difficulty": "easy",
                "cost": "275",
                "description": "Fits in a boot; a last resort.",
            },
        ),
        (
            "weapon",
            {
                "name": "Marrow carbine",
                "skill": "blaster",
                "damage": "5D",
                "range.short": "5",
                "range.medium": "30",
                "range.long": "120",
                "ammo": "50",
                "difficulty": "easy",
                "cost": "900",
                "description": "A surplus carbine with a folding stock.",
            },
        ),
        (
            "weapon",
            {
                "name": "Shock baton",
                "skill": "melee combat",
                "damage": "1D+1",
                "adds_strength": "on",
                "difficulty": "easy",
                "cost": "150",
                "description": "A dock guard's stun stick.",
            },
        ),
    ),
    "o3d10": (
        (
            "npc_template",
            {
                "name": "Dock enforcer",
                "stats.strength": "6",
                "stats.dexterity": "4",
                "stats.intelligence": "3",
                "stats.perception": "4",
                "skills": "Melee Weapons 3",
                "description": "Muscle a crime boss posts at a landing bay.",
            },
        ),
        (
            "weapon",
            {
                "name": "Kestrel hold-out",
                "kind": "ranged",
                "damage": "1d6",
                "description": "Fits in a boot; a last resort.",
            },
        ),
        (
            "weapon",
            {
                "name": "Marrow carbine",
                "kind": "ranged",
                "damage": "2d6",
                "description": "A surplus carbine with a folding stock.",
            },
        ),
        (
            "weapon",
            {
                "name": "Shock baton",
                "kind": "melee",
                "damage": "1d4+1",
                "description": "A dock guard's stun stick.",
            },
        ),
    ),
}


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
        self._compendium(password)
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

    def _compendium(self, password: str) -> None:
        """The demo entries each table's book lacks (a book loaded before keeps its own)."""
        gm, _ = self._user(GM_NAME, password)
        for info in ready_systems():
            title = TABLE_NAMES.get(info.key, f"{info.name} table")
            campaign = Campaign.objects.filter(created_by=gm, name=title).first()
            if campaign is None:
                continue
            book = Book(system=campaign.system, campaign=campaign)
            kinds = get_ruleset(campaign.system).COMPENDIUM_KINDS
            for kind_key, form in DEMO_ENTRIES.get(info.key, ()):
                kind = find_kind(kinds, kind_key)
                if book.entries().filter(kind=kind.key, name__iexact=form["name"]).exists():
                    continue
                # The form's defaults for what the demo leaves out; read as a GM's form is.
                data = entry_from_form(kind, blank_form(kind) | form)
                entry_create(user=gm, book=book, kind=kind.key, data=data, example=True)
            self.stdout.write(f"The compendium of “{title}” holds its demo entries.")
