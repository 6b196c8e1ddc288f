"""A character's portrait: upload and remove it on the sheet page, and the picture itself,
for whoever sees the sheet and for a share link's holder.

The picture's URL names its digest, so a browser keeps it for good and asks again only
for a new picture ("private": a proxy between keeps nothing, as the picture is only for
those allowed to see the sheet).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from sheets.characters.models import Character, Portrait
from sheets.characters.portraits import (
    MAX_UPLOAD_BYTES,
    PortraitRefused,
    portrait_remove,
    portrait_set,
)
from sheets.characters.views import _sheet_page
from sheets.permissions import (
    PORTRAIT_REMOVE,
    PORTRAIT_SET,
    Need,
    character_for,
    shared_character,
)

# A year: the URL changes with the picture, so what a browser kept never goes stale.
KEPT_FOR = 365 * 24 * 3600


def _back_to_the_portrait(pk: int) -> HttpResponse:
    return redirect(reverse("character_sheet", kwargs={"pk": pk}) + "#portrait")


def _refused(
    request: HttpRequest, pk: int, need: Need, message: str, *, beside: str = "portrait_error"
) -> HttpResponse:
    """The sheet page again, with the reason beside the form's field (`beside`: the upload's
    or the removal's); nothing was stored."""
    character, access = character_for(request.user, pk, need)
    return _sheet_page(request, character, access, status=400, **{beside: message})


@require_POST
@login_required
def portrait_upload(request: HttpRequest, pk: int) -> HttpResponse:
    # Who may, first: someone who may not set this portrait learns nothing from the file.
    character_for(request.user, pk, PORTRAIT_SET)
    upload = request.FILES.get("portrait")
    if upload is None:
        return _refused(request, pk, PORTRAIT_SET, "Choose a picture to upload first.")
    if upload.size > MAX_UPLOAD_BYTES:
        # An upload past the import limit was never stored (sheets/transfer/uploads.py):
        # its size is all there is, and all that is needed.
        megabytes = f"{upload.size / (1024 * 1024):.1f} MB"
        return _refused(
            request,
            pk,
            PORTRAIT_SET,
            f"The file is {megabytes}: a portrait may be at most "
            f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB.",
        )
    try:
        _, processed = portrait_set(
            user=request.user,
            character_id=pk,
            data=upload.read(MAX_UPLOAD_BYTES + 1),
            replaces=request.POST.get("replaces", ""),
        )
    except PortraitRefused as refused:
        return _refused(request, pk, PORTRAIT_SET, refused.message)
    note = " Only the first frame of the animation is kept." if processed.animated else ""
    messages.success(request, f"Portrait saved.{note}")
    return _back_to_the_portrait(pk)


@require_POST
@login_required
def portrait_delete(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        portrait_remove(
            user=request.user, character_id=pk, replaces=request.POST.get("replaces", "")
        )
    except PortraitRefused as refused:
        return _refused(
            request, pk, PORTRAIT_REMOVE, refused.message, beside="portrait_remove_error"
        )
    messages.success(request, "Portrait removed.")
    return _back_to_the_portrait(pk)


def _picture(
    request: HttpRequest, character: Character, digest: str, url_for: Callable[[str], str]
) -> HttpResponse:
    """The character's picture if `digest` names it; an older digest (a page drawn before
    the picture changed) is sent on to the current one."""
    portrait = Portrait.objects.filter(character_id=character.pk).first()
    if portrait is None:
        raise Http404("This character has no portrait.")
    if digest != portrait.digest:
        response = redirect(url_for(portrait.digest))
        patch_cache_control(response, private=True, no_cache=True)
        return response
    etag = f'"{portrait.digest}"'
    # Compared weakly, as If-None-Match asks: GZipMiddleware weakens the tag ("W/") of an
    # answer it compressed.
    asked = request.headers.get("If-None-Match", "").split(",")
    if etag in [tag.strip().removeprefix("W/") for tag in asked]:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(bytes(portrait.image), content_type=portrait.content_type)
        response["Content-Disposition"] = 'inline; filename="portrait.jpg"'
    response["ETag"] = etag
    patch_cache_control(response, private=True, max_age=KEPT_FOR, immutable=True)
    return response


@require_GET
@login_required
def portrait_image(request: HttpRequest, pk: int, digest: str) -> HttpResponse:
    character, _ = character_for(request.user, pk)
    return _picture(
        request,
        character,
        digest,
        lambda current: reverse("character_portrait", kwargs={"pk": pk, "digest": current}),
    )


@require_GET
def shared_portrait(request: HttpRequest, token: str, digest: str) -> HttpResponse:
    """The picture on a share link's page: the live link is the only key asked for."""
    return _picture(
        request,
        shared_character(token),
        digest,
        lambda current: reverse("shared_portrait", kwargs={"token": token, "digest": current}),
    )
