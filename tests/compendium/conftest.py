"""A SWd10 table's book (tests/conftest.py's `table`, run by `gm`) and entries to put in it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create
from sheets.compendium.models import Book


@pytest.fixture
def book(table) -> Book:
    return Book(system=table.system, campaign=table)


@pytest.fixture
def personal_book(player) -> Book:
    return Book(system="swd10", owner=player)


def weapon(name: str = "Heavy repeater", **fields) -> dict:
    """A SWd10 weapon as its form's fields would make it."""
    return {"name": name, "difficulty": 6, "damage": 4, "rate": "2", "clip": 30} | fields


@pytest.fixture
def repeater(gm, book):
    from sheets.compendium.services import entry_create

    return entry_create(user=gm, book=book, kind="weapon", data=weapon())


# A WEG table ("Kessel Run", run by `gm`, `player` at it with Tessa in creation) and entries
# for its book.
TWILEK = {
    "name": "Twi'lek",
    "minimum": {
        "dexterity": 6,
        "knowledge": 3,
        "mechanical": 3,
        "perception": 6,
        "strength": 3,
        "technical": 3,
    },
    "maximum": {
        "dexterity": 13,
        "knowledge": 12,
        "mechanical": 12,
        "perception": 13,
        "strength": 12,
        "technical": 12,
    },
    "move": 10,
    "move_max": 12,
}
SMUGGLER = {
    "name": "Rim smuggler",
    "attributes": {
        "dexterity": 10,
        "knowledge": 7,
        "mechanical": 10,
        "perception": 10,
        "strength": 7,
        "technical": 7,
    },
    "skills": [{"name": "blaster", "code": 3}],
    "equipment": ["hold-out blaster"],
    "credits": 1200,
}
PISTOL = {"name": "Kessel pistol", "skill": "blaster", "damage": 13}


@pytest.fixture
def weg_table(gm, player):
    campaign = campaign_create(user=gm, name="Kessel Run", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    return campaign


@pytest.fixture
def weg_book(weg_table):
    return Book(system="weg_d6", campaign=weg_table)


@pytest.fixture
def tessa(player, weg_table):
    character = character_create(owner=player, name="Tessa", system="weg_d6")
    character_bring(user=player, campaign_id=weg_table.pk, character_id=character.pk)
    character.refresh_from_db()
    return character


def pick(client, character, ref, *, htmx=True):
    """Press an entry's Pick button: the sheet form posts "edit=compendium.add=<ref>"."""
    character.refresh_from_db()
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {"version": character.version, "edit": f"compendium.add={ref}"},
        headers=headers,
    )


def mark_picked(character, entry) -> None:
    """Pick `entry` onto the sheet as the ruleset records it, whatever book the sheet picks
    from now (a sheet that left the table keeps what it took there)."""
    from rulesets.core import resolve_settings
    from rulesets.registry import get_ruleset

    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    character.sheet = ruleset.pick_entry(
        character.sheet, entry.kind, entry.ref, entry.version, entry.data, settings
    )
    character.save(update_fields=["sheet"])
