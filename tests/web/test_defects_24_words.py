"""Issue 24, defect 9: words meant for implementers (seed lines, digest sections, "not in
either seed", a form's raw value) never reach the sentences a player reads. Source lines
stay in the data and show as a tooltip (a title attribute), never in the text."""

from __future__ import annotations

import html
import re
import subprocess

import pytest
from django.urls import reverse

from rulesets.registry import SYSTEMS, get_ruleset
from sheets.characters.models import Character
from sheets.characters.services import EditRefused, character_apply_edits, character_create

pytestmark = pytest.mark.django_db

# A seed line ("000:L100", "003:913", "L302"), a digest section, the seeds themselves, a
# form's raw value with its separators.
IMPLEMENTERS = re.compile(
    r"\b\d{3}:L?\d+|\bL\d{2,}\b|digest|§|\bseeds?\b|not in either|\|\|", re.IGNORECASE
)


def visible_text(page: str) -> str:
    """The words a reader sees: no markup, no attribute values (a title is a tooltip)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


def pdf_text(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()


def implementer_words(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if IMPLEMENTERS.search(line)]


def edit(user, character: Character, **edits: str) -> Character:
    return character_apply_edits(
        user=user,
        character_id=character.pk,
        edits=edits,
        expected_version=Character.objects.get(pk=character.pk).version,
    )


def pages_of(client, character: Character) -> dict[str, str]:
    return {
        "sheet": visible_text(
            client.get(reverse("character_sheet", args=[character.pk])).content.decode()
        ),
        "pdf": pdf_text(client.get(reverse("character_pdf", args=[character.pk])).content),
        "history": visible_text(
            client.get(reverse("character_history", args=[character.pk])).content.decode()
        ),
    }


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_no_sheet_pdf_or_history_of_any_system_speaks_of_seeds_or_source_lines(
    player_client, player, system
):
    ruleset = get_ruleset(system)
    blank = character_create(owner=player, name="Blank", system=system)
    demo = character_create(owner=player, name="Demo", system=system, sheet=ruleset.demo_sheet())
    found = {}
    for character in (blank, demo):
        for where, text in pages_of(player_client, character).items():
            found |= {f"{character.name} {where}: {line}": 1 for line in implementer_words(text)}
        try:
            edit(player, character, stage="play")
        except EditRefused:
            continue
        for where, text in pages_of(player_client, character).items():
            found |= {
                f"{character.name} in play {where}: {line}": 1 for line in implementer_words(text)
            }
    assert not found, "\n".join(found)


def test_a_weg_cap_the_gm_sets_is_said_in_a_players_words_with_its_source_as_a_tooltip(
    player_client, player
):
    character = character_create(owner=player, name="Overspent", system="weg_d6")
    edit(player, character, **{"skill.blaster": "+3D"})
    page = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    text = visible_text(page)
    assert "a reading the GM may change" in text
    assert not implementer_words(text)
    # The source line stays, where a pointer shows it.
    assert 'title="Source: GM setting; not in either seed' in page


def test_a_new_merit_reads_in_history_by_its_name_not_the_forms_value(player_client, player):
    character = character_create(owner=player, name="Kira", system="swd10")
    edit(player, character, **{"merit.add": "attentive||"})
    history = visible_text(
        player_client.get(reverse("character_history", args=[character.pk])).content.decode()
    )
    assert "Attentive added" in history
    assert "attentive||" not in history and "New merit or flaw →" not in history
