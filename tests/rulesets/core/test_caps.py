"""List caps come from each sheet's one schema: the same numbers import refuses past."""

from __future__ import annotations

import copy

import pytest

from rulesets.core import InvalidSheet, resolve_settings
from rulesets.core.caps import grown_past_cap
from rulesets.registry import get_ruleset


def _blank(key: str) -> tuple[object, dict]:
    ruleset = get_ruleset(key)
    return ruleset, ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, {}))


AWARD = {"amount": 1, "note": ""}


def test_a_list_grown_past_its_cap_is_named_with_the_cap():
    ruleset, sheet = _blank("ore")
    full = copy.deepcopy(sheet)
    full["xp_awards"] = [AWARD] * 1000
    over = copy.deepcopy(full)
    over["xp_awards"].append(AWARD)
    assert grown_past_cap(ruleset.SCHEMA, full, full) is None
    assert grown_past_cap(ruleset.SCHEMA, full, over) == ("XP awards", 1000)
    # Import refuses the very same sheet, at the very same number.
    with pytest.raises(InvalidSheet, match="xp_awards"):
        ruleset.validate_sheet(over)
    assert ruleset.validate_sheet(full)["xp_awards"] == full["xp_awards"]


def test_a_list_already_past_its_cap_may_shrink_but_not_grow():
    ruleset, sheet = _blank("ore")
    stored = copy.deepcopy(sheet)
    stored["xp_awards"] = [AWARD] * 1005
    shrunk = copy.deepcopy(stored)
    shrunk["xp_awards"].pop()
    grown = copy.deepcopy(stored)
    grown["xp_awards"].append(AWARD)
    assert grown_past_cap(ruleset.SCHEMA, stored, shrunk) is None
    assert grown_past_cap(ruleset.SCHEMA, stored, grown) == ("XP awards", 1000)


def test_a_keyed_table_counts_its_keys_against_its_cap():
    ruleset, full = _blank("weg_d6")
    settings = resolve_settings(ruleset.SETTINGS, {})
    for n in range(60):
        full = ruleset.apply_edit(full, "skill.add", f"Pazaak {n}|DEX", settings)
    over = copy.deepcopy(full)
    # What an edit without its own check would make: one more row.
    over["custom_skills"]["pazaak_60"] = dict(next(iter(full["custom_skills"].values())))
    assert grown_past_cap(ruleset.SCHEMA, full, full) is None
    assert grown_past_cap(ruleset.SCHEMA, full, over) == ("custom skills", 60)
