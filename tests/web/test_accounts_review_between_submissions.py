"""The review panel shows what changed between the player's last two submissions: what the
GM asked to change, and what else moved, trait by trait."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.characters.models import Character
from sheets.characters.services import (
    character_apply_edits,
    character_approve,
    character_request_changes,
    character_submit,
)

pytestmark = pytest.mark.django_db


def edit(user, character: Character, **edits: str) -> Character:
    return character_apply_edits(
        user=user, character_id=character.pk, edits=edits, expected_version=character.version
    )


def sheet(client, character: Character) -> str:
    return client.get(reverse("character_sheet", args=[character.pk])).content.decode()


def panel(text: str) -> str:
    start = text.index('id="submission-diff"')
    return text[start : text.index("</div>", start)]


@pytest.fixture
def resubmitted(table, gm, player):
    """Kira: Strength raised, submitted (v2); the GM asks for changes; Wits raised and
    submitted again (v3)."""
    kira = table.characters.get()
    kira = edit(player, kira, **{"attr.strength": "3"})
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    character_request_changes(
        user=gm, character_id=kira.pk, version=kira.version, comment="Raise your Wits."
    )
    kira = edit(player, kira, **{"attr.wits": "2"})
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    return Character.objects.get(pk=kira.pk)


def test_the_gm_and_the_player_see_what_changed_since_the_previous_submission(
    client, gm, player, resubmitted
):
    for person in (gm, player):
        client.force_login(person)
        shown = panel(sheet(client, resubmitted))
        assert "Changed between the submissions of version 2 and version 3" in shown
        assert "<strong>Wits</strong>: <del>1</del> → <ins>2</ins>" in shown
        # Strength changed before the first submission: not part of this difference.
        assert "Strength" not in shown
        assert "?from=2&amp;to=3" in shown


def test_edits_after_the_second_submission_stay_out_of_it(client, gm, player, resubmitted):
    edit(player, resubmitted, **{"attr.dexterity": "2"})
    client.force_login(gm)
    shown = panel(sheet(client, resubmitted))
    assert "version 2 and version 3" in shown and "Dexterity" not in shown


def test_a_first_submission_or_a_decided_review_shows_no_such_difference(client, gm, player, table):
    kira = table.characters.get()
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    client.force_login(gm)
    assert 'id="submission-diff"' not in sheet(client, kira)
    character_approve(user=gm, character_id=kira.pk, version=kira.version)
    assert 'id="submission-diff"' not in sheet(client, kira)


def test_resubmitting_the_same_sheet_says_nothing_differs(client, gm, player, table):
    kira = table.characters.get()
    kira = edit(player, kira, **{"attr.strength": "3"})
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    character_request_changes(
        user=gm, character_id=kira.pk, version=kira.version, comment="Are you sure?"
    )
    kira = edit(player, kira, **{"attr.strength": "2"})
    kira = edit(player, kira, **{"attr.strength": "3"})
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    client.force_login(gm)
    shown = panel(sheet(client, kira))
    assert "version 2 and version 4" in shown
    assert "No trait differs between the two submissions." in shown
