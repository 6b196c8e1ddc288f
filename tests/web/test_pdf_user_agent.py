"""The print user agent stylesheet (static/css/print-ua.css) changes nothing on the page.

PrintHTML overrides HTML._ua_stylesheets, private in WeasyPrint 70. These tests fail if a
WeasyPrint upgrade stops calling it, or if any print lays out otherwise than with
WeasyPrint's full HTML5 stylesheet (an element added to a print template and missing
from print-ua.css, say).
"""

from __future__ import annotations

import pytest
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from rulesets.registry import get_ruleset, ready_systems
from sheets.characters.services import character_create
from sheets.printing import pdf

pytestmark = pytest.mark.django_db


def walk(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from walk(child)


def laid_out(document) -> list[tuple]:
    """Every box of every page: its kind, element, place, size and text."""

    def rounded(value):
        return round(value, 3) if isinstance(value, float) else value

    return [
        (
            type(box).__name__,
            box.element_tag,
            rounded(box.position_x),
            rounded(box.position_y),
            rounded(box.width),
            rounded(box.height),
            getattr(box, "text", None),
            box.style["color"],
            box.style["font_size"],
            box.style["font_weight"],
        )
        for page in document.pages
        for box in walk(page._page_box)
    ]


@pytest.mark.parametrize("system", [info.key for info in ready_systems()])
def test_every_print_lays_out_as_with_the_full_user_agent_stylesheet(system, player, monkeypatch):
    sheet = get_ruleset(system).demo_sheet()
    character = character_create(owner=player, name="Same Page", system=system, sheet=sheet)
    ours = pdf.character_document(character)
    monkeypatch.setattr(pdf, "PrintHTML", HTML)  # WeasyPrint's own, full stylesheet
    full = pdf.character_document(character)
    assert laid_out(ours) == laid_out(full)
    assert ours.make_bookmark_tree() == full.make_bookmark_tree()  # the PDF outline
    assert ours.write_pdf() == full.write_pdf()


def test_weasyprint_still_takes_the_user_agent_stylesheet_from_the_override():
    # The full stylesheet hides [hidden] elements; print-ua.css leaves that rule out, so
    # the paragraph shows only when WeasyPrint styles the page with PrintHTML's sheet.
    def texts(page: HTML) -> set[str]:
        return {
            box.text
            for laid in page.render().pages
            for box in walk(laid._page_box)
            if isinstance(box, boxes.TextBox)
        }

    probe = "<p hidden>from print-ua.css</p><p>always</p>"
    assert texts(HTML(string=probe)) == {"always"}
    assert texts(pdf.PrintHTML(string=probe)) == {"from print-ua.css", "always"}
