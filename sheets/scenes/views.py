"""The scene tracker's pages: thin views that load through the selector, call one service
and render. A table's members read a scene (a player the filtered view); only its GMs
post; anyone else gets 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rulesets.core.initiative import TIE_RULES
from sheets.campaigns.models import Role
from sheets.permissions import campaign_for, scene_for, table_scenes
from sheets.scenes import services
from sheets.scenes.services import SceneRefused, StaleScene


def _version(request: HttpRequest) -> int:
    text = request.POST.get("version", "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 0


@require_http_methods(["GET", "POST"])
@login_required
def scene_list(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, role = campaign_for(request.user, pk)
    errors: dict[str, str] = {}
    if request.method == "POST":
        campaign, role = campaign_for(request.user, pk, gm=True)
        try:
            scene = services.scene_create(
                user=request.user,
                campaign_id=campaign.pk,
                name=request.POST.get("name", ""),
                ties=request.POST.get("ties", "seed"),
            )
        except SceneRefused as refused:
            errors = refused.errors
        else:
            return redirect("scene_detail", pk=scene.pk)
    scenes = list(table_scenes(request.user, campaign))
    context = {
        "campaign": campaign,
        "scenes": [scene for scene in scenes if not scene.ended],
        "ended": [scene for scene in scenes if scene.ended],
        "is_gm": role is Role.GM,
        "tie_rules": TIE_RULES,
        "errors": errors,
        "posted": request.POST,
    }
    return render(request, "scenes/list.html", context, status=400 if errors else 200)


def _page(
    request: HttpRequest, pk: int, errors: dict[str, str] | None = None, status: int = 200
) -> HttpResponse:
    scene, role = scene_for(request.user, pk)
    view = services.tracker(request.user, scene, role)
    errors = errors or {}
    chosen = request.POST.get("participant", "")
    for row in view.rows:
        # Each refusal beside the field it is about, on the row it was posted from.
        row.error = errors.get(f"initiative-{row.participant.pk}", "")
        if str(row.participant.pk) == chosen and not row.error:
            row.hit_error = " ".join(v for k, v in errors.items() if k != services.WHOLE)
    context = {
        "scene": scene,
        "campaign": scene.campaign,
        "tracker": view,
        "candidates": services.candidates(request.user, scene) if view.gm else [],
        "errors": errors,
        "posted": request.POST,
        # A roll's "apply it in a scene" link: the roll chosen in each hit form.
        "chosen_roll": request.GET.get("roll", "") or request.POST.get("roll", ""),
        # Where a player's page's live stream starts: a frame comes when this moves.
        "live_key": None if view.gm else services.view_key(scene, False),
    }
    template = "scenes/_tracker.html" if request.htmx else "scenes/detail.html"
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@login_required
def scene_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, pk)


@require_GET
@login_required
def scene_tracker(request: HttpRequest, pk: int) -> HttpResponse:
    """The tracker alone: what a live page re-fetches on `scene_changed`."""
    scene, role = scene_for(request.user, pk)
    context = {"scene": scene, "tracker": services.tracker(request.user, scene, role)}
    response = render(request, "scenes/_tracker.html", context)
    response["Cache-Control"] = "no-store"
    return response


def _post(request: HttpRequest, pk: int, act, done: str) -> HttpResponse:
    scene_for(request.user, pk, change=True)  # 404 for strangers, 403 for players first
    try:
        act()
    except SceneRefused as refused:
        return _page(request, pk, refused.errors, status=400)
    except StaleScene as stale:
        return _page(request, pk, {services.WHOLE: str(stale)}, status=409)
    if done:
        messages.success(request, done)
    if request.htmx:
        return _page(request, pk)
    return redirect("scene_detail", pk=pk)


@require_POST
@login_required
def scene_join(request: HttpRequest, pk: int) -> HttpResponse:
    return _post(
        request,
        pk,
        lambda: services.participants_add(
            user=request.user,
            scene_id=pk,
            picks=request.POST.getlist("pick"),
            expected_version=_version(request),
        ),
        "",
    )


@require_POST
@login_required
def scene_leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _post(
        request,
        pk,
        lambda: services.participant_remove(
            user=request.user,
            scene_id=pk,
            participant_id=request.POST.get("participant", ""),
            expected_version=_version(request),
        ),
        "",
    )


@require_POST
@login_required
def scene_initiative(request: HttpRequest, pk: int) -> HttpResponse:
    participant = request.POST.get("participant", "")
    if request.POST.get("action") == "type":
        return _post(
            request,
            pk,
            lambda: services.initiative_type(
                user=request.user,
                scene_id=pk,
                participant_id=participant,
                text=request.POST.get("value", ""),
                expected_version=_version(request),
            ),
            "",
        )
    return _post(
        request,
        pk,
        lambda: services.initiative_roll(
            user=request.user,
            scene_id=pk,
            participant_id=participant,
            expected_version=_version(request),
        ),
        "",
    )


@require_POST
@login_required
def scene_step(request: HttpRequest, pk: int) -> HttpResponse:
    return _post(
        request,
        pk,
        lambda: services.turn_step(
            user=request.user,
            scene_id=pk,
            direction=request.POST.get("direction", ""),
            expected_version=_version(request),
        ),
        "",
    )


@require_POST
@login_required
def scene_end(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM ends the scene (ended=1) or reopens it (ended=0)."""
    ended = request.POST.get("ended") != "0"
    return _post(
        request,
        pk,
        lambda: services.scene_end(
            user=request.user, scene_id=pk, ended=ended, expected_version=_version(request)
        ),
        "The scene has ended." if ended else "The scene is running again.",
    )


@require_POST
@login_required
def scene_show(request: HttpRequest, pk: int) -> HttpResponse:
    """A vehicle's damage shown to the players (shown=1) or hidden again (shown=0)."""
    return _post(
        request,
        pk,
        lambda: services.damage_show(
            user=request.user,
            scene_id=pk,
            participant_id=request.POST.get("participant", ""),
            shown=request.POST.get("shown") == "1",
            expected_version=_version(request),
        ),
        "",
    )


@require_POST
@login_required
def scene_hit(request: HttpRequest, pk: int) -> HttpResponse:
    done: list[str] = []

    def act() -> None:
        done.append(
            services.scene_hit(
                user=request.user,
                scene_id=pk,
                participant_id=request.POST.get("participant", ""),
                raw=request.POST,
                expected_version=_version(request),
            )
        )

    response = _post(request, pk, act, "")
    if done:
        messages.success(request, f"Marked: {done[0]}")
    return response


@require_GET
@login_required
def scene_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM's PDF of the scene's NPCs and vehicles (players 403); a scene with neither
    goes back to its page with the reason."""
    try:
        scene, pdf = services.gm_pdf(request.user, pk)
    except SceneRefused as refused:
        messages.error(request, " ".join(refused.errors.values()))
        return redirect("scene_detail", pk=pk)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="scene-{scene.pk}-gm.pdf"'
    return response
