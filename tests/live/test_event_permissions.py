"""Every kind of event a live stream pushes (a roll, a GM's secret roll, a sheet's new
version, a scene's frame, a change to a scene only its GMs see), asked by every person:
nobody logged in, the sheet's owner, another player of the table, the table's GM, a
co-GM, another table's GM, a share link's holder and an API token's bearer. Each gets its
page's answer (302 to log in, 404) or exactly the frames its role may see."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from django.test import AsyncClient
from django.urls import reverse

from sheets.accounts.services import token_create
from sheets.campaigns.models import Membership, Role
from sheets.characters.services import character_apply_edits, share_link_create
from sheets.npcs.services import npc_create, npc_reveal
from sheets.rolls.models import RollEntry
from sheets.scenes.models import Participant, Scene
from sheets.scenes.services import (
    initiative_type,
    participants_add,
    scene_create,
    turn_step,
    view_key,
)
from tests.live.conftest import parse, run_async

pytestmark = pytest.mark.django_db(transaction=True)

PEOPLE = (
    "anonymous",
    "owner",
    "other player",
    "GM",
    "co-GM",
    "other GM",
    "share link",
    "API token",
)
OUT = {"anonymous": 302, "share link": 302, "API token": 302}  # web streams: a session only


def _open(who: str, world: dict, url: str, then) -> tuple[int, list]:
    """`url`'s stream as `who`, for a moment after `then` ran: its status and frames."""

    async def read():
        client = AsyncClient()
        headers = {"Last-Event-ID": world["cursor"]}
        if who == "share link":
            await client.get(reverse("shared_sheet", args=[world["share"]]))
        elif who == "API token":
            headers["Authorization"] = f"Bearer {world['token']}"
        elif who != "anonymous":
            await client.aforce_login(world["users"][who])
        response = await client.get(url, headers=headers)
        if not response.streaming:
            return response.status_code, []
        chunks: list[str] = []

        async def pull():
            async for chunk in response.streaming_content:
                chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)

        task = asyncio.ensure_future(pull())
        await asyncio.sleep(0.1)
        await asyncio.get_running_loop().run_in_executor(None, then)
        await asyncio.sleep(0.4)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return response.status_code, parse("".join(chunks))

    return run_async(read)


@pytest.fixture
def world(make_user, gm, player, other_player, other_gm, table, other_table, swd10_character):
    kira = swd10_character
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=table, user=co_gm, role=Role.GM)
    hidden = npc_create(user=gm, campaign_id=table.pk, name="Inquisitor Vex")
    scene = scene_create(user=gm, campaign_id=table.pk, name="Ambush")
    participants_add(
        user=gm,
        scene_id=scene.pk,
        picks=[f"character:{swd10_character.pk}", f"character:{hidden.pk}"],
        expected_version=1,
    )
    scopes = ["table:read", "characters:read"]
    # Kira acts first whatever the hidden NPC's initiative: its moves change no row a
    # player sees.
    for participant, text in (
        (Participant.objects.get(scene=scene, character=kira), "30"),
        (Participant.objects.get(scene=scene, character=hidden), "2"),
    ):
        scene.refresh_from_db()
        initiative_type(
            user=gm,
            scene_id=scene.pk,
            participant_id=participant.pk,
            text=text,
            expected_version=scene.version,
        )
    _token, secret = token_create(user=player, name="Dice bot", scopes=scopes, expiry="90")
    return {
        "users": {
            "owner": player,
            "other player": other_player,
            "GM": gm,
            "co-GM": co_gm,
            "other GM": other_gm,
        },
        "share": share_link_create(user=player, character_id=swd10_character.pk).token,
        "token": secret,
        "scene": scene,
        "hidden": Participant.objects.get(scene=scene, character=hidden),
        "cursor": "r0v0",
    }


def _scene_url(table, scene) -> str:
    return reverse("live_campaign_stream", args=[table.pk]) + f"?scene={scene.pk}"


def _expect(frames: dict[str, object]) -> dict[str, object]:
    return {who: OUT.get(who, frames.get(who, 404)) for who in PEOPLE}


def _now() -> str:
    """A cursor past every roll so far: only a new one is news."""
    newest = RollEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    return f"r{newest}v0"


def _ask(world, url: str, then, kind: str, *, cursor=_now) -> dict[str, object]:
    """Each person's answer: a refusal's status, else the events of `kind` they heard."""
    answers = {}
    for who in PEOPLE:
        world["cursor"] = cursor()
        status, frames = _open(who, world, url, then)
        answers[who] = [f.event for f in frames if f.event == kind] if status == 200 else status
    return answers


def test_a_roll_at_the_table(world, table, player, swd10_character, roll):
    url = reverse("live_campaign_stream", args=[table.pk])
    answers = _ask(world, url, lambda: roll(player, swd10_character), "roll")
    heard = ["roll"]
    assert answers == _expect({"owner": heard, "other player": heard, "GM": heard, "co-GM": heard})


def test_a_gms_secret_roll(world, table, gm, roll):
    # An NPC the players know of: only the roll's secrecy keeps it from them.
    shown = npc_create(user=gm, campaign_id=table.pk, name="Captain Visible")
    npc_reveal(user=gm, character_id=shown.pk, visibility="name", expected_version=1)
    url = reverse("live_campaign_stream", args=[table.pk])
    answers = _ask(world, url, lambda: roll(gm, shown, secret=True), "roll")
    assert answers == _expect({"owner": [], "other player": [], "GM": ["roll"], "co-GM": ["roll"]})


def test_a_sheets_new_version(world, gm, swd10_character):
    url = reverse("live_sheet_stream", args=[swd10_character.pk])

    def gm_edits():
        swd10_character.refresh_from_db()
        character_apply_edits(
            user=gm,
            character_id=swd10_character.pk,
            edits={"power": str(int(swd10_character.sheet.get("power", 1) or 1) % 5 + 1)},
            expected_version=swd10_character.version,
        )

    swd10_character.refresh_from_db()

    def now() -> str:
        swd10_character.refresh_from_db()
        return f"r999999v{swd10_character.version}"

    answers = _ask(world, url, gm_edits, "sheet", cursor=now)
    assert answers == _expect({"owner": ["sheet"], "GM": ["sheet"], "co-GM": ["sheet"]})


def test_a_scene_frame_when_the_gm_steps_a_turn(world, table, gm):
    scene: Scene = world["scene"]

    def gm_steps():
        scene.refresh_from_db()
        turn_step(user=gm, scene_id=scene.pk, direction="next", expected_version=scene.version)

    scene.refresh_from_db()
    # Each from the key its page was drawn with (a GM's and the players' differ).
    answers = {}
    for who in PEOPLE:
        scene.refresh_from_db()
        world["cursor"] = f"r0v{view_key(scene, who in ('GM', 'co-GM'))}"
        status, frames = _open(who, world, _scene_url(table, scene), gm_steps)
        answers[who] = [f.event for f in frames if f.event == "scene"] if status == 200 else status
    heard = ["scene"]
    assert answers == _expect({"owner": heard, "other player": heard, "GM": heard, "co-GM": heard})


def test_a_hidden_npcs_initiative_wakes_the_gms_pages_and_no_players(world, table, gm):
    scene: Scene = world["scene"]
    hidden = world["hidden"]
    typed = iter(range(3, 29))

    def gm_types():
        scene.refresh_from_db()
        initiative_type(
            user=gm,
            scene_id=scene.pk,
            participant_id=hidden.pk,
            text=str(next(typed)),
            expected_version=scene.version,
        )

    answers = {}
    for who in PEOPLE:
        scene.refresh_from_db()
        world["cursor"] = f"r0v{view_key(scene, who in ('GM', 'co-GM'))}"
        status, frames = _open(who, world, _scene_url(table, scene), gm_types)
        answers[who] = [f.event for f in frames if f.event == "scene"] if status == 200 else status
    assert answers == _expect(
        {"owner": [], "other player": [], "GM": ["scene"], "co-GM": ["scene"]}
    )


def test_a_scene_of_another_table_or_none_is_refused_like_a_missing_scene(
    world, table, other_table, other_gm
):
    other = scene_create(user=other_gm, campaign_id=other_table.pk, name="Elsewhere")
    gm = world["users"]["GM"]

    async def status(url):
        client = AsyncClient()
        await client.aforce_login(gm)
        return (await client.get(url)).status_code

    base = reverse("live_campaign_stream", args=[table.pk])
    assert run_async(status, f"{base}?scene={other.pk}") == 404
    assert run_async(status, f"{base}?scene=abc") == 404
    assert run_async(status, f"{base}?scene=99999999") == 404
