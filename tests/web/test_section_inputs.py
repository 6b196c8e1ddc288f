"""Every extra value a section's templates print is one the edit response watches.

An edit response redraws a section whole when a value in its `uses_extra` changed (or the
derived values it names, or the stage or the readings, which redraw every section); any
other change swaps single rows. A template that reads an extra value its section does not
list is left stale on the page when only that value moves: the WEG Force section kept its
"add a power" row after a switch to droid that way. This reads each section's templates
for the names of the layout's extra values.
"""

from __future__ import annotations

import re

import pytest
from django.template.loader import get_template

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset, ready_systems
from sheets.characters.layouts import layout_for
from sheets.characters.models import Character
from sheets.characters.state import sheet_state

# Extra values a section may print without listing them: those that change only with what
# redraws every section anyway (the stage), and constants too small to be told apart from
# a value computed afresh (the catalogs, which are the same object for every sheet, are
# found as such below).
UNWATCHED = {
    "play": "the stage",
    "weg_power_trait": "the stage",
    "weg_description_limit": "a constant",
    "ore_first_power": "a constant",
}
_INCLUDE = re.compile(r"""\{%\s*include\s+["']([^"']+)["']""")


def _sources(name: str) -> str:
    """A template's source with the templates it includes by name."""
    source = get_template(name).template.source
    return source + "".join(_sources(included) for included in _INCLUDE.findall(source))


def _read(template: str, extra: dict) -> set[str]:
    source = _sources(template)
    return {key for key in extra if re.search(rf"\b{re.escape(key)}\b", source)}


def _extra(system: str, sheet: dict) -> dict:
    ruleset = get_ruleset(system)
    state = sheet_state(ruleset, sheet, {})
    return layout_for(system).extra(state, Character(pk=1, system=system, sheet=state.sheet))


@pytest.mark.parametrize("system", [info.key for info in ready_systems()])
def test_each_section_watches_every_extra_value_it_prints(system):
    ruleset = get_ruleset(system)
    layout = layout_for(system)
    extra = _extra(system, ruleset.demo_sheet())
    other = _extra(system, ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, {})))
    constant = {
        key
        for key, value in extra.items()
        if other[key] is value and not isinstance(value, bool | int | str | type(None))
    }
    unwatched = {}
    for section in layout.sections:
        missing = _read(section.body, extra) - set(section.uses_extra) - set(UNWATCHED)
        # An "add" row outside the body is never redrawn by an edit: it reads constants.
        if section.adds:
            missing |= _read(section.adds, extra) - set(UNWATCHED)
        if missing - constant:
            unwatched[section.key] = sorted(missing - constant)
    assert unwatched == {}
