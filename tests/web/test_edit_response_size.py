"""An htmx edit sends only what it changed: a small response, whatever the system.

Sizes, unlike times, are the same on every machine, so they are asserted here; the time
an edit takes is measured by `make bench`.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import assume, given
from hypothesis import strategies as st

from rulesets.registry import get_ruleset
from sheets.characters import views
from sheets.characters.services import character_create

HTMX = {"HTTP_HX_REQUEST": "true"}
OOB = re.compile(r'<\w+[^>]*\sid="([^"]+)"[^>]*hx-swap-oob="true"')

# A typical edit of each system's demo sheet (the bench's): each response under 8 KB.
# A WEG d6 Dexterity step is the largest: every skill under it prints a code that follows it.
EDITS = [
    ("swd10", "abil.stealth=2"),
    ("ore", "wound.torso.0=cycle"),
    ("o3d10", "hp.current=10"),
    ("weg_d6", "attr.dexterity=3D+2"),
]


def _demo(player, system: str):
    return character_create(
        owner=player, name="Demo", system=system, sheet=get_ruleset(system).demo_sheet()
    )


@pytest.mark.parametrize(("system", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edit_of_a_demo_sheet_sends_a_small_response(player_client, player, system, edit):
    character = _demo(player, system)
    page = player_client.get(reverse("character_sheet", args=[character.pk]))
    response = player_client.post(
        reverse("character_edit", args=[character.pk]),
        {"edit": edit, "version": character.version},
        **HTMX,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and "changed elsewhere" not in html
    assert len(response.content) < 8 * 1024
    assert len(response.content) < len(page.content) / 5
    # The edit was saved: the new version goes out.
    assert f'id="sheet-version" value="{character.version + 1}"' in html


def _swapped(client, character, edit: str) -> set[str]:
    response = client.post(
        reverse("character_edit", args=[character.pk]),
        {"edit": edit, "version": character.version},
        **HTMX,
    )
    assert response.status_code == 200
    return set(OOB.findall(response.content.decode()))


def test_a_section_an_edit_redraws_the_same_is_not_sent(player_client, player):
    """WEG's wound track prints derived values, so a Dexterity step used to resend it
    whole, although nothing in it moved: it stays on the page untouched. Of the attribute's
    block only the rows that moved go: the attribute and the skills under it."""
    character = _demo(player, "weg_d6")
    swapped = _swapped(player_client, character, "attr.dexterity=3D+2")
    assert "section-attr-dexterity-body" not in swapped
    assert {"trait-attr-dexterity", "trait-skill-blaster", "trait-skill-dodge"} <= swapped
    # Skills under another attribute did not move.
    assert "trait-skill-space_transports" not in swapped and "trait-attr-perception" not in swapped
    # The derived panel prints the attributes' total, which moved.
    assert "section-derived-body" in swapped
    assert "section-wounds-body" not in swapped and "section-species-body" not in swapped


def test_one_wound_box_sends_that_location_not_the_table(player_client, player):
    """Marking an O.R.E. wound box swaps the box's location row (its state moved too), not
    the table of every location."""
    character = _demo(player, "ore")
    swapped = _swapped(player_client, character, "wound.torso.0=cycle")
    assert "location-torso" in swapped
    assert "section-wounds-body" not in swapped
    assert not {"location-head", "location-left_arm", "location-right_leg"} & swapped


def test_an_edited_box_keeps_its_own_whitespace(player_client, player):
    """The response drops the templates' indentation, never the whitespace of a box."""
    character = _demo(player, "o3d10")
    typed = "Owes Jabba.\n\n    Twice.\n"
    response = player_client.post(
        reverse("character_edit", args=[character.pk]),
        {"only": "info.notes", "info.notes": typed, "version": character.version},
        **HTMX,
    )
    html = response.content.decode()
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>", html, re.S)
    assert box is not None
    character.refresh_from_db()
    assert "\n\n    Twice." in character.sheet["info"]["notes"]
    assert box.group(1).lstrip("\n") == character.sheet["info"]["notes"]


def test_the_budget_and_title_go_only_when_they_change(player_client, player):
    """The budget panel and the title are on the page already: an edit that leaves them as
    they are (a wound in play) does not send them again; one that moves a pool or the name
    does."""
    ore = _demo(player, "ore")
    assert not {"budget", "sheet-title"} & _swapped(player_client, ore, "wound.torso.0=cycle")
    swd10 = character_create(
        owner=player,
        name="Demo",
        system="swd10",
        sheet={**get_ruleset("swd10").demo_sheet(), "stage": "creation"},
    )
    stealth = swd10.sheet["abilities"]["stealth"]
    moved = _swapped(player_client, swd10, f"abil.stealth={(stealth + 1) % 3}")
    assert "budget" in moved and "sheet-title" not in moved
    swd10.refresh_from_db()
    renamed = player_client.post(
        reverse("character_edit", args=[swd10.pk]),
        {"only": "character.name", "character.name": "Renamed", "version": swd10.version},
        **HTMX,
    )
    assert "sheet-title" in set(OOB.findall(renamed.content.decode()))


@given(st.text(alphabet="<>/ \n\tabp", max_size=60))
def test_the_quick_indentation_pattern_cuts_what_the_full_one_cuts(markup):
    """Without a textarea or pre (whose whitespace is kept), the simpler pattern the edit
    response uses drops exactly the indentation the full one drops."""
    assume("<textarea" not in markup and "<pre" not in markup)
    full = views._INDENTATION.sub(lambda kept: kept.group(1) or ">\n", markup)
    assert views._INDENTATION_ONLY.sub(">\n<", markup) == full
