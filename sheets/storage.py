"""Static files as production serves them: our own CSS and scripts lose their comments and
indentation before WhiteNoise hashes and compresses them.

The sources stay commented for people; a browser gets the short form (a sheet page must stay
under 40 KB on the wire). Pure Python and deliberately plain: it only drops what cannot
change a meaning, so it needs no parser.
"""

from __future__ import annotations

import re

from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

# Our own files (static/css, static/js); an app's files (admin, htmx) are left as shipped.
OWN_PREFIXES = ("css/", "js/")

# A CSS string, a comment, or a run of white space: strings are matched first and kept
# whole, so nothing inside quotes is ever changed.
_CSS_TOKEN = re.compile(r"(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')|(/\*.*?\*/)|(\s+)", re.S)
# White space beside these never matters. Not around "(" ("and (" in a media query), "+" and
# "-" (calc), nor before ":" (".a :hover" differs from ".a:hover").
_CSS_SPACE_BEFORE = re.compile(r" (?=[{};,>])")
_CSS_SPACE_AFTER = re.compile(r"(?<=[{};,>:]) ")


def minify_css(text: str) -> str:
    parts: list[str] = []
    plain: list[str] = []

    def flush() -> None:
        chunk = re.sub(" {2,}", " ", "".join(plain))
        chunk = _CSS_SPACE_AFTER.sub("", _CSS_SPACE_BEFORE.sub("", chunk))
        parts.append(chunk.replace(";}", "}"))
        plain.clear()

    position = 0
    for match in _CSS_TOKEN.finditer(text):
        plain.append(text[position : match.start()])
        position = match.end()
        string = match.group(1)
        if string:
            flush()
            parts.append(string)
        else:
            # A comment separates like a space does ("a/**/b" is two tokens).
            plain.append(" ")
    plain.append(text[position:])
    flush()
    return "".join(parts).strip() + "\n"


_JS_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.M)
_JS_INDENT = re.compile(r"^[ \t]+", re.M)


def minify_js(text: str) -> str:
    """Drop whole-line // comments, indentation and blank lines. A script with a template
    literal (a backtick) is left whole: a line inside one is text, not code."""
    if "`" in text:
        return text
    text = _JS_INDENT.sub("", _JS_COMMENT_LINE.sub("", text))
    return re.sub(r"\n{2,}", "\n", text).lstrip("\n")


def minified(name: str, text: str) -> str:
    """The text production serves for the static file `name` (as collected, unhashed)."""
    if not name.startswith(OWN_PREFIXES) or ".min." in name:
        return text
    if name.endswith(".css"):
        return minify_css(text)
    if name.endswith(".js"):
        return minify_js(text)
    return text


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage, with our CSS and JS minified as collectstatic copies them in,
    so the hash, the manifest and the .gz/.br files all come from the short form."""

    def _save(self, name, content):
        if name.startswith(OWN_PREFIXES) and name.endswith((".css", ".js")):
            content.seek(0)
            text = content.read()
            text = text.decode() if isinstance(text, bytes) else text
            content = ContentFile(minified(name, text).encode())
        return super()._save(name, content)
