"""Make tinyhtml5's regex cache for `chars_until` actually hit.

WeasyPrint parses every print page with tinyhtml5. Its `HTMLInputStream.chars_until`
(tinyhtml5 2.1.0, the newest release) means to build one regular expression per set of
stop characters and keep it in the module dict `characters_until_regex`, but stores it
with a chained assignment, `characters = characters_until_regex[(characters, opposite)] =
regex`, which rebinds `characters` to the regex before the key is built. The entry lands
under (regex, opposite), the next lookup by character set misses, and every call builds
the regex again: that is about 12 of the 28 ms it takes to parse a SWd10 print.

`install()` swaps that dict for one that builds a missing regex the same way and files it
under the key the lookup uses, so the lookup never falls through to the buggy branch. The
parse itself is unchanged (tests/web/test_tinyhtml5_fix.py compares the trees). Drop this
module once a tinyhtml5 release stores the regex under the character set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tinyhtml5 import inputstream


class CharsUntilRegexes(dict):
    """The regex `chars_until` wants for (characters, opposite), built on first use."""

    def __missing__(self, key: tuple[Iterable[str], bool]) -> re.Pattern[str]:
        characters, opposite = key
        # The same expression tinyhtml5 builds: a run of the characters (opposite) or of
        # anything but them.
        escaped = "".join(f"\\x{ord(character):02x}" for character in characters)
        regex = re.compile(f"[{escaped}]+" if opposite else f"[^{escaped}]+")
        self[key] = regex
        return regex


def install() -> None:
    """Put the working cache in place; calling it again changes nothing."""
    if not isinstance(inputstream.characters_until_regex, CharsUntilRegexes):
        inputstream.characters_until_regex = CharsUntilRegexes()
