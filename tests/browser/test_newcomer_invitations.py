"""A new GM's first minute, in a real Chromium: open a table, make one link, copy it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from sheets.campaigns.models import Invitation

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page, live_server, username: str, password: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="My campaigns")).to_be_visible()


def open_a_table(page: Page) -> None:
    page.get_by_role("link", name="My campaigns").click()
    page.get_by_role("link", name="New campaign").click()
    page.fill("#id_name", "First Table")
    page.get_by_label(re.compile("Star Wars Storytelling")).check()
    page.get_by_role("button", name="Open the campaign").click()
    expect(page.get_by_role("heading", name=re.compile("First Table"))).to_be_visible()


@pytest.mark.parametrize("width", [1280, 360])
def test_the_invitation_box_sits_right_under_invite_your_players_below(
    live_server, page: Page, gm, password, width
):
    page.set_viewport_size({"width": width, "height": 800})
    log_in(page, live_server, gm.username, password)
    open_a_table(page)
    message = page.locator("#messages")
    expect(message).to_contain_text("Invite your players below")
    said = message.bounding_box()
    box = page.locator("#invitations").bounding_box()
    gap = box["y"] - (said["y"] + said["height"])
    # Below the message, past only the page's heading and its buttons (on a phone they
    # wrap to a few lines), in the first screenful with its button: not 1,400 px down.
    assert 0 <= gap < 300, gap
    button = page.get_by_role("button", name="Make an invitation link").bounding_box()
    assert button["y"] + button["height"] < 800


def test_a_double_click_makes_one_link_and_copy_puts_it_on_the_clipboard(
    live_server, page: Page, context, gm, password
):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    log_in(page, live_server, gm.username, password)
    open_a_table(page)
    page.get_by_role("button", name="Make an invitation link").dblclick()
    link_field = page.locator("#invitations .link-field")
    expect(link_field).to_have_count(1)
    page.wait_for_load_state("networkidle")
    expect(link_field).to_have_count(1)
    assert Invitation.objects.count() == 1

    link = link_field.input_value()
    copy = page.locator("#invitations button.copy-button")
    expect(copy).to_have_text("Copy link")
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    expect(copy).to_have_text("Copy link", timeout=5000)
