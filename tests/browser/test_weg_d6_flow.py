"""In a real Chromium: build a legal R&E smuggler and print it, then a legal 1st edition droid;
the demo sheet on a 360 px phone, and the wound track and a code from the keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from sheets.characters.models import Character

pytestmark = pytest.mark.django_db(transaction=True)


def _log_in_and_create(live_server, page: Page, name: str, edition: str = "") -> None:
    """Create a WEG d6 character from the new-character form, in `edition` if given (else
    the edition the form picks on its own)."""
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "luke")
    page.fill("input[name=password]", "a-long-test-password-42")
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/characters/new/")
    page.fill("input[name=name]", name)
    page.get_by_role("radio", name=re.compile("^West End Games d6")).check()
    if edition:
        page.get_by_label("Edition, for West End Games d6").select_option(edition)
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=re.compile(name))).to_be_visible()


def _type_code(page: Page, trait: str, code: str) -> None:
    """Type a code and leave the field; wait until the sheet saved it and redrew the row."""
    field = page.locator("#input-trait-" + trait.replace(".", "-"))
    version = page.locator("#sheet-version").input_value()
    field.fill(code)
    field.blur()
    expect(page.locator("#sheet-version")).not_to_have_value(version)
    expect(field).to_have_value(code)


def test_a_player_builds_a_legal_re_smuggler_and_prints_it(live_server, page: Page, player):
    _log_in_and_create(live_server, page, "Jax Durran")
    # Nothing picked on the form: the sheet starts in the default edition, R&E.
    expect(page.locator("#input-trait-info-edition")).to_have_value("2e_re")
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
    expect(page.locator("#input-trait-attr-technical")).to_have_value("2D+1")
    expect(page.locator("#pool-attributes .left")).to_have_text("0D")

    for trait, code in (
        ("skill.blaster", "5D+1"),
        ("skill.dodge", "4D+1"),
        ("skill.space_transports", "5D+2"),
        ("skill.starship_gunnery", "4D+2"),
        ("skill.streetwise", "3D"),
    ):
        _type_code(page, trait, code)
    expect(page.locator("#trait-skill-blaster")).to_contain_text("next: 5 CP")

    page.fill("#input-spec-add", "YT-1300 transports")
    page.select_option("#input-spec-add-1", "Space transports")
    page.get_by_role("button", name="Add specialization").click()
    spec = page.locator("#input-trait-spec-space_transports_yt_1300_transports")
    expect(spec).to_have_value("5D+2")
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
    _log_in_and_create(live_server, page, "See-Threepio", edition="1e")
    # The edition picked on the form is the sheet's from the start...
    expect(page.locator("#input-trait-info-edition")).to_have_value("1e")
    derived = page.locator("#section-derived")
    expect(derived).to_contain_text("advances cost skill points")
    # ...and the sheet can still change it, both ways.
    page.select_option("#input-trait-info-edition", "2e_re")
    expect(derived).not_to_contain_text("advances cost skill points")
    page.select_option("#input-trait-info-edition", "1e")
    expect(derived).to_contain_text("advances cost skill points")
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

    # A droid never takes a Force skill: the field is locked and says why.
    expect(page.locator("#input-trait-force-control")).to_be_disabled()
    expect(page.locator("#trait-force-control .locked-why")).to_have_text(
        "Droids may never have Force skills."
    )
    expect(page.locator("#trait-force-control-up")).to_have_count(0)

    character = Character.objects.get(name="See-Threepio")
    assert (character.sheet["kind"], character.sheet["edition"]) == ("droid", "1e")
    assert character.sheet["force"]["control"] == 0
    assert len(character.sheet["droid"]["equipment"]) == 7


def test_the_demo_sheet_fits_a_360_px_phone(live_server, page: Page, player, password, open_demo):
    open_demo("weg_d6", 360, name="Jax Durran")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # Every box of the template is on the page, one under the other.
    boxes = [page.locator(f"#section-attr-{a}").bounding_box() for a in ("dexterity", "knowledge")]
    assert boxes[0]["y"] + boxes[0]["height"] <= boxes[1]["y"]
    assert boxes[1]["x"] + boxes[1]["width"] <= 360


def _active_id(page: Page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.id")


def test_the_wound_track_is_one_tab_stop_and_arrow_keys_move_along_it(
    live_server, page: Page, player, password, open_demo
):
    character = open_demo("weg_d6", 1280, name="Jax Durran")
    page.focus("#input-trait-move")
    page.keyboard.press("Tab")
    assert _active_id(page) == "trait-wound-healthy"
    # One stop for the whole track: the next Tab leaves it.
    page.keyboard.press("Tab")
    assert not _active_id(page).startswith("trait-wound-")
    page.keyboard.press("Shift+Tab")
    assert _active_id(page) == "trait-wound-healthy"

    version = page.locator("#sheet-version").input_value()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#sheet-version")).not_to_have_value(version)
    expect(page.locator("#wound-state")).to_contain_text("Stunned: -1D to every code shown")
    expect(page.locator("#trait-skill-blaster")).to_contain_text("rolls 4D+1 while stunned")
    expect(page.locator("#trait-wound-stunned")).to_be_focused()
    character.refresh_from_db()
    assert character.sheet["wound"] == "stunned"


def test_a_code_typed_from_the_keyboard_updates_the_budget_and_keeps_the_focus(
    live_server, page: Page, player, password, open_demo
):
    character = open_demo("weg_d6", 1280, name="Jax Durran")
    expect(page.locator("#pool-attributes .left")).to_have_text("0D")
    page.focus("#input-trait-attr-knowledge")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert _active_id(page) == "input-trait-attr-knowledge"
    page.keyboard.press("Control+A")
    page.keyboard.type("2D")
    version = page.locator("#sheet-version").input_value()
    page.keyboard.press("Tab")
    expect(page.locator("#sheet-version")).not_to_have_value(version)
    expect(page.locator("#pool-attributes .left")).to_have_text("0D+1")
    # The box was redrawn (its buttons changed); the focus stays on the code just typed,
    # since its buttons were busy while the edit was on its way, and Tab then reaches its
    # roll link and its buttons.
    expect(page.locator("#input-trait-attr-knowledge")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#trait-attr-knowledge .roll-link")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#trait-attr-knowledge-down")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#input-trait-attr-knowledge")).to_have_value("1D+2")
    expect(page.locator("#pool-attributes .left")).to_have_text("0D+2")
    character.refresh_from_db()
    assert character.sheet["attributes"]["knowledge"] == 5
