"""The print layouts that keep a PDF quick to render still print every row in its place.

Print time goes by the box, so the empty lines to write in are ruled boxes rather than
rows of empty cells. These tests hold the laid-out pages to what the reader sees: every
write-in line still there and as tall as a row of its table.
"""

from __future__ import annotations

import pytest
from weasyprint.formatting_structure import boxes

import rulesets.ore as ore
from rulesets.registry import get_ruleset
from sheets.characters.layouts import print_context
from sheets.characters.services import character_create
from sheets.printing.pdf import character_document

pytestmark = pytest.mark.django_db


def walk(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from walk(child)


def classes(box) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None else set()


def laid_out(character) -> list:
    return [box for page in character_document(character).pages for box in walk(page._page_box)]


def blank_rows(character) -> list:
    return [box for box in laid_out(character) if "blank-row" in classes(box)]


def test_the_ore_print_keeps_every_empty_armor_and_weapon_line(player):
    sheet = ore.demo_sheet()
    character = character_create(owner=player, name="Tavin Sol", system="ore", sheet=sheet)
    printed = print_context(character)["ore_print"]
    expected = printed.armor.count(None) + printed.weapons.count(None)
    ruled = blank_rows(character)
    assert expected > 0 and len(ruled) == expected
    weapons = next(
        box
        for box in laid_out(character)
        if isinstance(box, boxes.TableBox) and {"grid", "weapons"} <= classes(box)
    )
    filled_row = next(
        row
        for row in walk(weapons)
        if isinstance(row, boxes.TableRowBox)
        and any(isinstance(t, boxes.TextBox) and t.text == "Lightsaber" for t in walk(row))
    )
    for line in ruled:
        assert line.border_bottom_width > 0
        assert abs(line.margin_height() - filled_row.height) < 0.5  # px: as tall as a row


def test_the_weg_d6_print_keeps_every_empty_skill_weapon_and_equipment_line(player):
    sheet = get_ruleset("weg_d6").demo_sheet()
    character = character_create(owner=player, name="Jax Durran", system="weg_d6", sheet=sheet)
    printed = print_context(character)["printed"]
    expected = (
        sum(len(column["blanks"]) for pair in printed["pairs"] for column in pair)
        + len(printed["weapon_blanks"])
        + len(printed["equipment_blanks"])
    )
    ruled = blank_rows(character)
    assert expected > 0 and len(ruled) == expected
    assert all(line.border_bottom_width > 0 and line.margin_height() > 15 for line in ruled)


@pytest.mark.parametrize("system", ["o3d10", "ore"])
def test_list_bullets_hang_where_an_outside_marker_would_without_its_own_boxes(system, player):
    sheet = get_ruleset(system).demo_sheet()
    character = character_create(owner=player, name="Bullets", system=system, sheet=sheet)
    layout = laid_out(character)
    assert not [box for box in layout if getattr(box, "is_outside_marker", False)]
    items = [
        box
        for box in layout
        if isinstance(box, boxes.BlockBox) and getattr(box, "element_tag", None) == "li"
    ]
    assert len(items) >= 4
    for item in items:
        first = next(text for text in walk(item) if isinstance(text, boxes.TextBox))
        assert first.text.startswith("• ")
        # Where WeasyPrint draws a disc marker: "• " wide (0.8163 em) left of the text.
        hang = item.content_box_x() - first.position_x
        assert abs(hang - 0.8163 * item.style["font_size"]) < 0.3, hang
