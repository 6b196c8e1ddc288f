"""A player, in a real Chromium: builds a 1o3d10 character, hurts it to death, prints it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from rulesets.o3d10 import demo_sheet
from sheets.characters.models import Character
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page, live_server, password: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "luke")
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Log in").click()


def open_sheet(page: Page, live_server, character: Character) -> None:
    page.goto(f"{live_server.url}/characters/{character.pk}/")
    expect(page.locator("#sheet-version")).to_have_value(str(character.version))


def test_lowering_hp_walks_the_health_states_from_normal_to_dead_then_prints(
    live_server, page: Page, player, password
):
    log_in(page, live_server, password)
    page.goto(live_server.url + "/characters/new/")
    page.fill("input[name=name]", "Tala Voss")
    page.get_by_label(re.compile("1o3d10")).check()
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=re.compile("Tala Voss"))).to_be_visible()
    url_before = page.url

    state = page.locator("#health-state")
    expect(state).to_have_attribute("data-state", "normal")
    stats_left = page.locator("#pool-stats .left")
    expect(stats_left).to_have_text("20")
    strength = page.locator("#input-trait-stat-strength")
    strength.fill("2")
    strength.press("Tab")
    expect(stats_left).to_have_text("19")
    expect(page.locator("#input-trait-hp-current")).to_have_value("14")  # 10 + 2 x 2

    # A refused amount: the message shows in its section and nothing changes.
    page.fill("#input-trait-hp-damage", "-3")
    page.get_by_role("button", name="Apply damage").click()
    expect(page.locator("#section-health-body .error")).to_have_text(
        "Damage cannot be negative; use healing instead."
    )
    expect(page.locator("#sheet-version")).to_have_value("2")
    expect(state).to_have_attribute("data-state", "normal")

    hp = page.locator("#input-trait-hp-current")
    hp.fill("3")
    hp.blur()
    expect(page.locator("#sheet-version")).to_have_value("3")
    lower = page.get_by_role("button", name="Lower HP by 1")
    # Strength 2: Normal from 2, Wounded 0-1, Unconscious -1 to -6, Dead below -6.
    for expected_hp, expected_state in (
        (2, "normal"),
        (1, "wounded"),
        (0, "wounded"),
        (-1, "unconscious"),
        (-2, "unconscious"),
        (-3, "unconscious"),
        (-4, "unconscious"),
        (-5, "unconscious"),
        (-6, "unconscious"),
        (-7, "dead"),
    ):
        lower.click()
        expect(page.locator("#input-trait-hp-current")).to_have_value(str(expected_hp))
        expect(state).to_have_attribute("data-state", expected_state)
        expect(page.locator("#status-state")).to_have_text(expected_state.capitalize())
        if expected_hp == 1:
            expect(page.locator("#section-health")).to_contain_text(
                "the lowest of the three dice is the target die"
            )
            expect(page.locator("#section-rolls")).to_contain_text("target die")
        if expected_hp == -1:
            health = page.locator("#section-health")
            expect(health).to_contain_text("roll 1d10 each turn")
            expect(health).to_contain_text("Intelligence + Medicine + 1o3d10 against 18")
            expect(page.get_by_role("button", name="Apply bleed roll")).to_be_visible()
    expect(state).to_contain_text("Dead")

    # Midichlorian Luck: once a day, refused the second time, back after a new day.
    page.get_by_role("button", name="Use Luck").click()
    expect(page.locator("#luck-left")).to_have_text("0")
    page.get_by_role("button", name="Use Luck").click()
    expect(page.locator("#section-combat-body .error")).to_contain_text(
        "No Midichlorian Luck left today"
    )
    page.get_by_role("button", name="New day").click()
    expect(page.locator("#luck-left")).to_have_text("1")
    expect(page.locator("#section-combat-body .error")).to_have_count(0)
    assert page.url == url_before, "every edit happened without a page load"

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download PDF").click()
    text = PdfReader(download_info.value.path()).pages[0].extract_text()
    assert "Tala Voss" in text
    assert "DEAD" in text and "HP -7 / 14" in text
    assert "Strength STR 2" in text

    character = Character.objects.get(name="Tala Voss")
    assert character.sheet["hp"] == -7
    assert character.sheet["luck"] == {"day": 2, "last_used_day": 1, "uses_that_day": 1}


def test_enter_in_the_damage_box_applies_the_damage_once(live_server, page: Page, player, password):
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=demo_sheet())
    log_in(page, live_server, password)
    open_sheet(page, live_server, character)
    expect(page.locator("#health-state")).to_have_attribute("data-state", "wounded")
    page.fill("#input-trait-hp-damage", "4")
    page.press("#input-trait-hp-damage", "Enter")
    expect(page.locator("#input-trait-hp-current")).to_have_value("-1")
    expect(page.locator("#health-state")).to_have_attribute("data-state", "unconscious")
    # The box comes back empty and keeps the focus, ready for the next hit.
    expect(page.locator("#input-trait-hp-damage")).to_have_value("")
    expect(page.locator("#input-trait-hp-damage")).to_be_focused()
    page.fill("#input-trait-hp-heal", "2")
    page.get_by_role("button", name="Heal", exact=True).click()
    expect(page.locator("#input-trait-hp-current")).to_have_value("1")
    expect(page.locator("#health-state")).to_have_attribute("data-state", "wounded")
    expect(page.locator("#sheet-version")).to_have_value("3")
    character.refresh_from_db()
    assert character.sheet["hp"] == 1 and character.version == 3


@pytest.mark.parametrize("demo", [True, False], ids=["demo", "blank"])
def test_the_sheet_fits_a_360_px_phone(live_server, page: Page, player, password, demo):
    sheet = demo_sheet() if demo else None
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=sheet)
    page.set_viewport_size({"width": 360, "height": 800})
    log_in(page, live_server, password)
    open_sheet(page, live_server, character)
    wide = page.evaluate(
        """() => [...document.querySelectorAll('#sheet *')]
             .filter(e => e.getBoundingClientRect().right > 361)
             .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, wide
    # The header comes before the budget, the health section after it.
    header = page.locator("#section-header").bounding_box()
    budget = page.locator("#budget").bounding_box()
    health = page.locator("#section-health").bounding_box()
    assert header["y"] < budget["y"] < health["y"]


def test_from_the_keyboard_a_stat_is_one_stop_arrow_up_raises_it_and_keeps_the_focus(
    live_server, page: Page, player, password
):
    # At creation, where a stat is raised on the sheet itself (in play it is bought on the
    # ledger page: see the test below).
    sheet = demo_sheet() | {"stage": "creation"}
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=sheet)
    log_in(page, live_server, password)
    open_sheet(page, live_server, character)
    page.locator("#input-trait-hp-current").focus()
    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stops.append(page.evaluate("document.activeElement.id"))
        if stops[-1] == "input-trait-stat-strength":
            break
    assert stops[-1] == "input-trait-stat-strength", stops
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "input-trait-stat-dexterity"
    page.keyboard.press("Shift+Tab")
    spent = page.locator("#pool-stats .spent")
    expect(spent).to_have_text("24")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(spent).to_have_text("25")  # one stat point more
    expect(page.locator("#input-trait-stat-strength")).to_have_value("7")
    expect(page.locator("#input-trait-stat-strength")).to_be_focused()
    character.refresh_from_db()
    assert character.sheet["stats"]["strength"] == 7


def test_in_play_a_stat_raised_from_the_keyboard_is_refused_beside_it_and_keeps_the_focus(
    live_server, page: Page, player, password
):
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=demo_sheet())
    log_in(page, live_server, password)
    open_sheet(page, live_server, character)
    field = page.locator("#input-trait-stat-strength")
    field.focus()
    spent = page.locator("#pool-xp .spent")
    expect(spent).to_have_text("9")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    # In play every raise is a purchase on the Advancement page: the sheet says so beside the
    # stat, with the price, spends nothing and stores nothing.
    expect(page.locator("#trait-stat-strength-error")).to_have_text(
        "In play, Strength rises only by buying it on the Advancement page (14 XP a step)."
    )
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(spent).to_have_text("9")
    expect(field).to_be_focused()
    character.refresh_from_db()
    assert character.sheet["stats"]["strength"] == 6 and character.version == 1


def test_a_refused_value_goes_back_to_the_stored_one_when_its_message_is_cleared(
    live_server, page: Page, player, password
):
    """An edit elsewhere clears the refusal's message; the field must not go on showing the
    refused value as if it were stored."""
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=demo_sheet())
    log_in(page, live_server, password)
    open_sheet(page, live_server, character)
    strength = page.locator("#input-trait-stat-strength")
    strength.fill("9")
    strength.press("Tab")
    expect(page.locator("#trait-stat-strength-error")).to_contain_text("rises only by buying it")
    expect(strength).to_have_value("9")
    hp = page.locator("#input-trait-hp-current")
    hp.fill("10")
    hp.press("Tab")
    expect(page.locator("#sheet-version")).to_have_value("2")
    expect(page.locator("#trait-stat-strength-error")).to_have_count(0)
    expect(strength).to_have_value("6")
    expect(strength).not_to_have_attribute("aria-invalid", "true")
    character.refresh_from_db()
    assert character.sheet["stats"]["strength"] == 6 and character.version == 2


def test_a_custom_skill_weapon_and_armor_are_added_and_removed(
    live_server, page: Page, player, password
):
    character = character_create(owner=player, name="Tala Voss", system="o3d10")
    log_in(page, live_server, password)
    open_sheet(page, live_server, character)
    page.fill("#input-trait-skill-add", "Pilot")
    page.select_option("#input-trait-skill-add-1", "dexterity")
    page.press("#input-trait-skill-add", "Enter")
    expect(page.locator("#input-trait-skill-pilot")).to_have_value("0")
    expect(page.locator("#roll-pilot")).to_contain_text("Dexterity 1 + Pilot 0 + 1o3d10")
    page.get_by_role("button", name="Blaster pistol (1d8)").click()
    expect(page.locator("#input-trait-weapon-0-name")).to_have_value("Blaster pistol")
    expect(page.locator("#attack-0")).to_contain_text("+1")
    page.fill("#input-trait-armor-add", "Flight suit")
    page.fill("#input-trait-armor-add-1", "1")
    page.get_by_role("button", name="Add armor").click()
    expect(page.locator("#absorption-value")).to_have_text("1")
    page.get_by_role("button", name="Remove Pilot").click()
    expect(page.locator("#trait-skill-pilot")).to_have_count(0)
    page.get_by_role("button", name="Remove Weapon 1").click()
    expect(page.locator("#trait-weapon-0-name")).to_have_count(0)
    character.refresh_from_db()
    assert character.sheet["custom_skills"] == [] and character.sheet["weapons"] == []
    assert [a["name"] for a in character.sheet["armor"]] == ["Flight suit"]


def test_a_number_out_of_its_range_gets_the_servers_message(
    live_server, page: Page, player, password
):
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=demo_sheet())
    log_in(page, live_server, password)
    open_sheet(page, live_server, character)
    hp = page.locator("#input-trait-hp-current")
    hp.fill("99")
    hp.press("Tab")
    expect(page.locator("#trait-hp-current .error")).to_have_text(
        "HP cannot be 99; the maximum is 22.", timeout=3000
    )
