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

Every page is styled with WeasyPrint's own HTML5 user agent stylesheet. WeasyPrint offers
no public way to swap it for a smaller one (an earlier version here overrode a private
method to, for some 0 to 30 ms a render): the cost is small beside the layout itself, and
a print that depends on no private code prints the same after an upgrade or fails loudly.

WeasyPrint reads every URL a page or stylesheet names. Its own fetcher would read any
local file (an attachment link to file:///etc/... embeds that file in the PDF) or any
web address, so every render here goes through StaticFilesOnly: files under static/
and nothing else, whatever a template lets through, but for one kind of data: URI, a
picture carried in the page itself (the character's portrait), which reads nothing.

A finished PDF is kept in a small per-process cache, keyed by everything the print
depends on (character, version, a hash of its sheet, name and readings in force, the
print templates): such a key never goes stale, so a repeat download of an unchanged
sheet is not rendered again.

A process's first print of a system also parses its stylesheets, loads its fonts (and
Pango and HarfBuzz their font data) and compiles its templates. `warm_up` pays that at a
gunicorn worker's start (sheets/wsgi.py) by printing each ready system's demo sheet once,
without the database. Nothing here replaces or overrides another library's functions,
methods or globals, nor reads their private attributes: a first print costs what
WeasyPrint takes, and the PDF cache spares the repeat.

A render makes some 20,000 to 45,000 objects that refer to each other in cycles, which only
Python's cycle collector frees. Left to run during a render, the collector keeps sweeping
the render's own live boxes and moves them into its oldest generation, where they die and
wait for a full collection of every object the process holds: 80 to 100 ms, on about every
other render. So a render runs with the collector paused and then collects just its
youngest generation, which holds all of the render's cycles (tests/web/test_pdf.py checks
that a full collection afterwards finds next to nothing).
"""

from __future__ import annotations

import base64
import binascii
import gc
import hashlib
import io
import json
import logging
import mimetypes
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.db.models import Prefetch, prefetch_related_objects
from django.template.loader import render_to_string
from weasyprint import CSS, HTML, Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from rulesets.registry import get_ruleset, ready_systems
from sheets.advancement.models import LedgerEntry
from sheets.characters.layouts import print_context
from sheets.characters.models import Character
from sheets.characters.portraits import data_uri, portrait_of

STATIC_DIR = settings.BASE_DIR / "static"

logger = logging.getLogger(__name__)


# A picture inline in the page (the portrait, sheets/characters/portraits.py): only the
# kinds Datapad stores, base64 encoded.
INLINE_PICTURE = re.compile(r"data:(image/(?:jpeg|png|webp));base64,", re.IGNORECASE)


class StaticFilesOnly(URLFetcher):
    """A WeasyPrint URL fetcher that serves the files under STATIC_DIR (fonts, CSS) and
    pictures inline in a data: URI (decoded here, so they read nothing), and refuses every
    other URL: web addresses, other data: URIs and file: paths outside it, however they
    are spelled (../, symbolic links, %2e%2e)."""

    def __init__(self, root: Path = STATIC_DIR) -> None:
        super().__init__()
        self.root = root.resolve()

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        picture = self.inline_picture(url)
        if picture is not None:
            kind, body = picture
            return URLFetcherResponse(url, body=body, headers={"Content-Type": kind})
        path = self.static_file(url)
        if path is None:
            # WeasyPrint catches this, logs it and leaves the resource out of the page.
            raise ValueError(f"a print reads only Datapad's own files, not {url[:80]}")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            path.as_uri(), body=path.read_bytes(), headers={"Content-Type": kind}
        )

    @staticmethod
    def inline_picture(url: str) -> tuple[str, bytes] | None:
        """The media type and bytes of a picture inline in `url`, or None."""
        kind = INLINE_PICTURE.match(url)
        if kind is None:
            return None
        try:
            body = base64.b64decode(url[kind.end() :], validate=True)
        except (binascii.Error, ValueError):
            return None
        return kind.group(1).lower(), body

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
    portrait = portrait_of(character)
    context = print_context(character) | {
        "handout": handout,
        # Inline, so the fetcher reads nothing for it (see StaticFilesOnly).
        "portrait": data_uri(portrait) if portrait is not None else "",
    }
    html = render_to_string(f"rulesets/{character.system}/print.html", context)
    stylesheets, fonts = _print_style(character.system)
    page = HTML(string=html, base_url=str(STATIC_DIR) + "/", url_fetcher=FETCHER)
    return page.render(stylesheets=stylesheets, font_config=fonts)


def render_character_pdf(character: Character) -> bytes:
    return PDF_CACHE.get_or_render(pdf_key(character), lambda: _render(character))


def _render(character: Character) -> bytes:
    with COLLECTOR_PAUSE.held():
        return character_document(character).write_pdf()


class TableBook:
    """The table's PDF, a sheet at a time: each sheet is laid out, written to PDF bytes and
    its pages appended here before the next is laid out, so a build holds one sheet's
    layout at most (tens of megabytes each) and, beside it, the finished sheets' few kilobytes
    of PDF, whatever the number of sheets (50 sheets: 23 MB over an idle worker where the
    whole table laid out at once took 162 MB). Each sheet keeps its own subset of the fonts:
    some 8 KB more a sheet than one document sharing them (0.9 MB for 50 sheets against
    0.5 MB), the price of flat memory."""

    def __init__(self, *, title: str) -> None:
        # Imported here, in the task worker that builds a table's PDF: pypdf adds some 7 MB
        # to a process, which the web workers (they only print single sheets) are spared.
        from pypdf import PdfWriter

        self.title = title
        self._writer = PdfWriter()

    def add(self, character: Character) -> None:
        with COLLECTOR_PAUSE.held():
            sheet = character_document(character, handout=True).write_pdf()
        # Its pages and its outline (the sheet's headings), after the sheets before it.
        self._writer.append(io.BytesIO(sheet))

    def finish(self) -> bytes:
        # The sheets' identical objects (most of their fonts' descriptions) kept once:
        # 1.5 MB down to 0.9 MB for 50 sheets, in some 70 ms.
        self._writer.compress_identical_objects()
        self._writer.add_metadata({"/Title": self.title})
        out = io.BytesIO()
        self._writer.write(out)
        return out.getvalue()


class CollectorPause:
    """Keeps Python's cycle collector off while any thread holds it, then frees the
    youngest generation, where everything made meanwhile still is. The collector's switch
    is one for the whole process, so holders are counted: it comes back on (if it was on
    to begin with) when the last one lets go."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders = 0
        self._was_enabled = False

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._lock:
            if self._holders == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._holders += 1
        try:
            yield
        finally:
            with self._lock:
                self._holders -= 1
                if self._holders == 0 and self._was_enabled:
                    gc.enable()
            gc.collect(0)


COLLECTOR_PAUSE = CollectorPause()


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


def warm_up(systems: list[str] | None = None) -> dict[str, BaseException | None]:
    """Print each ready system's demo sheet once and throw the PDF away, so that the first
    print a user asks of a system in this process does not also pay for parsing its
    stylesheets, loading its fonts and shaping its labels (sheets/wsgi.py calls it at a
    worker's start). Touches no database and no PDF cache. A system that fails is logged
    and skipped: a broken print must not stop a worker from starting. Returns each
    system's error, or None where it printed."""
    keys = systems if systems is not None else [info.key for info in ready_systems()]
    outcome: dict[str, BaseException | None] = {}
    for key in keys:
        try:
            _render(warm_up_character(key))
        except Exception as error:
            logger.exception("PDF warm-up of %r failed; its first print will be slow", key)
            outcome[key] = error
        else:
            outcome[key] = None
    return outcome


def warm_up_character(system: str) -> Character:
    """An unsaved character holding `system`'s demo sheet, printable without a database:
    its ledger sums are kept on it already (zero), and its ledger reads as an empty
    query, which Django answers without asking the database."""
    character = Character(
        pk=-1, name="Warm-up", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    # What sheets.advancement.figures.keep_figures would have summed: no entries.
    character.ledger_earned = character.ledger_spent = 0
    character.ledger_carried = character.ledger_held = 0
    # Its ledger prefetched as an empty query: Django answers one that can match nothing
    # without asking the database, and the related manager then hands out that answer.
    prefetch_related_objects([character], Prefetch("ledger", queryset=LedgerEntry.objects.none()))
    return character
