"""Render a character's print template to PDF bytes with WeasyPrint.

The print layout lives in templates/rulesets/<key>/print.html and its stylesheet in
static/css/print-<key>.css, over static/css/print-base.css; fonts come from static/fonts,
so every machine prints the same page whatever fonts it has installed.

WeasyPrint reads every URL a page or stylesheet names. Its own fetcher would read any
local file (an attachment link to file:///etc/... embeds that file in the PDF) or any
web address, so every render here goes through StaticFilesOnly: files under static/
and nothing else, whatever a template lets through.
"""

from __future__ import annotations

import mimetypes
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.template.loader import render_to_string
from weasyprint import CSS, HTML, Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from sheets.characters.layouts import print_context
from sheets.characters.models import Character

STATIC_DIR = settings.BASE_DIR / "static"


class StaticFilesOnly(URLFetcher):
    """A WeasyPrint URL fetcher that serves the files under STATIC_DIR (fonts, CSS) and
    refuses every other URL: web addresses, data: and file: paths outside it, however
    they are spelled (../, symbolic links, %2e%2e)."""

    def __init__(self, root: Path = STATIC_DIR) -> None:
        super().__init__()
        self.root = root.resolve()

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        path = self.static_file(url)
        if path is None:
            # WeasyPrint catches this, logs it and leaves the resource out of the page.
            raise ValueError(f"a print reads only Datapad's own files, not {url[:80]}")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            path.as_uri(), body=path.read_bytes(), headers={"Content-Type": kind}
        )

    def static_file(self, url: str) -> Path | None:
        """The file under the static directory that `url` names, or None."""
        parts = urlsplit(url)
        if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
            return None
        try:
            path = Path(unquote(parts.path)).resolve(strict=True)
        except (OSError, RuntimeError, ValueError):
            return None
        return path if path.is_relative_to(self.root) and path.is_file() else None


FETCHER = StaticFilesOnly()


@lru_cache(maxsize=8)
def _print_style(system: str) -> tuple[list[CSS], FontConfiguration]:
    # Parsing the stylesheets and loading their @font-face fonts once per process saves
    # a good part of every render; a changed print CSS needs a server restart.
    fonts = FontConfiguration()
    sheets = [
        CSS(filename=str(STATIC_DIR / "css" / name), font_config=fonts, url_fetcher=FETCHER)
        for name in ("print-base.css", f"print-{system}.css")
    ]
    return sheets, fonts


def character_document(character: Character) -> Document:
    """Lay out one sheet's print as pages: one PDF, or a part of the table's PDF."""
    html = render_to_string(f"rulesets/{character.system}/print.html", print_context(character))
    stylesheets, fonts = _print_style(character.system)
    page = HTML(string=html, base_url=str(STATIC_DIR) + "/", url_fetcher=FETCHER)
    return page.render(stylesheets=stylesheets, font_config=fonts)


def render_character_pdf(character: Character) -> bytes:
    return character_document(character).write_pdf()
