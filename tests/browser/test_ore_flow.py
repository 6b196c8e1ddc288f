"""A player in a real Chromium builds a Star O.R.E. Jedi live, takes wounds and prints it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from sheets.characters.models import Character

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_builds_a_jedi_with_a_hard_die_and_a_stunt_marks_wounds_and_prints(
    live_server, page: Page
):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("input[name=username]", "jedi")
    page.fill("input[name=password1]", "a-long-browser-pass-7")
    page.fill("input[name=password2]", "a-long-browser-pass-7")
    page.get_by_role("button", name="Create my account").click()
    page.get_by_role("link", name="New character").click()
    page.fill("input[name=name]", "Ahsa Venn")
    page.get_by_label(re.compile("Star O.R.E.")).check()
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=re.compile("Ahsa Venn"))).to_be_visible()
    url_before = page.url

    spent = page.locator("#pool-points .spent")
    left = page.locator("#pool-points .left")
    expect(left).to_have_text("150")
    page.get_by_role("button", name="Set Coordination to 3d").click()
    expect(page.locator("#trait-stat-coordination")).to_have_attribute("data-value", "3")
    expect(spent).to_have_text("10")

    # A Force power with a hard die: Energy Manipulation 2d+1hd, bought with the steppers.
    raise_dice = page.get_by_role("button", name="Raise Energy Manipulation dice", exact=True)
    raise_dice.click()
    raise_dice.click()
    page.get_by_role("button", name="Raise Energy Manipulation hard dice").click()
    power = page.locator("#trait-power-energy_manipulation")
    expect(power).to_have_attribute("data-dice", "2d+1hd")
    expect(power).to_contain_text("3 of 10 dice")
    expect(power).to_contain_text("Needs the GM's permission")
    expect(spent).to_have_text("30")

    # A stunt from the catalog, through its own small form.
    page.select_option("#add-stunt", value="stunt.force_jump=1")
    page.get_by_role("button", name="Add stunt").click()
    stunt = page.locator("#trait-stunt-force_jump")
    expect(stunt).to_contain_text("rolls 3d+1hd")
    expect(spent).to_have_text("32")
    expect(left).to_have_text("118")

    # A hard die on a stunt is refused beside it; nothing changes.
    page.evaluate(
        """() => {
            const button = document.querySelector('#trait-stunt-force_jump .stepper');
            button.value = 'stunt.force_jump.hard=1';
            button.disabled = false;
            button.click();
        }"""
    )
    expect(stunt.get_by_role("alert")).to_contain_text("stunts take normal dice only")
    expect(spent).to_have_text("32")

    # Wounds: the torso takes normal damage (two clicks), the left arm Shock (one click).
    page.get_by_role("button", name=re.compile(r"^Torso box 1: empty")).click()
    page.get_by_role("button", name=re.compile(r"^Torso box 1: Shock")).click()
    page.get_by_role("button", name=re.compile(r"^Left Arm box 1: empty")).click()
    torso = page.locator("#location-torso")
    expect(torso.get_by_role("button", name=re.compile("^Torso box 1"))).to_have_text("X")
    expect(torso).to_have_attribute("data-status", "hurt")
    expect(page.locator("#location-left_arm button.box").first).to_have_text("/")
    assert page.url == url_before, "every edit happened without a page load"

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download PDF").click()
    pages = [p.extract_text() for p in PdfReader(download_info.value.path()).pages]
    assert "Ahsa Venn" in pages[0]
    assert "Energy Manipulation" in pages[0] and "2d+1hd" in pages[0]
    assert "Force Jump" in pages[0]
    assert "HIT LOCATIONS" in pages[1] and "1 Shock and 0 normal damage" in pages[1]

    character = Character.objects.get(name="Ahsa Venn")
    assert character.sheet["powers"]["energy_manipulation"]["hard"] == 1
    assert character.sheet["stunts"] == {"force_jump": {"dice": 1, "approved": False}}
    assert character.sheet["wounds"]["torso"][0] == "killing"
    assert character.sheet["wounds"]["left_arm"][0] == "shock"
