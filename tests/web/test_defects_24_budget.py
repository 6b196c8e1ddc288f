"""Issue 24, defect 10: the budget panel's verdict counts what it lists, and a sheet in
creation with points still to spend is "points left", not "legal"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rulesets.core import Report, Stage
from rulesets.core.budget import Pool
from rulesets.core.rows import Status
from rulesets.core.verdict import budget_verdict
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db


def budget_panel(client, character) -> str:
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    return re.search(r'<details class="panel budget".*?</details>', page, re.S).group(0)


def said(panel: str) -> str:
    verdict = re.search(r'<p class="verdict.*?</p>', panel, re.S).group(0)
    return " ".join(re.sub(r"<[^>]+>", " ", verdict).split())


def badge(panel: str) -> str:
    return re.search(r'class="verdict-short[^"]*">([^<]*)<', panel).group(1)


def listed(panel: str, severity: str) -> int:
    return len(re.findall(rf'<li class="violation {severity}"', panel))


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("sheet", ["blank", "demo"])
def test_the_verdict_counts_exactly_the_messages_the_panel_lists(
    player_client, player, system, sheet
):
    ruleset = get_ruleset(system)
    character = character_create(
        owner=player,
        name="Counted",
        system=system,
        sheet=ruleset.demo_sheet() if sheet == "demo" else None,
    )
    panel = budget_panel(player_client, character)
    text = said(panel)
    things = re.search(r"(\d+) things? to look at above", text)
    assert (int(things.group(1)) if things else 0) == listed(panel, "warning"), text
    broken_here = re.search(r"(\d+) listed above", text)
    if broken_here:
        assert int(broken_here.group(1)) == listed(panel, "error"), text
    elif "broken: listed above" in text:
        errors = re.search(r"(\d+) rules? broken", text)
        assert int(errors.group(1)) == listed(panel, "error"), text


def test_a_new_sheet_with_points_to_spend_is_not_called_legal(player_client, player):
    character = character_create(owner=player, name="Fresh", system="swd10")
    panel = budget_panel(player_client, character)
    assert badge(panel) == "points left"
    assert "legal" not in badge(panel).lower()
    assert said(panel).startswith("Incomplete: points left to spend in Physical (primary)")
    # A most one may take is no budget: leaving flaws untaken leaves nothing to spend.
    assert "Flaws" not in said(panel)


def test_a_finished_build_with_every_budget_spent_is_legal(player_client, player):
    character = character_create(
        owner=player, name="Done", system="weg_d6", sheet=get_ruleset("weg_d6").demo_sheet()
    )
    panel = budget_panel(player_client, character)
    assert badge(panel) == "legal"
    assert said(panel).startswith("Legal: every budget spent, no rule broken.")


def test_a_note_shown_only_beside_a_trait_is_not_counted_as_listed_in_the_panel():
    report = Report()
    report.add_pool(Pool("dots", "Dots", 3, 3))
    report.warn("lost_prerequisite", "attr.strength", "Strength no longer meets it.")
    status = Status.from_report(report, stage=Stage.CREATION, unspent=None, unit="XP")
    verdict = budget_verdict(status, [(report.pools[0], ())], ())
    assert verdict.badge == "legal"
    assert verdict.lines == ("Legal so far.", "1 note beside the traits.")
