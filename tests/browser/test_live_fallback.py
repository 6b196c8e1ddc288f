"""The live stream in a real Chromium on the real ASGI server: the table's roll log keeps
coming by its poll when the stream is cut, and a player's open scene follows the round
the GM moves on, told by the stream's scene frame."""

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
from sheets.characters.services import character_create
from sheets.rolls.services import roll_make, rollables_of
from sheets.scenes.models import Scene
from sheets.scenes.services import participants_add, scene_create, turn_step
from tests.live.asgi_server import asgi_server_fixture  # noqa: F401  (asgi_server)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hero(gm, player) -> Character:
    campaign = campaign_create(user=gm, name="Outer Rim", system="swd10")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character = character_create(
        owner=player, name="Kira Dane", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    return Character.objects.get(pk=character.pk)


def _log_in(page: Page, server: str, username: str, password: str) -> None:
    page.goto(server + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()


def _roll(user, character: Character):
    return roll_make(
        user=user,
        character_id=character.pk,
        rollable_key=rollables_of(character)[0].key,
        raw={},
        drawn_campaign=character.campaign_id,
        rng=random.Random(5),
    )


def test_the_table_log_falls_back_to_its_poll_when_the_stream_is_cut(
    asgi_server, page: Page, gm, player, password, hero, settings
):
    # Each stream ends after a second and the browser opens it again: the cut below
    # takes effect at the next opening, as when a proxy or the server goes away.
    settings.LIVE_STREAM_SECONDS = 1
    _log_in(page, asgi_server, player.username, password)
    page.goto(f"{asgi_server}/campaigns/{hero.campaign_id}/")
    live = page.locator("#campaign-live")
    expect(live).to_have_attribute("data-live", "open")
    # First the stream alone brings a roll.
    first = _roll(gm, hero)
    expect(page.locator(f"#roll-entry-{first.pk}")).to_be_visible()

    page.route("**/live/campaigns/**", lambda route: route.abort())
    # The stream's reopening fails: the page marks it down and its poll takes over.
    expect(live).not_to_have_attribute("data-live", "open", timeout=10_000)
    polls: list[str] = []
    log_url = f"/campaigns/{hero.campaign_id}/rolls/"
    page.on("request", lambda request: log_url in request.url and polls.append(request.url))
    second = _roll(player, hero)
    expect(page.locator(f"#roll-entry-{second.pk}")).to_be_visible(timeout=10_000)
    assert polls, "the roll came by no poll"
    expect(live).not_to_have_attribute("data-live", "open")
    page.unroute("**/live/campaigns/**")
    page.goto("about:blank")


def test_a_players_open_tracker_follows_the_round_the_gm_moves_on(
    asgi_server, page: Page, gm, player, password, hero
):
    scene = scene_create(user=gm, campaign_id=hero.campaign_id, name="Ambush")
    participants_add(user=gm, scene_id=scene.pk, picks=[f"character:{hero.pk}"], expected_version=1)
    _log_in(page, asgi_server, player.username, password)
    page.goto(f"{asgi_server}/scenes/{scene.pk}/")
    stream = page.locator("#scene-stream")
    expect(stream).to_have_attribute("data-live", "open")
    expect(page.locator("#scene-round")).to_have_text("1")
    fetches: list[str] = []
    tracker_url = f"/scenes/{scene.pk}/tracker/"
    page.on("request", lambda request: tracker_url in request.url and fetches.append(request.url))

    scene = Scene.objects.get(pk=scene.pk)
    # One participant: the next turn is the next round.
    turn_step(user=gm, scene_id=scene.pk, direction="next", expected_version=scene.version)

    expect(page.locator("#scene-round")).to_have_text("2")
    # The stream stayed open: the fetch came of its frame, the 5-second poll stood down.
    expect(stream).to_have_attribute("data-live", "open")
    assert len(fetches) == 1, fetches
    page.goto("about:blank")
