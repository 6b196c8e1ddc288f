"""Render a character's print template to PDF bytes with WeasyPrint.

The print layout lives in templates/rulesets/<key>/print.html and its stylesheet in
static/css/print-<key>.css, over static/css/print-base.css; fonts come from static/fonts,
so every machine prints the same page whatever fonts it has installed.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.template.loader import render_to_string
from weasyprint import CSS, HTML, Document
from weasyprint.text.fonts import FontConfiguration

from sheets.characters.layouts import print_context
from sheets.characters.models import Character

STATIC_DIR = settings.BASE_DIR / "static"


@lru_cache(maxsize=8)
def _print_style(system: str) -> tuple[list[CSS], FontConfiguration]:
    # Parsing the stylesheets and loading their @font-face fonts once per process saves
    # a good part of every render; a changed print CSS needs a server restart.
    fonts = FontConfiguration()
    sheets = [
        CSS(filename=str(STATIC_DIR / "css" / name), font_config=fonts)
        for name in ("print-base.css", f"print-{system}.css")
    ]
    return sheets, fonts


def character_document(character: Character) -> Document:
    """Lay out one sheet's print as pages: one PDF, or a part of the table's PDF."""
    html = render_to_string(f"rulesets/{character.system}/print.html", print_context(character))
    stylesheets, fonts = _print_style(character.system)
    return HTML(string=html, base_url=str(STATIC_DIR) + "/").render(
        stylesheets=stylesheets, font_config=fonts
    )


def render_character_pdf(character: Character) -> bytes:
    return character_document(character).write_pdf()
