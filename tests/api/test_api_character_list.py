"""The API's list of characters is exactly what the permission selector lets the token's
user read, sheet by sheet (`character_access`): NPCs a GM showed whole to the table
included, as the table's page shows them, and nothing more.

Asked by the eight people of the permission matrix: the anonymous visitor and a share
link's holder (no token: 401), and with a token the owner, another player, the table's GM,
a co-GM and another table's GM; plus a GM who made an NPC and then stepped down to player.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.campaigns.models import Membership, Role
from sheets.campaigns.services import member_set_role
from sheets.characters.models import Character
from sheets.npcs.services import npc_create, npc_reveal
from sheets.permissions import character_access
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

URL = "api:api_characters"


def _reveal(user, character, visibility: str) -> None:
    npc = character.npc
    npc_reveal(
        user=user, character_id=character.pk, visibility=visibility, expected_version=npc.version
    )


@pytest.fixture
def npc_table(world, make_user):
    """The matrix's table with a co-GM, NPCs shown whole, by name only and hidden, and an
    NPC whose maker stepped down from GM to player (hidden, then one shown whole)."""
    gm = world.users["gm"]
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=world.table, user=co_gm, role=Role.GM)
    former = make_user("former_gm")
    Membership.objects.create(campaign=world.table, user=former, role=Role.GM)
    shown = npc_create(user=gm, campaign_id=world.table.pk, name="Rook Shown Whole")
    _reveal(gm, shown, "sheet")
    named = npc_create(user=gm, campaign_id=world.table.pk, name="Nox Named Only")
    _reveal(gm, named, "name")
    kept = npc_create(user=former, campaign_id=world.table.pk, name="Vex Kept Back")
    made_shown = npc_create(user=former, campaign_id=world.table.pk, name="Zan Shown Later")
    _reveal(former, made_shown, "sheet")
    step_down = world.table.memberships.get(user=former)
    member_set_role(
        user=gm, campaign_id=world.table.pk, membership_id=step_down.pk, role=Role.PLAYER
    )
    # Another table's NPC shown whole: its players only.
    far = npc_create(user=world.users["other_gm"], campaign_id=world.other_table.pk, name="Far")
    _reveal(world.users["other_gm"], far, "sheet")
    people = dict(world.users) | {"co_gm": co_gm, "former_gm": former}
    return people, {"shown": shown, "named": named, "kept": kept, "made_shown": made_shown}


def _readable(user) -> dict[int, tuple[bool, bool]]:
    """What the selector answers, character by character: id -> (owner, gm)."""
    found = {}
    for character in Character.objects.select_related("campaign", "npc"):
        access = character_access(user, character)
        if access.view:
            found[character.pk] = (access.owner, access.gm)
    return found


WITH_TOKEN = ("owner", "other_player", "gm", "co_gm", "other_gm", "former_gm")


@pytest.mark.parametrize("person", WITH_TOKEN)
def test_the_list_is_what_the_selector_lets_one_read(client, npc_table, make_token, person):
    people, _npcs = npc_table
    user = people[person]
    response = client.get(reverse(URL), headers=bearer(make_token(user)))
    assert response.status_code == 200
    listed = {line["id"]: (line["owner"], line["gm"]) for line in response.json()}
    assert listed == _readable(user)
    # Each one listed opens, as the list promised.
    for pk in listed:
        one = client.get(
            reverse("api:api_character", kwargs={"character_id": pk}),
            headers=bearer(make_token(user)),
        )
        assert one.status_code == 200, (person, pk)


# Who sees which NPC: the names each one's list holds and lacks.
EXPECTED = {
    "owner": ({"Rook Shown Whole", "Zan Shown Later"}, {"Nox Named Only", "Vex Kept Back"}),
    "other_player": ({"Rook Shown Whole", "Zan Shown Later"}, {"Nox Named Only", "Vex Kept Back"}),
    "gm": ({"Rook Shown Whole", "Nox Named Only", "Vex Kept Back", "Zan Shown Later"}, set()),
    "co_gm": ({"Rook Shown Whole", "Nox Named Only", "Vex Kept Back", "Zan Shown Later"}, set()),
    "other_gm": ({"Far"}, {"Rook Shown Whole", "Zan Shown Later", "Vex Kept Back"}),
    # Stepped down: their hidden NPC is the table's GMs' now; the shown one they read.
    "former_gm": ({"Rook Shown Whole", "Zan Shown Later"}, {"Vex Kept Back", "Nox Named Only"}),
}


@pytest.mark.parametrize("person", WITH_TOKEN)
def test_revealed_npcs_are_listed_read_only(client, npc_table, make_token, person):
    people, _npcs = npc_table
    response = client.get(reverse(URL), headers=bearer(make_token(people[person])))
    lines = {line["name"]: line for line in response.json()}
    listed, unlisted = EXPECTED[person]
    assert listed <= lines.keys()
    assert not unlisted & lines.keys()
    runs = person in {"gm", "co_gm"}
    for name in listed - {"Far"}:
        assert lines[name]["npc"] is True
        assert lines[name]["gm"] is runs
        # The GM owns the NPCs they made; a player reads a revealed NPC and never acts on
        # it, though they made it (the former GM's).
        made = {"Rook Shown Whole", "Nox Named Only"}
        assert lines[name]["owner"] is (person == "gm" and name in made)


def test_a_session_or_a_share_link_lists_nothing(client, world, npc_table):
    people, _npcs = npc_table
    # Anonymous: nothing.
    assert client.get(reverse(URL)).status_code == 401
    # A share link's holder, having opened the shared sheet.
    world_share = world.share
    shared = reverse("shared_sheet", kwargs={"token": world_share.token})
    assert client.get(shared).status_code == 200
    assert client.get(reverse(URL)).status_code == 401
    assert client.get(reverse(URL), headers=bearer(world_share.token)).status_code == 401
    # A player's logged-in session is no token either.
    client.force_login(people["owner"])
    assert client.get(reverse(URL)).status_code == 401
