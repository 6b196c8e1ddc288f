"""Template hygiene every system's pages share."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = sorted((Path(__file__).resolve().parents[2] / "templates").rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.name))
def test_no_template_comment_spans_lines(path):
    # Django's {# #} comments end at the line: a two-line one is printed on the page.
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        opened = [m.start() for m in re.finditer(r"\{#", line)]
        closed = [m.start() for m in re.finditer(r"#\}", line)]
        assert len(opened) == len(closed), f"{path.name}:{number} opens a comment it does not close"
