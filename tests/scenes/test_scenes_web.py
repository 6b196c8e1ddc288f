"""The scene tracker through its pages and services: a GM builds a scene, rolls and types
initiative, steps turns, marks hits; a player reads the order without hidden NPCs; bad
input is refused and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.npcs.models import MinionMember
from sheets.npcs.services import group_create, npc_create, npc_reveal
from sheets.scenes.models import Participant, Scene
from sheets.scenes.services import participants_add, scene_create

pytestmark = pytest.mark.django_db

SECRET_NAME = "Inquisitor Secretmarker"


@pytest.fixture
def hidden_npc(gm, table):
    return npc_create(user=gm, campaign_id=table.pk, name=SECRET_NAME)


@pytest.fixture
def shown_npc(gm, table):
    npc = npc_create(user=gm, campaign_id=table.pk, name="Captain Visible")
    npc_reveal(user=gm, character_id=npc.pk, visibility="name", expected_version=1)
    return npc


@pytest.fixture
def troopers(gm, table, shown_npc):
    return group_create(
        user=gm, campaign_id=table.pk, block_id=str(shown_npc.pk), name="Troopers", count="4"
    )


@pytest.fixture
def scene(gm, table, swd10_character, hidden_npc, shown_npc, troopers):
    made = scene_create(user=gm, campaign_id=table.pk, name="Ambush")
    picks = [f"character:{c.pk}" for c in (swd10_character, hidden_npc, shown_npc)]
    picks += [f"member:{m.pk}" for m in troopers.members.all()]
    participants_add(user=gm, scene_id=made.pk, picks=picks, expected_version=made.version)
    made.refresh_from_db()
    return made


def _post(client, name, scene, data):
    scene.refresh_from_db()
    return client.post(reverse(name, kwargs={"pk": scene.pk}), {"version": scene.version, **data})


def _participant(scene, **row):
    return Participant.objects.get(scene=scene, **row)


def test_a_gm_makes_a_scene_from_the_table_page(client, gm, table):
    client.force_login(gm)
    page = client.get(reverse("campaign_detail", kwargs={"pk": table.pk})).content.decode()
    assert reverse("scene_list", kwargs={"pk": table.pk}) in page
    response = client.post(reverse("scene_list", kwargs={"pk": table.pk}), {"name": "Cantina"})
    scene = Scene.objects.get(name="Cantina")
    assert response.status_code == 302 and scene.round == 1


def test_a_gm_brings_the_table_into_the_scene(client, gm, scene, troopers):
    client.force_login(gm)
    body = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert SECRET_NAME in body and "Troopers #4" in body
    assert scene.participants.count() == 7
    # The hidden NPC's row says the players do not see it; the rest say nothing.
    assert body.count("Players do not see this") == 1
    hidden_row = body[body.index(SECRET_NAME) :]
    assert hidden_row.index("Players do not see this") < hidden_row.index("</li>")


def test_typed_initiative_orders_the_scene_by_the_seed(client, gm, scene, swd10_character):
    client.force_login(gm)
    kira = _participant(scene, character=swd10_character)
    member = Participant.objects.filter(scene=scene, kind="member").first()
    for who, value in ((kira, "2"), (member, "5")):
        response = _post(
            client,
            "scene_initiative",
            scene,
            {"participant": who.pk, "action": "type", "value": value},
        )
        assert response.status_code == 302
    body = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert body.index(f'id="participant-{member.pk}"') < body.index(f'id="participant-{kira.pk}"')


def test_initiative_typed_as_text_is_refused_beside_the_field(client, gm, scene, swd10_character):
    client.force_login(gm)
    kira = _participant(scene, character=swd10_character)
    before = scene.version
    response = _post(
        client,
        "scene_initiative",
        scene,
        {"participant": kira.pk, "action": "type", "value": "fast"},
    )
    assert response.status_code == 400
    assert "is not a whole number" in response.content.decode()
    kira.refresh_from_db()
    scene.refresh_from_db()
    assert kira.initiative is None and scene.version == before


def test_rolled_initiative_uses_the_tables_dice(client, gm, scene, settings):
    settings.DICE_SEED = 7
    client.force_login(gm)
    assert _post(client, "scene_initiative", scene, {"action": "roll"}).status_code == 302
    rolled = [p.initiative for p in scene.participants.all()]
    assert all(r is not None and "value" in r for r in rolled)


def test_turns_step_through_the_order_and_the_rounds(client, gm, scene):
    client.force_login(gm)
    for _ in range(7):
        _post(client, "scene_step", scene, {"direction": "next"})
    scene.refresh_from_db()
    assert (scene.round, scene.turn) == (2, 0)
    _post(client, "scene_step", scene, {"direction": "previous"})
    scene.refresh_from_db()
    assert (scene.round, scene.turn) == (1, 6)


def test_a_stale_version_is_refused_and_nothing_moves(client, gm, scene):
    client.force_login(gm)
    response = client.post(
        reverse("scene_step", kwargs={"pk": scene.pk}),
        {"version": scene.version - 1, "direction": "next"},
    )
    scene.refresh_from_db()
    assert response.status_code == 409 and "changed elsewhere" in response.content.decode()
    assert (scene.round, scene.turn) == (1, 0)


def test_a_hit_on_a_minion_marks_that_member_alone(client, gm, scene, troopers):
    client.force_login(gm)
    member = troopers.members.get(number=2)
    row = _participant(scene, member=member)
    response = _post(client, "scene_hit", scene, {"participant": row.pk, "levels": "2"})
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.wounds == {"levels": 2}
    assert all(m.wounds == {"levels": 0} for m in troopers.members.exclude(pk=member.pk))


def test_a_hit_on_an_npc_marks_its_sheet(client, gm, scene, shown_npc):
    client.force_login(gm)
    row = _participant(scene, character=shown_npc)
    response = _post(client, "scene_hit", scene, {"participant": row.pk, "levels": "3"})
    assert response.status_code == 302
    shown_npc.refresh_from_db()
    assert shown_npc.sheet["health_marked"] == 3
    body = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert "penalty" in body


def test_a_hit_on_someone_not_in_the_scene_is_refused(client, gm, scene, table, swd10_character):
    client.force_login(gm)
    other = scene_create(user=gm, campaign_id=table.pk, name="Elsewhere")
    participants_add(
        user=gm, scene_id=other.pk, picks=[f"character:{swd10_character.pk}"], expected_version=1
    )
    stranger = Participant.objects.get(scene=other)
    response = _post(client, "scene_hit", scene, {"participant": stranger.pk, "levels": "2"})
    swd10_character.refresh_from_db()
    assert (
        response.status_code == 400 and "Choose someone in this scene" in response.content.decode()
    )
    assert swd10_character.sheet["health_marked"] == 0


def test_a_hit_of_text_is_refused_and_nothing_is_marked(client, gm, scene, troopers):
    client.force_login(gm)
    member = troopers.members.get(number=1)
    row = _participant(scene, member=member)
    response = _post(client, "scene_hit", scene, {"participant": row.pk, "levels": "lots"})
    member.refresh_from_db()
    assert response.status_code == 400 and member.wounds == {"levels": 0}


def test_a_participant_of_another_table_is_refused(client, gm, scene, other_table, other_gm):
    other_npc = npc_create(user=other_gm, campaign_id=other_table.pk, name="Far Away")
    client.force_login(gm)
    before = scene.participants.count()
    response = _post(client, "scene_join", scene, {"pick": f"character:{other_npc.pk}"})
    assert response.status_code == 400 and "no one at this table" in response.content.decode()
    assert scene.participants.count() == before


def test_a_player_sees_the_order_and_their_own_state_never_a_hidden_npc(
    client, player, scene, swd10_character
):
    client.force_login(player)
    for name in ("scene_detail", "scene_tracker"):
        body = client.get(reverse(name, kwargs={"pk": scene.pk})).content.decode()
        assert SECRET_NAME not in body and "Hidden" not in body and "(hidden)" not in body
        assert "Captain Visible" in body and "Kira Dane" in body
        assert "Unhurt" in body  # Kira's own state
        assert "Mark hit" not in body and "Bring into the scene" not in body
        assert "Players do not see" not in body


def test_another_player_reads_neither_the_name_nor_the_wounds_of_a_players_character(
    client, other_player, scene
):
    client.force_login(other_player)
    body = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert "A player&#x27;s character" in body and "Captain Visible" in body
    assert "Kira Dane" not in body and "Unhurt" not in body and SECRET_NAME not in body


def test_a_player_may_not_change_the_scene_and_a_stranger_finds_nothing(
    client, player, other_gm, scene
):
    client.force_login(player)
    assert _post(client, "scene_step", scene, {"direction": "next"}).status_code == 403
    client.force_login(other_gm)
    assert client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).status_code == 404
    assert _post(client, "scene_step", scene, {"direction": "next"}).status_code == 404


def test_the_minions_of_a_hidden_block_stay_out_of_a_players_view(
    client, gm, player, table, hidden_npc, scene
):
    group = group_create(
        user=gm,
        campaign_id=table.pk,
        block_id=str(hidden_npc.pk),
        name="Shadowguards",
        count="2",
    )
    participants_add(
        user=gm, scene_id=scene.pk, picks=[f"group:{group.pk}"], expected_version=scene.version
    )
    client.force_login(player)
    body = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert "Shadowguards" not in body
    assert MinionMember.objects.filter(group=group).count() == 2


def test_a_scene_made_with_npcs_first_puts_the_npc_first_on_a_tie(client, gm, table, shown_npc):
    from sheets.scenes.services import initiative_type

    client.force_login(gm)
    url = reverse("scene_list", kwargs={"pk": table.pk})
    assert client.post(url, {"name": "Duel", "ties": "npcs_first"}).status_code == 302
    scene = Scene.objects.get(name="Duel")
    kira = table.characters.get(name="Kira Dane")
    # The NPC's side and attributes set equal to Kira's: only the scene's rule is left.
    shown_npc.sheet.update({k: kira.sheet[k] for k in ("attributes", "light_side", "dark_side")})
    shown_npc.save(update_fields=["sheet"])
    picks = [f"character:{kira.pk}", f"character:{shown_npc.pk}"]
    participants_add(user=gm, scene_id=scene.pk, picks=picks, expected_version=1)
    for row in Participant.objects.filter(scene=scene):
        scene.refresh_from_db()
        initiative_type(
            user=gm,
            scene_id=scene.pk,
            participant_id=row.pk,
            text="3",
            expected_version=scene.version,
        )
    body = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    assert body.index("Captain Visible") < body.index("Kira Dane")


def test_a_tie_rule_of_nonsense_is_refused_beside_the_field(client, gm, table):
    client.force_login(gm)
    url = reverse("scene_list", kwargs={"pk": table.pk})
    response = client.post(url, {"name": "Duel", "ties": "loudest_first"})
    assert response.status_code == 400 and "settle a tie" in response.content.decode()
    assert not Scene.objects.filter(name="Duel").exists()


def test_the_gm_marks_a_players_health_from_the_tracker_and_the_player_reads_it(
    client, gm, player, scene, swd10_character
):
    # SWd10's health is among its TABLE_EDITS: the GM applies the damage left after soak.
    client.force_login(gm)
    row = _participant(scene, character=swd10_character)
    page = client.get(reverse("scene_detail", kwargs={"pk": scene.pk})).content.decode()
    kira_row = page[page.index(f'id="participant-{row.pk}"') :]
    assert kira_row.index("Mark hit") < kira_row.index("</li>")
    response = _post(client, "scene_hit", scene, {"participant": row.pk, "levels": "2"})
    assert response.status_code == 302
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["health_marked"] == 2
    client.force_login(player)
    body = client.get(reverse("scene_tracker", kwargs={"pk": scene.pk})).content.decode()
    kira_row = body[body.index("Kira Dane") :]
    assert "Unhurt" not in kira_row[: kira_row.index("</li>")]
    assert "penalty" in kira_row[: kira_row.index("</li>")]
