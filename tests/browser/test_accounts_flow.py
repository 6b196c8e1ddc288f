"""A newcomer invited to a table, in a real Chromium: logged out, they follow the link, sign
up, and land back on the invitation, then join."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from sheets.campaigns.models import Membership
from sheets.campaigns.services import campaign_create, invitation_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_invitee_who_signs_up_lands_back_on_the_invitation_and_joins(
    live_server, page: Page, gm, password
):
    campaign = campaign_create(user=gm, name="Outer Rim", system="swd10")
    token = invitation_create(user=gm, campaign_id=campaign.pk).token
    join_path = f"/campaigns/join/{token}/"

    page.goto(live_server.url + join_path)
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page.get_by_role("main").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    page.get_by_label("Username").fill("rey")
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Create my account").click()

    expect(page).to_have_url(live_server.url + join_path)
    expect(page.get_by_role("heading", name="Join “Outer Rim”")).to_be_visible()
    page.get_by_role("button", name="Join the table").click()
    expect(page.get_by_role("heading", name=re.compile("Outer Rim"))).to_be_visible()
    expect(page.locator("#messages")).to_contain_text("Welcome to “Outer Rim”")
    assert Membership.objects.filter(campaign=campaign, user__username="rey").exists()
