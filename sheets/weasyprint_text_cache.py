"""Remember how WeasyPrint lays out and draws each run of text, across renders.

WeasyPrint (70) shapes every text box with Pango several times a render: once or more to
measure the min- and max-content widths of its table cell, once to split its line
(`weasyprint.text.line_break.split_first_line`), and once more to draw it
(`weasyprint.draw.text.draw_first_line`, after `Layout.reactivate` has built the Pango
layout anew). Most of a sheet's text (trait names, headings, dots, die codes) is the same
from one version of a sheet to the next, from one character to the next, and often
within one sheet, so a process that printed a sheet has already shaped nearly all of the
next one's text. `install()` routes these steps through TEXT_CACHE:

Splitting. `cached_split_first_line` answers for the inline layout and min/max-content
measuring (weasyprint.layout.inline and .preferred look it up as a module global; SVG text
keeps the original). A call is the same call when it has the same text, width, arguments,
font configuration and every style property WeasyPrint's text code reads (KEY_PROPERTIES).
The answer is reusable because split_first_line returns numbers and a layout that is
already deactivated (its Pango objects and style dropped in `first_line_metrics`): plain
data (the line's text, max width, justification spacing, direction, decoration metrics).
Each caller gets a KeptLayout of its own holding a copy of that data, so what drawing
does to a box's layout never reaches the kept copy, nor another render in another thread.

Struts. WeasyPrint keeps each style's strut (line height and baseline) in the font
configuration already, but finds it under a string it formats from fourteen style values
on every call, some 700 a print; `cached_strut` finds the same strut under a tuple of
those values and more.

Drawing. A KeptLayout builds its Pango layout only when something reads it, so a line
drawn from the cache is never shaped. `cached_draw_first_line` draws a line the first
time through WeasyPrint's own draw_first_line, with a recorder standing in for the PDF
stream and the fonts, and keeps what it wrote: the text operators, and the glyph widths
and Unicode mappings it filled in on the document's fonts. A replay writes the same
operators and fills the fonts the same way (the first mapping of a glyph wins, as in
WeasyPrint). What WeasyPrint writes for a glyph also depends on the width the document's
font already holds for it, which the first line to use the glyph set (at that line's
size, rounded), so a replay first checks every glyph against the widths the recording
used; any difference, a font the document has not loaded yet, an ellipsis, a missing
glyph, an emoji or any stream call the recorder does not know sends the line to
WeasyPrint instead. The result is the same PDF, byte for byte.

TEXT_CACHE keeps the newest 4096 splits, struts and drawings, some 1.6 KB each (under
7 MB a process; all 22 demo characters of the four systems use about 2,500).

Which font configuration: only those the print registers (`TEXT_CACHE.register`, once
their @font-face rules are in), each under a generation number renewed if a font face
is ever added to it, so an answer is only reused with the very fonts that produced it.

Left to WeasyPrint, never cached: text with `hyphens: auto` (its split depends on the
render's hyphenation dictionaries), any style value that cannot be a dictionary key,
any unregistered font configuration, any layout that comes back holding more than plain
values. tests/web/test_pdf_text_cache.py holds every print to the same PDF bytes with
the cache empty, warm and off, and fails if WeasyPrint's text code reads a style property
missing from KEY_PROPERTIES or changes the shape this module relies on.
"""

from __future__ import annotations

import itertools
import operator
import threading
import weakref
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from weasyprint.draw import text as draw_text
from weasyprint.layout import inline, preferred
from weasyprint.text import line_break
from weasyprint.text.fonts import FontConfiguration, get_pango_font_key

# Every style property weasyprint/text/line_break.py and weasyprint/text/fonts.py read,
# and those draw_first_line reads (the test lists them from the source). A few (line
# height, say) change neither a split nor a drawing: keying on them only costs a few hits.
KEY_PROPERTIES = (
    "direction",
    "font_family",
    "font_feature_settings",
    "font_kerning",
    "font_language_override",
    "font_size",
    "font_stretch",
    "font_style",
    "font_variant_alternates",
    "font_variant_caps",
    "font_variant_east_asian",
    "font_variant_ligatures",
    "font_variant_numeric",
    "font_variant_position",
    "font_variation_settings",
    "font_weight",
    "hyphenate_character",
    "hyphenate_limit_chars",
    "hyphenate_limit_zone",
    "hyphens",
    "lang",
    "letter_spacing",
    "line_height",
    "overflow_wrap",
    "tab_size",
    "text_decoration_line",
    "white_space",
    "word_break",
    "word_spacing",
)

style_values = operator.itemgetter(*KEY_PROPERTIES)

# What a deactivated layout may hold for the cache to keep it: values nothing can mutate.
PLAIN_VALUES = (str, int, float, bool, type(None))

original_split_first_line = line_break.split_first_line
original_strut = line_break.strut
original_draw_first_line = draw_text.draw_first_line
original_add_font_face = FontConfiguration.add_font_face


class TextLayoutCache:
    """The last `size` splits and drawings of text, newest kept longest, with counts by
    kind ("split", "strut", "draw"; for the bench and the tests) and a switch to turn it
    off."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.hits: Counter[str] = Counter()
        self.misses: Counter[str] = Counter()
        # Drawings found but not replayed: the document's fonts differed (see _replay).
        self.refused: Counter[str] = Counter()
        self.enabled = True
        self._entries: OrderedDict[tuple, tuple] = OrderedDict()
        self._lock = threading.Lock()
        # Registered font configurations and their generation; weak, so a configuration
        # nobody holds goes away and its number is never handed out again.
        self._generations: weakref.WeakKeyDictionary[FontConfiguration, int] = (
            weakref.WeakKeyDictionary()
        )
        self._counter = itertools.count(1)

    def register(self, font_config: FontConfiguration) -> None:
        """Cache the text laid out with `font_config` (call it once its fonts are in)."""
        with self._lock:
            self._generations[font_config] = next(self._counter)

    def fonts_changed(self, font_config: FontConfiguration) -> None:
        # A font face added to a registered configuration: what was kept so far may have
        # used a fallback font that the new face now replaces, so it never matches again.
        with self._lock:
            if font_config in self._generations:
                self._generations[font_config] = next(self._counter)

    def clear(self) -> None:
        """Forget every split and drawing (the counts stay)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    @contextmanager
    def disabled(self) -> Iterator[None]:
        """Lay text out with WeasyPrint's own functions for the duration (tests, bench)."""
        was = self.enabled
        self.enabled = False
        try:
            yield
        finally:
            self.enabled = was

    def key(self, kind: str, text: str, style, *arguments) -> tuple | None:
        """The key of one split or drawing, or None for one that must go to WeasyPrint."""
        if not self.enabled:
            return None
        generation = self._generations.get(style.font_config)
        if generation is None or style["hyphens"] == "auto":
            return None
        key = (kind, generation, text, *arguments, *style_values(style))
        try:
            hash(key)
        except TypeError:
            # text-decoration-line computes to a set ({"line-through"}); the same values
            # frozen make an equal key. Anything else unhashable goes to WeasyPrint.
            key = tuple(frozenset(value) if isinstance(value, set) else value for value in key)
            try:
                hash(key)
            except TypeError:
                return None
        return key

    def get(self, key: tuple) -> tuple | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses[key[0]] += 1
            else:
                self._entries.move_to_end(key)
                self.hits[key[0]] += 1
            return entry

    def put(self, key: tuple, entry: tuple) -> None:
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def refuse(self, key: tuple) -> None:
        with self._lock:
            self.refused[key[0]] += 1


TEXT_CACHE = TextLayoutCache()


class KeptLayout(line_break.Layout):
    """A deactivated layout, as split_first_line returns it, that builds its Pango layout
    only when something reads it: a line drawn from the cache is never shaped."""

    def reactivate(self, style) -> None:
        self.__dict__["_activate_with"] = style

    def __getattr__(self, name: str):
        # Only reached for an attribute the layout does not hold: the Pango layout, its
        # language and style, which reactivate() deferred.
        style = self.__dict__.pop("_activate_with", None)
        if style is None:
            raise AttributeError(name)
        line_break.Layout.reactivate(self, style)
        return getattr(self, name)

    def deactivate(self) -> None:
        if self.__dict__.pop("_activate_with", None) is None:
            line_break.Layout.deactivate(self)


def _kept_layout(layout_data: dict) -> KeptLayout:
    layout = KeptLayout.__new__(KeptLayout)
    layout.__dict__.update(layout_data)
    return layout


def cached_split_first_line(
    text,
    style,
    context,
    max_width,
    justification_spacing,
    is_line_start=True,
    minimum=False,
):
    """split_first_line, answered from TEXT_CACHE when the same call was seen before."""
    arguments = (max_width, justification_spacing, is_line_start, minimum)
    key = TEXT_CACHE.key("split", text, style, *arguments)
    if key is None:
        return original_split_first_line(text, style, context, *arguments)
    entry = TEXT_CACHE.get(key)
    if entry is None:
        layout, *metrics = original_split_first_line(text, style, context, *arguments)
        layout_data = dict(vars(layout))
        if not all(isinstance(value, PLAIN_VALUES) for value in (*layout_data.values(), *metrics)):
            return (layout, *metrics)
        entry = (layout_data, tuple(metrics))
        TEXT_CACHE.put(key, entry)
    layout_data, metrics = entry
    return (_kept_layout(layout_data), *metrics)


def cached_strut(style):
    """strut (a line's height and baseline for a style), from TEXT_CACHE: the key holds
    the values of WeasyPrint's own strut key and more, so it finds the strut WeasyPrint
    would, without formatting them as a string on every call."""
    key = TEXT_CACHE.key("strut", "", style)
    if key is None:
        return original_strut(style)
    entry = TEXT_CACHE.get(key)
    if entry is None:
        entry = original_strut(style)
        TEXT_CACHE.put(key, entry)
    return entry


# Drawing: the recorder and the replay.


class _Recording:
    """Stands in for the PDF stream while WeasyPrint draws one line: passes every call on
    and notes, in order, what a replay must repeat. A call it does not know marks the
    line as one to leave to WeasyPrint every time."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self.steps: list[tuple] = []
        self.replayable = True
        self._font_hash = None

    def set_text_matrix(self, *values) -> None:
        self.steps.append(("matrix",))
        self._stream.set_text_matrix(*values)

    def add_font(self, pango_font):
        font, font_size = self._stream.add_font(pango_font)
        key, _, _ = get_pango_font_key(pango_font)
        if self._stream._fonts.get(key) is not font:  # not where a replay looks it up
            self.replayable = False
        self.steps.append(("font", key))
        self._font_hash = font.hash
        return _RecordingFont(font, self), font_size

    def set_font_size(self, font, size) -> None:
        if font != self._font_hash:  # a replay sets the size of the last font added
            self.replayable = False
        self.steps.append(("size", size))
        self._stream.set_font_size(font, size)

    def show_text(self, text) -> None:
        self.steps.append(("show", text))
        self._stream.show_text(text)

    def set_text_rise(self, height) -> None:
        self.steps.append(("rise", height))
        self._stream.set_text_rise(height)

    @property
    def ink_rect(self):
        return self._stream.ink_rect

    @property
    def logical_rect(self):
        return self._stream.logical_rect

    def __getattr__(self, name: str):
        self.replayable = False
        return getattr(self._stream, name)


class _RecordingFont:
    """A document font as draw_first_line sees it during a recording: its glyph widths
    and Unicode mappings noted as the line reads and fills them."""

    def __init__(self, font, recording: _Recording) -> None:
        self._font = font
        self._recording = recording
        self.widths = _RecordingWidths(font.widths, recording.steps)
        self.to_unicode = _RecordingUnicode(font.to_unicode, recording.steps)

    @property
    def hash(self) -> str:
        return self._font.hash

    @property
    def bitmap(self) -> bool:
        return self._font.bitmap

    def __getattr__(self, name: str):
        value = getattr(self._font, name)
        # Emoji fonts (svg, png, colr) draw images beside the text; a missing glyph takes
        # a glyph number of the document (get_unused_glyph_id): neither is replayed.
        if name not in ("svg", "png", "colr") or value:
            self._recording.replayable = False
        return value


class _RecordingWidths:
    def __init__(self, widths: dict, steps: list) -> None:
        self._widths = widths
        self._steps = steps

    def __contains__(self, glyph) -> bool:
        return glyph in self._widths

    def __getitem__(self, glyph):
        width = self._widths[glyph]
        # Read from the font: a replay needs the same width there (no width to set).
        self._steps.append(("width", glyph, width, None))
        return width

    def __setitem__(self, glyph, width) -> None:
        self._widths[glyph] = width
        self._steps.append(("width", glyph, width, width))


class _RecordingUnicode:
    def __init__(self, to_unicode: dict, steps: list) -> None:
        self._to_unicode = to_unicode
        self._steps = steps

    def __contains__(self, glyph) -> bool:
        # Never there, as far as the line knows: it works out every glyph's text, and the
        # replay fills a glyph the document does not map yet, whichever line comes first.
        return False

    def __setitem__(self, glyph, text) -> None:
        self._to_unicode.setdefault(glyph, text)  # the first mapping wins, as in WeasyPrint
        self._steps.append(("unicode", glyph, text))


def _replay(stream, steps: tuple, matrix) -> bool:
    """Write a recorded line to `stream`, or nothing and False if the document's fonts
    differ from what the recording met (a font not loaded yet, another glyph width)."""
    fonts = stream._fonts
    font = None
    used: list = []
    widths_set: dict = {}  # (font, glyph): the width this line sets before using it again
    for step in steps:
        if step[0] == "font":
            font = fonts.get(step[1])
            if font is None:
                return False
            used.append(font)
        elif step[0] == "width":
            _, glyph, width, set_width = step
            held = widths_set.get((id(font), glyph), font.widths.get(glyph))
            if held is None:
                if set_width is None:
                    return False
                widths_set[(id(font), glyph)] = held = set_width
            if held != width:
                return False
    fonts_used = iter(used)
    for step in steps:
        kind = step[0]
        if kind == "width":
            if step[3] is not None:
                font.widths.setdefault(step[1], step[3])
        elif kind == "unicode":
            font.to_unicode.setdefault(step[1], step[2])
        elif kind == "show":
            stream.show_text(step[1])
        elif kind == "font":
            font = next(fonts_used)
        elif kind == "size":
            stream.set_font_size(font.hash, step[1])
        elif kind == "matrix":
            stream.set_text_matrix(*matrix.values)
        else:  # "rise"
            stream.set_text_rise(step[1])
    return True


def cached_draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix):
    """draw_first_line, replayed from TEXT_CACHE for a line drawn before."""
    layout = textbox.pango_layout
    if (
        type(layout) is not KeptLayout
        or text_overflow == "ellipsis"
        or block_ellipsis != "none"
        or not textbox.text.strip()
        or textbox.style["font_size"] < 1e-6
    ):
        return original_draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix)
    key = TEXT_CACHE.key("draw", layout.text, textbox.style, layout.justification_spacing)
    if key is None:
        return original_draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix)
    entry = TEXT_CACHE.get(key)
    if entry is not None:
        if _replay(stream, entry, matrix):
            return []
        TEXT_CACHE.refuse(key)
    recording = _Recording(stream)
    emojis = original_draw_first_line(recording, textbox, text_overflow, block_ellipsis, matrix)
    if recording.replayable and not emojis:
        TEXT_CACHE.put(key, tuple(recording.steps))
    return emojis


def _add_font_face(self, rule_descriptors, url_fetcher):
    result = original_add_font_face(self, rule_descriptors, url_fetcher)
    TEXT_CACHE.fonts_changed(self)
    return result


def install() -> None:
    """Route WeasyPrint's text layout and drawing through the cache; calling it again
    changes nothing."""
    inline.split_first_line = cached_split_first_line
    inline.strut = cached_strut
    preferred.split_first_line = cached_split_first_line
    draw_text.draw_first_line = cached_draw_first_line
    FontConfiguration.add_font_face = _add_font_face
