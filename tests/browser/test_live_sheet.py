"""A player's open sheet, served by the real ASGI server, shows the GM's wound mark and the
table's new roll without a reload, and keeps what the player is typing meanwhile."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.rolls.services import roll_make, rollables_of
from tests.live.asgi_server import asgi_server_fixture  # noqa: F401  (asgi_server)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ore_table(gm, player):
    campaign = campaign_create(user=gm, name="Outer Rim", system="ore")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character = character_create(
        owner=player, name="Kael Varrin", system="ore", sheet=get_ruleset("ore").demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    return Character.objects.get(pk=character.pk)


def _log_in(page: Page, server: str, username: str, password: str) -> None:
    page.goto(server + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()


def test_the_gms_wound_mark_appears_on_the_players_open_sheet_with_no_reload(
    asgi_server,
    page: Page,
    gm,
    player,
    password,
    ore_table,
):
    _log_in(page, asgi_server, player.username, password)
    page.goto(f"{asgi_server}/characters/{ore_table.pk}/")
    expect(page.locator('#sheet-live[data-live="open"]')).to_have_count(1)
    box = page.locator("#trait-wound-head-0")
    box_before = box.inner_text()
    # The player is typing a new name, not yet sent (no change event until they leave it).
    name = page.locator("#input-character-name")
    name.click()
    name.fill("Kael the Typing")

    character_apply_edits(
        user=gm,
        character_id=ore_table.pk,
        edits={"wound.head.0": "cycle"},
        expected_version=ore_table.version,
    )

    expect(box).not_to_have_text(box_before)
    expect(box).to_have_text("/")
    expect(page.locator("#sheet-notices")).to_contain_text(f"Changed by {gm.username}.")
    expect(page.locator("#sheet-version")).to_have_value(str(ore_table.version + 1))
    # What the player was typing is still there, in the field they are in.
    expect(name).to_have_value("Kael the Typing")
    expect(name).to_be_focused()

    # Their rename then saves on top of the GM's mark, which stays.
    name.press("Tab")
    expect(page.locator("#sheet-version")).to_have_value(str(ore_table.version + 2))
    ore_table.refresh_from_db()
    assert ore_table.name == "Kael the Typing"
    assert ore_table.sheet["wounds"]["head"][0] == "shock"
    page.goto("about:blank")


def test_a_roll_at_the_table_arrives_on_the_open_sheet_while_the_poll_stands_down(
    asgi_server,
    page: Page,
    gm,
    player,
    password,
    ore_table,
):
    _log_in(page, asgi_server, player.username, password)
    page.goto(f"{asgi_server}/characters/{ore_table.pk}/")
    expect(page.locator('#sheet-live[data-live="open"]')).to_have_count(1)
    log_url = f"/campaigns/{ore_table.campaign_id}/rolls/"
    polls: list[str] = []
    page.on("request", lambda request: log_url in request.url and polls.append(request.url))
    entry = roll_make(
        user=gm,
        character_id=ore_table.pk,
        rollable_key=rollables_of(ore_table)[0].key,
        raw={},
        drawn_campaign=ore_table.campaign_id,
        rng=random.Random(3),
    )
    expect(page.locator(f"#roll-entry-{entry.pk}")).to_be_visible()
    page.wait_for_timeout(4500)
    # One fetch for the roll the stream announced; no 2-second polls beside it.
    assert len(polls) <= 2, polls
    page.goto("about:blank")
