"""A printed sheet keeps a name of one long word inside its box: never over the label beside
it, never off the page (words placed by poppler's pdftotext -bbox, as printed)."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.urls import reverse

from rulesets.registry import SYSTEMS, get_ruleset
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db

LONG_NAME = "W" * 100
LONG_WEAPON = "Z" * 60
WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)


def placed_words(pdf: bytes) -> tuple[float, list[list[tuple]]]:
    """The page width, and each page's words as (left, top, right, bottom, text)."""
    xml = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    width = float(re.search(r'<page width="([\d.]+)"', xml).group(1))
    pages = [
        [(float(a), float(b), float(c), float(d), text) for a, b, c, d, text in WORD.findall(page)]
        for page in xml.split("<page ")[1:]
    ]
    return width, pages


def typed(word: tuple) -> bool:
    """A piece of the long name or weapon name (a line of it, however short)."""
    return set(word[4]) in ({"W"}, {"Z"})


def overlap(a: tuple, b: tuple) -> bool:
    # Half a point of slack: glyph boxes of neighbouring words may touch.
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_long_name_and_weapon_stay_on_the_page_and_off_the_labels(player_client, player, system):
    character = character_create(
        owner=player, name=LONG_NAME, system=system, sheet=get_ruleset(system).demo_sheet()
    )
    character = character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"weapon.0.name": LONG_WEAPON},
        expected_version=character.version,
    )
    response = player_client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    width, pages = placed_words(response.content)
    words = [word for page in pages for word in page]
    pieces = [w for w in words if typed(w)]
    # Both were printed, in full, broken over lines as need be.
    assert sum(len(w[4]) for w in pieces if w[4][0] == "W") >= len(LONG_NAME)
    assert sum(len(w[4]) for w in pieces if w[4][0] == "Z") >= len(LONG_WEAPON)
    assert [w[4][:12] for w in words if w[2] > width or w[0] < 0] == []
    for page in pages:
        mine = [w for w in page if typed(w)]
        others = [w for w in page if not typed(w)]
        assert [(a[4][:12], b[4]) for a in mine for b in others if overlap(a, b)] == []
