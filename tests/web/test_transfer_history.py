"""Character files of schema version 2 carry the ledger and the history; version 1 still
imports; every list a player can fill up to its cap exports and imports again."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.core.edits import InvalidEdit
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import EditRefused, character_apply_edits, character_create
from sheets.history.revisions import state_at
from sheets.transfer.datapad import ImportRefused, export_character, import_character

pytestmark = pytest.mark.django_db
V1_FILES = Path(__file__).resolve().parents[1] / "fixtures" / "character_files_v1"


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _file(character: Character) -> bytes:
    return json.dumps(export_character(_fresh(character))).encode()


@pytest.mark.parametrize("key", ["swd10", "ore", "weg_d6", "o3d10"])
def test_a_file_of_schema_version_1_still_imports(player, key):
    raw = (V1_FILES / f"{key}.datapad.json").read_bytes()
    assert json.loads(raw)["schema_version"] == 1
    character = import_character(owner=player, raw=raw)
    assert character.version == 1
    assert [r.summary for r in character.revisions.all()] == ["Imported from a file"]
    assert not character.ledger.exists()
    ruleset = get_ruleset(key)
    assert ruleset.validate_sheet(character.sheet) == character.sheet


@pytest.fixture
def played(player) -> Character:
    """A SWd10 hero in play: awarded, two purchases, one undone, then renamed."""
    character = character_create(
        owner=player, name="Hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    if character.sheet["stage"] != "play":
        character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"stage": "play"},
            expected_version=character.version,
        )
    ledger.award(user=player, character_id=character.pk, amount="60", reason="Session 1")
    bought = []
    for _ in range(2):
        quotes = [q for q in ledger.quotes(_fresh(character)) if q.trait not in bought]
        quote = min(quotes, key=lambda q: (q.cost.amount, q.trait))
        entry = ledger.purchase(
            user=player,
            character_id=character.pk,
            trait=quote.trait,
            expected_version=_fresh(character).version,
        )
        bought.append(entry.trait)
    first = LedgerEntry.objects.filter(character=character, kind="purchase").order_by("pk")[0]
    ledger.undo(
        user=player,
        character_id=character.pk,
        entry_id=first.pk,
        expected_version=_fresh(character).version,
    )
    character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"character.name": "Hero of Tython"},
        expected_version=_fresh(character).version,
    )
    return _fresh(character)


def _entries(character: Character) -> list[tuple]:
    return [
        (e.kind, e.amount, e.unit, e.trait, e.from_value, e.to_value, e.reason, e.created_at)
        for e in character.ledger.order_by("pk")
    ]


def test_an_export_carries_the_ledger_and_every_revision(played):
    data = export_character(played)
    assert data["schema_version"] == 2
    kinds = [entry["kind"] for entry in data["ledger"]]
    assert kinds.count("purchase") == 2 and "refund" in kinds
    refund = next(entry for entry in data["ledger"] if entry["kind"] == "refund")
    undone = next(entry for entry in data["ledger"] if entry["id"] == refund["undoes"])
    assert undone["kind"] == "purchase"
    assert [r["version"] for r in data["history"]] == list(
        played.revisions.order_by("version").values_list("version", flat=True)
    )
    assert data["history"][-1]["changes"] == [["Name", "Hero", "Hero of Tython"]]


def test_an_imported_file_keeps_the_ledger_the_history_and_every_version(played, player, client):
    copy_of = import_character(owner=player, raw=_file(played))
    assert copy_of.sheet == played.sheet and copy_of.name == played.name
    assert _entries(copy_of) == _entries(played)
    assert figures(copy_of).balance == figures(played).balance
    refund = copy_of.ledger.get(kind="refund")
    assert refund.undoes.kind == "purchase" and refund.undoes.character == copy_of
    # Every version of the original is a version of the copy, and one more says who
    # imported it.
    assert copy_of.version == played.version + 1
    for version in range(1, played.version + 1):
        assert state_at(copy_of, version)["sheet"] == state_at(played, version)["sheet"]
    top = copy_of.revisions.first()
    assert (top.summary, top.author) == ("Imported from a file", player)
    older = copy_of.revisions.get(version=played.version)
    assert older.author is None and older.who == "luke (from a file)"
    client.force_login(player)
    diff = client.get(
        reverse("character_history_diff", args=[copy_of.pk]),
        {"from": "1", "to": str(played.version)},
    )
    assert diff.status_code == 200 and "Hero of Tython" in diff.content.decode()


def _tampered(played: Character, change) -> bytes:
    data = export_character(played)
    change(data)
    return json.dumps(data).encode()


def _break_an_insert(data):
    for revision in data["history"]:
        for op in revision["ops"]:
            if op["op"] == "set" and "before" in op and op["path"][0] == "sheet":
                op["path"] = ["sheet", "merits", 999]
                op["op"], op["value"] = "remove", op.pop("before")
                op.pop("after", None)
                return


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_break_an_insert, "does not lead back from its sheet"),
        (lambda d: d["history"][1].update(version=1), "“version” must be a whole number"),
        (lambda d: d["history"][0].update(ops=[{"op": "zap", "path": ["x"]}]), "one of set"),
        (lambda d: d["history"][0].update(ops="all"), "ops: expected a list"),
        (lambda d: d["ledger"][0].update(kind="gift"), "kind: expected one of"),
        (lambda d: d["ledger"][-1].update(undoes=99), "undoes an entry that is not earlier"),
        (lambda d: d["ledger"][0].update(amount=-5000), "spends more than it was given"),
        (lambda d: d["ledger"][0].update(created_at="yesterday"), "date and time"),
        (lambda d: d["ledger"][0].update(reason="a\x00b"), "cannot be stored"),
        (lambda d: d.update(adventure=0), "“adventure” must be a whole number"),
    ],
)
def test_a_broken_ledger_or_history_is_refused_and_creates_nothing(played, player, change, message):
    before = Character.objects.count()
    with pytest.raises(ImportRefused, match=message):
        import_character(owner=player, raw=_tampered(played, change))
    assert Character.objects.count() == before


# Caps: what edits can make, import takes back ----------------------------------------------

# (system, the edit that adds a row, its raw value for row n, where the rows are)
GROWING_LISTS = [
    ("swd10", "language.add", "Tongue {n}", ("languages",)),
    ("swd10", "weapon.add", "Blaster {n}", ("weapons",)),
    ("ore", "skill.add", "Pazaak {n}|brains", ("skills",)),
    ("weg_d6", "skill.add", "Pazaak {n}|DEX", ("custom_skills",)),
    ("weg_d6", "spec.add", "Dodging {n}|dodge", ("specializations",)),
    ("o3d10", "weapon.add", "Blade {n}|melee|1d8", ("weapons",)),
    ("o3d10", "armor.add", "Vest {n}|1", ("armor",)),
    ("o3d10", "skill.add", "Pazaak {n}", ("custom_skills",)),
]


def _rows(sheet: dict, where: tuple[str, ...]):
    for step in where:
        sheet = sheet[step]
    return sheet


@pytest.mark.parametrize(("system", "trait", "raw", "where"), GROWING_LISTS)
def test_a_list_filled_to_its_cap_exports_and_imports_and_grows_no_further(
    player, system, trait, raw, where
):
    ruleset = get_ruleset(system)
    settings = resolve_settings(ruleset.SETTINGS, {})
    sheet = ruleset.blank_sheet(settings)
    refused = None
    for n in range(2000):
        try:
            grown = ruleset.apply_edit(sheet, trait, raw.format(n=n), settings)
        except InvalidEdit as error:
            refused = error.message
            break
        if len(_rows(grown, where)) == len(_rows(sheet, where)):
            break
        sheet = grown
    made = len(_rows(sheet, where))
    assert made > 1
    character = character_create(owner=player, name="Full", system=system, sheet=sheet)
    # The player's own export imports again, at whatever size edits let the list reach.
    imported = import_character(owner=player, raw=_file(character))
    assert imported.sheet == character.sheet
    # One more row through the write path is refused with the cap, and nothing changes.
    before = copy.deepcopy(_fresh(character).sheet)
    with pytest.raises(EditRefused) as one_more:
        character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={trait: raw.format(n=made + 5000)},
            expected_version=character.version,
        )
    message = one_more.value.errors[trait]
    assert f"at most {made}" in message or (refused and message == refused), message
    assert _fresh(character).sheet == before
