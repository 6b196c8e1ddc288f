"""Text laid out and drawn from the cache (sheets/weasyprint_text_cache.py) prints the same
PDF.

The cache answers WeasyPrint's split_first_line and strut, and replays draw_first_line,
from earlier renders in the process. These tests hold every system's print to the same
bytes and boxes with the cache empty, warm from other characters and versions, and off;
check that a print really is answered from it; and fail loudly if WeasyPrint's text code
changes shape under the patch (a style property the key leaves out, another signature, a
layout that keeps more than plain values, callers that no longer look the functions up
where install() puts them).
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from weasyprint import CSS
from weasyprint.draw import text as draw_text
from weasyprint.formatting_structure import boxes
from weasyprint.layout import inline, preferred
from weasyprint.matrix import Matrix
from weasyprint.pdf.stream import Stream
from weasyprint.text import fonts, line_break
from weasyprint.text.fonts import FontConfiguration

from rulesets.registry import get_ruleset, ready_systems
from sheets import weasyprint_text_cache
from sheets.characters import pdf
from sheets.characters.services import character_apply_edits, character_create
from sheets.weasyprint_text_cache import KEY_PROPERTIES, TEXT_CACHE, KeptLayout, TextLayoutCache

pytestmark = pytest.mark.django_db

SYSTEMS = [info.key for info in ready_systems()]
FONT = pdf.STATIC_DIR / "fonts"


def walk(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from walk(child)


def laid_out(document) -> list[tuple]:
    """Every box of every page: its kind, element, place, size and text."""
    return [
        (
            type(box).__name__,
            box.element_tag,
            box.position_x,
            box.position_y,
            box.width,
            box.height,
            getattr(box, "text", None),
        )
        for page in document.pages
        for box in walk(page._page_box)
    ]


def printed(character) -> tuple[bytes, list[tuple]]:
    """A first render of the sheet (never the PDF cache): its PDF and its boxes."""
    document = pdf.character_document(character)
    with pdf.COLLECTOR_PAUSE.held():
        return document.write_pdf(), laid_out(document)


def uncached(character) -> tuple[bytes, list[tuple]]:
    with TEXT_CACHE.disabled():
        return printed(character)


class Tally:
    """What the cache answered while the block ran: hits, misses and refused replays by
    kind ("split", "strut", "draw")."""

    def __enter__(self) -> Tally:
        self._before = [Counter(TEXT_CACHE.hits), Counter(TEXT_CACHE.misses)]
        self._before.append(Counter(TEXT_CACHE.refused))
        return self

    def __exit__(self, *exc) -> None:
        self.hits = TEXT_CACHE.hits - self._before[0]
        self.misses = TEXT_CACHE.misses - self._before[1]
        self.refused = TEXT_CACHE.refused - self._before[2]


def demo(owner, system: str, name: str = "Demo", info: dict | None = None):
    """A character on the system's demo sheet, its header's free text changed by `info`."""
    sheet = copy.deepcopy(get_ruleset(system).demo_sheet())
    sheet["info"].update(info or {})
    return character_create(owner=owner, name=name, system=system, sheet=sheet)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_print_is_the_same_with_the_cache_empty_warm_and_off(system, player):
    character = demo(player, system, "Same Page")
    off = uncached(character)

    TEXT_CACHE.clear()
    with Tally() as cold:
        assert printed(character) == off
    assert cold.misses["split"] > 0 and cold.misses["draw"] > 0

    # Warm from another character of the system: most of the text is the same, and the
    # document's fonts load in another order (some replays refused, drawn by WeasyPrint).
    TEXT_CACHE.clear()
    printed(demo(player, system, "Someone Else", {"player": "Another player"}))
    with Tally() as warm:
        assert printed(character) == off
    assert warm.hits["split"] > cold.hits["split"] and warm.misses["split"] < cold.misses["split"]
    assert warm.hits["draw"] > cold.hits["draw"] and warm.refused["draw"] > 0

    # Warm from the sheet itself: nothing laid out or drawn anew but the lines whose
    # replay the document refused.
    with Tally() as again:
        assert printed(character) == off
    assert not again.misses and again.hits["split"] == warm.hits["split"] + warm.misses["split"]
    assert again.hits["strut"] > 0 and again.hits["draw"] > again.refused["draw"]


@pytest.mark.parametrize(
    ("system", "edit"),
    [
        ("swd10", {"abil.stealth": "2"}),
        ("ore", {"wound.torso.0": "cycle"}),
        ("weg_d6", {"attr.dexterity": "3D+2"}),
        ("o3d10", {"hp.current": "12"}),
    ],
)
def test_a_new_version_prints_as_without_the_cache_after_the_last(system, edit, player):
    character = demo(player, system, "Next Version")
    TEXT_CACHE.clear()
    printed(character)
    character_apply_edits(
        user=player, character_id=character.pk, edits=edit, expected_version=character.version
    )
    character.refresh_from_db()
    with Tally() as tally:
        after = printed(character)
    assert tally.hits["split"] > tally.misses["split"] and tally.hits["draw"] > 0
    assert after == uncached(character)


def test_the_tables_pdf_of_every_system_is_the_same_with_the_cache_warm_and_off(player):
    # As sheets.campaigns.printing builds it: every sheet's pages in one document, drawn
    # together, so that a line recorded with one system's fonts is replayed among others.
    characters = [demo(player, system, f"Handout {system}") for system in SYSTEMS]

    def table_pdf() -> bytes:
        documents = [pdf.character_document(each, handout=True) for each in characters]
        pages = [page for document in documents for page in document.pages]
        with pdf.COLLECTOR_PAUSE.held():
            return documents[0].copy(pages).write_pdf()

    with TEXT_CACHE.disabled():
        off = table_pdf()
    TEXT_CACHE.clear()
    assert table_pdf() == off
    with Tally() as warm:
        assert table_pdf() == off
    assert not warm.misses and warm.hits["draw"] > 0


# Free text as a player might type it: letters of many scripts, digits, punctuation,
# spaces, soft hyphens, tabs and no-break spaces, which change where a line may break.
FREE_TEXT = st.text(
    st.one_of(
        st.characters(categories=["L", "N", "P", "S", "Zs"]),
        st.sampled_from([" ", " ", "\xad", "\xa0", "\t", "-", "/"]),
    ),
    min_size=1,
    max_size=60,
).filter(str.strip)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(system=st.sampled_from(SYSTEMS), name=FREE_TEXT, text=FREE_TEXT)
def test_any_text_prints_the_same_with_the_cache_warm_and_off(player, system, name, text):
    printed(demo(player, system))  # the cache warm with the demo's text
    # Every free-text field of the sheet's header (player, species, notes...) holds `text`.
    written = {
        key: text
        for key, value in get_ruleset(system).demo_sheet()["info"].items()
        if isinstance(value, str)
    }
    character = demo(player, system, name[:60], written)
    assert printed(character) == uncached(character)
    assert printed(character) == uncached(character)  # and once more, all from the cache


def style_properties_read(source: str) -> set[str]:
    """Every style[...] a piece of source reads: style['x'], self.style['x'], box.style['x']."""
    read = set()
    for node in ast.walk(ast.parse(textwrap.dedent(source))):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            target = node.value
            name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
            if "style" in name and isinstance(node.slice.value, str):
                read.add(node.slice.value)
    return read


# Every style property WeasyPrint's text layout code reads (independent of the cache's
# own list), and those draw_first_line reads.
TEXT_CODE_READS = style_properties_read(inspect.getsource(line_break)) | style_properties_read(
    inspect.getsource(fonts)
)
DRAW_READS = style_properties_read(
    inspect.getsource(weasyprint_text_cache.original_draw_first_line)
)


# Lines of a sheet's words and of free text: kerning pairs (AV, Wa, To), ligatures (fi,
# ffi), soft hyphens, tabs, no-break spaces, so that spacing, features and breaking matter.
WORDS = st.sampled_from(
    [
        "Stealth",
        "Pilot",
        "(ships/speeders)",
        "●●●○○",
        "3D+2",
        "AVoWa",
        "To",
        "office",
        "fi",
        "Jedi-Knight",
        "Ääröö",
        "שלום",
        "水",
        "Extra\xadordinary",
        "a\tb",
        "1\xa0m",
    ]
)
LINES = st.lists(WORDS | FREE_TEXT, min_size=1, max_size=6).map(" ".join)

# Text styles no print uses, so that every property of the key takes a second value.
UNUSUAL = """
<p style="direction: rtl; word-spacing: 4px; font-kerning: none">x</p>
<p style="overflow-wrap: anywhere; word-break: break-all; tab-size: 3">x</p>
<p style="hyphens: none; hyphenate-character: '='; hyphenate-limit-chars: 4 2 2">x</p>
<p style="font-variant: small-caps; font-feature-settings: 'liga' 0; font-style: italic">x</p>
<p style="white-space: pre-wrap; letter-spacing: 1px; font-stretch: condensed">x</p>
<p lang="fr" style="line-height: 2; font-variant-numeric: tabular-nums">x</p>
<p style="font-variant-ligatures: none; font-variant-position: super">x</p>
<p style="font-variant-alternates: historical-forms; font-variant-east-asian: jis78">x</p>
<p style="font-variation-settings: 'wght' 500; text-decoration: underline overline">x</p>
<p style="hyphenate-limit-zone: 10%; font-language-override: 'TRK'">x</p>
"""


def text_styles(document) -> list:
    return [
        box.style
        for page in document.pages
        for box in walk(page._page_box)
        if isinstance(box, boxes.TextBox)
    ]


@pytest.fixture
def print_styles(player) -> list:
    """The style of every text box of every demo print, one per distinct look."""
    styles = {}
    for system in SYSTEMS:
        for style in text_styles(pdf.character_document(demo(player, system))):
            styles.setdefault(tuple(repr(style[name]) for name in KEY_PROPERTIES), style)
    return list(styles.values())


@pytest.fixture
def unusual_styles() -> list:
    stylesheets, font_config = pdf._print_style("swd10")
    page = pdf.PrintHTML(string=UNUSUAL, url_fetcher=pdf.FETCHER)
    return text_styles(page.render(stylesheets=stylesheets, font_config=font_config))


@pytest.fixture
def empty_cache():
    TEXT_CACHE.clear()


def outcome(function, *args):
    """What one call gives (a layout as its data), or the error it raises."""
    try:
        result = function(*args)
    except Exception as error:  # the same error either way is the same outcome
        return type(error).__name__
    return [vars(part) if isinstance(part, line_break.Layout) else part for part in result]


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    data=st.data(),
    text=LINES,
    max_width=st.none() | st.just(0) | st.floats(0, 80) | st.floats(0, 800),
    justification_spacing=st.sampled_from([0, 0.5, 3.25]),
    is_line_start=st.booleans(),
    minimum=st.booleans(),
)
def test_a_split_or_strut_from_the_cache_is_the_one_weasyprint_makes(
    empty_cache,
    print_styles,
    unusual_styles,
    data,
    text,
    max_width,
    justification_spacing,
    is_line_start,
    minimum,
):
    # A print's style, and the same with one property WeasyPrint's text code reads taken
    # from another style: a key that left out a property that matters would answer one
    # with the other's split. The cache is not emptied between examples, for that reason.
    style = data.draw(st.sampled_from(print_styles))
    name = data.draw(st.sampled_from(sorted(TEXT_CODE_READS)))
    others = {repr(other[name]): other[name] for other in print_styles + unusual_styles}
    others.pop(repr(style[name]))
    variant = style.copy()
    variant[name] = data.draw(st.sampled_from(sorted(others.values(), key=repr)))
    for each in (style, variant):
        args = (text, each, None, max_width, justification_spacing, is_line_start, minimum)
        expected = outcome(weasyprint_text_cache.original_split_first_line, *args)
        assert outcome(weasyprint_text_cache.cached_split_first_line, *args) == expected
        assert outcome(weasyprint_text_cache.cached_split_first_line, *args) == expected
        strut = weasyprint_text_cache.original_strut(each)
        assert weasyprint_text_cache.cached_strut(each) == strut
        assert weasyprint_text_cache.cached_strut(each) == strut


def split(style, text="Pilot (ships/speeders)"):
    return weasyprint_text_cache.cached_split_first_line(text, style, None, 200.0, 0)


def test_a_layout_drawn_from_the_cache_leaves_the_kept_one_alone(print_styles):
    style = print_styles[0]
    TEXT_CACHE.clear()
    kept = split(style)[0].text
    drawn = split(style)[0]
    # What drawing an ellipsis does to a text box's layout.
    drawn.reactivate(style)
    drawn.set_text("Pilot…")
    drawn.deactivate()
    again = split(style)[0]
    assert again is not drawn and again.text == kept != drawn.text


def test_a_kept_layout_builds_its_pango_layout_only_when_read(print_styles):
    style = print_styles[0]
    layout = split(style)[0]
    assert isinstance(layout, KeptLayout)
    layout.reactivate(style)
    assert "layout" not in vars(layout)  # nothing shaped for a line the cache draws
    assert layout.layout is not None and "layout" in vars(layout)
    assert layout.get_first_line()[0].length > 0
    layout.deactivate()
    assert "layout" not in vars(layout) and "style" not in vars(layout)
    layout.reactivate(style)
    layout.deactivate()  # reactivated, never read: nothing to drop
    with pytest.raises(AttributeError):
        layout.layout  # noqa: B018  (deactivated: no Pango layout, as in WeasyPrint)


def recorded_line(player) -> tuple[tuple, bytes]:
    """A line of the SWd10 print as the cache recorded it, and the page's PDF."""
    TEXT_CACHE.clear()
    pdf_bytes, _ = printed(demo(player, "swd10"))
    with TEXT_CACHE._lock:
        steps = next(
            steps
            for key, steps in TEXT_CACHE._entries.items()
            if key[0] == "draw" and key[2] == "Stealth"
        )
    return steps, pdf_bytes


def page_stream(fonts: dict) -> Stream:
    return Stream(fonts, (0, 0, 100, 100), {}, {}, None, {}, None)


def test_a_replay_is_refused_when_the_document_fonts_differ(player):
    steps, _ = recorded_line(player)
    font_key = next(step[1] for step in steps if step[0] == "font")
    glyph, width = next((step[1], step[2]) for step in steps if step[0] == "width")
    matrix = Matrix(d=-1, e=10, f=20)

    # The document has not loaded the line's font yet: WeasyPrint draws it.
    empty = page_stream({})
    assert not weasyprint_text_cache._replay(empty, steps, matrix)
    assert empty.stream == []

    # The font is there, its glyph widths set by other lines at other sizes: the same
    # glyph at another width changes what WeasyPrint writes, so no replay either.
    stylesheets, font_config = pdf._print_style("swd10")
    document = pdf.PrintHTML(string="<p>Stealth</p>", url_fetcher=pdf.FETCHER).render(
        stylesheets=stylesheets, font_config=font_config
    )
    document.write_pdf()
    recorded_widths = {step[1]: step[2] for step in steps if step[0] == "width"}
    font = copy.copy(document.fonts[font_key])
    font.widths, font.to_unicode = recorded_widths | {glyph: width + 1}, {}
    other_width = page_stream({font_key: font})
    assert not weasyprint_text_cache._replay(other_width, steps, matrix)
    assert other_width.stream == [] and font.widths[glyph] == width + 1
    assert font.to_unicode == {}

    # The widths the recording met: the recorded operators, the font filled in as
    # WeasyPrint fills it.
    font.widths = dict(recorded_widths)
    replayed = page_stream({font_key: font})
    assert weasyprint_text_cache._replay(replayed, steps, matrix)
    assert any(b"Tf" in part for part in replayed.stream)
    assert font.widths[glyph] == width and font.to_unicode[glyph]


# A small page printed with a font configuration of the test's own.
PAGE = (
    "<p style='float: left; font-family: Probe'>Stealth and Pilot</p>"
    "<p style='font-family: Probe'>Stealth and Pilot</p>"
)


def lookups(font_config: FontConfiguration, html: str = PAGE) -> Tally:
    """What the cache answered while printing `html` with `font_config`."""
    with Tally() as tally:
        pdf.PrintHTML(string=html).write_pdf(font_config=font_config)
    return tally


def test_only_registered_font_configurations_are_cached():
    unregistered = lookups(FontConfiguration())
    assert not unregistered.hits and not unregistered.misses
    registered = FontConfiguration()
    TEXT_CACHE.register(registered)
    first = lookups(registered)
    assert first.misses["split"] > 0 and first.misses["draw"] > 0
    again = lookups(registered)
    assert not again.misses and again.hits["split"] == first.hits["split"] + first.misses["split"]


def add_probe_face(font_config: FontConfiguration) -> None:
    face = (FONT / "DejaVuSerifCondensed-Bold.ttf").as_uri()
    CSS(
        string=f"@font-face {{ font-family: Probe; src: url({face}) }}",
        font_config=font_config,
        url_fetcher=pdf.FETCHER,
    )


def test_a_font_face_added_after_registering_is_never_served_old_text():
    font_config = FontConfiguration()
    TEXT_CACHE.register(font_config)
    lookups(font_config)
    assert not lookups(font_config).misses
    add_probe_face(font_config)
    after = lookups(font_config)
    # Answered as a configuration that had the face from the start and was never used:
    # nothing kept from before the face came is served.
    fresh = FontConfiguration()
    add_probe_face(fresh)
    TEXT_CACHE.register(fresh)
    first = lookups(fresh)
    assert after.misses["split"] > 0
    assert (after.hits, after.misses) == (first.hits, first.misses)


ODD_LINES = """
<p style="text-align: justify; width: 40mm">Stealth and Pilot (ships/speeders) and a long
line of words that wraps and is justified, each line but the last spread to the edge.</p>
<p style="width: 20mm; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">
Stealth and Pilot, cut with an ellipsis</p>
<p style="width: 20mm; overflow: hidden; white-space: nowrap">Stealth and Pilot, clipped</p>
<p style="text-decoration: line-through; letter-spacing: 1px">Stealth crossed out</p>
<p style="font-variant: small-caps; text-transform: uppercase">Stealth in capitals</p>
<p style="white-space: pre-wrap">Stealth\tand\n  Pilot, as typed</p>
"""


def test_justified_cut_and_decorated_lines_print_the_same():
    font_config = FontConfiguration()
    TEXT_CACHE.register(font_config)

    def print_page() -> bytes:
        return pdf.PrintHTML(string=ODD_LINES + PAGE).write_pdf(font_config=font_config)

    with TEXT_CACHE.disabled():
        off = print_page()
    assert print_page() == off
    with Tally() as warm:
        assert print_page() == off
    assert warm.hits["split"] > 0 and warm.hits["draw"] > 0


def test_hyphens_auto_and_a_disabled_cache_go_to_weasyprint():
    font_config = FontConfiguration()
    TEXT_CACHE.register(font_config)
    hyphenated = lookups(
        font_config, "<p lang='en' style='hyphens: auto; width: 20mm'>Extraordinarily long</p>"
    )
    assert not hyphenated.hits and not hyphenated.misses
    with TEXT_CACHE.disabled():
        disabled = lookups(font_config)
    assert not disabled.hits and not disabled.misses


def test_the_cache_keeps_at_most_its_size():
    small = TextLayoutCache(size=3)
    for number in range(10):
        small.put(("split", number), ({}, ()))
    assert len(small) == 3 and small.get(("split", 9)) and small.get(("split", 0)) is None


# Guards: what the patch relies on in WeasyPrint 70.


def test_the_key_holds_every_style_property_weasyprint_text_code_reads():
    assert {"font_size", "white_space"} <= TEXT_CODE_READS  # the scan finds what it seeks
    assert set(KEY_PROPERTIES) >= TEXT_CODE_READS, TEXT_CODE_READS - set(KEY_PROPERTIES)
    # draw_first_line reads the size (and, for an ellipsis, which is never replayed, the
    # hyphenation character and language): all in the key.
    assert "font_size" in DRAW_READS and set(KEY_PROPERTIES) >= DRAW_READS


def context_uses(function) -> set[str]:
    """How a function's body uses its `context` argument: an attribute read from it, or
    the name of a function it is passed to."""
    uses = set()
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(function)))):
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "context":
            uses.add(f"context.{node.attr}")
        elif isinstance(node, ast.Call) and any(
            getattr(argument, "id", None) == "context" for argument in node.args
        ):
            uses.add(getattr(node.func, "id", "?"))
    return uses


def layout_uses(*functions) -> set[str]:
    """What drawing reads or calls on a text box's layout (textbox.pango_layout.x)."""
    uses = set()
    for function in functions:
        for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(function)))):
            if isinstance(node, ast.Attribute) and getattr(node.value, "attr", "") == (
                "pango_layout"
            ):
                uses.add(node.attr)
    return uses


def test_the_text_functions_keep_the_shape_the_cache_was_written_for():
    def parameters(function) -> list[str]:
        return list(inspect.signature(function).parameters)

    assert parameters(line_break.split_first_line) == [
        "text",
        "style",
        "context",
        "max_width",
        "justification_spacing",
        "is_line_start",
        "minimum",
    ]
    assert parameters(line_break.strut) == ["style"]
    assert parameters(draw_text.draw_first_line) == [
        "stream",
        "textbox",
        "text_overflow",
        "block_ellipsis",
        "matrix",
    ]
    # The returned layout is deactivated: no Pango object or style left in it.
    assert "layout.deactivate()" in inspect.getsource(line_break.first_line_metrics)
    assert "del self.layout, self.language, self.style" in inspect.getsource(
        line_break.Layout.deactivate
    )
    # The layout context (one per render) reaches split_first_line only for its
    # hyphenation dictionaries, which only automatic hyphenation reads, and is handed on
    # to create_layout, which does not use it.
    assert context_uses(line_break.split_first_line) == {"context.dictionaries", "create_layout"}
    assert context_uses(line_break.create_layout) == set()
    # Drawing rebuilds the layout with reactivate (which a KeptLayout defers), then reads
    # its Pango layout, text and decoration metrics: all held, or built when read.
    assert layout_uses(draw_text.draw_text, weasyprint_text_cache.original_draw_first_line) == {
        "reactivate",
        "deactivate",
        "layout",
        "text",
        "max_width",
        "set_text",
        "get_first_line",
        "ascent",
        "underline_position",
        "underline_thickness",
        "strikethrough_position",
        "strikethrough_thickness",
    }


def test_weasyprint_looks_the_functions_up_where_install_puts_them():
    assert inline.split_first_line is weasyprint_text_cache.cached_split_first_line
    assert preferred.split_first_line is weasyprint_text_cache.cached_split_first_line
    assert inline.strut is weasyprint_text_cache.cached_strut
    assert draw_text.draw_first_line is weasyprint_text_cache.cached_draw_first_line
    font_config = FontConfiguration()
    TEXT_CACHE.register(font_config)
    both = lookups(font_config).misses["split"]
    assert lookups(font_config).hits["draw"] > 0  # draw_text finds the replay
    # The float's shrink-to-fit width is measured by weasyprint.layout.preferred: with
    # that module on WeasyPrint's own function, fewer splits reach the cache.
    preferred.split_first_line = weasyprint_text_cache.original_split_first_line
    try:
        TEXT_CACHE.clear()
        inline_only = lookups(font_config).misses["split"]
    finally:
        preferred.split_first_line = weasyprint_text_cache.cached_split_first_line
    assert 0 < inline_only < both
