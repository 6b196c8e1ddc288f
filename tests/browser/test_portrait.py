"""A portrait in a real Chromium: chosen with the file field, uploaded, seen on the sheet
and on the share page; a file that is no usable picture is refused beside the field."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from sheets.characters.models import Portrait
from sheets.characters.services import share_link_create

pytestmark = pytest.mark.django_db(transaction=True)


def _file(fmt: str, size: tuple[int, int], color: str, name: str, mime: str) -> dict:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format=fmt)
    return {"name": name, "mimeType": mime, "buffer": out.getvalue()}


def _loaded_size(page: Page) -> list[int]:
    """The picture's own size once the browser has it (0 x 0: it did not load)."""
    picture = page.locator("#portrait img")
    expect(picture).to_be_visible()
    picture.evaluate("img => img.decode()")
    return picture.evaluate("img => [img.naturalWidth, img.naturalHeight]")


def test_the_owner_uploads_a_portrait_and_sees_it_on_the_sheet_and_the_share_page(
    live_server, page: Page, browser: Browser, player, open_demo
):
    character = open_demo("swd10", 1280)
    page.get_by_text("Add a portrait").click()
    page.set_input_files(
        "#portrait-file", _file("PNG", (1024, 768), "orange", "hero.png", "image/png")
    )
    page.get_by_role("button", name="Upload portrait").click()

    expect(page.get_by_text("Portrait saved.")).to_be_visible()
    assert _loaded_size(page) == [512, 384]
    assert Portrait.objects.filter(character=character).exists()
    assert page.locator("#portrait img").get_attribute("alt") == "Portrait of Demo Hero"

    # Someone holding a share link, logged in as nobody, sees the same picture.
    link = share_link_create(user=player, character_id=character.pk)
    visitor = browser.new_context().new_page()
    visitor.goto(f"{live_server.url}/s/{link.token}/")
    assert _loaded_size(visitor) == [512, 384]
    expect(visitor.locator("#portrait form")).to_have_count(0)
    visitor.context.close()


def test_a_gif_is_refused_beside_the_field_and_the_sheet_keeps_no_portrait(
    live_server, page: Page, open_demo
):
    character = open_demo("weg_d6", 1280)
    page.get_by_text("Add a portrait").click()
    page.set_input_files("#portrait-file", _file("GIF", (40, 40), "red", "spin.gif", "image/gif"))
    page.get_by_role("button", name="Upload portrait").click()

    field = page.locator("#portrait-file")
    expect(page.locator("#portrait-error")).to_have_text(
        "This is a GIF picture: a portrait must be a PNG, JPEG or WebP file."
    )
    expect(field).to_have_attribute("aria-invalid", "true")
    # Beside the field: just under it, not somewhere else on the page.
    below = page.locator("#portrait-error").bounding_box()
    box = field.bounding_box()
    assert 0 <= below["y"] - (box["y"] + box["height"]) < 60
    expect(page.locator("#portrait img")).to_have_count(0)
    assert not Portrait.objects.filter(character=character).exists()


def test_the_removal_takes_the_picture_off_the_page(live_server, page: Page, open_demo):
    open_demo("ore", 1280)
    page.get_by_text("Add a portrait").click()
    page.set_input_files(
        "#portrait-file", _file("JPEG", (300, 400), "teal", "hero.jpg", "image/jpeg")
    )
    page.get_by_role("button", name="Upload portrait").click()
    assert _loaded_size(page) == [300, 400]

    page.get_by_text("Change the portrait").click()
    page.get_by_role("button", name="Remove portrait").click()
    expect(page.get_by_text("Portrait removed.")).to_be_visible()
    expect(page.locator("#portrait img")).to_have_count(0)


def test_a_portrait_fits_a_360_px_phone(live_server, page: Page, open_demo):
    open_demo("o3d10", 360)
    page.get_by_text("Add a portrait").click()
    page.set_input_files(
        "#portrait-file", _file("PNG", (900, 300), "navy", "wide.png", "image/png")
    )
    page.get_by_role("button", name="Upload portrait").click()
    _loaded_size(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_text("Change the portrait").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shown = page.locator("#portrait img").bounding_box()
    assert shown["width"] <= 128 and shown["height"] <= 128
