"""A file's history and ledger, bent out of shape, posted to the import form as a browser
posts it: each is refused with a message naming the part at fault, nothing is stored, and
what is accepted opens (its page, history, diff, restore and export) without a server
error. Run on SQLite and on PostgreSQL (DATABASE_URL), which refuse different things."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.history.models import Revision
from sheets.transfer.datapad import export_character

pytestmark = pytest.mark.django_db


def _played(owner, system: str) -> Character:
    """A character of `system` with a history: created, then renamed twice."""
    character = character_create(
        owner=owner, name="Kel Varo", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    for name in ("Kel Varo the Bold", "Kel Varo of Dantooine"):
        character = character_apply_edits(
            user=owner,
            character_id=character.pk,
            edits={"character.name": name},
            expected_version=character.version,
        )
    return Character.objects.get(pk=character.pk)


def _post(client, data: dict):
    # json.dumps writes a lone surrogate as the escape "\ud800", as another tool would.
    upload = SimpleUploadedFile(
        "hostile.datapad.json", json.dumps(data).encode(), "application/json"
    )
    return client.post(reverse("character_import"), {"file": upload})


def _stored() -> tuple:
    return (
        list(Character.objects.order_by("pk").values_list("pk", "version", "sheet")),
        list(Revision.objects.order_by("pk").values_list("pk", "ops")),
        list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount")),
    )


def _error(response) -> str:
    return unescape(response.content.decode())


# A key the schema fills by default -------------------------------------------------------

# A part of each system's sheet that validation fills in when a file leaves it out, and
# that the engine reads when it lists the sheet's rows.
FILLED_BY_DEFAULT = [("weg_d6", "gear"), ("swd10", "merits"), ("o3d10", "info"), ("ore", "info")]


@pytest.mark.parametrize(("system", "key"), FILLED_BY_DEFAULT)
def test_a_file_leaving_out_what_the_schema_fills_in_imports_and_its_history_opens(
    client, player, system, key
):
    data = export_character(_played(player, system))
    del data["sheet"][key]
    client.force_login(player)
    response = _post(client, data)
    assert response.status_code == 302, _error(response)[:2000]
    imported = Character.objects.latest("pk")
    assert key in imported.sheet
    last = imported.version
    for url, query in [
        (reverse("character_sheet", args=[imported.pk]), {}),
        (reverse("character_history", args=[imported.pk]), {}),
        (reverse("character_history_diff", args=[imported.pk]), {"from": "1", "to": str(last)}),
        (reverse("character_history_diff", args=[imported.pk]), {"from": "2", "to": "3"}),
        (reverse("character_history_restore", args=[imported.pk, 1]), {}),
        (reverse("character_export", args=[imported.pk]), {}),
    ]:
        assert client.get(url, query).status_code == 200, url
    diff = client.get(
        reverse("character_history_diff", args=[imported.pk]), {"from": "1", "to": "3"}
    )
    assert "Kel Varo of Dantooine" in _error(diff)


# Hostile values in the history and the ledger --------------------------------------------


def _op(data: dict, number: int = 2) -> dict:
    """The first operation of the file's revision `number` (a rename)."""
    return data["history"][number - 1]["ops"][0]


def _in_ledger(field: str, value: object) -> Callable[[dict], None]:
    return lambda data: data["ledger"][-1].update({field: value})


HOSTILE: dict[str, tuple[Callable[[dict], None], str]] = {
    "a NUL in a value an operation sets": (
        lambda data: _op(data).update(after="Kel\x00Varo"),
        "history revision 2: ops.1.after: text holds a character that cannot be stored",
    ),
    "a lone surrogate in a value an operation sets": (
        lambda data: _op(data).update(before="Kel \ud800"),
        "history revision 2: ops.1.before: text holds a character that cannot be stored",
    ),
    "a lone surrogate in a key inside a value": (
        lambda data: _op(data, 1).update(after={"\udfff": 1}),
        "history revision 1: ops.1.after: text holds a character that cannot be stored",
    ),
    "a NUL in a step of a path": (
        lambda data: _op(data).update(path=["sheet", "info\x00"]),
        "history revision 2: ops.1.path: text holds a character that cannot be stored",
    ),
    "an op that is a list": (
        lambda data: _op(data).update(op=["set"]),
        "history revision 2: ops.1.op: expected one of set, insert, remove",
    ),
    "an op that is an object": (
        lambda data: _op(data).update(op={"set": 1}),
        "history revision 2: ops.1.op: expected one of set, insert, remove",
    ),
    "a path that is text": (
        lambda data: _op(data).update(path="name"),
        "history revision 2: ops.1.path: expected a list",
    ),
    "a path from an unknown root": (
        lambda data: _op(data).update(path=["secrets", "x"]),
        "history revision 2: ops.1.path: expected a path starting at name",
    ),
    "an operation that is a list": (
        lambda data: data["history"][1]["ops"].insert(0, ["set", "name"]),
        "history revision 2: ops.1: expected an object",
    ),
    "a revision that is text": (
        lambda data: data["history"].insert(1, "v2"),
        "history revision 2: expected an object",
    ),
    "a version that is text": (
        lambda data: data["history"][1].update(version="2"),
        "history revision 2: version: expected a whole number",
    ),
    "an author with a NUL": (
        lambda data: data["history"][1].update(author="lu\x00ke"),
        "history revision 2: author: text holds a character that cannot be stored",
    ),
    "an author that is a number": (
        lambda data: data["history"][1].update(author=7),
        "history revision 2: author: expected text",
    ),
    "a date with no offset": (
        lambda data: data["history"][1].update(created_at="2026-11-22T10:00:00"),
        "history revision 2: created_at: expected a date and time with its offset",
    ),
    "a date that cannot be said in UTC": (
        lambda data: data["history"][1].update(created_at="0001-01-01T00:00:00+05:00"),
        "history revision 2: created_at: expected a date and time with its offset",
    ),
    "a date that does not exist": (
        lambda data: data["history"][1].update(created_at="2026-02-30T10:00:00+00:00"),
        "history revision 2: created_at: expected a date and time with its offset",
    ),
    "a change line with a surrogate": (
        lambda data: data["history"][1].update(changes=[["Name", "\ud800", "x"]]),
        "history revision 2: changes.1: text holds a character that cannot be stored",
    ),
    "a history leading back to a name that is a list": (
        lambda data: _op(data).update(before=["Kel", "Varo"]),
        "leads back to a version 1 where its name is not text of 1 to 100 characters",
    ),
    "a history leading back to an empty name": (
        lambda data: _op(data).update(before="  "),
        "leads back to a version 1 where its name is not text of 1 to 100 characters",
    ),
    "a history leading back to readings that are a number": (
        lambda data: data["history"][1]["ops"].append(
            {"op": "set", "path": ["settings"], "before": 5, "after": {}}
        ),
        "leads back to a version 1 where its rule readings are not an object",
    ),
    "a ledger entry that undoes an object": (
        _in_ledger("undoes", {"id": 1}),
        "ledger entry 3: undoes: expected the id of an earlier entry, or null",
    ),
    "a ledger entry that undoes a list": (
        _in_ledger("undoes", [1]),
        "ledger entry 3: undoes: expected the id of an earlier entry, or null",
    ),
    "a ledger entry whose id is an object": (
        _in_ledger("id", {"n": 3}),
        "ledger entry 3: id: expected a whole number",
    ),
    "a ledger entry whose kind is a list": (
        _in_ledger("kind", ["award"]),
        "ledger entry 3: kind: expected one of",
    ),
    "a ledger author with a lone surrogate": (
        _in_ledger("author", "\udc00"),
        "ledger entry 3: author: text holds a character that cannot be stored",
    ),
    "a ledger reason with a NUL": (
        _in_ledger("reason", "Session\x00"),
        "ledger entry 3: reason: text holds a character that cannot be stored",
    ),
    "a ledger date that cannot be said in UTC": (
        _in_ledger("created_at", "9999-12-31T23:59:59-05:00"),
        "ledger entry 3: created_at: expected a date and time",
    ),
    "a ledger flag that is text": (
        _in_ledger("carried", "yes"),
        "ledger entry 3: carried: expected true or false",
    ),
    "a ledger entry that is a number": (
        lambda data: data["ledger"].append(4),
        "ledger entry 4: expected an object",
    ),
}


@pytest.fixture
def file_with_ledger(player) -> dict:
    """A SWd10 file with a history and a ledger: an award, a purchase and its undo."""
    character = _played(player, "swd10")
    if character.sheet["stage"] != "play":
        character = character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"stage": "play"},
            expected_version=character.version,
        )
    ledger.award(user=player, character_id=character.pk, amount="40", reason="Session 1")
    bought = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="willpower",
        expected_version=Character.objects.get(pk=character.pk).version,
    )
    ledger.undo(
        user=player,
        character_id=character.pk,
        entry_id=bought.pk,
        expected_version=Character.objects.get(pk=character.pk).version,
    )
    data = export_character(Character.objects.get(pk=character.pk))
    assert [entry["kind"] for entry in data["ledger"]] == ["award", "purchase", "refund"]
    return data


def test_the_untampered_file_with_a_history_and_a_ledger_imports(client, player, file_with_ledger):
    client.force_login(player)
    response = _post(client, file_with_ledger)
    assert response.status_code == 302
    imported = Character.objects.latest("pk")
    assert imported.ledger.count() == 3
    assert client.get(reverse("character_export", args=[imported.pk])).status_code == 200


@pytest.mark.parametrize(("change", "message"), HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_history_or_ledger_is_refused_by_name_and_nothing_is_stored(
    client, player, file_with_ledger, change, message
):
    data = copy.deepcopy(file_with_ledger)
    change(data)
    client.force_login(player)
    stored = _stored()
    response = _post(client, data)
    assert response.status_code == 400
    assert message in _error(response)
    assert _stored() == stored
