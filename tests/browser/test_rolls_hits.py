"""An O.R.E. attack that hits, marked on its target in a real Chromium: the GM rolls a
lightsaber attack, picks the target under the result, sees which boxes the hit will mark,
marks them; the target's player, whose page was never reloaded, reads the hit in the
table's log, and the boxes are on the target's sheet."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from rulesets.ore.combat import resolve_hit
from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create
from tests.browser.test_rolls import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_gm_marks_an_attacks_wounds_on_the_target(
    live_server, page: Page, new_context, gm, player, other_player, password, settings
):
    settings.DICE_SEED = 0  # the lightsaber's 7d make 3x7: the torso (001:L227)
    campaign = campaign_create(user=gm, name="Table ore", system="ore")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    campaign_join(user=other_player, token=link.token)
    demo = get_ruleset("ore").demo_sheet
    hero = character_create(owner=player, name="Hero", system="ore", sheet=demo())
    rival = character_create(owner=other_player, name="Rival", system="ore", sheet=demo())
    for owner, character in ((player, hero), (other_player, rival)):
        character_bring(user=owner, campaign_id=campaign.pk, character_id=character.pk)

    watcher = new_context().new_page()
    log_in(watcher, live_server, other_player.username, password)
    watcher.goto(f"{live_server.url}/campaigns/{campaign.pk}/")

    log_in(page, live_server, gm.username, password)
    page.goto(f"{live_server.url}/characters/{hero.pk}/roll/weapon.0/")
    page.get_by_role("button", name="Roll", exact=True).click()
    result = page.locator("#roll-result")
    expect(result).to_contain_text("3x7")
    result.get_by_role("link", name="Rival").click()

    expect(page.get_by_role("heading", name="The hit of a roll")).to_be_visible()
    boxes = page.locator(".hit-boxes")
    expect(boxes).to_contain_text("Torso")
    page.get_by_role("button", name="Mark these wounds on Rival").click()
    marked = page.locator("#hit-marked")
    expect(marked).to_contain_text("Wounds marked on Rival")

    rival.refresh_from_db()
    expected = resolve_hit(demo(), width=3, height=7, damage="width+3", penetration=5)
    assert rival.sheet["wounds"]["torso"] == list(expected.locations[0].after)
    assert "killing" in rival.sheet["wounds"]["torso"]

    entry = watcher.locator("#roll-log-entries li.hit").first
    expect(entry).to_contain_text("Wounds marked on Rival", timeout=10_000)
    expect(entry).to_contain_text(expected.summary)
    assert Character.objects.get(pk=hero.pk).sheet["wounds"] == demo()["wounds"]
