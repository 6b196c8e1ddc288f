"""History: compact revisions, the paged list in words, the diff, and restore."""

from __future__ import annotations

import copy
import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.characters.models import Character
from sheets.characters.services import (
    StaleVersion,
    character_apply_edits,
    character_create,
)
from sheets.history.models import Revision
from sheets.history.revisions import (
    apply_ops,
    changes_between,
    diff_ops,
    revert_ops,
    state_at,
    touched_paths,
)
from sheets.history.services import NothingToRestore, RestoreRefused, character_restore

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _edit(user, character: Character, **edits: str) -> Character:
    return character_apply_edits(
        user=user,
        character_id=character.pk,
        edits=edits,
        expected_version=_fresh(character).version,
    )


def _stored_size(character: Character) -> int:
    """The bytes a sheet's revisions keep, as JSON: operations, words and summary."""
    return sum(
        len(json.dumps(ops)) + len(json.dumps(changes)) + len(summary.encode())
        for ops, changes, summary in Revision.objects.filter(character=character).values_list(
            "ops", "changes", "summary"
        )
    )


# Operations, for any two JSON documents ----------------------------------------------------

json_leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["", "a", "b"])
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(["x", "y", "z"]), inner, max_size=3)
    ),
    max_leaves=20,
)
documents = st.dictionaries(st.sampled_from(["name", "settings", "sheet"]), json_value)


@settings(max_examples=300, deadline=None)
@given(documents, documents)
def test_operations_lead_forwards_and_back_between_any_two_versions(before, after):
    ops = diff_ops(before, after)
    forwards = copy.deepcopy(before)
    apply_ops(forwards, ops)
    assert forwards == after
    backwards = copy.deepcopy(after)
    revert_ops(backwards, ops)
    assert backwards == before
    # Merging concurrent edits sees at least the paths it saw before operations existed
    # (and a key that appears holding null, which the old pairs could not tell).
    assert set(changes_between(before, after)[1]) <= touched_paths(ops)


def test_adding_a_row_stores_that_row_and_never_the_list(player):
    character = character_create(owner=player, name="Ashla", system="ore")
    for number in range(3):
        _edit(player, character, **{"skill.add": f"Pazaak {number}|brains"})
    revision = _fresh(character).revisions.first()
    assert revision.ops == [
        {
            "op": "insert",
            "path": ["sheet", "skills", len(_fresh(character).sheet["skills"]) - 1],
            "value": _fresh(character).sheet["skills"][-1],
        }
    ]
    _edit(player, character, **{"skill.pazaak_1.remove": ""})
    removed = _fresh(character).revisions.first()
    assert [op["op"] for op in removed.ops] == ["remove"]
    assert removed.ops[0]["value"]["name"] == "Pazaak 1"


def test_every_version_is_rebuilt_from_the_revisions(player):
    character = character_create(owner=player, name="Ashla", system="ore")
    seen = {1: copy.deepcopy(_fresh(character).sheet)}
    for step, edits in enumerate(
        [
            {"skill.add": "Pazaak|brains"},
            {"character.name": "Ashla Vey"},
            {"skill.add": "Sabacc|brains"},
            {"skill.pazaak.remove": ""},
            {"stat.body": "3"},
        ],
        start=2,
    ):
        _edit(player, character, **edits)
        seen[step] = copy.deepcopy(_fresh(character).sheet)
    character = _fresh(character)
    for version, sheet in seen.items():
        assert state_at(character, version)["sheet"] == sheet
    assert state_at(character, 2)["name"] == "Ashla"


# The size bound ----------------------------------------------------------------------------

ROW_EDITS = 1000
WEAPON_ROWS = 30  # the 1o3d10 sheet's cap


def test_a_thousand_row_edits_keep_the_revisions_small_and_the_page_light(player, client):
    """1,000 edits that add (and remove) weapon rows of a full list: under 2 MB in all.

    The old before/after pairs stored the whole list twice per edit: 30 rows with long
    names are some 12 KB a revision, 12 MB for these edits.
    """
    character = character_create(owner=player, name="Ashla", system="o3d10")
    for number in range(ROW_EDITS):
        if len(_fresh(character).sheet["weapons"]) < WEAPON_ROWS:
            name = f"Heavy repeating blaster, model {number:04d} " + "x" * 150
            _edit(player, character, **{"weapon.add": f"{name}|ranged|1d8"})
        else:
            _edit(player, character, **{"weapon.remove": str(number % WEAPON_ROWS)})
    character = _fresh(character)
    assert character.revisions.count() == ROW_EDITS + 1
    list_size = len(json.dumps(character.sheet["weapons"]))
    assert list_size > 5000  # what each old revision stored twice
    assert _stored_size(character) < 2 * 1024 * 1024
    client.force_login(player)
    page = client.get(reverse("character_history", args=[character.pk]))
    assert page.status_code == 200
    assert len(page.content) < 200 * 1024
    pages = -(-(ROW_EDITS + 1) // 25)
    # The page past the last shows the last; its oldest group opened shows the creation.
    last = client.get(
        reverse("character_history", args=[character.pk]), {"page": str(pages), "open": "1"}
    )
    assert len(last.content) < 200 * 1024 and "Created" in last.content.decode()


# The history page --------------------------------------------------------------------------


def test_the_history_says_what_changed_in_the_words_of_the_sheet(player, client):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    _edit(player, character, **{"attr.dexterity": "2"})
    _edit(player, character, **{"merit.add": "ambidextrous"})
    client.force_login(player)
    text = client.get(reverse("character_history", args=[character.pk])).content.decode()
    assert "Dexterity: 1 → 2" in text
    assert "added Ambidextrous: 1 point" in text
    assert "luke" in text
    # Never a stored path or a raw row.
    assert "attributes.dexterity" not in text and "{&#x27;slug&#x27;" not in text


def test_the_history_is_paged_newest_first(player, client):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    for value in range(1, 5):
        for ability in ("stealth", "dodge", "brawl", "survival", "athletics", "melee", "empathy"):
            _edit(player, character, **{f"abil.{ability}": str(value)})
    total = _fresh(character).version
    assert total > 25
    # Each edit a sitting of its own (consecutive edits within minutes read as one entry).
    for revision in Revision.objects.filter(character=character):
        revision.created_at += timedelta(minutes=10 * revision.version)
        revision.save(update_fields=["created_at"])
    client.force_login(player)
    url = reverse("character_history", args=[character.pk])
    first = client.get(url).content.decode()
    assert f'id="version-{total}"' in first and f'id="version-{total - 24}"' in first
    assert f'id="version-{total - 25}"' not in first and "Page 1 of 2" in first
    second = client.get(url, {"page": "2"}).content.decode()
    assert f'id="version-{total - 25}"' in second and 'id="version-1"' in second
    # A page that is no page shows the nearest one rather than an error.
    assert client.get(url, {"page": "nine"}).status_code == 200


# The diff ----------------------------------------------------------------------------------


def test_the_diff_lists_each_field_between_two_versions(player, client):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    _edit(player, character, **{"attr.dexterity": "2"})
    _edit(player, character, **{"character.name": "Kira Vel"})
    _edit(player, character, **{"merit.add": "ambidextrous"})
    client.force_login(player)
    url = reverse("character_history_diff", args=[character.pk])
    response = client.get(url, {"from": "1", "to": "4"})
    # Cells read the same whatever they carry for a phone's layout (data-label, class).
    text = re.sub(r"<td [^>]*>", "<td>", response.content.decode())
    assert response.status_code == 200
    assert "<td>Dexterity</td><td>1</td><td>2</td>" in text
    assert "<td>Name</td><td>Kira Dane</td><td>Kira Vel</td>" in text
    assert "<td>Ambidextrous</td><td>(none)</td><td>1 point</td>" in text
    # Only what changed between the two: version 2 to 3 is the name alone.
    text = client.get(url, {"from": "2", "to": "3"}).content.decode()
    assert "Kira Vel" in text and "Dexterity" not in text


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"from": "x", "to": "2"}, "Versions are whole numbers"),
        ({"from": "1", "to": "99"}, "has versions 1 to 2"),
        ({"from": "0", "to": "1"}, "has versions 1 to 2"),
        ({"from": "١", "to": "2"}, "Versions are whole numbers"),
    ],
)
def test_a_diff_of_versions_that_do_not_exist_says_so(player, client, query, message):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    _edit(player, character, **{"attr.dexterity": "2"})
    client.force_login(player)
    response = client.get(reverse("character_history_diff", args=[character.pk]), query)
    assert response.status_code == 400
    assert message in response.content.decode()


# Restore -----------------------------------------------------------------------------------


def test_restoring_asks_first_then_writes_the_old_version_as_a_new_one(player, client):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    first_sheet = copy.deepcopy(character.sheet)
    _edit(player, character, **{"attr.dexterity": "2"})
    _edit(player, character, **{"merit.add": "ambidextrous"})
    client.force_login(player)
    url = reverse("character_history_restore", args=[character.pk, 1])
    confirm = client.get(url)
    text = confirm.content.decode()
    assert confirm.status_code == 200
    assert "Restore version 1" in text and "Dexterity" in text and "Ambidextrous" in text
    assert _fresh(character).version == 3  # asking changed nothing
    response = client.post(url, {"version": "3"})
    assert response.status_code == 302
    restored = _fresh(character)
    assert restored.version == 4 and restored.sheet == first_sheet
    revision = restored.revisions.first()
    assert revision.summary == "Restored version 1" and revision.author == player
    # The versions in between stay in the history.
    assert state_at(restored, 3)["sheet"]["merits"]


def test_restoring_from_a_stale_page_is_refused_and_changes_nothing(player, client):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    _edit(player, character, **{"attr.dexterity": "2"})
    _edit(player, character, **{"attr.dexterity": "3"})
    client.force_login(player)
    before = _fresh(character).sheet
    response = client.post(
        reverse("character_history_restore", args=[character.pk, 1]), {"version": "2"}
    )
    assert response.status_code == 409
    assert "changed elsewhere" in response.content.decode()
    assert _fresh(character).sheet == before and _fresh(character).version == 3
    with pytest.raises(StaleVersion):
        character_restore(user=player, character_id=character.pk, version=1, expected_version=2)


def test_a_version_of_another_character_cannot_be_restored(player, other_player, client):
    mine = character_create(owner=player, name="Kira Dane", system="swd10")
    theirs = character_create(owner=other_player, name="Mara Jade", system="swd10")
    for value in ("2", "3", "4"):
        _edit(other_player, theirs, **{"attr.dexterity": value})
    client.force_login(player)
    # Their character is not the player's to see at all.
    url = reverse("character_history_restore", args=[theirs.pk, 2])
    assert client.get(url).status_code == 404
    assert client.post(url, {"version": "4"}).status_code == 404
    # Their version 3 is no version of the player's own character.
    own = reverse("character_history_restore", args=[mine.pk, 3])
    response = client.post(own, {"version": "1"})
    assert response.status_code == 400
    assert "Kira Dane has no version 3" in response.content.decode()
    assert _fresh(mine).version == 1 and _fresh(theirs).version == 4


def test_restoring_the_current_version_is_refused(player):
    character = character_create(owner=player, name="Kira Dane", system="swd10")
    with pytest.raises(RestoreRefused, match="nothing to restore"):
        character_restore(user=player, character_id=character.pk, version=1, expected_version=1)


def test_restore_refuses_to_take_back_purchases_and_names_them(player, client):
    character = character_create(
        owner=player, name="Hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    if character.sheet["stage"] != "play":
        character = _edit(player, character, stage="play")
    ledger.award(user=player, character_id=character.pk, amount="60", reason="Session 1")
    before_purchase = _fresh(character).version
    quote = min(ledger.quotes(_fresh(character)), key=lambda q: (q.cost.amount, q.trait))
    bought = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait=quote.trait,
        expected_version=_fresh(character).version,
    )
    client.force_login(player)
    url = reverse("character_history_restore", args=[character.pk, before_purchase])
    page = client.get(url).content.decode()
    assert "undo them first" in page and bought.trait_label in page
    # Each links to its line of the ledger, where its undo button is.
    assert f"{reverse('character_ledger', args=[character.pk])}#entry-{bought.pk}" in page
    current = _fresh(character).version
    response = client.post(url, {"version": str(current)})
    assert response.status_code == 400 and "1 purchase(s)" in response.content.decode()
    assert _fresh(character).version == current
    ledger.undo(
        user=player,
        character_id=character.pk,
        entry_id=bought.pk,
        expected_version=_fresh(character).version,
    )
    # Once refunded, nothing bought stands in the way; the refund already put the sheet
    # back as it stood, so the restore has nothing left to write (and writes nothing).
    with pytest.raises(NothingToRestore, match="nothing was written"):
        character_restore(
            user=player,
            character_id=character.pk,
            version=before_purchase,
            expected_version=_fresh(character).version,
        )


def test_restore_does_not_undo_the_end_of_creation(player):
    character = character_create(
        owner=player, name="Hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    if character.sheet["stage"] == "play":
        pytest.skip("the SWd10 demo is already in play")
    _edit(player, character, stage="play")
    with pytest.raises(RestoreRefused, match="going back to creation is its own step"):
        character_restore(
            user=player,
            character_id=character.pk,
            version=1,
            expected_version=_fresh(character).version,
        )


def test_the_gm_cannot_restore_what_the_player_sets(gm, player, table, swd10_character):
    _edit(player, swd10_character, **{"attr.dexterity": "2"})
    with pytest.raises(RestoreRefused, match="values you do not set here: Dexterity"):
        character_restore(
            user=gm,
            character_id=swd10_character.pk,
            version=_fresh(swd10_character).version - 1,
            expected_version=_fresh(swd10_character).version,
        )


def test_the_write_path_refuses_a_list_grown_past_its_cap_beside_the_edit():
    """Every system's own edits stop at the cap; the write path holds any other to it."""
    from rulesets.core import InvalidEdit
    from sheets.history.revisions import enforce_caps

    ruleset = get_ruleset("ore")
    full = ruleset.demo_sheet() | {"xp_awards": [{"amount": 1, "note": ""}] * 1000}
    over = full | {"xp_awards": full["xp_awards"] + [{"amount": 1, "note": ""}]}
    enforce_caps("ore", full, full, "xp.add")
    with pytest.raises(InvalidEdit) as refused:
        enforce_caps("ore", full, over, "xp.add")
    assert refused.value.trait == "xp.add"
    assert refused.value.message == "A sheet holds at most 1000 XP awards; remove one first."
