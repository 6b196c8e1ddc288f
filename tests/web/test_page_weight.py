"""A sheet page, with its CSS and scripts, stays under 42 KB on the wire, whatever the system.

On the wire means as production sends it to a current browser: the page gzip-compressed by
the middleware, and each static file as collectstatic leaves it for WhiteNoise (ours
minified by sheets.storage), which compresses it with Brotli beside gzip (the Brotli package
is locked in, WeasyPrint's fonts need it) and sends the .br file to every browser that
accepts it, as all current ones do over HTTPS. Sizes, unlike times, are the same on every
machine, so they are asserted.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from urllib.parse import unquote

import brotli
import pytest
import tinycss2
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.middleware.gzip import GZipMiddleware
from django.test import override_settings
from django.urls import reverse
from django.utils.text import compress_string
from whitenoise.compress import Compressor

from rulesets.registry import get_ruleset, ready_systems
from sheets.characters.services import character_create
from sheets.rolls.services import rollables_of
from sheets.rolls.templatetags.rolls import roll_links
from sheets.storage import minified, minify_css, minify_js

# Bytes. Issue 14 asked for "under 40 KB on the wire, htmx and CSS included"; the sheet has
# since gained its portrait, the theme switch, the unsaved-edit guard and the live stream
# (issue 30: htmx's SSE extension, live.js, sheet.js's guard for a redraw while typing),
# which took the limit to 43,000 with every system within 600 B of it. The rule readings
# panel now carries only its summary and the readings changed from the book, the rest
# fetched when it is opened (templates/rulesets/_readings.html): demo sheets went from
# WEG 42,914 / SWd10 42,896 / O.R.E. 42,380 / O3d10 36,188 to 38,779 / 40,107 / 40,695 /
# 34,168. The limit is the lowest round figure that leaves the heaviest (O.R.E.) some room,
# 1.3 KB: 40,000 would take cuts elsewhere on the O.R.E. page, for the product to decide.
LIMIT = 42_000
STATIC = re.compile(r'(?:href|src)="/?(' + re.escape(settings.STATIC_URL) + r'[^"?#]+)"')
OWN_FILES = sorted(
    f"{folder}/{path.name}"
    for folder in ("css", "js")
    for path in (Path(settings.BASE_DIR) / "static" / folder).iterdir()
    if path.suffix in (".css", ".js")
)


def _asset_names(html: str) -> list[str]:
    return [unquote(url.removeprefix(settings.STATIC_URL)) for url in STATIC.findall(html)]


def _served(name: str) -> int:
    data = Path(finders.find(name)).read_bytes()
    if name.endswith((".css", ".js")):
        data = minified(name, data.decode()).encode()
    # WhiteNoise's own Brotli settings (whitenoise.compress.Compressor); the icon is bytes
    # as drawn, never minified.
    return len(brotli.compress(data))


@pytest.mark.parametrize("system", [info.key for info in ready_systems()])
def test_a_demo_sheet_page_and_its_assets_weigh_under_42_kb_on_the_wire(
    player_client, player, system
):
    character = character_create(
        owner=player, name="Demo", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    url = reverse("character_sheet", args=[character.pk])
    page = player_client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200 and page["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.content)
    # The middleware pads its gzip header with up to max_random_bytes (against BREACH):
    # count the most it can add, so the figure is the same on every run.
    page_size = len(compress_string(html)) + GZipMiddleware.max_random_bytes
    names = _asset_names(html.decode())
    # The page's own stylesheets and scripts are all counted, htmx's among them.
    assert {"css/app.css", f"css/sheet-{system}.css", "js/sheet.js"} <= set(names)
    assert any(name.startswith("django_htmx/htmx") for name in names)
    total = page_size + sum(_served(name) for name in names)
    assert total < LIMIT, f"{system}: {total} B on the wire"


def _normalized(tokens) -> str:
    """A CSS component list with only the white space that can change a meaning."""
    kept = []
    significant = [t for t in tokens if t.type != "comment"]
    for index, token in enumerate(significant):
        if token.type == "whitespace":
            before = significant[index - 1] if index else None
            after = significant[index + 1] if index + 1 < len(significant) else None
            if before is None or after is None:
                continue
            if any(t.type == "literal" and t.value in "{};,>:" for t in (before, after)):
                continue
        if token.type == "function":
            kept.append(f"{token.lower_name}({_normalized(token.arguments)})")
        elif token.type in ("() block", "[] block"):
            opening = token.type[0]
            kept.append(f"{opening}{_normalized(token.content)}{')' if opening == '(' else ']'}")
        else:
            kept.append(tinycss2.serialize([token]))
    return "".join(kept)


def _rules(css: str) -> list:
    out = []
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        assert rule.type != "error", rule
        body = [] if rule.content is None else rule.content
        if rule.type == "at-rule" and rule.lower_at_keyword == "media":
            inner = tinycss2.serialize(body)
            out.append(("media", _normalized(rule.prelude), _rules(inner)))
            continue
        declarations = [
            (d.lower_name, _normalized(d.value), d.important)
            for d in tinycss2.parse_blocks_contents(body, skip_comments=True, skip_whitespace=True)
            if d.type == "declaration"
        ]
        out.append((_normalized(rule.prelude), declarations))
    return out


@pytest.mark.parametrize("name", [n for n in OWN_FILES if n.endswith(".css")])
def test_minified_css_has_the_same_rules_and_declarations(name):
    source = Path(finders.find(name)).read_text()
    short = minify_css(source)
    assert len(short) < len(source)
    assert "/*" not in short and "\n  " not in short
    assert _rules(short) == _rules(source)


def test_minifying_keeps_strings_and_the_spaces_that_matter():
    css = (
        '.a :hover, .b > .c { content: "a  ;  b" ; margin : 0  auto ; }\n'
        "@media (max-width: 9px) and (hover: hover) { .d { width: calc(1rem + 2px) } }"
    )
    assert minify_css(css) == (
        '.a :hover,.b>.c{content:"a  ;  b";margin :0 auto}'
        "@media (max-width:9px) and (hover:hover){.d{width:calc(1rem + 2px)}}\n"
    )
    assert minify_css(minify_css(css)) == minify_css(css)


@pytest.mark.parametrize("name", [n for n in OWN_FILES if n.endswith(".js")])
def test_minified_scripts_keep_every_line_of_code(name):
    source = Path(finders.find(name)).read_text()
    code = [line.strip() for line in source.splitlines()]
    assert minify_js(source).splitlines() == [
        line for line in code if line and not line.startswith("//")
    ]


def test_a_script_with_a_template_literal_is_left_whole():
    script = "var a = `one\n  // two\n`;\n"
    assert minify_js(script) == script


# WhiteNoise's list of what it leaves uncompressed, and the print fonts: WeasyPrint reads
# them from static/ itself, and Brotli at its highest setting took some 12 s of this test
# over their 1.7 MB (each collected, hashed and compressed like any other file in production).
SKIP_COMPRESS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "ttf"]


def test_collectstatic_serves_our_files_minified_hashed_and_compressed(tmp_path):
    storage = {"BACKEND": "sheets.storage.MinifiedStaticFilesStorage"}
    with override_settings(
        STATIC_ROOT=tmp_path,
        STORAGES={**settings.STORAGES, "staticfiles": storage},
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        WHITENOISE_SKIP_COMPRESS_EXTENSIONS=SKIP_COMPRESS,
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        hashed = staticfiles_storage.stored_name("css/app.css")
    source = Path(finders.find("css/app.css")).read_text()
    assert hashed != "css/app.css"
    assert (tmp_path / hashed).read_text() == minify_css(source)
    assert gzip.decompress((tmp_path / f"{hashed}.gz").read_bytes()).decode() == minify_css(source)
    # A file of an app (htmx, the admin) is served as shipped.
    assert minified("django_htmx/htmx-2.min.js", "a  =  1") == "a  =  1"
    assert minified("admin/css/base.css", "a  {  }") == "a  {  }"


@pytest.mark.parametrize("system", [info.key for info in ready_systems()])
def test_the_roll_links_built_from_one_reverse_are_the_urls_reverse_gives(player, system):
    character = character_create(
        owner=player, name="Demo", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    keys = [rollable.key for rollable in rollables_of(character)]
    assert keys
    assert roll_links(character) == {
        key: reverse("character_roll", args=[character.pk, key]) for key in keys
    }


def test_only_the_roll_and_hit_pages_link_the_roll_page_styles(player_client, player):
    character = character_create(
        owner=player, name="Demo", system="ore", sheet=get_ruleset("ore").demo_sheet()
    )
    link = 'href="/static/css/rolls.css"'
    for name, args in (
        ("roll_menu", [character.pk]),
        ("character_roll", [character.pk, "stat.body"]),
        ("character_hit", [character.pk]),
    ):
        assert link in player_client.get(reverse(name, args=args)).content.decode(), name
    for name, args in (("character_sheet", [character.pk]), ("character_list", [])):
        assert link not in player_client.get(reverse(name, args=args)).content.decode(), name
