"""The PDF renderer reads only Datapad's own static files, whatever a print template says.

A print template is altered here to carry an attachment link to a local file and an
image from a web server on this machine. Rendered the way WeasyPrint does by default, both
reach the PDF; through the app's renderer, neither does, and the fonts still load.
"""

from __future__ import annotations

import copy
import io
import struct
import threading
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from pypdf import PdfReader
from weasyprint import HTML

from rulesets.swd10 import demo_sheet
from sheets.characters.services import character_create
from sheets.printing.pdf import STATIC_DIR, StaticFilesOnly

pytestmark = pytest.mark.django_db


def one_pixel_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


@pytest.fixture
def image_server():
    """A web server on loopback that serves a PNG and notes every path asked of it."""
    asked: list[str] = []
    png = one_pixel_png()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(png)))
            self.end_headers()
            self.wfile.write(png)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/pixel.png", asked
    server.shutdown()
    server.server_close()


@pytest.fixture
def secret_file(tmp_path):
    """A local file outside the static directory, with words found nowhere else."""
    words = f"private-{uuid.uuid4().hex}"
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(words)
    return path, words


@pytest.fixture
def hostile_markup(image_server, secret_file):
    image_url, _ = image_server
    path, _ = secret_file
    return (
        f'<a rel="attachment" href="{path.as_uri()}">notes</a>'
        f'<a rel="attachment" href="file:///etc/hostname">host</a>'
        f'<img src="{image_url}" style="width: 2cm; height: 2cm">'
    )


@pytest.fixture
def altered_print_template(tmp_path, settings, hostile_markup):
    """The SWd10 print template with the hostile markup added to its body, found first."""
    original = (django_settings.BASE_DIR / "templates/rulesets/swd10/print.html").read_text()
    assert "</body>" in original
    altered = original.replace("</body>", hostile_markup + "</body>")
    folder = tmp_path / "templates" / "rulesets" / "swd10"
    folder.mkdir(parents=True)
    (folder / "print.html").write_text(altered)
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path / "templates", *templates[0]["DIRS"]]
    settings.TEMPLATES = templates


def embedded_files(pdf: bytes) -> list[bytes]:
    """The content of every file a PDF carries: the document's attachments, and the files
    of attachment links (WeasyPrint's <a rel="attachment"> becomes such an annotation)."""
    reader = PdfReader(io.BytesIO(pdf))
    found = [content for contents in reader.attachments.values() for content in contents]
    for page in reader.pages:
        for annotation in page.get("/Annots", []):
            spec = annotation.get_object().get("/FS")
            if spec is not None:
                found.append(spec.get_object()["/EF"]["/F"].get_object().get_data())
    return found


def images(pdf: bytes) -> list:
    return [image for page in PdfReader(io.BytesIO(pdf)).pages for image in page.images]


def test_unguarded_weasyprint_would_embed_the_file_and_fetch_the_image(
    hostile_markup, image_server, secret_file
):
    """The check below means something: WeasyPrint's own fetcher lets both through."""
    _, asked = image_server
    _, words = secret_file
    pdf = HTML(string=f"<html><body>{hostile_markup}</body></html>").write_pdf()
    assert words.encode() in embedded_files(pdf)
    assert asked == ["/pixel.png"]
    assert images(pdf)


def test_a_print_template_cannot_reach_local_files_or_the_web(
    altered_print_template, player_client, player, image_server, secret_file
):
    _, asked = image_server
    _, words = secret_file
    character = character_create(owner=player, name="Kira Dane", system="swd10", sheet=demo_sheet())
    response = player_client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    pdf = response.content
    assert embedded_files(pdf) == []
    assert words.encode() not in pdf
    assert asked == []
    assert images(pdf) == []
    # The page itself still prints, in the fonts from static/fonts.
    reader = PdfReader(io.BytesIO(pdf))
    assert "Kira Dane" in reader.pages[0].extract_text()
    fonts = {
        str(font.get_object()["/BaseFont"])
        for font in reader.pages[0]["/Resources"]["/Font"].values()
    }
    # A font loaded through @font-face is named after its family there.
    assert any("Datapad-Sans" in name for name in fonts), fonts


@pytest.mark.parametrize(
    "relative", ["css/print-base.css", "css/print-swd10.css", "fonts/DejaVuSansCondensed.ttf"]
)
def test_the_fetcher_serves_the_static_files_prints_use(relative):
    path = STATIC_DIR / relative
    response = StaticFilesOnly().fetch(path.as_uri())
    assert response.read() == path.read_bytes()


def test_the_fetcher_refuses_every_other_address(tmp_path, secret_file):
    root = tmp_path / "static"
    root.mkdir()
    (root / "kept.css").write_text("p {}")
    outside, _ = secret_file
    (root / "link.css").symlink_to(outside)
    fetcher = StaticFilesOnly(root)
    assert fetcher.static_file((root / "kept.css").as_uri()) == (root / "kept.css").resolve()
    for url in (
        outside.as_uri(),
        "file:///etc/hostname",
        (root / "link.css").as_uri(),
        f"file://{root}/../outside/secret.txt",
        f"file://{root}/%2e%2e/outside/secret.txt",
        f"file://{root}/missing.css",
        f"file://{root}",
        f"file://elsewhere{root}/kept.css",
        "http://127.0.0.1/kept.css",
        "https://example.org/font.ttf",
        "data:text/css,p{}",
        "ftp://example.org/x",
        "not a url",
    ):
        assert fetcher.static_file(url) is None, url
        with pytest.raises(ValueError, match="only Datapad's own files"):
            fetcher.fetch(url)
