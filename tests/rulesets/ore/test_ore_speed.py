"""next_costs prices every trait in one pass over the sheet (issue 14: it was quadratic),
and gives what advance_cost gives trait by trait, on a sheet of hundreds of skills."""

from __future__ import annotations

import pytest

import rulesets.ore as ore
from rulesets.core import resolve_settings
from rulesets.ore import rules
from rulesets.ore.data import SKILLS


def large_sheet(skills: int = 272) -> dict:
    """The demo sheet with skills added until it holds `skills`, dice 0 to 5, some free."""
    sheet = ore.demo_sheet()
    index = 0
    while len(sheet["skills"]) < skills:
        skill = SKILLS[index % len(SKILLS)]
        free = index % 3 if index % 5 == 0 else 0
        row = rules.new_skill(skill.slug, f"Field {index}", dice=index % 6, free=free)
        sheet["skills"].append(row)
        index += 1
    return sheet


@pytest.mark.parametrize("readings", [{}, {"house_stat_cap": 6}])
def test_next_costs_equal_the_per_trait_answers(readings):
    sheet = large_sheet()
    settings = resolve_settings(ore.SETTINGS, readings)
    costs = ore.next_costs(sheet, settings)
    found = rules.raisables(sheet, settings)
    assert len(found) > 272  # every skill, stat, power part, stunt...
    raisable_now = {trait for trait, r in found.items() if r.current < r.maximum}
    assert set(costs) == raisable_now
    for trait in raisable_now:
        one = ore.advance_cost(sheet, trait, found[trait].current + 1, settings)
        assert costs[trait] == one, trait


def test_next_costs_reads_the_sheet_once_whatever_its_size(monkeypatch):
    calls = []
    real = rules.raisables

    def counted(sheet, settings):
        calls.append(len(sheet["skills"]))
        return real(sheet, settings)

    monkeypatch.setattr(rules, "raisables", counted)
    for size in (12, 272):
        calls.clear()
        rules.next_costs(large_sheet(size), {})
        assert calls == [size]
        calls.clear()
        rules.trait_rows(large_sheet(size), {})
        assert calls == [size]
