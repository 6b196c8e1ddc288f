"""Every kind of every system, generated from its own schema: an entry either validates and
comes back identical through its form, or is refused with a message naming its field."""

from __future__ import annotations

import copy
import typing

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from rulesets.core import resolve_settings
from rulesets.core.compendium import (
    DATAPAD_DEFAULT,
    Input,
    InvalidEntry,
    blank_form,
    entry_from_form,
    entry_json_schema,
    entry_to_form,
    form_fields,
    shown_source,
    validate_entry,
)
from rulesets.registry import SYSTEMS, get_ruleset

KINDS = [
    pytest.param(kind, id=f"{key}.{kind.key}")
    for key in sorted(SYSTEMS)
    for kind in get_ruleset(key).COMPENDIUM_KINDS
]
TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(" \n"),
    max_size=12,
)
WORDS = st.characters(codec="utf-8", categories=("L", "N", "P", "Zs"))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _input(info) -> Input | None:
    return next((m for m in info.metadata if isinstance(m, Input)), None)


def _value(form: Input | None, annotation) -> st.SearchStrategy:
    """A value the field takes, and now and then one just outside it (one in 20)."""
    if form is None or form.widget == "group":
        return _model(annotation)
    inside = _inside(form, annotation)
    # Not 0: Hypothesis draws the simplest number far more often than one in 20.
    return st.integers(0, 19).flatmap(lambda roll: _outside(form) if roll == 7 else inside)


def _inside(form: Input, annotation) -> st.SearchStrategy:
    if form.widget in ("number", "die_code"):
        values = st.integers(form.minimum, form.maximum)
        return values | st.none() if form.optional else values
    if form.widget == "choice":
        return st.sampled_from([value for value, _label in form.choices])
    if form.widget == "checkbox":
        return st.booleans()
    if form.widget == "lines":
        (item,) = typing.get_args(annotation)
        return st.lists(_item(item), max_size=4)
    if "damage code" in form.help:
        return st.from_regex(r"\A[1-9]d(6|8|10|12)([+-][1-9])?\Z")
    limit = form.max_length or 20
    size = st.integers(1 if form.required else 0, limit)
    return size.flatmap(lambda n: st.text(WORDS, min_size=n, max_size=n))


def _outside(form: Input) -> st.SearchStrategy:
    if form.widget in ("number", "die_code"):
        low, high = form.minimum or 0, form.maximum or 0
        return st.sampled_from([low - 1, high + 1, str(low), True, None])
    if form.widget == "choice":
        return st.sampled_from(["no such", 1])
    if form.widget == "checkbox":
        return st.sampled_from(["on", 1, None])
    if form.widget == "lines":
        return st.sampled_from(["one", [""], [1], None])
    limit = form.max_length or 20
    return st.sampled_from(["x" * (limit + 1), "a\x00b", 3, None]) | TEXT


def _item(item) -> st.SearchStrategy:
    if isinstance(item, type) and issubclass(item, BaseModel):
        return _model(item)
    return st.text(WORDS, min_size=1, max_size=30).filter(str.strip)


def _model(model: type[BaseModel]) -> st.SearchStrategy:
    fields = {
        name: _value(_input(info), info.annotation) for name, info in model.model_fields.items()
    }
    return st.fixed_dictionaries(fields)


def _names(kind) -> set[str]:
    return {field.name for field in form_fields(kind)}


@pytest.mark.parametrize("kind", KINDS)
@SETTINGS
@given(data=st.data())
def test_a_generated_entry_round_trips_through_its_form_or_is_refused_by_field(kind, data):
    raw = data.draw(_model(kind.schema))
    try:
        entry = validate_entry(kind, raw)
    except InvalidEntry as refused:
        assert refused.errors
        assert set(refused.errors) <= _names(kind), refused.errors
        assert all(message.strip() for message in refused.errors.values())
        return
    assert validate_entry(kind, entry) == entry
    assert entry_from_form(kind, entry_to_form(kind, entry)) == entry
    jsonschema.validate(entry, entry_json_schema(kind))


@pytest.mark.parametrize("kind", KINDS)
@SETTINGS
@given(data=st.data())
def test_any_text_typed_into_a_form_is_read_or_refused_by_field(kind, data):
    form = blank_form(kind) | {"name": "A name"}
    for name in data.draw(st.sets(st.sampled_from(sorted(_names(kind))), max_size=3)):
        form[name] = data.draw(TEXT | st.sampled_from(["4D+2", "-1", "99999999999", "on"]))
    try:
        entry = entry_from_form(kind, form)
    except InvalidEntry as refused:
        assert set(refused.errors) <= _names(kind), refused.errors
        return
    assert validate_entry(kind, entry) == entry
    assert entry_from_form(kind, entry_to_form(kind, entry)) == entry


@pytest.mark.parametrize("kind", KINDS)
def test_every_form_field_says_its_limits(kind):
    for field in form_fields(kind):
        assert field.label and field.widget
        if field.widget in ("number", "die_code"):
            assert field.minimum is not None and field.maximum is not None, field
            assert field.help, field
        if field.widget in ("text", "textarea"):
            assert field.max_length, field
        if field.widget == "lines":
            assert "line" in field.help, field
        if field.widget == "choice":
            assert field.choices, field


@pytest.mark.parametrize("kind", KINDS)
def test_a_blank_form_with_a_name_is_an_entry(kind):
    entry = entry_from_form(kind, blank_form(kind) | {"name": "Example"})
    assert entry["name"] == "Example"


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_builtin_entry_validates_and_names_its_seed_line(key):
    ruleset = get_ruleset(key)
    kinds = {kind.key: kind for kind in ruleset.COMPENDIUM_KINDS}
    entries = ruleset.builtin_entries()
    assert entries
    for entry in entries:
        assert validate_entry(kinds[entry.kind], entry.data) == entry.data
        assert entry.slug
        # A player reads a seed line, or plainly that the value is Datapad's own.
        assert entry.seed_line or entry.source == DATAPAD_DEFAULT, entry.source


@pytest.mark.parametrize(
    "source, shown",
    [
        ("003:131", "003:131"),
        ("001:L796 (Bothan)", "001:L796"),
        ("003:2705-2706", "003:2705-2706"),
        ("OUTSIDE (2E core: 2D-4D, Move 10 max 12; digest §3)", DATAPAD_DEFAULT),
        ("digest §3 proposal", DATAPAD_DEFAULT),
        ("", DATAPAD_DEFAULT),
    ],
)
def test_a_builtin_source_is_its_seed_line_or_datapads_default(source, shown):
    assert shown_source(source) == shown


def test_the_weg_human_says_it_is_datapads_default_not_an_internal_marker():
    (human,) = [
        b
        for b in get_ruleset("weg_d6").builtin_entries()
        if (b.kind, b.slug) == ("species", "human")
    ]
    assert human.source == DATAPAD_DEFAULT and not human.seed_line


SYSTEM_KINDS = [
    pytest.param(key, kind, id=f"{key}.{kind.key}")
    for key in sorted(SYSTEMS)
    for kind in get_ruleset(key).COMPENDIUM_KINDS
]


def _opens(ruleset, sheet: dict, chosen: dict) -> None:
    """Every question the web layer asks of a sheet is answered."""
    assert ruleset.validate_sheet(copy.deepcopy(sheet)) == sheet
    ruleset.check(sheet, chosen)
    ruleset.derived(sheet, chosen)
    ruleset.status(sheet, chosen)
    ruleset.trait_rows(sheet, chosen)
    ruleset.rollables(sheet, chosen)


@pytest.mark.parametrize(("key", "kind"), SYSTEM_KINDS)
@SETTINGS
@given(data=st.data())
def test_a_generated_entry_is_picked_onto_a_sheet_that_opens_or_refused_in_words(key, kind, data):
    ruleset = get_ruleset(key)
    chosen = resolve_settings(ruleset.SETTINGS, {})
    try:
        entry = validate_entry(kind, data.draw(_model(kind.schema)))
    except InvalidEntry:
        return
    sheet = data.draw(st.sampled_from([ruleset.blank_sheet(chosen), ruleset.demo_sheet()]))
    before = copy.deepcopy(sheet)
    try:
        picked = ruleset.pick_entry(sheet, kind.key, "campaign:1:2", 3, entry, chosen)
    except InvalidEntry as refused:
        assert list(refused.errors) == ["pick"], refused.errors
        assert refused.errors["pick"].strip()
        return
    finally:
        assert sheet == before
    assert (kind.key, "campaign:1:2", 3) in ruleset.entry_refs(picked) or kind.key in {
        # The seed's own entries are chosen as the catalog's, and some kinds fill the sheet.
        "species",
        "merit",
        "stunt",
        "template",
        "npc_template",
        "force_power",
    }
    _opens(ruleset, picked, chosen)


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_builtin_entry_picks_onto_a_blank_sheet_or_is_refused_in_words(key):
    ruleset = get_ruleset(key)
    chosen = resolve_settings(ruleset.SETTINGS, {})
    picked = 0
    for entry in ruleset.builtin_entries():
        try:
            sheet = ruleset.pick_entry(
                ruleset.blank_sheet(chosen),
                entry.kind,
                f"builtin:{entry.slug}",
                0,
                entry.data,
                chosen,
            )
        except InvalidEntry as refused:
            assert list(refused.errors) == ["pick"], (entry, refused.errors)
            continue
        _opens(ruleset, sheet, chosen)
        picked += 1
    assert picked


@pytest.mark.parametrize(("key", "kind"), SYSTEM_KINDS)
@SETTINGS
@given(data=st.data())
def test_a_new_version_of_a_picked_entry_leaves_a_sheet_that_opens_or_is_refused(key, kind, data):
    ruleset = get_ruleset(key)
    chosen = resolve_settings(ruleset.SETTINGS, {})
    try:
        first = validate_entry(kind, data.draw(_model(kind.schema)))
        second = validate_entry(kind, data.draw(_model(kind.schema)))
        sheet = ruleset.pick_entry(ruleset.blank_sheet(chosen), kind.key, "r", 1, first, chosen)
    except InvalidEntry:
        return
    before = copy.deepcopy(sheet)
    try:
        refreshed = ruleset.refresh_entry(sheet, kind.key, "r", 2, second, chosen)
    except InvalidEntry as refused:
        assert list(refused.errors) == ["pick"], refused.errors
        return
    finally:
        assert sheet == before
    _opens(ruleset, refreshed, chosen)
    assert ("r", 1) not in {
        (ref, version) for _k, ref, version in ruleset.entry_refs(refreshed)
    } or (ruleset.refresh_entry(sheet, kind.key, "r", 2, second, chosen) == sheet)
