"""In a real Chromium: build a legal R&E smuggler and print it, then a legal 1st edition droid."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from sheets.characters.models import Character

pytestmark = pytest.mark.django_db(transaction=True)


def _log_in_and_create(live_server, page: Page, name: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "luke")
    page.fill("input[name=password]", "a-long-test-password-42")
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/characters/new/")
    page.fill("input[name=name]", name)
    page.get_by_label(re.compile("West End Games d6")).check()
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=re.compile(name))).to_be_visible()


def _type_code(page: Page, trait: str, code: str) -> None:
    dom = "trait-" + trait.replace(".", "-")
    field = page.locator(f"#input-{dom}")
    field.fill(code)
    field.blur()
    expect(page.locator(f"#{dom}")).to_have_attribute("data-code", code)


def test_a_player_builds_a_legal_re_smuggler_and_prints_it(live_server, page: Page, player):
    _log_in_and_create(live_server, page, "Jax Durran")
    url_before = page.url
    expect(page.locator("#pool-attributes .left")).to_have_text("6D")
    for trait, code in (
        ("attr.dexterity", "3D+1"),
        ("attr.knowledge", "2d+1"),
        ("attr.mechanical", "3D+2"),
        ("attr.perception", "3D"),
        ("attr.strength", "3D+1"),
    ):
        _type_code(page, trait, code.upper())
    page.get_by_role("button", name="Technical up to 2D+1").click()
    expect(page.locator("#trait-attr-technical")).to_have_attribute("data-code", "2D+1")
    expect(page.locator("#pool-attributes .left")).to_have_text("0D")

    for trait, code in (
        ("skill.blaster", "5D+1"),
        ("skill.dodge", "4D+1"),
        ("skill.space_transports", "5D+2"),
        ("skill.starship_gunnery", "4D+2"),
        ("skill.streetwise", "3D"),
    ):
        _type_code(page, trait, code)
    expect(page.locator("#trait-skill-blaster")).to_contain_text("next pip 5 CP")

    page.fill("#input-spec-add", "YT-1300 transports|Space transports")
    page.get_by_role("button", name="Add specialization").click()
    spec = page.locator("#trait-spec-space_transports_yt_1300_transports")
    expect(spec).to_have_attribute("data-code", "5D+2")
    _type_code(page, "spec.space_transports_yt_1300_transports", "6D+2")

    expect(page.locator("#pool-skill_dice .spent")).to_have_text("7D")
    expect(page.locator("#budget .verdict")).to_have_text(
        re.compile("Legal: every budget spent, no rule broken.")
    )
    assert page.url == url_before, "every edit happened without a page load"

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download PDF").click()
    text = PdfReader(download_info.value.path()).pages[0].extract_text()
    for expected in ("Jax Durran", "DEXTERITY 3D+1", "Blaster 5D+1", "YT-1300 transports 6D+2"):
        assert expected in text, expected

    character = Character.objects.get(name="Jax Durran")
    assert character.sheet["skills"]["space_transports"] == 17
    assert character.sheet["edition"] == "2e_re"


def test_a_player_builds_a_legal_first_edition_droid(live_server, page: Page, player):
    _log_in_and_create(live_server, page, "See-Threepio")
    page.select_option("#input-trait-info-edition", "1e")
    expect(page.locator("#derived")).to_contain_text("advances cost skill points")
    page.select_option("#input-trait-info-kind", "droid")
    expect(page.locator("#section-droid")).to_be_visible()
    page.select_option("#input-trait-info-role", "npc")
    expect(page.locator("#pool-building_dice td").first).to_have_text("35D")

    for trait in ("attr.dexterity", "attr.perception", "attr.knowledge"):
        _type_code(page, trait, "2D")
    for trait, code in (
        ("skill.alien_races", "4D"),
        ("skill.cultures", "4D"),
        ("skill.languages", "10D"),
        ("skill.planetary_systems", "3D"),
    ):
        _type_code(page, trait, code)
    items = ("Two legs", "Left arm", "Right arm", "Left video sensor", "Right video sensor")
    items += ("Broad-band antenna receiver", "Vocabulator speech/sound system")
    for count, item in enumerate(items, start=1):
        page.fill("#input-equipment-add", item)
        page.get_by_role("button", name="Add item").click()
        expect(page.locator(f"#input-trait-equipment-{count - 1}-name")).to_have_value(item)

    expect(page.locator("#pool-building_dice .spent")).to_have_text("35D")
    expect(page.locator("#budget .verdict")).to_have_text(
        re.compile("Legal: every budget spent, no rule broken.")
    )

    # A droid never takes a Force skill: refused beside the field, nothing saved.
    version = page.locator("#sheet-version").input_value()
    page.fill("#input-trait-force-control", "1D")
    page.locator("#input-trait-force-control").blur()
    expect(page.locator("#trait-force-control .error")).to_have_text(
        "Droids may never have Force skills (003:1002)."
    )
    expect(page.locator("#sheet-version")).to_have_value(version)

    character = Character.objects.get(name="See-Threepio")
    assert (character.sheet["kind"], character.sheet["edition"]) == ("droid", "1e")
    assert character.sheet["force"]["control"] == 0
    assert len(character.sheet["droid"]["equipment"]) == 7
