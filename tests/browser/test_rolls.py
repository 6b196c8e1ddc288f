"""Rolling from a sheet of each system in a real Chromium: the player opens the Roll panel,
sees the exact chance and its chart, changes a modifier and watches the odds follow, rolls;
another player at the same table, in a browser of their own, sees the roll arrive in the
table's log without reloading. Then a GM's secret roll reaches the GM's log only."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.services import character_create
from sheets.rolls.services import roll_setup, rollables_of

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page, live_server, username: str, password: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="My campaigns")).to_be_visible()


def _table(system: str, gm, player, other_player):
    campaign = campaign_create(user=gm, name=f"Table {system}", system=system)
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    campaign_join(user=other_player, token=link.token)
    character = character_create(
        owner=player, name=f"Hero {system}", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    character.refresh_from_db()
    return campaign, character


def _with_difficulty(character):
    for rollable in rollables_of(character):
        setup = roll_setup(character, rollable.key)
        numbers = {o.key: o for o in setup.definitions if o.kind == "number"}
        if "difficulty" in numbers:
            return setup, numbers["difficulty"]
    raise AssertionError(f"{character.system}: nothing rolls against a difficulty")


def _harder(option) -> str:
    """A difficulty other than the default, inside the option's range."""
    top = option.maximum if option.maximum is not None else option.default + 5
    value = min(top, option.default + 4)
    if value == option.default:
        value = option.minimum if option.minimum is not None else option.default - 1
    return str(value)


@pytest.mark.parametrize("system", ["swd10", "ore", "weg_d6", "o3d10"])
def test_a_player_rolls_from_the_sheet_and_the_table_sees_it_without_reloading(
    system, live_server, page: Page, new_context, gm, player, other_player, password, settings
):
    settings.DICE_SEED = 11
    campaign, character = _table(system, gm, player, other_player)
    setup, difficulty = _with_difficulty(character)

    watcher = new_context().new_page()
    log_in(watcher, live_server, other_player.username, password)
    watcher.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    expect(watcher.locator("#roll-log")).to_contain_text("No rolls at this table yet")

    log_in(page, live_server, player.username, password)
    page.goto(f"{live_server.url}/characters/{character.pk}/")
    page.locator("#roll-menu").get_by_role("link", name=setup.rollable.label, exact=True).click()
    expect(page.get_by_role("heading", name=setup.rollable.label)).to_be_visible()
    percent = page.locator("#roll-percent")
    expect(percent).to_have_text(re.compile(r"^[<>]?\d+(\.\d)?%$"))
    chart = page.get_by_role("img", name="Chance of each result")
    expect(chart).to_be_visible()
    assert page.locator(".roll-chart .bar").count() >= 2

    # A modifier changed: the odds follow without a reload (the form's fields stay put).
    before = percent.inner_text()
    field = page.locator(f"#roll-{difficulty.key}")
    field.fill(_harder(difficulty))
    field.dispatch_event("change")
    expect(percent).not_to_have_text(before)

    page.get_by_role("button", name="Roll", exact=True).click()
    result = page.locator("#roll-result")
    expect(result).to_be_visible()
    expect(page.locator("#roll-log-entries li").first).to_contain_text(setup.rollable.label)

    # The other player's page was never reloaded: the poll brings the roll.
    entry = watcher.locator("#roll-log-entries li").first
    expect(entry).to_contain_text(character.name, timeout=10_000)
    expect(entry).to_contain_text(setup.rollable.label)
    expect(entry).to_contain_text(player.username)
    expect(entry.locator(".die").first).to_be_visible()


def test_a_gms_secret_roll_reaches_the_gms_log_only(
    live_server, page: Page, new_context, gm, player, other_player, password, settings
):
    settings.DICE_SEED = 5
    campaign, character = _table("ore", gm, player, other_player)
    setup, _ = _with_difficulty(character)

    watcher = new_context().new_page()
    log_in(watcher, live_server, player.username, password)
    watcher.goto(f"{live_server.url}/campaigns/{campaign.pk}/")

    log_in(page, live_server, gm.username, password)
    page.goto(f"{live_server.url}/characters/{character.pk}/roll/{setup.rollable.key}/")
    page.get_by_label("Roll in secret").check()
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator("#roll-result")).to_contain_text("Secret")
    expect(page.locator("#roll-log-entries li").first).to_contain_text("Secret: GMs only")

    # An open roll after it arrives at the player's log; the secret one never does.
    page.get_by_label("Roll in secret").uncheck()
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(watcher.locator("#roll-log-entries li")).to_have_count(1, timeout=10_000)
    expect(watcher.locator("#roll-log")).not_to_contain_text("Secret")
