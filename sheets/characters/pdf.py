"""Render a character's print template to PDF bytes with WeasyPrint.

The print layout and its CSS live in templates/rulesets/<key>/print.html and
static/css/print-<key>.css; fonts come from static/fonts, so every machine prints the
same page whatever fonts it has installed.
"""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from weasyprint import HTML

from sheets.characters.layouts import sheet_context
from sheets.characters.models import Character

STATIC_DIR = settings.BASE_DIR / "static"


def render_character_pdf(character: Character) -> bytes:
    html = render_to_string(f"rulesets/{character.system}/print.html", sheet_context(character))
    # base_url lets the template link css/ and fonts/ relative to static/, read from disk.
    return HTML(string=html, base_url=str(STATIC_DIR) + "/").write_pdf()
