"""Issue 24, defect 17: a restore that changes nothing writes nothing and says so, and a
restore back to exactly what the GM approved leaves the sheet approved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_approve
from sheets.history.models import Revision
from sheets.history.services import NothingToRestore, character_restore

pytestmark = pytest.mark.django_db


def fresh(character: Character) -> Character:
    return Character.objects.select_related("campaign").get(pk=character.pk)


def edit(user, character: Character, **edits: str) -> Character:
    return character_apply_edits(
        user=user, character_id=character.pk, edits=edits, expected_version=fresh(character).version
    )


def test_confirming_a_restore_again_after_back_writes_no_empty_revision(player, client):
    character = edit(player, _solo(player), **{"attr.dexterity": "2"})
    edit(player, character, **{"attr.dexterity": "3"})
    client.force_login(player)
    url = reverse("character_history_restore", args=[character.pk, 1])
    confirm = {"version": str(fresh(character).version)}
    assert client.post(url, confirm).status_code == 302
    written = Revision.objects.filter(character=character).count()
    version = fresh(character).version

    # Back, then the same confirmation once more: the page it came from is now stale.
    again = client.post(url, confirm, follow=True)
    assert again.status_code == 200
    assert "already stands as version 1 left it: nothing was written" in again.content.decode()
    assert Revision.objects.filter(character=character).count() == written
    assert fresh(character).version == version


def test_restoring_a_version_the_sheet_already_matches_is_offered_as_nothing_to_do(player, client):
    character = edit(player, _solo(player), **{"attr.dexterity": "2"})
    edit(player, character, **{"attr.dexterity": "1"})  # back as version 1 had it
    client.force_login(player)
    page = client.get(reverse("character_history_restore", args=[character.pk, 1]))
    text = page.content.decode()
    assert "restoring it would change nothing" in text
    assert "Yes, restore version 1" not in text
    with pytest.raises(NothingToRestore):
        character_restore(user=player, character_id=character.pk, version=1, expected_version=3)
    assert fresh(character).version == 3


def test_restoring_exactly_the_approved_sheet_is_not_changed_since_approval(
    player, gm, table, swd10_character
):
    character = fresh(swd10_character)
    approved_at = character.version
    character_approve(user=gm, character_id=character.pk, version=approved_at)
    edit(player, character, **{"attr.dexterity": "2"})
    assert fresh(character).changed_since_approval

    character_restore(
        user=player,
        character_id=character.pk,
        version=approved_at,
        expected_version=fresh(character).version,
    )
    restored = fresh(character)
    assert restored.version == approved_at + 2
    assert not restored.changed_since_approval
    assert restored.review_label == "Approved"


def test_restoring_something_other_than_the_approved_sheet_stays_changed_since_approval(
    player, gm, table, swd10_character
):
    character = fresh(swd10_character)
    character_approve(user=gm, character_id=character.pk, version=character.version)
    edit(player, character, **{"attr.dexterity": "2"})
    between = fresh(character).version
    edit(player, character, **{"attr.strength": "2"})
    character_restore(
        user=player,
        character_id=character.pk,
        version=between,
        expected_version=fresh(character).version,
    )
    assert fresh(character).changed_since_approval


def _solo(player) -> Character:
    from sheets.characters.services import character_create

    return character_create(owner=player, name="Kira Dane", system="swd10")
