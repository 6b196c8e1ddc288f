"""After an htmx edit, the page with the response swapped in reads as the page drawn fresh.

The edit response sends only the elements that changed; this checks, edit by edit, that
they are all the page needed: nothing stale is left beside them.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.characters.services import character_create
from tests.swaps import after_swaps, by_id, comparable, parse

HTMX = {"HTTP_HX_REQUEST": "true"}

# Each system's demo sheet through a few accepted edits of different kinds: a value, a step
# that moves what follows it, a wound that moves every roll, a box.
EDITS = {
    "swd10": ["abil.stealth=3", "attr.wits=4", "abil.stealth=0", "info.passion=Find the archive"],
    "ore": [
        "wound.torso.0=cycle",
        "wound.torso.0=cycle",
        "wound.head.0=cycle",
        "wound.torso.clear=yes",
    ],
    "weg_d6": [
        "attr.dexterity=3D+2",
        "skill.blaster=5D",
        "wound=wounded_twice",
        "attr.dexterity=3D",
    ],
    # The ability add row offers what the sheet can still buy: it follows each purchase.
    "ore abilities": [
        "ability.add=low_light_vision|",
        "ability.add=higher_stat_maximum|coordination",
    ],
    # Unconscious (-1) offers the bleeding roll in the roll panel; healed, it goes again.
    "o3d10": ["hp.current=10", "hp.current=2", "hp.current=-1", "hp.current=22"],
    # The roll panel's choices name the stat's value in their labels.
    "o3d10 stats": ["stat.dexterity=8", "stat.strength=7"],
    # Sections that print some derived values and not others (the species' move, a
    # droid's budget): each redrawn when, and only when, what it prints moves.
    "weg_d6 species and droid": [
        "info.species=custom",
        "species.move=12",
        "species.move_max=14",
        "attr.dexterity=3D+2",
        "info.kind=droid",
        "droid.speed=2D",
        "equipment.add=Arc welder|1",
        "attr.dexterity=3D",
    ],
}
IN_CREATION = {"ore abilities", "o3d10 stats"}


def _start(case: str) -> dict:
    """The sheet a case starts from: the system's demo, in creation where the case says so."""
    sheet = get_ruleset(case.split()[0]).demo_sheet()
    return {**sheet, "stage": "creation"} if case in IN_CREATION else sheet


def _sheet(client, character) -> str:
    return client.get(reverse("character_sheet", args=[character.pk])).content.decode()


@pytest.mark.parametrize("case", sorted(EDITS))
def test_the_page_after_each_edit_reads_as_the_page_drawn_fresh(player_client, player, case):
    character = character_create(
        owner=player, name="Demo", system=case.split()[0], sheet=_start(case)
    )
    page = _sheet(player_client, character)
    for edit in EDITS[case]:
        character.refresh_from_db()
        response = player_client.post(
            reverse("character_edit", args=[character.pk]),
            {"edit": edit, "version": character.version},
            **HTMX,
        )
        assert response.status_code == 200
        version = character.version
        character.refresh_from_db()
        assert character.version == version + 1, f"{edit} was not saved"
        swapped = by_id(after_swaps(page, response.content.decode()), "sheet")
        fresh = by_id(parse(_sheet(player_client, character)), "sheet")
        assert comparable(swapped) == comparable(fresh), edit
        page = _sheet(player_client, character)
