"""Render a character's print template to PDF bytes with WeasyPrint.

The print layout lives in templates/rulesets/<key>/print.html and its stylesheet in
static/css/print-<key>.css, over static/css/print-base.css; fonts come from static/fonts,
so every machine prints the same page whatever fonts it has installed.

A render costs about the same for every box WeasyPrint lays out (each element, each line
of text), whatever the CSS, so the print templates keep boxes few: fixed table layouts
(no measuring every cell to size columns) and ruled boxes for empty write-in lines
(tests/web/test_pdf_speed_layout.py holds those to printing every row in its place). A
row per trait stays, though a column of lines would be fewer boxes: the PDF's text then
reads trait by trait, name beside value, for copying and for screen readers.

WeasyPrint reads every URL a page or stylesheet names. Its own fetcher would read any
local file (an attachment link to file:///etc/... embeds that file in the PDF) or any
web address, so every render here goes through StaticFilesOnly: files under static/
and nothing else, whatever a template lets through.

A finished PDF is kept in a small per-process cache, keyed by everything the print
depends on (character, version, a hash of its sheet, name and readings in force, the
print templates): such a key never goes stale, so a repeat download of an unchanged
sheet is not rendered again.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
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


def character_document(character: Character, *, handout: bool = False) -> Document:
    """Lay out one sheet's print as pages: one PDF, or (`handout`) a part of the table's PDF,
    which leaves out what only the sheet's own player needs, such as its stage."""
    context = print_context(character) | {"handout": handout}
    html = render_to_string(f"rulesets/{character.system}/print.html", context)
    stylesheets, fonts = _print_style(character.system)
    page = HTML(string=html, base_url=str(STATIC_DIR) + "/", url_fetcher=FETCHER)
    return page.render(stylesheets=stylesheets, font_config=fonts)


def render_character_pdf(character: Character) -> bytes:
    return PDF_CACHE.get_or_render(pdf_key(character), lambda: _render(character))


def _render(character: Character) -> bytes:
    return character_document(character).write_pdf()


TEMPLATES_DIR = settings.BASE_DIR / "templates" / "rulesets"


def _templates_stamp(system: str) -> int:
    # The newest print template: an edited template (runserver reloads templates without a
    # restart) makes a new key rather than serving an old layout. A few dozen stat calls.
    newest = 0
    for folder in (TEMPLATES_DIR, TEMPLATES_DIR / system):
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_file():
                    newest = max(newest, entry.stat().st_mtime_ns)
    return newest


def pdf_key(character: Character) -> tuple:
    """Everything one character's print depends on: the sheet's content itself (hashed,
    so a key can never outlive what it names, even where a database reuses an id after
    a rollback), its name and version, the readings in force (a campaign's may change
    without touching the sheet), and the print templates."""
    content = json.dumps(
        [character.name, character.sheet, character.readings_in_force],
        sort_keys=True,
        default=str,
    )
    return (
        character.pk,
        character.version,
        character.system,
        hashlib.sha256(content.encode()).hexdigest(),
        _templates_stamp(character.system),
    )


class PdfCache:
    """The last `size` PDFs this process rendered, newest kept longest. Counts renders and
    hits so the bench and the tests can see what was served from it."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self.renders = 0
        self.hits = 0
        self._entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_render(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                self.hits += 1
                return self._entries[key]
        pdf = render()  # outside the lock: two threads may render the same key once each
        with self._lock:
            self.renders += 1
            self._entries[key] = pdf
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return pdf

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


PDF_CACHE = PdfCache()
