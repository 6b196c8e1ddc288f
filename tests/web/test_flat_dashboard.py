"""The GM's dashboard reads each sheet's status kept by version, ledger sums and house rules
(sheets/campaigns/state.py), and is never stale: an edit, an award or a changed house rule
shows at once (issue 30, item 4). Its queries do not grow with the sheets:
test_campaign_dashboard_queries.py."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import engine_sheet
from sheets.campaigns.models import Campaign
from sheets.campaigns.services import campaign_settings_save
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits
from tests.web.test_ledger import _fresh

pytestmark = pytest.mark.django_db


# The GM's dashboard ---------------------------------------------------------------------------


def _dashboard_row(client, campaign: Campaign, character: Character) -> str:
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    link = reverse("character_sheet", args=[character.pk])
    found = re.search(
        rf'<tr>\s*<td data-label="Player"[^<]*</td>\s*<td[^>]*><a href="{link}".*?</tr>', page, re.S
    )
    assert found, "the sheet has no row on the dashboard"
    return re.sub(r"\s+", " ", found.group(0))


def _engine_says(character: Character, campaign: Campaign) -> str:
    """The row's rules check and unspent figure as the engine answers them now, asked
    directly (no kept answer)."""
    character = _fresh(character)
    ruleset = get_ruleset(character.system)
    in_force = resolve_settings(
        ruleset.SETTINGS, Campaign.objects.get(pk=campaign.pk).rule_settings
    )
    status = ruleset.status(engine_sheet(character), in_force)
    legal = "Legal" if status.legal else "Not legal"
    return (
        f"{legal}</span> <small>{status.errors} error{'s' if status.errors != 1 else ''}, "
        f"{status.warnings} warning{'s' if status.warnings != 1 else ''}</small>"
    )


def _unspent(row: str) -> str:
    return re.search(r'data-label="Unspent">([^<]*)', row).group(1).strip()


def _rules_check(row: str) -> str:
    return re.search(r'data-label="Rules check">(.*?)</td>', row).group(1).strip()


def test_the_dashboard_shows_a_sheets_new_status_right_after_its_edit(
    client, gm, player, table, swd10_character
):
    client.force_login(gm)
    before = _dashboard_row(client, table, swd10_character)  # kept now
    character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"abil.stealth": "5"},  # past what creation allows: an error
        expected_version=_fresh(swd10_character).version,
    )
    after = _dashboard_row(client, table, swd10_character)
    assert _engine_says(swd10_character, table) in after
    assert "Not legal" in _rules_check(after) and "Not legal" not in _rules_check(before)


def test_the_dashboard_shows_the_status_under_a_changed_house_rule_at_once(
    client, gm, player, table, swd10_character
):
    character = character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"attr.strength": "3"},
        expected_version=_fresh(swd10_character).version,
    )
    client.force_login(gm)
    before = _dashboard_row(client, table, character)  # kept under the book's reading
    campaign_settings_save(
        user=gm,
        campaign_id=table.pk,
        submitted={"attribute_free_dot": "False"},
        expected_version=Campaign.objects.get(pk=table.pk).version,
        confirmed=True,
    )
    after = _dashboard_row(client, table, character)
    assert _fresh(character).version == character.version  # the sheet itself did not change
    assert _engine_says(character, table) in after
    assert _rules_check(after) != _rules_check(before)


def test_an_award_reaches_the_dashboards_unspent_figure_at_once(
    client, gm, player, in_play, table, swd10_character
):
    client.force_login(gm)
    before = _unspent(_dashboard_row(client, table, swd10_character))
    ledger.award(user=gm, character_id=swd10_character.pk, amount="7", reason="Session 2")
    after = _unspent(_dashboard_row(client, table, swd10_character))
    assert int(after.split()[0]) == int(before.split()[0]) + 7
