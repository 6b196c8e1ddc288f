"""One contract for every system: the same names, signatures, files and promises.

Run over the registry, so a fifth system is checked the moment it is registered.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import inspect
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.core import InvalidEdit, InvalidSheet, resolve_settings
from rulesets.core.compendium import validate_entry
from rulesets.core.diecode import DieCode
from rulesets.core.rows import RowKind, Setter, Stage, Status, TraitRow
from rulesets.core.ruleset import CONTRACT, Ruleset
from rulesets.core.schema import json_schema
from rulesets.registry import SYSTEMS, get_ruleset

KEYS = sorted(SYSTEMS)
PACKAGE_FILES = ("__init__.py", "data.py", "sheet.py", "rules.py", "edits.py", "dice.py")
# Implementers' references that must not appear in what a player reads.
REFERENCE_MARKERS = (
    "§",
    "digest",
    " L1",
    " L2",
    " L3",
    " L4",
    " L5",
    " L6",
    " L7",
    " L8",
    " L9",
    "(L",
    "seed 00",
    "00:L",
    "01:L",
    "02:L",
    "03:L",
    "04:L",
)


def _defaults(ruleset) -> dict:
    return resolve_settings(ruleset.SETTINGS, {})


def _raw(row: TraitRow, value: int) -> str:
    return DieCode.from_pips(value).format() if row.kind is RowKind.CODE else str(value)


@pytest.mark.parametrize("key", KEYS)
def test_every_system_answers_the_whole_contract_with_the_same_signatures(key):
    ruleset = get_ruleset(key)
    assert key == ruleset.KEY
    for name in CONTRACT:
        function = getattr(ruleset, name, None)
        assert callable(function), f"{key} lacks {name}"
        expected = list(inspect.signature(getattr(Ruleset, name)).parameters)[1:]
        assert list(inspect.signature(function).parameters) == expected, f"{key}.{name}"
    for name in (
        "SETTINGS",
        "SCHEMA",
        "SCHEMA_VERSION",
        "MIGRATIONS",
        "GM_EDITS",
        "COMPENDIUM_KINDS",
    ):
        assert hasattr(ruleset, name), f"{key} lacks {name}"


@pytest.mark.parametrize("key", KEYS)
def test_names_and_summaries_live_only_in_the_registry(key):
    ruleset = get_ruleset(key)
    assert not hasattr(ruleset, "NAME")
    assert not hasattr(ruleset, "SUMMARY")
    assert SYSTEMS[key].name and SYSTEMS[key].summary


@pytest.mark.parametrize("key", KEYS)
def test_every_package_has_the_same_files_for_the_same_jobs(key):
    package = Path(importlib.import_module(SYSTEMS[key].module).__file__).parent
    for name in PACKAGE_FILES:
        assert (package / name).is_file(), f"{key} lacks {name}"


@pytest.mark.parametrize("key", KEYS)
def test_blank_and_demo_sheets_come_from_the_schema_and_validate(key):
    ruleset = get_ruleset(key)
    schema = json_schema(ruleset.SCHEMA, title=key)
    for sheet in (ruleset.blank_sheet(_defaults(ruleset)), ruleset.demo_sheet()):
        assert sheet["schema_version"] == ruleset.SCHEMA_VERSION
        assert sheet["stage"] in {Stage.CREATION, Stage.PLAY}
        assert ruleset.validate_sheet(copy.deepcopy(sheet)) == sheet
        jsonschema.validate(json.loads(json.dumps(sheet)), schema)
    assert ruleset.blank_sheet(_defaults(ruleset))["stage"] == Stage.CREATION


@pytest.mark.parametrize("key", KEYS)
def test_the_demo_sheet_is_legal_and_its_status_says_so(key):
    ruleset = get_ruleset(key)
    sheet, chosen = ruleset.demo_sheet(), _defaults(ruleset)
    report = ruleset.check(sheet, chosen)
    status = ruleset.status(sheet, chosen)
    assert isinstance(status, Status)
    assert status.legal is report.ok is True
    assert status.errors == len(report.errors) == 0
    assert status.warnings == len(report.warnings)
    assert status.stage == sheet["stage"]


def _sheets(ruleset):
    chosen = _defaults(ruleset)
    blank = ruleset.blank_sheet(chosen)
    demo = ruleset.demo_sheet()
    other_stage = Stage.PLAY if demo["stage"] == Stage.CREATION else Stage.CREATION
    return [blank, demo, ruleset.apply_edit(demo, "stage", other_stage, chosen)]


@pytest.mark.parametrize("key", KEYS)
def test_trait_rows_name_each_trait_once_in_plain_words(key):
    ruleset = get_ruleset(key)
    for sheet in _sheets(ruleset):
        rows = ruleset.trait_rows(sheet, _defaults(ruleset))
        assert rows, key
        keys = [row.key for row in rows]
        assert len(keys) == len(set(keys)), [k for k in keys if keys.count(k) > 1]
        for row in rows:
            assert isinstance(row, TraitRow)
            assert row.label and row.section
            assert isinstance(row.setter, Setter)
            for words in (row.label, row.note, row.locked):
                assert not any(marker in words for marker in REFERENCE_MARKERS), (row.key, words)
            assert ruleset.trait_label(row.key), row.key


@pytest.mark.parametrize("key", KEYS)
def test_trait_rows_and_apply_edit_agree_on_every_range(key):
    """What a row says may be set is exactly what apply_edit accepts, for every trait."""
    ruleset = get_ruleset(key)
    chosen = _defaults(ruleset)
    numeric = {RowKind.DOTS, RowKind.NUMBER, RowKind.CODE, RowKind.DICE}
    checked = 0
    for sheet in _sheets(ruleset):
        for row in ruleset.trait_rows(sheet, chosen):
            if row.locked:
                continue
            if row.kind in numeric:
                assert row.minimum is not None and row.maximum is not None, row.key
                for value in {row.minimum, row.maximum}:
                    ruleset.apply_edit(sheet, row.key, _raw(row, value), chosen)
                for value in (row.minimum - 1, row.maximum + 1):
                    with pytest.raises(InvalidEdit):
                        ruleset.apply_edit(sheet, row.key, _raw(row, value), chosen)
                checked += 1
            elif row.kind is RowKind.CHOICE:
                for value, _label in row.choices:
                    ruleset.apply_edit(sheet, row.key, value, chosen)
                with pytest.raises(InvalidEdit):
                    ruleset.apply_edit(sheet, row.key, "no such choice", chosen)
                checked += 1
            elif row.kind is RowKind.FLAG:
                for value in ("yes", "no"):
                    ruleset.apply_edit(sheet, row.key, value, chosen)
                with pytest.raises(InvalidEdit):
                    ruleset.apply_edit(sheet, row.key, "perhaps", chosen)
                checked += 1
    assert checked > 5


@pytest.mark.parametrize("key", KEYS)
def test_a_locked_row_says_why_in_plain_words(key):
    ruleset = get_ruleset(key)
    for sheet in _sheets(ruleset):
        for row in ruleset.trait_rows(sheet, _defaults(ruleset)):
            if row.locked:
                assert len(row.locked) > 8, row


@pytest.mark.parametrize("key", KEYS)
def test_next_cost_is_never_negative_and_matches_advance_cost(key):
    ruleset = get_ruleset(key)
    chosen = _defaults(ruleset)
    for sheet in _sheets(ruleset):
        for row in ruleset.trait_rows(sheet, chosen):
            if row.next_cost is not None:
                assert row.next_cost.amount >= 0, row
                assert row.next_cost.explanation


@pytest.mark.parametrize("key", KEYS)
def test_an_unknown_trait_is_refused_and_labelled_as_itself(key):
    ruleset = get_ruleset(key)
    sheet = ruleset.demo_sheet()
    with pytest.raises(InvalidEdit) as refused:
        ruleset.apply_edit(sheet, "no.such.trait", "1", _defaults(ruleset))
    assert refused.value.trait == "no.such.trait"
    assert ruleset.trait_label("no.such.trait") == "no.such.trait"


@pytest.mark.parametrize("key", KEYS)
def test_reading_a_sheet_never_changes_it(key):
    """The app hands the engines shallow copies of a stored sheet (the ledger's figures laid
    over it), so no engine function may change what it reads, however deep."""
    ruleset = get_ruleset(key)
    chosen = _defaults(ruleset)
    for sheet in _sheets(ruleset):
        before = copy.deepcopy(sheet)
        ruleset.check(sheet, chosen)
        ruleset.derived(sheet, chosen)
        ruleset.status(sheet, chosen)
        for row in ruleset.trait_rows(sheet, chosen):
            if row.next_cost is not None:
                ruleset.advance_cost(sheet, row.key, int(row.value) + 1, chosen)
        assert ruleset.rollables(sheet, chosen)
        assert sheet == before


@pytest.mark.parametrize("key", KEYS)
def test_apply_edit_never_mutates_the_sheet_it_is_given(key):
    ruleset = get_ruleset(key)
    chosen = _defaults(ruleset)
    sheet = ruleset.demo_sheet()
    before = copy.deepcopy(sheet)
    for row in ruleset.trait_rows(sheet, chosen):
        for raw in (row.shown, "1", "yes", ""):
            with contextlib.suppress(InvalidEdit):
                ruleset.apply_edit(sheet, row.key, raw, chosen)
    assert sheet == before


@pytest.mark.parametrize("key", KEYS)
def test_a_sheet_without_a_schema_version_is_upgraded(key):
    ruleset = get_ruleset(key)
    demo = ruleset.demo_sheet()
    old = {k: v for k, v in demo.items() if k != "schema_version"}
    for version in range(ruleset.SCHEMA_VERSION - 1, -1, -1):
        # Each system's own tests build sheets of each old shape; here: the version gate.
        assert version in ruleset.MIGRATIONS
    assert ruleset.validate_sheet(old)["schema_version"] == ruleset.SCHEMA_VERSION


@pytest.mark.parametrize("key", KEYS)
def test_a_sheet_from_a_future_version_is_refused(key):
    ruleset = get_ruleset(key)
    sheet = ruleset.demo_sheet() | {"schema_version": ruleset.SCHEMA_VERSION + 1}
    with pytest.raises(InvalidSheet, match="schema_version"):
        ruleset.validate_sheet(sheet)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*prefix, index))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_sheet_the_schema_accepts_fails_to_open(key, data):
    """Replace any part of a real sheet with any JSON: either the schema refuses it, or
    every question the web layer asks of the sheet is answered."""
    ruleset = get_ruleset(key)
    chosen = _defaults(ruleset)
    sheet = data.draw(st.sampled_from(_sheets(ruleset)))
    paths = [p for p in _paths(sheet) if p]
    path = data.draw(st.sampled_from(paths))
    mutated = copy.deepcopy(sheet)
    target = mutated
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = data.draw(JSON_VALUES)
    try:
        accepted = ruleset.validate_sheet(mutated)
    except InvalidSheet as refused:
        assert str(refused)
        return
    ruleset.check(accepted, chosen)
    ruleset.derived(accepted, chosen)
    ruleset.status(accepted, chosen)
    for row in ruleset.trait_rows(accepted, chosen):
        ruleset.trait_label(row.key)


OLD_SHEETS = Path(__file__).resolve().parents[1] / "fixtures" / "sheets_v0"


@pytest.mark.parametrize("which", ["blank", "demo"])
@pytest.mark.parametrize("key", KEYS)
def test_sheets_stored_before_schema_versions_upgrade_and_validate(key, which):
    """The blank and demo sheets exactly as the code before versions stored them."""
    ruleset = get_ruleset(key)
    old = json.loads((OLD_SHEETS / f"{key}.json").read_text())[which]
    upgraded = ruleset.validate_sheet(old)
    assert upgraded["schema_version"] == ruleset.SCHEMA_VERSION
    assert upgraded["stage"] in {Stage.CREATION, Stage.PLAY}
    chosen = _defaults(ruleset)
    assert (
        ruleset.check(upgraded, chosen).ok
        == ruleset.check(ruleset.validate_sheet(upgraded), chosen).ok
    )


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize(
    "trait", ["weapon.².name", "xp.².remove", "equipment.².name", "skill.².stat", "a.\x00.b", ""]
)
def test_a_label_is_found_for_any_key_without_raising(key, trait):
    # A revision summary labels whatever a form posted, valid or not.
    assert isinstance(get_ruleset(key).trait_label(trait), str)


@pytest.mark.parametrize("key", KEYS)
def test_every_system_declares_its_compendium_kinds_and_every_builtin_entry_is_one(key):
    ruleset = get_ruleset(key)
    kinds = {kind.key: kind for kind in ruleset.COMPENDIUM_KINDS}
    assert len(kinds) == len(ruleset.COMPENDIUM_KINDS), "a kind is declared twice"
    assert "npc_template" in kinds
    seen = set()
    for entry in ruleset.builtin_entries():
        assert entry.kind in kinds, entry
        assert (entry.kind, entry.slug) not in seen, entry
        seen.add((entry.kind, entry.slug))
        assert validate_entry(kinds[entry.kind], entry.data) == entry.data
    demo = ruleset.demo_sheet()
    assert ruleset.entry_refs(demo) == []
