"""What every system's printed sheet shares: A4 pages, the bundled fonts, a real render."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.registry import get_ruleset, ready_systems
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db

A4_POINTS = (595, 842)


@pytest.fixture(params=[info.key for info in ready_systems()])
def printed(request, player_client, player) -> bytes:
    sheet = get_ruleset(request.param).demo_sheet()
    character = character_create(owner=player, name="Demo Print", system=request.param, sheet=sheet)
    response = player_client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="demo-print.pdf"'
    return response.content


def test_every_page_is_a4(printed):
    reader = PdfReader(io.BytesIO(printed))
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width)), round(float(box.height))) == A4_POINTS
    assert "Demo Print" in reader.pages[0].extract_text()


def test_the_pdf_uses_the_bundled_fonts(printed):
    reader = PdfReader(io.BytesIO(printed))
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    # The @font-face families of print-base.css, loaded from static/fonts.
    assert any("Datapad-Sans" in name for name in fonts), fonts
    assert any("Datapad-Title" in name for name in fonts), fonts


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="make test installs poppler-utils")
def test_the_pdf_renders_to_images(printed, tmp_path):
    source = tmp_path / "sheet.pdf"
    source.write_bytes(printed)
    subprocess.run(
        ["pdftoppm", "-r", "40", "-png", str(source), str(tmp_path / "page")], check=True
    )
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == len(PdfReader(io.BytesIO(printed)).pages)
    for page in pages:
        assert page.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert page.stat().st_size > 5_000
