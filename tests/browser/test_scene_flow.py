"""The scene tracker in a real Chromium: the GM builds an encounter (a hidden NPC, four
minions, a starship) around a player's hero, rolls initiative, runs two rounds, and applies
the player's attack from the roll log to one minion; the player's own page of the scene,
kept open and never reloaded, follows the order and never names the hidden NPC. The
player's page is also drawn at 360 px and must not scroll sideways."""

from __future__ import annotations

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
from sheets.npcs.models import MinionMember
from sheets.npcs.services import group_create, npc_create, npc_reveal
from sheets.scenes.models import Scene
from sheets.vehicles.services import vehicle_create
from tests.browser.test_rolls import log_in

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "Agent Secretmarker"


def test_a_gm_runs_an_encounter_and_the_player_never_sees_the_hidden_npc(
    live_server, page: Page, new_context, gm, player, password, settings
):
    settings.DICE_SEED = 0  # the hero's lightsaber makes 3x7 (as in test_rolls_hits)
    campaign = campaign_create(user=gm, name="Table ore", system="ore")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    hero = character_create(
        owner=player, name="Hero", system="ore", sheet=get_ruleset("ore").demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=hero.pk)
    agent = npc_create(user=gm, campaign_id=campaign.pk, name=SECRET)
    block = npc_create(user=gm, campaign_id=campaign.pk, name="Trooper block")
    # The troopers' stat block is shown by name: its minions join the players' order.
    npc_reveal(user=gm, character_id=block.pk, visibility="name", expected_version=1)
    troopers = group_create(
        user=gm, campaign_id=campaign.pk, block_id=str(block.pk), name="Troopers", count="4"
    )
    vehicle_create(user=gm, name="Lambda shuttle", owner="campaign", campaign_id=campaign.pk)

    # The GM builds the encounter from the table page.
    log_in(page, live_server, gm.username, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    page.locator("#scenes-link").click()
    page.get_by_label("New scene").fill("Ambush at the dock")
    page.get_by_role("button", name="Make the scene").click()
    join = page.locator("#scene-join")
    for label in (SECRET, "Hero", *(f"Troopers #{n}" for n in range(1, 5)), "Lambda shuttle"):
        join.get_by_label(label, exact=False).first.check()
    join.get_by_role("button", name="Bring into the scene").click()
    rows = page.locator(".scene-order > li")
    expect(rows).to_have_count(7)
    page.get_by_role("button", name="Roll initiative for everyone").click()
    scene = Scene.objects.get(name="Ambush at the dock")

    # The player keeps the scene open at phone width.
    watcher = new_context().new_page()
    watcher.set_viewport_size({"width": 360, "height": 740})
    log_in(watcher, live_server, player.username, password)
    watcher.goto(f"{live_server.url}/scenes/{scene.pk}/")
    expect(watcher.locator(".scene-order > li")).to_have_count(6)  # not the hidden agent
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 360

    # The player rolls an attack on their sheet; it lands in the table's log.
    watcher.goto(f"{live_server.url}/characters/{hero.pk}/roll/weapon.0/")
    watcher.get_by_role("button", name="Roll", exact=True).click()
    expect(watcher.locator("#roll-result")).to_contain_text("3x7")
    watcher.goto(f"{live_server.url}/scenes/{scene.pk}/")

    # Two rounds: the GM steps through every turn; on the way applies the roll to #2.
    for _ in range(7):
        page.get_by_role("button", name="Next turn").click()
        expect(page.locator("#scene-round")).to_be_visible()
    second = MinionMember.objects.get(group=troopers, number=2)
    row = page.locator(".scene-row", has_text="Troopers #2")
    row.locator("summary").click()
    row.get_by_label("From the roll log").select_option(index=1)
    row.get_by_role("button", name="Mark hit").click()
    expect(page.locator(".scene-row", has_text="Troopers #2")).to_contain_text("Torso")
    for _ in range(7):
        page.get_by_role("button", name="Next turn").click()
    expect(page.locator("#scene-round")).to_have_text("3")
    # The GM's tracker, a row's forms open, fits a phone as well.
    page.set_viewport_size({"width": 360, "height": 740})
    page.locator(".scene-row", has_text="Troopers #2").locator("summary").click()
    page.screenshot(path="/tmp/h14/scene_gm_360.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    second.refresh_from_db()
    assert second.wounds["damage"]["torso"] >= 1

    # The player's page, never reloaded, follows the round; the agent is never named.
    expect(watcher.locator("#scene-round")).to_have_text("3", timeout=12_000)
    assert SECRET not in watcher.content()
    watcher.screenshot(path="/tmp/h14/scene_player_360.png", full_page=True)
    assert agent.pk  # the agent is in the scene all along, for the GM alone
