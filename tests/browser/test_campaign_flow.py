"""A GM and a player at one table, each in a browser of their own (two Chromium contexts,
so two sessions): invite, join, build, submit, ask for changes, fix, approve, edit again and
read the difference; both editing one sheet at once; each offered only their own rows; the
dashboard and the review panel on a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from sheets.characters.models import Character, ReviewState
from sheets.characters.services import character_request_changes, character_submit

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path("/tmp/h5")


def log_in(page: Page, live_server, username: str, password: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="My campaigns")).to_be_visible()


@pytest.fixture
def gm_page(page: Page, live_server, gm, password) -> Page:
    log_in(page, live_server, gm.username, password)
    return page


@pytest.fixture
def player_page(new_context, live_server, player, password) -> Page:
    """The player's own browser context: cookies apart from the GM's."""
    page = new_context().new_page()
    log_in(page, live_server, player.username, password)
    return page


def click_dot(page: Page, label: str, value: int, version: int) -> None:
    """Set a dotted trait and wait until the server has stored it (the version moved on)."""
    page.get_by_role("group", name=label, exact=True).get_by_role(
        "radio", name=str(value), exact=True
    ).click()
    expect(page.locator("#sheet-version")).to_have_value(str(version))


def dashboard_row(page: Page, name: str):
    return page.locator("#dashboard tbody tr").filter(has_text=name)


def test_a_gm_invites_a_player_who_joins_builds_and_the_review_goes_round_to_a_diff(
    live_server, gm_page: Page, player_page: Page, gm, player
):
    gm_name, player_name = gm.username, player.username
    gm = gm_page
    gm.get_by_role("link", name="My campaigns").click()
    gm.get_by_role("link", name="New campaign").click()
    gm.fill("#id_name", "Mid Rim Run")
    gm.get_by_label(re.compile("Star Wars Storytelling")).check()
    gm.fill("#id_description", "Smugglers between Nar Shaddaa and Ord Mantell.")
    gm.get_by_role("button", name="Open the campaign").click()
    expect(gm.get_by_role("heading", name=re.compile("Mid Rim Run"))).to_be_visible()
    campaign_url = gm.url
    expect(gm.locator("#dashboard")).to_contain_text("No sheet at the table yet")

    gm.get_by_role("button", name="Make an invitation link").click()
    link_field = gm.locator("#invitations .link-field")
    expect(link_field).to_have_count(1)
    expect(gm.locator("#invitations .invitation")).to_contain_text("Live")
    invitation = link_field.input_value()
    assert invitation.startswith(live_server.url + "/campaigns/join/"), invitation

    # The player follows the link in their own browser, joins, and makes a character there.
    player = player_page
    player.goto(invitation)
    expect(player.get_by_role("heading", name="Join “Mid Rim Run”")).to_be_visible()
    expect(player.locator(".join")).to_contain_text(gm_name)
    player.get_by_role("button", name="Join the table").click()
    expect(player.get_by_role("heading", name=re.compile("Mid Rim Run"))).to_be_visible()
    assert player.url == campaign_url
    expect(player.locator("#dashboard")).to_have_count(0)  # the dashboard is the GM's
    player.get_by_role("link", name="Make a new character here").click()
    expect(player.get_by_role("heading", name="New character for Mid Rim Run")).to_be_visible()
    player.fill("#id_name", "Tavi Orn")
    player.get_by_role("button", name="Create").click()
    expect(player.locator("#sheet-title")).to_contain_text("Tavi Orn")
    expect(player.locator("#review-label")).to_have_text("Draft")
    click_dot(player, "Strength", 2, version=2)
    player.get_by_role("button", name="Submit to the GM").click()
    expect(player.locator("#review-label")).to_have_text("Submitted")
    character = Character.objects.get(name="Tavi Orn")
    assert character.campaign.name == "Mid Rim Run"
    assert (character.review_state, character.review_version) == (ReviewState.SUBMITTED, 2)

    # The GM finds it submitted on the dashboard, opens it, and asks for changes.
    gm.goto(campaign_url)
    expect(dashboard_row(gm, "Tavi Orn")).to_contain_text("Submitted")
    expect(dashboard_row(gm, "Tavi Orn")).to_contain_text(player_name)
    dashboard_row(gm, "Tavi Orn").get_by_role("link", name="Tavi Orn").click()
    expect(gm.locator("#review-label")).to_have_text("Submitted")
    expect(gm.get_by_role("button", name="Submit to the GM")).to_have_count(0)
    # Asking for changes without saying which is refused beside the panel.
    gm.get_by_role("button", name="Request changes").click()
    expect(gm.locator("#review-error")).to_contain_text("Say what should change")
    expect(gm.locator("#review-label")).to_have_text("Submitted")
    comment = "Dexterity 2 please: a smuggler needs quick hands."
    gm.fill("#review-comment", comment)
    gm.get_by_role("button", name="Request changes").click()
    expect(gm.locator("#review-label")).to_have_text("Changes requested")
    expect(gm.locator("#review-history")).to_contain_text(comment)

    # The player reads the comment, fixes the sheet and submits it again.
    player.reload()
    expect(player.locator("#review-label")).to_have_text("Changes requested")
    history = player.locator("#review-history")
    expect(history).to_contain_text(f"Changes requested at version 2 by {gm_name}")
    expect(history.get_by_text(comment)).to_be_visible()
    click_dot(player, "Dexterity", 2, version=3)
    player.get_by_role("button", name="Submit to the GM").click()
    expect(player.locator("#review-label")).to_have_text("Submitted")

    # The GM approves that version.
    gm.reload()
    expect(gm.locator("#review-label")).to_have_text("Submitted")
    gm.get_by_role("button", name="Approve this version").click()
    expect(gm.locator("#review-label")).to_have_text("Approved")
    expect(gm.locator("#review-history")).to_contain_text(f"Approved at version 3 by {gm_name}")

    # The player edits again: at once the page says so, without a reload.
    player.reload()
    expect(player.locator("#review-label")).to_have_text("Approved")
    click_dot(player, "Strength", 3, version=4)
    expect(player.locator("#review-label")).to_have_text("Changed since approval")

    # The dashboard flags it; the sheet shows what changed, in the labels a player reads.
    gm.goto(campaign_url)
    row = dashboard_row(gm, "Tavi Orn")
    expect(row).to_contain_text("Changed since approval")
    expect(row).to_contain_text(f"by {player_name}")
    row.get_by_role("link", name="Tavi Orn").click()
    expect(gm.locator("#review-label")).to_have_text("Changed since approval")
    diff = gm.locator("#approval-diff")
    expect(diff).to_contain_text("Changed since the approval of version 3")
    expect(diff.locator("li.change")).to_have_text(["Strength: 2 → 3"])
    # The history keeps every step, for both sides.
    expect(gm.locator("#review-history li")).to_have_count(4)
    expect(player.locator("#review-history li")).to_have_count(4)

    # The player edits once more while the GM reads version 4: approving what the GM saw
    # is refused, since it is no longer the sheet, and the approval stays at version 3.
    click_dot(player, "Wits", 2, version=5)
    gm.get_by_role("button", name="Approve this version").click()
    expect(gm.locator("#review-error")).to_contain_text("you saw version 4, it is now version 5")
    expect(gm.locator("#review-label")).to_have_text("Changed since approval")
    # At creation Willpower follows Wits (and the current Willpower with it), so raising
    # Wits shows as three changes.
    expect(gm.locator("#approval-diff li.change")).to_have_text(
        [
            "Strength: 2 → 3",
            "Wits: 1 → 2",
            "Willpower: 2 → 3",
            "Current Willpower: 2 → 3",
        ]
    )
    character.refresh_from_db()
    assert (character.review_state, character.review_version) == (ReviewState.APPROVED, 3)
    assert (character.sheet["willpower"], character.sheet["willpower_current"]) == (3, 3)


def test_a_gm_and_a_player_edit_different_traits_of_one_open_sheet_and_both_stay(
    live_server, table, swd10_character, gm_page: Page, player_page: Page
):
    sheet_url = f"{live_server.url}/characters/{swd10_character.pk}/"
    gm, player = gm_page, player_page
    gm.goto(sheet_url)
    player.goto(sheet_url)
    expect(gm.locator("#sheet-version")).to_have_value("1")
    expect(player.locator("#sheet-version")).to_have_value("1")

    # The player raises Strength; the GM's page, still at version 1, knows nothing of it.
    click_dot(player, "Strength", 3, version=2)
    expect(gm.locator('#trait-attr-strength [value="1"]')).to_be_checked()

    # The GM sets Power from version 1: a different trait, so it merges instead of
    # conflicting, and the GM's page now shows the player's Strength too.
    click_dot(gm, "Power", 3, version=3)
    expect(gm.locator(".merged")).to_have_text("Also shows changes by luke.")
    expect(gm.locator(".conflict")).to_have_count(0)
    expect(gm.locator('#trait-attr-strength [value="3"]')).to_be_checked()
    expect(gm.locator('#trait-power [value="3"]')).to_be_checked()

    # The player's next edit, from version 2, brings the GM's Power onto their page.
    click_dot(player, "Dexterity", 2, version=4)
    expect(player.locator(".merged")).to_have_text("Also shows changes by gm_yoda.")
    expect(player.locator(".conflict")).to_have_count(0)
    expect(player.locator('#trait-power [value="3"]')).to_be_checked()
    expect(player.locator('#trait-attr-strength [value="3"]')).to_be_checked()
    expect(player.locator('#trait-attr-dexterity [value="2"]')).to_be_checked()

    swd10_character.refresh_from_db()
    assert swd10_character.version == 4
    assert swd10_character.sheet["power"] == 3
    assert swd10_character.sheet["attributes"]["strength"] == 3
    assert swd10_character.sheet["attributes"]["dexterity"] == 2
    # A refresh shows every change on the GM's page as well.
    gm.reload()
    expect(gm.locator("#sheet-version")).to_have_value("4")
    expect(gm.locator('#trait-attr-dexterity [value="2"]')).to_be_checked()


def test_each_side_of_the_table_finds_the_others_rows_disabled(
    live_server, table, swd10_character, gm_page: Page, player_page: Page
):
    sheet_url = f"{live_server.url}/characters/{swd10_character.pk}/"
    player = player_page
    player.goto(sheet_url)
    # Power and awarded Experience are the GM's at a table: shown, not offered.
    expect(
        player.get_by_role("group", name="Power", exact=True).get_by_role(
            "radio", name="3", exact=True
        )
    ).to_be_disabled()
    expect(player.locator("#trait-power")).to_contain_text("Set by the GM at this table")
    expect(player.locator("#input-trait-info-experience")).to_be_disabled()
    expect(
        player.get_by_role("group", name="Strength", exact=True).get_by_role(
            "radio", name="3", exact=True
        )
    ).to_be_enabled()
    expect(player.locator("#input-character-name")).to_be_enabled()

    gm = gm_page
    gm.goto(sheet_url)
    # The player's rows are theirs: the GM sees them but cannot click them.
    expect(
        gm.get_by_role("group", name="Strength", exact=True).get_by_role(
            "radio", name="3", exact=True
        )
    ).to_be_disabled()
    expect(gm.locator("#trait-attr-strength")).to_contain_text("The player's to set")
    expect(gm.locator("#input-character-name")).to_be_disabled()
    expect(
        gm.get_by_role("group", name="Power", exact=True).get_by_role("radio", name="3", exact=True)
    ).to_be_enabled()
    # Experience is the ledger's, for the GM too: locked, with the way to the ledger.
    expect(gm.locator("#input-trait-info-experience")).to_be_disabled()
    expect(
        gm.locator("#trait-info-experience").get_by_role("link", name="Advancement")
    ).to_be_visible()

    # A disabled dot clicked anyway (forced past the browser's refusal) changes nothing.
    player.get_by_role("group", name="Power", exact=True).get_by_role(
        "radio", name="3", exact=True
    ).click(force=True)
    gm.get_by_role("group", name="Strength", exact=True).get_by_role(
        "radio", name="3", exact=True
    ).click(force=True)
    expect(player.locator("#sheet-version")).to_have_value("1")
    expect(gm.locator("#sheet-version")).to_have_value("1")
    swd10_character.refresh_from_db()
    assert swd10_character.version == 1
    assert swd10_character.sheet["power"] == 1
    assert swd10_character.sheet["attributes"]["strength"] == 1


def no_sideways_scroll(page: Page, width: int) -> None:
    wide = page.evaluate(
        f"""() => [...document.querySelectorAll('main *')]
             .filter(e => e.getBoundingClientRect().right > {width + 1})
             .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide


def test_the_dashboard_and_the_review_panel_work_on_a_390_px_phone(
    live_server, table, swd10_character, gm_page: Page
):
    character_submit(
        user=swd10_character.owner,
        character_id=swd10_character.pk,
        version=swd10_character.version,
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    gm = gm_page
    gm.set_viewport_size(PHONE)
    gm.goto(f"{live_server.url}/campaigns/{table.pk}/")
    row = dashboard_row(gm, "Kira Dane")
    expect(row).to_contain_text("Submitted")
    expect(row.get_by_role("link", name="Kira Dane")).to_be_in_viewport()
    no_sideways_scroll(gm, PHONE["width"])
    gm.locator("#dashboard").screenshot(path=SCREENSHOTS / "dashboard-390.png")
    gm.screenshot(path=SCREENSHOTS / "campaign-390.png", full_page=True)

    row.get_by_role("link", name="Kira Dane").click()
    review = gm.locator("#review")
    expect(review).to_be_visible()
    no_sideways_scroll(gm, PHONE["width"])
    for control in ("#review-comment", "#review-approve", "#review-request-changes"):
        box = gm.locator(control).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    gm.fill("#review-comment", "Pick a Nature before we play.")
    review.screenshot(path=SCREENSHOTS / "review-390.png")
    gm.get_by_role("button", name="Request changes").click()
    expect(gm.locator("#review-label")).to_have_text("Changes requested")
    expect(gm.locator("#review-history")).to_contain_text("Pick a Nature before we play.")
    no_sideways_scroll(gm, PHONE["width"])
    gm.locator("#review").screenshot(path=SCREENSHOTS / "review-after-390.png")


def test_a_player_who_fixes_a_submitted_sheet_can_submit_the_fix_without_a_reload(
    live_server, table, swd10_character, player_page: Page
):
    player = player_page
    player.goto(f"{live_server.url}/characters/{swd10_character.pk}/")
    player.get_by_role("button", name="Submit to the GM").click()
    expect(player.locator("#review-label")).to_have_text("Submitted")
    expect(player.get_by_role("button", name="Submit to the GM")).to_have_count(0)
    click_dot(player, "Strength", 2, version=2)
    expect(player.locator("#review-status")).to_contain_text("the sheet is at version 2")
    submit = player.get_by_role("button", name="Submit to the GM")
    # A reload offers it (checked first, so the refusal below is the htmx answer's alone).
    player.reload()
    expect(submit).to_be_visible()
    player.get_by_role("group", name="Strength", exact=True).get_by_role(
        "radio", name="3", exact=True
    ).click()
    expect(player.locator("#sheet-version")).to_have_value("3")
    player.get_by_role("button", name="Submit to the GM").click()
    expect(player.locator("#review-label")).to_have_text("Submitted")
    expect(submit).to_have_count(0)
    click_dot(player, "Dexterity", 2, version=4)
    # The edit response redraws the review status, submit button included.
    expect(submit).to_be_visible()
    submit.click()
    expect(player.locator("#review-label")).to_have_text("Submitted")
    swd10_character.refresh_from_db()
    assert swd10_character.review_version == 4


def test_the_gms_latest_request_is_in_sight_after_several_rounds(
    live_server, table, gm, swd10_character, player_page: Page
):
    character = swd10_character
    for comment in ("Pick a Nature.", "Now a Demeanor, too."):
        character = character_submit(
            user=character.owner, character_id=character.pk, version=character.version
        )
        character = character_request_changes(
            user=gm, character_id=character.pk, version=character.version, comment=comment
        )
    player = player_page
    player.goto(f"{live_server.url}/characters/{character.pk}/")
    expect(player.locator("#review-label")).to_have_text("Changes requested")
    latest = (
        player.locator("#review").get_by_text("Now a Demeanor, too.").filter(visible=True).first
    )
    # However long the history grows, the latest request stays in sight.
    expect(latest).to_be_visible()
