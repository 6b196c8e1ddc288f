"""The HTTP API for a table's tools (a Discord bot, a VTT module, a script), under /api/.

A tool speaks for one person with a personal access token that person made on their
settings page (`Authorization: Bearer <token>`), within the token's scopes. What it may
read or roll is exactly what the person may on the pages: every answer goes through the
one permission selector (sheets/permissions.py), so a character one may not see is the
same 404 here as there. A session or a share link is no credential here: the API reads no
cookie, so no page's session can be ridden by another site (and needs no CSRF token).

Each token is throttled (settings.API_REQUESTS_PER_MINUTE; 429 with Retry-After past it).
django-ninja writes the OpenAPI document from the schemas (/api/openapi.json) and serves
its docs page (/api/docs) from this server's static files. /api/ itself answers a JSON
index of the operations, drawn from that document; any other address under /api/ a JSON
404 (sheets/api/urls.py), never the site's HTML page.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_cache_control
from django.utils.encoding import iri_to_uri
from django.views.decorators.http import require_safe
from ninja import NinjaAPI, Query, Status
from ninja.errors import AuthenticationError, AuthorizationError, HttpError, Throttled
from ninja.errors import ValidationError as RequestInvalid
from ninja.security import HttpBearer

from rulesets.core.rolls import RollOption, percent_text
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.accounts import services as accounts
from sheets.accounts.models import AccessToken
from sheets.advancement.figures import engine_sheet, figures, keep_figures
from sheets.api.schema import (
    Author,
    Chance,
    CharacterDetail,
    CharacterLine,
    Check,
    Message,
    OddsAnswer,
    OptionLine,
    RollableLine,
    RollAsked,
    RollLine,
    RollLog,
    SheetStatus,
    Table,
)
from sheets.campaigns.models import Membership, Role
from sheets.characters.models import Character, GMNote
from sheets.characters.state import sheet_state
from sheets.npcs.models import Npc
from sheets.npcs.state import npc_state
from sheets.permissions import (
    Need,
    campaign_for,
    character_for,
    readable_characters,
)
from sheets.rolls.models import RollEntry
from sheets.rolls.services import (
    RollRefused,
    character_settings,
    roll_make,
    roll_odds,
    roll_setup,
    rollables_of,
    table_entries,
)

READ_CHARACTERS = "characters:read"
READ_TABLE = "table:read"
WRITE_ROLLS = "rolls:write"

# A log page holds this many entries unless asked for fewer; never more than MOST_ENTRIES.
LOG_PAGE = 50
MOST_ENTRIES = 100

NO_TOKEN = (
    "Send a personal access token as 'Authorization: Bearer <token>'; make one on your "
    "settings page (a logged-in session or a share link is not one)."
)


class TokenAuth(HttpBearer):
    """A personal access token, then one request counted against its throttle."""

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken:
        # TokenRefused (unknown, revoked, expired) is answered 401 by its handler below.
        found = accounts.token_authenticate(token)
        wait = accounts.token_count_request(found)
        if wait:
            raise Throttled(wait=int(wait))
        return found


class DatapadAPI(NinjaAPI):
    def create_response(self, request: HttpRequest, data: Any, **kwargs: Any) -> HttpResponse:
        response = super().create_response(request, data, **kwargs)
        # One person's data: no shared cache keeps it, no browser stores it (as the pages,
        # sheets/middleware.py, which does not see a token's request as a session's).
        patch_cache_control(response, private=True, no_store=True)
        return response


api = DatapadAPI(
    title="Datapad API",
    version="1",
    description=(
        "Read your characters and your tables' roll logs, and roll, from your own tools. "
        "Authenticate with a personal access token from your settings page: "
        "`Authorization: Bearer <token>`. Scopes: "
        + "; ".join(f"`{key}`: {text}" for key, text in accounts.SCOPES.items())
        + ". Each token may make a limited number of requests a minute; past them the "
        "answer is 429 with Retry-After. Every refusal is JSON: `detail`, and `errors` "
        "by field."
    ),
    urls_namespace="api",
    auth=TokenAuth(),
    # The document and its page are read, never posted to.
    docs_decorator=require_safe,
)


def _message(
    request: HttpRequest, status: int, detail: str, errors: dict[str, str] | None = None
) -> HttpResponse:
    body = Message(detail=detail, errors=errors or {}).model_dump()
    return api.create_response(request, body, status=status)


@api.exception_handler(accounts.TokenRefused)
def _token_refused(request: HttpRequest, exc: accounts.TokenRefused) -> HttpResponse:
    response = _message(request, 401, str(exc))
    response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return response


@api.exception_handler(AuthenticationError)
def _no_token(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    response = _message(request, 401, NO_TOKEN)
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    seconds = max(1, int(exc.wait or 1))
    response = _message(
        request,
        429,
        f"Too many requests with this token; try again in {seconds} seconds.",
    )
    response["Retry-After"] = str(seconds)
    return response


# ninja's own words for a body it cannot read, in ours.
NOT_JSON = {"Cannot parse request body": "The request's body is not JSON; send a JSON object."}


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    # AuthorizationError (a scope the token lacks) and ninja's own refusals (a body that
    # is not JSON) keep their status and say why.
    return _message(request, exc.status_code, NOT_JSON.get(str(exc), str(exc)))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    # The selector's own words ("No such character."): the same for what does not exist
    # and what the token's user may not see.
    return _message(request, 404, str(exc) or "Not found.")


@api.exception_handler(PermissionDenied)
def _refused(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
    return _message(request, 403, str(exc) or "You may not do this.")


@api.exception_handler(RequestInvalid)
def _invalid(request: HttpRequest, exc: RequestInvalid) -> HttpResponse:
    errors: dict[str, str] = {}
    for error in exc.errors:
        # ("body", "asked", "options") names the field "options"; a query's, "query.limit".
        loc = [str(part) for part in error.get("loc", ())]
        if loc[:1] == ["body"]:
            loc = loc[2:]
        where = ".".join(loc)
        errors[where or "request"] = str(error.get("msg", "Not valid."))
    return _message(request, 400, "The request is not what this endpoint takes.", errors)


@api.exception_handler(RollRefused)
def _roll_refused(request: HttpRequest, exc: RollRefused) -> HttpResponse:
    # A roll asked for (POST) is not rolled; odds asked for (GET) are not given.
    refused = "Not rolled" if request.method == "POST" else "No odds"
    return _message(request, 400, f"{refused}: {exc}", exc.errors)


# The index and the answer for any other address under /api/ ----------------------------

# The operations' methods as the OpenAPI document names them, in the order a reader expects.
METHODS = ("get", "post", "put", "patch", "delete")


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """/api/ itself: what a tool may ask, and where the docs are, as JSON (public, as the
    docs page: it names no data). Drawn from the OpenAPI document, so it lists every
    operation and cannot drift from them."""
    document = api.get_openapi_schema()
    endpoints = [
        {
            "method": method.upper(),
            "path": route,
            "summary": operation.get("summary", ""),
            "name": operation.get("operationId", ""),
        }
        for route, item in document["paths"].items()
        for method in METHODS
        if (operation := item.get(method)) is not None
    ]
    body = {
        "name": api.title,
        "version": api.version,
        "docs": reverse("api:openapi-view"),
        "openapi": reverse("api:openapi-json"),
        "authentication": "Authorization: Bearer <token>, a personal access token made on "
        "your settings page.",
        "scopes": dict(accounts.SCOPES),
        "endpoints": endpoints,
    }
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})


def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other address under /api/: a JSON 404 (a tool reads JSON, not the site's page),
    or, for an endpoint's address without its final slash, the way to it (308 keeps the
    method and the body, where the site's 301 would turn a POST into a GET)."""
    path = request.path_info
    if not path.endswith("/"):
        try:
            match = resolve(path + "/")
        except Resolver404:
            match = None
        if match is not None and match.url_name != "api-not-found":
            target = request.path + "/"
            if request.META.get("QUERY_STRING"):
                target += "?" + iri_to_uri(request.META["QUERY_STRING"])
            return HttpResponsePermanentRedirect(target, preserve_request=True)
    body = Message(
        detail=f"No such endpoint. The API's index is {reverse('api:api-root')}, its docs "
        f"{reverse('api:openapi-view')}.",
        errors={},
    ).model_dump()
    response = JsonResponse(body, status=404)
    patch_cache_control(response, private=True, no_store=True)
    return response


def _user(request: HttpRequest, *scopes: str):
    """The token's user, once the token holds one of `scopes` (else 403, before anything
    is looked up, so a missing scope tells nothing about what exists)."""
    token: AccessToken = request.auth  # type: ignore[attr-defined]
    if not token.scope_set & set(scopes):
        wanted = " or ".join(scopes)
        raise AuthorizationError(
            message=f"This token may not do this: it needs the scope {wanted}."
        )
    return token.user


def _json_safe(value: Any) -> Any:
    """What the engine computed, as JSON: a die code or a fraction as its text."""
    return json.loads(json.dumps(value, default=str))


# Characters --------------------------------------------------------------------------------


def _line(character: Character, *, owner: bool, gm: bool, npc: bool) -> dict:
    campaign = character.campaign
    return {
        "id": character.pk,
        "name": character.name,
        "system": character.system,
        "system_name": SYSTEMS[character.system].name,
        "campaign": None if campaign is None else Table(id=campaign.pk, name=campaign.name),
        "npc": npc,
        "owner": owner,
        "gm": gm,
        "version": character.version,
        "review": character.review_label,
        "updated_at": character.updated_at,
    }


@api.get(
    "/characters/",
    response={200: list[CharacterLine], 401: Message, 403: Message, 429: Message},
    url_name="api_characters",
    summary="The characters I may open",
)
def characters(request: HttpRequest) -> list[dict]:
    """Every sheet you may open, as the pages allow: yours, every sheet at a table you run
    (its NPCs included), and the NPCs a GM has shown whole to a table you sit at (read-only:
    `owner` and `gm` false)."""
    user = _user(request, READ_CHARACTERS)
    runs = Membership.objects.filter(campaign=OuterRef("campaign"), user=user, role=Role.GM)
    rows = readable_characters(user).annotate(
        runs=Exists(runs), is_npc=Exists(Npc.objects.filter(character=OuterRef("pk")))
    )
    lines = []
    for character in rows.order_by("name", "pk"):
        # As `character_access`: an NPC at a table is its GMs', not its maker's once they
        # stepped down to player (then it is listed only if shown to the table, to read).
        owns = character.owner_id == user.pk and (
            character.runs or not character.is_npc or character.campaign_id is None
        )
        lines.append(_line(character, owner=owns, gm=character.runs, npc=character.is_npc))
    return lines


def _state(character: Character):
    """What the sheet page shows of the engine's answers: the stored sheet with the ledger's
    figures, judged under the readings in force (an NPC by its NPC budget)."""
    known = figures(keep_figures(character))
    state = sheet_state(
        get_ruleset(character.system), engine_sheet(character, known), character.readings_in_force
    )
    return npc_state(character, state)


@api.get(
    "/characters/{character_id}/",
    response={200: CharacterDetail, 401: Message, 403: Message, 404: Message, 429: Message},
    url_name="api_character",
    summary="A character's sheet, derived values and status",
)
def character(request: HttpRequest, character_id: int) -> dict:
    """The sheet as its page shows it to you: the table's GM note only to its GMs."""
    user = _user(request, READ_CHARACTERS)
    found, access = character_for(user, character_id)
    state = _state(found)
    note = None
    if access.gm:
        # Only this table's note, as the page: one another table wrote stays with it.
        written = GMNote.objects.filter(campaign_id=found.campaign_id, character=found).first()
        note = written.text if written is not None else ""
    npc = Npc.objects.filter(pk=found.pk).exists()
    return _line(found, owner=access.owner, gm=access.gm, npc=npc) | {
        "sheet": found.sheet,
        "rule_settings": _json_safe(state.settings),
        "derived": _json_safe(state.derived),
        "status": SheetStatus(
            stage=str(state.status.stage.value),
            legal=state.status.legal,
            errors=state.status.errors,
            warnings=state.status.warnings,
            unspent=state.status.unspent,
            unit=state.status.unit,
        ),
        "checks": [
            Check(
                severity=str(getattr(v.severity, "value", v.severity)),
                trait=v.trait,
                message=v.message,
                source=v.source,
            )
            for v in state.report.violations
        ],
        "gm_note": note,
    }


# Rolls -------------------------------------------------------------------------------------


def _roll_line(entry: RollEntry) -> RollLine:
    author = entry.author
    return RollLine(
        id=entry.pk,
        kind=entry.kind,
        created_at=entry.created_at,
        character=Table(id=entry.character_id, name=entry.character.name),
        author=None if author is None else Author(id=author.pk, username=author.get_username()),
        secret=entry.secret,
        rollable=entry.rollable_key,
        label=entry.rollable_label,
        pool=entry.pool,
        options=_json_safe(entry.options),
        modifiers=entry.modifiers,
        dice=_json_safe(entry.dice),
        kept=entry.kept,
        outcome=entry.outcome,
        summary=entry.summary,
        details=_json_safe(entry.details),
        total=entry.total,
        success=entry.success,
        odds=entry.odds,
        odds_percent=entry.odds_percent,
        question=entry.question,
        facts=_json_safe(entry.facts),
    )


@api.get(
    "/campaigns/{campaign_id}/rolls/",
    response={200: RollLog, 400: Message, 401: Message, 403: Message, 404: Message, 429: Message},
    url_name="api_campaign_rolls",
    summary="A table's roll log, newest first",
)
def campaign_rolls(
    request: HttpRequest,
    campaign_id: int,
    before: int | None = Query(None, ge=1, description="Only entries older than this id."),
    after: int | None = Query(None, ge=0, description="Only entries newer than this id."),
    limit: int = Query(LOG_PAGE, ge=1, le=MOST_ENTRIES, description="At most this many."),
) -> RollLog:
    """Every member of the table reads it; a GM's secret rolls, and a hidden NPC's, only
    its GMs. Page back with `before`; poll with `after` (an entry written in the last few
    seconds on another server may appear after a newer one: ask again a little behind)."""
    user = _user(request, READ_TABLE)
    campaign, role = campaign_for(user, campaign_id)
    entries = table_entries(user, campaign, role).select_related("author", "character")
    if before is not None:
        entries = entries.filter(pk__lt=before)
    if after is not None:
        entries = entries.filter(pk__gt=after)
    rows = list(entries.order_by("-pk")[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    return RollLog(
        items=[_roll_line(entry) for entry in rows],
        next_before=rows[-1].pk if more else None,
    )


def _option(option: RollOption) -> OptionLine:
    return OptionLine(
        key=option.key,
        label=option.label,
        kind=option.kind,
        default=_json_safe(option.default),
        minimum=option.minimum,
        maximum=option.maximum,
        choices=[[str(value), str(label)] for value, label in option.choices],
        help=option.help,
    )


@api.get(
    "/characters/{character_id}/rollables/",
    response={200: list[RollableLine], 401: Message, 403: Message, 404: Message, 429: Message},
    url_name="api_character_rollables",
    summary="What a character can roll, with each roll's modifiers",
)
def character_rollables(request: HttpRequest, character_id: int) -> list[RollableLine]:
    """For whoever may roll from the sheet: its owner and its table's GMs."""
    user = _user(request, WRITE_ROLLS, READ_CHARACTERS)
    found, _ = character_for(user, character_id, Need.EDIT)
    settings = character_settings(found)
    rollables = rollables_of(found, settings)
    lines = []
    for rollable in rollables:
        setup = roll_setup(found, rollable.key, settings=settings, rollables=rollables)
        lines.append(
            RollableLine(
                key=rollable.key,
                label=rollable.label,
                group=rollable.group,
                options=[_option(option) for option in setup.definitions],
            )
        )
    return lines


def _fraction(chance) -> str:
    return f"{chance.numerator}/{chance.denominator}"


@api.get(
    "/characters/{character_id}/odds/",
    response={
        200: OddsAnswer,
        400: Message,
        401: Message,
        403: Message,
        404: Message,
        429: Message,
    },
    url_name="api_character_odds",
    summary="The exact odds of a roll, without rolling",
)
def character_odds(
    request: HttpRequest,
    character_id: int,
    rollable: str = Query(..., min_length=1, max_length=120, description="What to roll."),
) -> OddsAnswer:
    """Every other query parameter is a modifier by its key (?rollable=attr.wits&difficulty=7),
    read as the roll panel reads its form. Nothing is written."""
    user = _user(request, WRITE_ROLLS, READ_CHARACTERS)
    found, _ = character_for(user, character_id, Need.EDIT)
    setup = roll_setup(found, rollable)
    raw = {key: value for key, value in request.GET.items() if key != "rollable"}
    chosen, odds = roll_odds(setup, raw)
    return OddsAnswer(
        rollable=setup.rollable.key,
        label=setup.rollable.label,
        options=_json_safe(chosen),
        question=odds.question,
        odds=_fraction(odds.success),
        percent=odds.percent,
        exact=odds.exact,
        note=odds.note,
        bars=[
            Chance(
                label=bar.label,
                chance=_fraction(bar.chance),
                percent=percent_text(bar.chance),
                success=bar.success,
                threshold=bar.threshold,
            )
            for bar in odds.bars
        ],
        beside=[
            Chance(
                label=other.label,
                chance=_fraction(other.chance),
                percent=other.percent,
                source=other.source,
            )
            for other in odds.beside
        ],
    )


def _form_value(value: str | int | bool) -> str:
    """A modifier as the roll panel's form would post it."""
    if isinstance(value, bool):
        return "on" if value else ""
    return str(value)


@api.post(
    "/characters/{character_id}/rolls/",
    response={201: RollLine, 400: Message, 401: Message, 403: Message, 404: Message, 429: Message},
    url_name="api_character_roll",
    summary="Roll, with its exact odds, into the table's log",
)
def character_roll(request: HttpRequest, character_id: int, asked: RollAsked):
    """Rolled as the roll panel rolls (the same service): written to the table's log, or
    the sheet's own at no table; a spend it asks for (a Force Point, Character Points) is
    written with it. Refused: 400 saying why, by field, and nothing is written."""
    user = _user(request, WRITE_ROLLS)
    found, _access = character_for(user, character_id, Need.EDIT)
    drawn = asked.campaign if "campaign" in asked.model_fields_set else found.campaign_id
    entry = roll_make(
        user=user,
        character_id=found.pk,
        rollable_key=asked.rollable,
        raw={key: _form_value(value) for key, value in asked.options.items()},
        secret=asked.secret,
        drawn_campaign=drawn,
    )
    return Status(201, _roll_line(entry))
