"""Portraits: a picture per character, uploaded on the sheet page as a browser sends it,
checked and redrawn with Pillow, shown on the sheet, the share page and the PDF.

Every picture here is made by Pillow in the test, or by hand where Pillow would refuse to
make it (a decompression bomb's header, a file cut short).
"""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageCms
from pypdf import PdfReader

from rulesets.registry import get_ruleset
from sheets.campaigns.models import Membership, Role
from sheets.characters.models import Character, Portrait
from sheets.characters.portraits import MAX_PIXELS, MAX_UPLOAD_BYTES, process_image
from sheets.characters.services import character_apply_edits, share_link_create
from sheets.history.models import Revision
from sheets.printing.pdf import FETCHER

pytestmark = pytest.mark.django_db


# Pictures ----------------------------------------------------------------------------------


def picture(
    fmt: str = "PNG", size: tuple[int, int] = (640, 480), color: object = "navy", **save: object
) -> bytes:
    image = Image.new("RGBA" if fmt in ("PNG", "WEBP") else "RGB", size, color)
    out = io.BytesIO()
    image.save(out, format=fmt, **save)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png_bomb(width: int, height: int) -> bytes:
    """A PNG of `width` x `height` black pixels in a few kilobytes: its rows of zeros
    compress a thousandfold. Written by hand, row by row, so the test never holds the
    decoded picture (hundreds of megabytes) itself."""
    packer = zlib.compressobj(9)
    row = b"\x00" * (1 + width)  # filter byte, then one grey byte per pixel
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", data)
        + _chunk(b"IEND", b"")
    )


def upload(client: Client, character: Character, data: bytes, name: str = "me.png", **extra):
    """The upload form as a browser posts it: multipart, the file and the digest it replaces."""
    fields = {"portrait": SimpleUploadedFile(name, data, "application/octet-stream")}
    fields["replaces"] = extra.pop("replaces", _digest(character))
    return client.post(reverse("character_portrait_upload", args=[character.pk]), fields, **extra)


def _digest(character: Character) -> str:
    return (
        Portrait.objects.filter(character=character).values_list("digest", flat=True).first() or ""
    )


def stored(character: Character) -> Image.Image:
    return Image.open(io.BytesIO(bytes(Portrait.objects.get(character=character).image)))


def image_url(character: Character) -> str:
    return reverse("character_portrait", args=[character.pk, _digest(character)])


def state(character: Character) -> tuple:
    """What a refused upload must leave as it was."""
    character.refresh_from_db()
    return (
        character.version,
        list(Portrait.objects.values_list("character", "digest")),
        Revision.objects.filter(character=character).count(),
    )


def portrait_section(html: str) -> str:
    match = re.search(r'<section id="portrait".*?</section>', html, re.S)
    assert match, "the sheet has no portrait section"
    return match.group(0)


# Upload and show ---------------------------------------------------------------------------


def test_the_owner_uploads_a_png_which_is_fitted_into_512_pixels_and_shown_on_the_sheet(
    player_client, swd10_character
):
    response = upload(player_client, swd10_character, picture("PNG", (1024, 768)))
    assert response.status_code == 302
    assert response["Location"].endswith("#portrait")

    kept = stored(swd10_character)
    assert (kept.format, kept.size) == ("JPEG", (512, 384))
    page = player_client.get(response["Location"]).content.decode()
    assert "Portrait saved." in page
    section = portrait_section(page)
    assert f'src="{image_url(swd10_character)}"' in section
    assert 'alt="Portrait of Kira Dane"' in section
    assert 'width="128" height="96"' in section  # drawn within 128 px, its shape kept

    served = player_client.get(image_url(swd10_character))
    assert served.status_code == 200
    assert served["Content-Type"] == "image/jpeg"
    assert Image.open(io.BytesIO(served.content)).size == (512, 384)


def test_a_small_picture_is_not_enlarged_and_a_tall_one_keeps_its_shape():
    assert process_image(picture("PNG", (40, 30))).image  # a tiny picture is taken as it is
    assert (process_image(picture("PNG", (40, 30))).width, 30) == (40, 30)
    tall = process_image(picture("JPEG", (600, 2400)))
    assert (tall.width, tall.height) == (128, 512)


def _exif_photo() -> bytes:
    """A 300 x 200 JPEG, red on its left half and blue on its right, whose EXIF says to turn
    it a quarter clockwise (orientation 6), and which carries a GPS position, a camera
    name, a comment and a colour profile."""
    photo = Image.new("RGB", (300, 200), "blue")
    photo.paste((255, 0, 0), (0, 0, 150, 200))
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90 degrees clockwise to show
    exif[0x010F] = "SpyCam"  # make
    exif[0x8825] = {1: "N", 2: (51.0, 30.0, 0.0)}  # GPS latitude
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    out = io.BytesIO()
    photo.save(out, format="JPEG", exif=exif, icc_profile=icc, comment=b"at the safehouse")
    return out.getvalue()


def test_a_photo_is_turned_upright_by_its_exif_and_keeps_none_of_its_metadata(
    player_client, swd10_character
):
    photo = _exif_photo()
    assert b"SpyCam" in photo and b"safehouse" in photo

    assert upload(player_client, swd10_character, photo, "photo.jpg").status_code == 302

    kept = stored(swd10_character)
    # A quarter turn clockwise: the red left half is now the top.
    assert kept.size == (200, 300)
    top, bottom = kept.getpixel((100, 40)), kept.getpixel((100, 260))
    assert top[0] > 200 and top[2] < 60, top
    assert bottom[2] > 200 and bottom[0] < 60, bottom
    raw = bytes(Portrait.objects.get(character=swd10_character).image)
    assert not kept.getexif()
    assert "icc_profile" not in kept.info and "comment" not in kept.info
    for trace in (b"Exif", b"SpyCam", b"safehouse", b"ICC_PROFILE"):
        assert trace not in raw


def test_a_transparent_png_is_laid_over_white():
    image = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    image.paste((10, 10, 10, 255), (40, 40, 60, 60))
    out = io.BytesIO()
    image.save(out, format="PNG")
    kept = Image.open(io.BytesIO(process_image(out.getvalue()).image))
    assert min(kept.getpixel((5, 5))) > 245
    assert max(kept.getpixel((50, 50))) < 40


def test_an_animated_webp_keeps_its_first_frame_and_says_so(player_client, swd10_character):
    frames = [Image.new("RGB", (64, 64), color) for color in ("red", "lime", "blue")]
    out = io.BytesIO()
    frames[0].save(out, format="WEBP", save_all=True, append_images=frames[1:], duration=100)

    response = upload(player_client, swd10_character, out.getvalue(), "dance.webp")

    assert response.status_code == 302
    red, green, blue = stored(swd10_character).getpixel((32, 32))
    assert red > 200 and green < 60 and blue < 60
    page = player_client.get(response["Location"]).content.decode()
    assert "Only the first frame of the animation is kept." in page


def test_a_still_webp_is_taken(player_client, swd10_character):
    assert upload(player_client, swd10_character, picture("WEBP", (300, 300))).status_code == 302
    assert stored(swd10_character).size == (300, 300)


# Refusals ----------------------------------------------------------------------------------


def _cut_png() -> bytes:
    whole = picture("PNG", (200, 200), color=(1, 2, 3, 255), compress_level=0)
    return whole[: len(whole) // 2]


REFUSED = [
    ("text", b"just some words, not a picture", "not a picture Datapad can read"),
    ("empty", b"", "The file is empty"),
    ("gif", picture("GIF", (20, 20)), "This is a GIF picture"),
    ("bmp", picture("BMP", (20, 20)), "This is a BMP picture"),
    ("tiff", picture("TIFF", (20, 20)), "This is a TIFF picture"),
    ("svg", b'<svg xmlns="http://www.w3.org/2000/svg"></svg>', "This is a SVG picture"),
    ("cut short", _cut_png(), "damaged or cut short"),
    ("png header only", picture("PNG")[:40], "damaged or cut short"),
    ("too many pixels", png_bomb(8000, 6000), "at most 40 million pixels"),
    ("over 5 MB", b"\x89PNG\r\n\x1a\n" + bytes(MAX_UPLOAD_BYTES), "a portrait may be at most 5"),
]


@pytest.mark.parametrize(("data", "message"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_what_is_not_a_usable_picture_is_refused_beside_the_field_and_nothing_changes(
    player_client, swd10_character, data, message
):
    upload(player_client, swd10_character, picture("PNG", (50, 50)))
    before = state(swd10_character)

    response = upload(player_client, swd10_character, data)

    assert response.status_code == 400
    section = portrait_section(response.content.decode())
    assert message in section
    assert 'aria-invalid="true"' in section
    assert state(swd10_character) == before


def test_an_upload_past_the_import_limit_is_refused_by_its_size_without_being_kept(
    player_client, swd10_character
):
    # Past the largest body the upload handlers keep (sheets/transfer/uploads.py): the view
    # sees only the file's size.
    before = state(swd10_character)
    response = upload(player_client, swd10_character, bytes(9 * 1024 * 1024))
    assert response.status_code == 400
    assert "The file is 9.0 MB: a portrait may be at most 5 MB." in response.content.decode()
    assert state(swd10_character) == before


def test_the_bomb_is_refused_from_its_header_and_the_limit_is_what_the_module_says():
    assert MAX_PIXELS < 8000 * 6000
    with pytest.raises(Exception, match="8000 × 6000 pixels"):
        process_image(png_bomb(8000, 6000))


def test_a_post_without_a_file_asks_for_one(player_client, swd10_character):
    response = player_client.post(
        reverse("character_portrait_upload", args=[swd10_character.pk]), {"replaces": ""}
    )
    assert response.status_code == 400
    assert "Choose a picture to upload first." in portrait_section(response.content.decode())


def test_the_form_says_what_is_taken_before_anything_is_chosen(player_client, swd10_character):
    page = player_client.get(reverse("character_sheet", args=[swd10_character.pk]))
    section = portrait_section(page.content.decode())
    assert 'accept="image/png,image/jpeg,image/webp"' in section
    assert f"up to {MAX_UPLOAD_BYTES // (1024 * 1024)} MB" in section
    assert 'enctype="multipart/form-data"' in section


# Writes: version, revision, conflicts, removal ---------------------------------------------


def test_a_new_portrait_bumps_the_version_and_leaves_a_revision_that_changes_no_trait(
    player_client, swd10_character
):
    version = swd10_character.version
    upload(player_client, swd10_character, picture())
    swd10_character.refresh_from_db()
    assert swd10_character.version == version + 1
    revision = Revision.objects.get(character=swd10_character, version=version + 1)
    assert (revision.summary, revision.ops, revision.author_id) == (
        "Portrait changed",
        [],
        swd10_character.owner_id,
    )
    history = player_client.get(reverse("character_history", args=[swd10_character.pk]))
    assert "Portrait changed" in history.content.decode()


def test_an_edit_from_a_page_drawn_before_the_portrait_changed_still_saves(
    player_client, player, swd10_character
):
    drawn_at = swd10_character.version
    upload(player_client, swd10_character, picture())
    edited = character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"attr.strength": "2"},
        expected_version=drawn_at,
    )
    assert edited.version == drawn_at + 2
    assert Revision.objects.get(character=edited, version=drawn_at + 2).ops


def test_a_page_drawn_before_another_upload_does_not_overwrite_it(player_client, swd10_character):
    upload(player_client, swd10_character, picture(color="red"))
    first = _digest(swd10_character)
    upload(player_client, swd10_character, picture(color="lime"), replaces=first)
    second = _digest(swd10_character)
    before = state(swd10_character)

    # A second tab still shows the first picture and uploads a third over it.
    response = upload(player_client, swd10_character, picture(color="blue"), replaces=first)

    assert response.status_code == 400
    assert "changed elsewhere" in portrait_section(response.content.decode())
    assert _digest(swd10_character) == second
    assert state(swd10_character) == before


def test_the_owner_removes_the_portrait(player_client, swd10_character):
    upload(player_client, swd10_character, picture())
    version = Character.objects.get(pk=swd10_character.pk).version
    response = player_client.post(
        reverse("character_portrait_remove", args=[swd10_character.pk]),
        {"replaces": _digest(swd10_character)},
    )
    assert response.status_code == 302
    assert not Portrait.objects.filter(character=swd10_character).exists()
    swd10_character.refresh_from_db()
    assert swd10_character.version == version + 1
    assert swd10_character.revisions.first().summary == "Portrait removed"
    page = player_client.get(reverse("character_sheet", args=[swd10_character.pk]))
    assert "<img" not in portrait_section(page.content.decode())


def test_removing_a_portrait_that_is_gone_says_so_beside_the_button(player_client, swd10_character):
    before = state(swd10_character)
    response = player_client.post(
        reverse("character_portrait_remove", args=[swd10_character.pk]), {"replaces": ""}
    )
    assert response.status_code == 400
    assert "has no portrait to remove" in portrait_section(response.content.decode())
    assert state(swd10_character) == before


@pytest.fixture
def at_table(table, swd10_character, player_client):
    upload(player_client, swd10_character, picture())
    swd10_character.refresh_from_db()
    return swd10_character


def _as(client: Client, user) -> Client:
    client.force_login(user)
    return client


def test_the_tables_gm_sees_and_may_take_down_the_portrait_but_not_put_one_up(client, gm, at_table):
    gm_client = _as(client, gm)
    page = gm_client.get(reverse("character_sheet", args=[at_table.pk])).content.decode()
    section = portrait_section(page)
    assert image_url(at_table) in section
    assert "Remove portrait" in section and 'name="portrait"' not in section
    assert gm_client.get(image_url(at_table)).status_code == 200

    before = state(at_table)
    assert upload(gm_client, at_table, picture(color="red")).status_code == 403
    assert state(at_table) == before

    removed = gm_client.post(
        reverse("character_portrait_remove", args=[at_table.pk]), {"replaces": _digest(at_table)}
    )
    assert removed.status_code == 302
    assert not Portrait.objects.filter(character=at_table).exists()


def test_a_co_gm_may_take_it_down_too(client, table, other_player, at_table):
    Membership.objects.filter(campaign=table, user=other_player).update(role=Role.GM)
    co_gm = _as(client, other_player)
    assert co_gm.get(image_url(at_table)).status_code == 200
    assert upload(co_gm, at_table, picture(color="red")).status_code == 403
    response = co_gm.post(
        reverse("character_portrait_remove", args=[at_table.pk]), {"replaces": _digest(at_table)}
    )
    assert response.status_code == 302


def test_another_player_and_another_tables_gm_find_nothing(
    client, other_player, other_gm, other_table, at_table
):
    for person in (other_player, other_gm):
        someone = _as(client, person)
        before = state(at_table)
        assert someone.get(image_url(at_table)).status_code == 404
        assert upload(someone, at_table, picture(color="red")).status_code == 404
        remove = reverse("character_portrait_remove", args=[at_table.pk])
        assert someone.post(remove, {"replaces": _digest(at_table)}).status_code == 404
        assert state(at_table) == before


# Serving -----------------------------------------------------------------------------------


def test_the_picture_is_private_cached_by_its_digest_and_revalidated_by_etag(
    player_client, swd10_character
):
    upload(player_client, swd10_character, picture())
    url, digest = image_url(swd10_character), _digest(swd10_character)
    assert digest in url

    response = player_client.get(url)
    cache = response["Cache-Control"]
    assert "private" in cache and "max-age=31536000" in cache and "public" not in cache
    assert response["ETag"] == f'"{digest}"'

    again = player_client.get(url, HTTP_IF_NONE_MATCH=f'"{digest}"')
    assert again.status_code == 304
    assert again.content == b""
    # The tag as a browser sends it back after a compressed answer, among others.
    weak = player_client.get(url, HTTP_IF_NONE_MATCH=f'"other", W/"{digest}"')
    assert weak.status_code == 304
    assert player_client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_an_old_pictures_address_leads_to_the_current_picture(player_client, swd10_character):
    upload(player_client, swd10_character, picture(color="red"))
    old = image_url(swd10_character)
    upload(player_client, swd10_character, picture(color="lime"))
    response = player_client.get(old)
    assert response.status_code == 302
    assert response["Location"] == image_url(swd10_character)
    assert "no-cache" in response["Cache-Control"]


def test_a_character_without_portrait_has_no_picture(player_client, swd10_character):
    url = reverse("character_portrait", args=[swd10_character.pk, "0" * 64])
    assert player_client.get(url).status_code == 404
    page = player_client.get(reverse("character_sheet", args=[swd10_character.pk]))
    assert "<img" not in portrait_section(page.content.decode())


# The share page ----------------------------------------------------------------------------


def test_the_share_page_shows_the_portrait_through_the_links_own_address(
    player_client, player, swd10_character
):
    upload(player_client, swd10_character, picture())
    link = share_link_create(user=player, character_id=swd10_character.pk)
    visitor = Client()

    page = visitor.get(reverse("shared_sheet", args=[link.token])).content.decode()
    shared = reverse("shared_portrait", args=[link.token, _digest(swd10_character)])
    section = portrait_section(page)
    assert f'src="{shared}"' in section
    assert "<form" not in section
    assert visitor.get(shared)["Content-Type"] == "image/jpeg"
    # The sheet's own address is not the visitor's: they are sent to log in.
    assert visitor.get(image_url(swd10_character)).status_code == 302

    player_client.post(reverse("character_share_revoke", args=[swd10_character.pk, link.pk]))
    assert visitor.get(shared).status_code == 404


def test_a_share_page_without_portrait_draws_no_portrait_section(
    player_client, player, swd10_character
):
    link = share_link_create(user=player, character_id=swd10_character.pk)
    page = Client().get(reverse("shared_sheet", args=[link.token])).content.decode()
    assert 'id="portrait"' not in page


# The PDF -----------------------------------------------------------------------------------

MAGENTA = (255, 0, 255)


def _magenta_in_top_right(pdf: bytes, tmp_path: Path) -> bool:
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "40", "-f", "1", "-l", "1", "-png", str(source), str(tmp_path / "p")],
        check=True,
    )
    page = Image.open(next(tmp_path.glob("p*.png"))).convert("RGB")
    for stale in tmp_path.glob("p*.png"):
        stale.unlink()
    corner = page.crop((page.width * 3 // 4, 0, page.width, page.height // 6))
    pixels = corner.get_flattened_data()
    return any(abs(r - 255) < 40 and g < 60 and abs(b - 255) < 40 for r, g, b in pixels)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="make test installs poppler-utils")
@pytest.mark.parametrize("system", ["swd10", "ore", "weg_d6", "o3d10"])
def test_the_pdf_shows_the_portrait_in_its_corner_on_as_many_pages(
    player_client, player, system, tmp_path
):
    character = Character.objects.create(
        owner=player, name="Jax Durran", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    pdf_url = reverse("character_pdf", args=[character.pk])
    without = player_client.get(pdf_url).content
    assert not _magenta_in_top_right(without, tmp_path)

    upload(player_client, character, picture("PNG", (400, 500), color=MAGENTA))
    with_portrait = player_client.get(pdf_url).content

    assert _magenta_in_top_right(with_portrait, tmp_path)
    pages = len(PdfReader(io.BytesIO(without)).pages)
    assert len(PdfReader(io.BytesIO(with_portrait)).pages) == pages
    # The stored JPEG goes into the PDF as it is, not decoded and written out larger.
    assert (
        len(with_portrait) - len(without)
        < 2 * len(bytes(Portrait.objects.get(character=character).image)) + 4096
    )


def test_the_print_fetcher_reads_inline_pictures_only_of_the_kinds_stored():
    jpeg = picture("JPEG", (8, 8))
    encoded = base64.b64encode(jpeg).decode()
    response = FETCHER.fetch(f"data:image/jpeg;base64,{encoded}")
    assert response.read() == jpeg
    for refused in (
        f"data:image/svg+xml;base64,{encoded}",
        "data:text/html;base64,PGgxPkhpPC9oMT4=",
        "data:image/jpeg;base64,not base64!",
        "data:image/jpeg,rawbytes",
    ):
        with pytest.raises(ValueError, match="only Datapad's own files"):
            FETCHER.fetch(refused)


# Whatever is posted ------------------------------------------------------------------------


def _mangled(base: bytes, data: st.DataObject) -> bytes:
    kind = data.draw(st.sampled_from(["flip", "cut", "splice", "random"]))
    if kind == "random":
        return data.draw(st.binary(max_size=2048))
    raw = bytearray(base)
    if kind == "cut":
        return bytes(raw[: data.draw(st.integers(0, len(raw)))])
    if kind == "splice":
        at = data.draw(st.integers(0, len(raw)))
        return bytes(raw[:at] + data.draw(st.binary(max_size=64)) + raw[at:])
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    return bytes(raw)


SEEDS = {
    "png": picture("PNG", (48, 32), color=(10, 200, 30, 128)),
    "jpeg": _exif_photo(),
    "webp": picture("WEBP", (48, 32)),
}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), seed=st.sampled_from(sorted(SEEDS)), current=st.booleans())
def test_no_upload_is_a_server_error_and_a_refused_one_changes_nothing(
    player_client, swd10_character, data, seed, current
):
    raw = _mangled(SEEDS[seed], data)
    # Mostly the digest the page was drawn with; sometimes anything at all.
    replaces = _digest(swd10_character) if current else data.draw(st.text(max_size=70))
    before = state(swd10_character)
    response = upload(player_client, swd10_character, raw, replaces=replaces)
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert state(swd10_character) == before
        assert 'role="alert"' in portrait_section(response.content.decode())
    else:
        assert stored(swd10_character).format == "JPEG"


# The character file ------------------------------------------------------------------------


def test_a_character_with_a_portrait_exports_and_its_file_imports_with_its_history(
    player_client, player, swd10_character
):
    # The file does not carry the picture yet (sheets/transfer is another's): its history
    # does carry the portrait's step, a revision that changes no trait, and imports.
    upload(player_client, swd10_character, picture())
    exported = player_client.get(reverse("character_export", args=[swd10_character.pk]))
    assert exported.status_code == 200
    steps = [step["summary"] for step in json.loads(exported.content)["history"]]
    assert "Portrait changed" in steps

    imported = player_client.post(
        reverse("character_import"),
        {"file": SimpleUploadedFile("kira.datapad.json", exported.content, "application/json")},
    )
    assert imported.status_code == 302
    copy = Character.objects.exclude(pk=swd10_character.pk).get(owner=player)
    assert "Portrait changed" in copy.revisions.values_list("summary", flat=True)
    assert not Portrait.objects.filter(character=copy).exists()


def test_the_sheet_page_reads_the_portraits_digest_without_its_bytes(
    player_client, swd10_character
):
    upload(player_client, swd10_character, picture("PNG", (512, 512)))
    with CaptureQueriesContext(connection) as queries:
        page = player_client.get(reverse("character_sheet", args=[swd10_character.pk]))
    assert image_url(swd10_character) in page.content.decode()
    portrait_reads = [q["sql"] for q in queries if "characters_portrait" in q["sql"]]
    assert len(portrait_reads) == 1
    assert '"image"' not in portrait_reads[0]


def test_a_character_deleted_takes_its_portrait_along(player_client, swd10_character):
    upload(player_client, swd10_character, picture())
    swd10_character.refresh_from_db()
    response = player_client.post(
        reverse("character_remove", args=[swd10_character.pk]),
        {"version": str(swd10_character.version)},
    )
    assert response.status_code == 302
    assert not Portrait.objects.exists()
