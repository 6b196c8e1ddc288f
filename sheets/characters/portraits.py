"""A character's portrait: the upload checked and made safe with Pillow, and the one write
service that puts it on a character or takes it off.

An upload is refused, with a sentence for the player, when it is not an image, is an
image of another kind than PNG, JPEG or WebP, is larger than MAX_UPLOAD_BYTES, or would
decode to more than MAX_PIXELS (a small file that unpacks into a huge picture, a
"decompression bomb", is refused from its header before any pixel is decoded). An
animation keeps its first frame.

What is stored is never the uploaded file: its pixels are turned upright as its EXIF
orientation says, brought to sRGB, flattened onto white, fitted into BOX x BOX and encoded
again as a JPEG made from the pixels alone, so no EXIF (a phone's GPS position), comment,
colour profile or anything else the file carried survives.
"""

from __future__ import annotations

import base64
import hashlib
import io
import logging
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from sheets.characters.models import Character, Portrait
from sheets.history.revisions import record_revision, revision_state
from sheets.permissions import PORTRAIT_REMOVE, PORTRAIT_SET, character_for

logger = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000
# The stored picture fits in this square (keeping its shape), which is four times what the
# sheet shows it at: sharp on a high-density screen and in print, some 30-80 KB a picture.
BOX = 512
JPEG_QUALITY = 85
# Pillow's names of the formats taken; only their decoders ever read an upload's pixels.
FORMATS = ("PNG", "JPEG", "WEBP")
ACCEPT = "image/png,image/jpeg,image/webp"

SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


class PortraitRefused(Exception):
    """The upload or the removal was refused; the message says why, for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Processed:
    """A picture ready to store: JPEG bytes and their size in pixels."""

    image: bytes
    width: int
    height: int
    # Whether the upload was an animation, of which only the first frame was kept.
    animated: bool = False

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.image).hexdigest()


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def process_image(data: bytes) -> Processed:
    """Check an uploaded file and make the picture to store from it, or PortraitRefused."""
    if not data:
        raise PortraitRefused("The file is empty: choose a PNG, JPEG or WebP picture.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise PortraitRefused(
            f"The file is {_megabytes(len(data))}: a portrait may be at most "
            f"{_megabytes(MAX_UPLOAD_BYTES)}."
        )
    source = _Watched(data)
    try:
        # Only these decoders look at the file; Pillow's other plugins never see it.
        picture = Image.open(source, formats=FORMATS)
    except Image.DecompressionBombError:
        raise _too_many_pixels() from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise PortraitRefused(_not_taken(data)) from None
    with picture:
        if picture.width * picture.height > MAX_PIXELS:
            raise _too_many_pixels(picture.width, picture.height)
        animated = getattr(picture, "n_frames", 1) > 1
        try:
            return _redrawn(picture, animated, source)
        except PortraitRefused:
            raise
        except MemoryError:
            raise _too_many_pixels(picture.width, picture.height) from None
        # A damaged file can make a decoder fail in many ways (OSError for a cut-off file,
        # SyntaxError, struct.error, ValueError, ZeroDivisionError...): whatever it is, the
        # file is at fault, and the player hears so rather than meet a server error.
        except Exception:
            logger.info("A portrait upload could not be decoded", exc_info=True)
            raise _damaged() from None


def _damaged() -> PortraitRefused:
    return PortraitRefused(
        "This picture could not be read: the file is damaged or cut short. Save it again "
        "as PNG, JPEG or WebP and try once more."
    )


class _Watched(io.BytesIO):
    """The upload as Pillow reads it, noting a read past its end: a file cut short.

    Pillow would refuse such a file itself, but WeasyPrint tells it to decode one as far
    as it goes, for the whole process (ImageFile.LOAD_TRUNCATED_IMAGES), and a switch
    shared by every thread cannot be turned back for one upload. A whole file is never
    read past its end: its decoder stops at the end it declares."""

    read_past_end = False

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        if not chunk and size != 0:
            self.read_past_end = True
        return chunk


def _too_many_pixels(width: int = 0, height: int = 0) -> PortraitRefused:
    size = f" ({width} × {height} pixels)" if width else ""
    return PortraitRefused(
        f"This picture is too large{size}: a portrait may have at most "
        f"{MAX_PIXELS // 1_000_000} million pixels. Make it smaller and try again."
    )


def _not_taken(data: bytes) -> str:
    """Why a file none of the three decoders takes is refused: another kind of picture, or
    no picture at all. The kind is read from the file's first bytes, not by decoding it."""
    if data.startswith((b"\x89PNG", b"\xff\xd8\xff")) or data[8:12] == b"WEBP":
        # One of the kinds taken, whose decoder gave up at once: a header cut short.
        return _damaged().message
    kind = next((name for magic, name in _OTHER_KINDS if data.startswith(magic)), None)
    if kind is None and data[4:8] == b"ftyp":
        kind = "HEIC or AVIF"
    if kind is not None:
        return f"This is a {kind} picture: a portrait must be a PNG, JPEG or WebP file."
    return "This file is not a picture Datapad can read: choose a PNG, JPEG or WebP file."


# The first bytes of the pictures people most often try that are not taken.
_OTHER_KINDS = (
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"BM", "BMP"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"\x00\x00\x00\x0cjP  ", "JPEG 2000"),
    (b"8BPS", "Photoshop"),
    (b"<svg", "SVG"),
    (b"<?xml", "SVG"),
)


def _redrawn(picture: Image.Image, animated: bool, source: _Watched) -> Processed:
    if picture.format == "JPEG":
        # A large photo is decoded at a half, a quarter or an eighth of its size when that
        # still covers the box: a fraction of the memory and time.
        picture.draft("RGB", (BOX, BOX))
    picture.seek(0)
    picture.load()
    if source.read_past_end:
        raise _damaged()
    profile = picture.info.get("icc_profile")
    upright = ImageOps.exif_transpose(picture)
    flat = _flattened(_in_srgb(upright, profile))
    flat.thumbnail((BOX, BOX), Image.Resampling.LANCZOS)
    # Only the pixels go into the new file: a fresh image carries no info from the upload.
    clean = Image.new("RGB", flat.size)
    clean.paste(flat)
    out = io.BytesIO()
    clean.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True, progressive=True)
    return Processed(out.getvalue(), clean.width, clean.height, animated)


def _in_srgb(picture: Image.Image, profile: bytes | None) -> Image.Image:
    """The picture's colours in sRGB, which is what a JPEG without a profile is read as:
    a phone's wide-gamut photo keeps its colours once its profile is gone. A profile
    that cannot be read or does not fit the picture is left out, as browsers do."""
    if not profile or picture.mode not in ("RGB", "RGBA", "CMYK", "L"):
        return picture
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        mode = "RGBA" if picture.mode == "RGBA" else "RGB"
        return ImageCms.profileToProfile(picture, source, SRGB, outputMode=mode)
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return picture


def _flattened(picture: Image.Image) -> Image.Image:
    """RGB, with any transparency laid over white, the colour of the page it is shown on."""
    if picture.mode not in ("RGBA", "LA", "PA") and "transparency" not in picture.info:
        return picture if picture.mode == "RGB" else picture.convert("RGB")
    rgba = picture.convert("RGBA")
    white = Image.new("RGB", rgba.size, "white")
    white.paste(rgba, mask=rgba.getchannel("A"))
    return white


# The write service ---------------------------------------------------------------------------


SUMMARY_SET = "Portrait changed"
SUMMARY_REMOVED = "Portrait removed"


def current_digest(character: Character) -> str:
    """The digest of the character's portrait, or "" when it has none."""
    return (
        Portrait.without_image.filter(character_id=character.pk)
        .values_list("digest", flat=True)
        .first()
        or ""
    )


def portrait_set(
    *, user: AbstractBaseUser, character_id: int, data: bytes, replaces: str
) -> tuple[Portrait, Processed]:
    """Put the uploaded picture on the character, replacing the one the form showed.

    `replaces` is the digest of the portrait the page was drawn with ("" for none): when
    another tab or person changed the portrait since, nothing is written. Who may is
    PORTRAIT_SET's answer, asked before the upload is decoded (someone who may not set the
    portrait makes the server decode nothing) and again under the row lock.
    """
    character_for(user, character_id, PORTRAIT_SET)
    # Decoded outside the transaction: a large photo takes a moment, and no row waits on it.
    processed = process_image(data)
    with transaction.atomic():
        character, _ = character_for(user, character_id, PORTRAIT_SET, for_update=True)
        _check_unchanged(character, replaces)
        portrait, _ = Portrait.objects.update_or_create(
            character=character,
            defaults={
                "image": processed.image,
                "content_type": "image/jpeg",
                "width": processed.width,
                "height": processed.height,
                "digest": processed.digest,
                "updated_by": user,
            },
        )
        _record(character, user, SUMMARY_SET)
    return portrait, processed


def portrait_remove(*, user: AbstractBaseUser, character_id: int, replaces: str) -> Character:
    """Take the portrait the page showed off the character (PORTRAIT_REMOVE decides who)."""
    with transaction.atomic():
        character, _ = character_for(user, character_id, PORTRAIT_REMOVE, for_update=True)
        _check_unchanged(character, replaces)
        if not Portrait.objects.filter(character=character).delete()[0]:
            raise PortraitRefused("This character has no portrait to remove.")
        _record(character, user, SUMMARY_REMOVED)
    return character


def _check_unchanged(character: Character, replaces: str) -> None:
    if current_digest(character) != str(replaces):
        raise PortraitRefused(
            "The portrait was changed elsewhere since this page was drawn, and nothing was "
            "saved: look at the current one, then try again."
        )


def _record(character: Character, user: AbstractBaseUser, summary: str) -> None:
    """A new version of the character with a revision saying what happened: the sheet's own
    state is unchanged, so the revision holds no operation and merges with any edit (the
    picture itself is not kept in the history)."""
    before = revision_state(character)
    character.version += 1
    character.save(update_fields=["version", "updated_at"])
    record_revision(character, user, summary, before)


# Reading -------------------------------------------------------------------------------------


def portrait_of(character: Character) -> Portrait | None:
    """The character's portrait with its bytes, or None; an unsaved character (the PDF
    warm-up's) has none and asks the database nothing."""
    if character._state.adding or character.pk is None:
        return None
    return Portrait.objects.filter(character_id=character.pk).first()


def data_uri(portrait: Portrait) -> str:
    """The picture inline, for a print: the PDF renderer reads nothing from outside."""
    encoded = base64.b64encode(bytes(portrait.image)).decode("ascii")
    return f"data:{portrait.content_type};base64,{encoded}"
