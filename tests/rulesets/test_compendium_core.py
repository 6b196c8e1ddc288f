"""The compendium's one declaration: forms, stored data and refusals come from the schema."""

from __future__ import annotations

import importlib

import pytest

from rulesets.core.compendium import (
    PICK,
    EntryBase,
    EntryKind,
    InvalidEntry,
    Picker,
    apply_lines,
    copies,
    entry_from_form,
    entry_json_schema,
    entry_to_form,
    find_kind,
    form_fields,
    rewrites,
    validate_entry,
)
from rulesets.core.edits import InvalidEdit
from rulesets.registry import SYSTEMS
from rulesets.weg_d6.compendium import COMPENDIUM_KINDS

SPECIES = find_kind(COMPENDIUM_KINDS, "species")
TEMPLATE = find_kind(COMPENDIUM_KINDS, "template")


def _species_form(**values: str) -> dict[str, str]:
    form = entry_to_form(SPECIES, validate_entry(SPECIES, {"name": "Twi'lek"}))
    return form | values


def test_a_nested_part_flattens_to_dotted_form_names_with_die_code_inputs():
    fields = {field.name: field for field in form_fields(SPECIES)}
    dexterity = fields["minimum.dexterity"]
    assert dexterity.widget == "die_code"
    assert dexterity.label == "Minimum: Dexterity"
    assert "die code" in dexterity.help
    assert fields["special_abilities"].widget == "lines"
    assert fields["name"].required and fields["name"].max_length == 80


def test_a_form_is_read_into_pips_and_shown_back_as_codes():
    entry = entry_from_form(SPECIES, _species_form(**{"maximum.dexterity": "4D+1"}))
    assert entry["maximum"]["dexterity"] == 13
    assert entry_to_form(SPECIES, entry)["maximum.dexterity"] == "4D+1"
    assert entry_from_form(SPECIES, entry_to_form(SPECIES, entry)) == entry


def test_a_minimum_above_its_maximum_names_the_minimum_field():
    with pytest.raises(InvalidEntry) as refused:
        entry_from_form(
            SPECIES, _species_form(**{"minimum.dexterity": "4D+2", "maximum.dexterity": "4D+1"})
        )
    assert refused.value.errors == {
        "minimum.dexterity": "Minimum Dexterity 4D+2 is above the maximum 4D+1."
    }


def test_every_fault_of_a_form_is_named_at_once():
    form = _species_form(**{"name": "", "minimum.strength": "lots", "move": "-1"})
    with pytest.raises(InvalidEntry) as refused:
        entry_from_form(SPECIES, form)
    assert set(refused.value.errors) == {"name", "minimum.strength", "move"}
    assert "not a die code" in refused.value.errors["minimum.strength"]


def test_a_bad_line_of_a_list_is_named_by_its_number():
    form = entry_to_form(TEMPLATE, validate_entry(TEMPLATE, {"name": "Smuggler"}))
    form["skills"] = "blaster 1D+1\nstreetwise\n\nstarship piloting 2D"
    with pytest.raises(InvalidEntry) as refused:
        entry_from_form(TEMPLATE, form)
    assert list(refused.value.errors) == ["skills"]
    assert "line 2" in refused.value.errors["skills"]
    form["skills"] = "blaster 1D+1\n\nstarship piloting 2D"
    entry = entry_from_form(TEMPLATE, form)
    assert entry["skills"] == [
        {"name": "blaster", "code": 4},
        {"name": "starship piloting", "code": 6},
    ]


def test_stored_data_is_refused_by_field_with_unknown_keys_named():
    with pytest.raises(InvalidEntry) as refused:
        validate_entry(TEMPLATE, {"name": "x", "skills": [{"name": "a", "code": "1"}], "bog": 1})
    assert set(refused.value.errors) == {"skills", "bog"}
    assert "line 1" in refused.value.errors["skills"]


def test_an_unknown_kind_is_refused_under_kind():
    with pytest.raises(InvalidEntry) as refused:
        find_kind(COMPENDIUM_KINDS, "starship")
    assert list(refused.value.errors) == ["kind"]


def test_the_json_schema_refuses_extra_keys_and_gives_code_ranges():
    schema = entry_json_schema(SPECIES)
    assert schema["additionalProperties"] is False
    assert schema["title"] == "Species"


# --- the shared shape of picking (rulesets.core.compendium.Picker) ---------------------------


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_system_picks_every_kind_and_refreshes_only_what_follows_versions(key):
    module = importlib.import_module(f"rulesets.{key}.compendium")
    picker = module.PICKER
    kinds = {kind.key for kind in module.COMPENDIUM_KINDS}
    assert set(picker.picks) == kinds
    assert set(picker.refresh) | set(picker.copied_once) == kinds
    assert not set(picker.refresh) & set(picker.copied_once)
    # The contract's names are the picker's own, bound once.
    assert module.pick_entry == picker.pick_entry and module.refresh_entry == picker.refresh_entry


def _kind(key: str) -> EntryKind:
    class Note(EntryBase):
        pass

    return EntryKind(key, key.capitalize(), key.capitalize(), Note)


def test_a_picker_missing_a_kinds_pick_fails_when_the_system_loads():
    with pytest.raises(AssertionError):
        Picker((_kind("note"), _kind("gear")), {"note": lambda *a: a[0]}, {}, dict)


def test_a_refusal_while_picking_names_the_list_and_line_and_leaves_the_sheet_alone():
    def add(sheet: dict, item) -> dict:
        if item["name"] == "bad":
            raise InvalidEdit("x", "not on this sheet.")
        return {**sheet, "lines": [*sheet["lines"], item["name"]]}

    def pick(sheet: dict, entry: dict, mark: dict, settings) -> dict:
        return apply_lines(sheet, [{"name": "good"}, {"name": entry["name"]}], "Skills", add)

    picker = Picker((_kind("note"),), {"note": pick}, {}, dict)
    sheet = {"lines": []}
    assert picker.pick_entry(sheet, "note", "r", 1, {"name": "fine"}, {}) == {
        "lines": ["good", "fine"]
    }
    with pytest.raises(InvalidEntry) as refused:
        picker.pick_entry(sheet, "note", "r", 1, {"name": "bad"}, {})
    assert refused.value.errors == {PICK: "Skills, line 2: not on this sheet."}
    assert sheet == {"lines": []}


def test_copies_and_rewrites_bring_a_picked_item_to_the_entry():
    item = {"name": "Old", "damage": 1, "worn": True}
    copies("name", "damage")(item, {"name": "New", "damage": 4, "cost": 9})
    assert item == {"name": "New", "damage": 4, "worn": True}
    rewrites(lambda entry: {"name": entry["name"].upper()})(item, {"name": "new"})
    assert item == {"name": "NEW", "damage": 4, "worn": True}
