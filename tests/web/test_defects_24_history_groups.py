"""Issue 24, defect 21: the history list gathers a person's consecutive edits, each within a
few minutes of the last, into one entry that opens to its versions; every revision stays,
and each version keeps its diff and restore. The list pages by groups, 25 to a page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.history.models import Revision

pytestmark = pytest.mark.django_db

ABILITIES = ("stealth", "dodge", "brawl", "survival", "athletics", "melee", "empathy")


def clicks(user, character: Character, count: int) -> Character:
    """`count` edits, one per click, the way a build goes (each changes a value)."""
    for number in range(character.version - 1, character.version - 1 + count):
        character = character_apply_edits(
            user=user,
            character_id=character.pk,
            edits={f"abil.{ABILITIES[number % 7]}": str(number // 7 % 3 + 1)},
            expected_version=character.version,
        )
    return character


def later(character: Character, from_version: int, minutes: int) -> None:
    """Move versions from `from_version` on `minutes` later, as a later sitting."""
    for revision in Revision.objects.filter(character=character, version__gte=from_version):
        revision.created_at += timedelta(minutes=minutes)
        revision.save(update_fields=["created_at"])


def history(client, character: Character, **query: str) -> str:
    response = client.get(reverse("character_history", args=[character.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def groups(page: str) -> list[str]:
    return re.findall(r'<tbody class="history-group" id="group-(\d+)"', page)


def test_a_build_of_many_clicks_reads_as_a_few_entries_and_keeps_every_version(
    player_client, player
):
    character = clicks(player, character_create(owner=player, name="Kira", system="swd10"), 37)
    assert Revision.objects.filter(character=character).count() == 38
    page = history(player_client, character)
    # Two entries (a group gathers 25 versions at most), not 38 lines.
    assert groups(page) == ["26", "1"]
    assert "26–38" in page and "1–25" in page
    assert 'id="version-' not in page  # closed until asked


def test_an_opened_group_lists_each_version_with_its_diff_and_restore(player_client, player):
    character = clicks(player, character_create(owner=player, name="Kira", system="swd10"), 5)
    page = history(player_client, character, open="1")
    for version in range(1, 7):
        assert f'id="version-{version}"' in page
    for version in range(2, 7):
        diff = reverse("character_history_diff", args=[character.pk])
        assert f"{diff}?from={version - 1}&amp;to={version}" in page
    for version in range(1, 6):
        restore = reverse("character_history_restore", args=[character.pk, version])
        assert f'href="{restore}"' in page
        assert player_client.get(restore).status_code == 200
    # The group's own diff spans it whole.
    diff = reverse("character_history_diff", args=[character.pk])
    assert "1–6" in page and f"{diff}?from=" not in page.split('id="version-')[0]


def test_another_persons_edit_or_a_pause_starts_a_new_entry(player_client, player, gm):
    character = clicks(player, character_create(owner=player, name="Kira", system="swd10"), 8)
    # Version 4 written by someone else (a GM at the table), version 7 after a pause.
    Revision.objects.filter(character=character, version=4).update(author=gm)
    later(character, 7, 30)
    page = history(player_client, character)
    assert groups(page) == ["7", "5", "4", "1"]
    assert "gm_yoda" in page


def test_the_list_pages_by_groups_twenty_five_to_a_page(player_client, player):
    character = character_create(owner=player, name="Kira", system="swd10")
    sittings = 30
    for sitting in range(sittings):
        first = character.version + 1
        character = clicks(player, character, 1)
        later(character, first, 10 * (sitting + 1))
    page_one = history(player_client, character)
    assert len(groups(page_one)) == 25 and "Page 1 of 2" in page_one
    page_two = history(player_client, character, page="2")
    # 30 sittings and the creation: 31 groups.
    assert len(groups(page_two)) == 6 and "Page 2 of 2" in page_two
    assert groups(page_two)[-1] == "1"
    # Not a page: the nearest one, never an error.
    assert len(groups(history(player_client, character, page="nine"))) == 25
