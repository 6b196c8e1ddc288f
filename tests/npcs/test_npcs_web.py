"""The GM's NPCs and minions at a table, through the pages: made, revealed, hit; and what
a player of the table never receives."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from sheets.characters.models import Character
from sheets.npcs.models import MinionGroup, MinionMember, Npc, Visibility
from sheets.npcs.services import group_create, npc_create, npc_reveal
from sheets.rolls.models import RollEntry

pytestmark = pytest.mark.django_db

SECRET_NAME = "Moff Secretmarker"


@pytest.fixture
def hidden_npc(gm, table):
    return npc_create(user=gm, campaign_id=table.pk, name=SECRET_NAME)


def test_a_gm_makes_an_npc_hidden_and_listed_apart_from_the_players_sheets(client, gm, table):
    client.force_login(gm)
    response = client.post(reverse("npc_new", kwargs={"pk": table.pk}), {"name": "Tarkin"})
    npc = Npc.objects.get(character__name="Tarkin")
    assert response.status_code == 302 and npc.visibility == Visibility.HIDDEN
    page = client.get(reverse("campaign_detail", kwargs={"pk": table.pk})).content.decode()
    npcs_panel = page[page.index('id="npcs"') :]
    dashboard = page[page.index('id="dashboard"') : page.index('id="npcs"')]
    assert "Tarkin" in npcs_panel and "Tarkin" not in dashboard


def test_a_quick_npc_takes_only_the_traits_given(client, gm, table):
    client.force_login(gm)
    response = client.post(
        reverse("npc_quick", kwargs={"pk": table.pk}),
        {"name": "Thug", "attr.strength": "3", "lines": "Brawl 2\nFirearms: 1"},
    )
    assert response.status_code == 302
    thug = Character.objects.get(name="Thug")
    assert thug.npc.quick
    assert thug.sheet["attributes"]["strength"] == 3
    assert thug.sheet["abilities"]["brawl"] == 2 and thug.sheet["abilities"]["firearms"] == 1


def test_a_quick_npc_with_a_bad_line_is_refused_beside_the_field_and_nothing_is_stored(
    client, gm, table
):
    client.force_login(gm)
    before = Character.objects.count()
    response = client.post(
        reverse("npc_quick", kwargs={"pk": table.pk}),
        {"name": "Thug", "attr.strength": "9", "lines": "Banana 3"},
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert "names no trait" in body and "Strength" in body
    assert Character.objects.count() == before


def test_a_player_never_sees_a_hidden_npc_anywhere(client, player, gm, table, hidden_npc):
    client.force_login(player)
    for url in (
        reverse("campaign_detail", kwargs={"pk": table.pk}),
        reverse("character_list"),
        reverse("campaign_roll_log", kwargs={"pk": table.pk}),
    ):
        assert SECRET_NAME not in client.get(url).content.decode()
    for name in ("npc_detail", "character_sheet", "character_pdf"):
        assert client.get(reverse(name, kwargs={"pk": hidden_npc.pk})).status_code == 404


def test_a_player_posting_to_a_hidden_npc_gets_the_answer_for_any_unseen_sheet(
    client, player, hidden_npc
):
    client.force_login(player)
    url = reverse("npc_reveal", kwargs={"pk": hidden_npc.pk})
    assert client.post(url, {"visibility": "sheet", "version": "1"}).status_code == 404
    assert Npc.objects.get(pk=hidden_npc.pk).visibility == Visibility.HIDDEN


def test_revealing_the_name_shows_the_name_but_not_the_sheet(client, player, gm, hidden_npc, table):
    npc_reveal(user=gm, character_id=hidden_npc.pk, visibility="name", expected_version=1)
    client.force_login(player)
    page = client.get(reverse("campaign_detail", kwargs={"pk": table.pk})).content.decode()
    assert SECRET_NAME in page
    assert client.get(reverse("npc_detail", kwargs={"pk": hidden_npc.pk})).status_code == 200
    assert client.get(reverse("character_sheet", kwargs={"pk": hidden_npc.pk})).status_code == 404


def test_revealing_the_sheet_lets_a_player_read_it_but_change_nothing(
    client, player, gm, hidden_npc
):
    npc_reveal(user=gm, character_id=hidden_npc.pk, visibility="sheet", expected_version=1)
    client.force_login(player)
    assert client.get(reverse("character_sheet", kwargs={"pk": hidden_npc.pk})).status_code == 200
    edit = client.post(
        reverse("character_edit", kwargs={"pk": hidden_npc.pk}),
        {"only": "attr.strength", "attr.strength": "4", "version": "1"},
    )
    assert edit.status_code == 403
    hidden_npc.refresh_from_db()
    assert hidden_npc.version == 1


def test_a_stale_reveal_is_refused(gm, hidden_npc):
    from sheets.npcs.services import StaleNpc

    npc_reveal(user=gm, character_id=hidden_npc.pk, visibility="name", expected_version=1)
    with pytest.raises(StaleNpc):
        npc_reveal(user=gm, character_id=hidden_npc.pk, visibility="sheet", expected_version=1)
    assert Npc.objects.get(pk=hidden_npc.pk).visibility == Visibility.NAME


def test_a_gms_roll_for_a_hidden_npc_stays_in_the_gms_log(client, player, gm, table, hidden_npc):
    RollEntry.objects.create(
        campaign=table,
        character=hidden_npc,
        author=gm,
        system="swd10",
        rollable_key="attr.strength",
        rollable_label="Strength",
        pool="1",
        dice=[5],
        outcome="",
        summary="",
        total=1,
        success=True,
        odds="1/2",
        odds_percent=50,
    )
    client.force_login(player)
    log = client.get(reverse("campaign_roll_log", kwargs={"pk": table.pk})).content.decode()
    assert SECRET_NAME not in log
    client.force_login(gm)
    assert (
        SECRET_NAME
        in client.get(reverse("campaign_roll_log", kwargs={"pk": table.pk})).content.decode()
    )


# Minions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count", ["0", "10000", "six"])
def test_a_group_of_zero_or_ten_thousand_is_refused_with_a_message(
    client, gm, table, hidden_npc, count
):
    client.force_login(gm)
    response = client.post(
        reverse("minion_group_new", kwargs={"pk": table.pk}),
        {"name": "Stormtroopers", "block": str(hidden_npc.pk), "count": count},
    )
    assert response.status_code == 400
    assert (
        "1 to 50 members" in response.content.decode()
        or "whole number" in response.content.decode()
    )
    assert not MinionGroup.objects.exists()


def test_six_stormtroopers_each_keep_their_own_wounds(client, gm, table, hidden_npc):
    group = group_create(
        user=gm, campaign_id=table.pk, block_id=str(hidden_npc.pk), name="Squad", count="6"
    )
    members = list(group.members.all())
    assert [m.number for m in members] == [1, 2, 3, 4, 5, 6]
    client.force_login(gm)
    response = client.post(
        reverse("minion_hit", kwargs={"pk": group.pk}),
        {"member": str(members[2].pk), "levels": "2", "version": "1"},
    )
    assert response.status_code == 302
    wounds = {m.number: m.wounds for m in MinionMember.objects.filter(group=group)}
    assert wounds[3] == {"levels": 2}
    assert all(w == {"levels": 0} for n, w in wounds.items() if n != 3)
    page = client.get(reverse("minion_group", kwargs={"pk": group.pk})).content.decode()
    assert "Injured" in page  # a commoner's second level (000:L98)


def test_a_bad_hit_is_refused_beside_the_form_and_nothing_changes(client, gm, table, hidden_npc):
    group = group_create(
        user=gm, campaign_id=table.pk, block_id=str(hidden_npc.pk), name="Squad", count="2"
    )
    member = group.members.first()
    client.force_login(gm)
    response = client.post(
        reverse("minion_hit", kwargs={"pk": group.pk}),
        {"member": str(member.pk), "levels": "lots", "version": "1"},
    )
    assert response.status_code == 400 and "not a whole number" in response.content.decode()
    member.refresh_from_db()
    assert member.wounds == {"levels": 0}


def test_a_player_cannot_see_or_hit_a_minion_group(client, player, gm, table, hidden_npc):
    group = group_create(
        user=gm, campaign_id=table.pk, block_id=str(hidden_npc.pk), name="Squad", count="2"
    )
    client.force_login(player)
    assert client.get(reverse("minion_group", kwargs={"pk": group.pk})).status_code == 404
    member = group.members.first()
    response = client.post(
        reverse("minion_hit", kwargs={"pk": group.pk}),
        {"member": str(member.pk), "levels": "1", "version": "1"},
    )
    assert response.status_code == 404


def test_an_npc_never_enters_the_tables_pdf(gm, table, hidden_npc):
    from sheets.characters.models import ReviewState
    from sheets.printing.selection import approved_sheets

    Character.objects.filter(pk=hidden_npc.pk).update(
        review_state=ReviewState.APPROVED, review_version=1
    )
    assert hidden_npc.pk not in {c.pk for c in approved_sheets(table)}


def test_an_npcs_sheet_page_shows_the_npc_budget_not_the_players(client, gm, hidden_npc):
    client.force_login(gm)
    page = client.get(reverse("character_sheet", kwargs={"pk": hidden_npc.pk})).content.decode()
    # A commoner NPC has Power 0 (000:L96): the player's rule of Power 1 (L294) is not its.
    assert "a new hero starts at Power" not in page
    # Its dots are measured against the player's priorities only as a guide, warned.
    assert "the player&#x27;s priorities allow" in page


def test_a_players_sheet_keeps_the_players_budget(client, player, swd10_character):
    from sheets.characters.services import character_apply_edits

    character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"power": "0"},
        expected_version=swd10_character.version,
    )
    client.force_login(player)
    page = client.get(reverse("character_sheet", kwargs={"pk": swd10_character.pk}))
    assert "a new hero starts at Power" in page.content.decode()


def test_an_edit_of_an_npc_answers_with_the_npc_budget(client, gm, hidden_npc):
    client.force_login(gm)
    response = client.post(
        reverse("character_edit", kwargs={"pk": hidden_npc.pk}),
        {"only": "attr.strength", "attr.strength": "3", "version": str(hidden_npc.version)},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "a new hero starts at Power" not in response.content.decode()


@pytest.mark.parametrize(
    "name",
    ["character_history", "character_history_diff", "character_export", "character_roll_log"],
)
def test_a_player_reading_a_revealed_npc_gets_none_of_its_records(
    client, player, gm, hidden_npc, name
):
    npc_reveal(user=gm, character_id=hidden_npc.pk, visibility="sheet", expected_version=1)
    client.force_login(player)
    assert client.get(reverse(name, kwargs={"pk": hidden_npc.pk})).status_code == 403
    client.force_login(gm)
    assert client.get(reverse(name, kwargs={"pk": hidden_npc.pk})).status_code == 200


def test_the_gm_sets_the_tables_npc_rules_and_a_new_npc_follows_them(client, gm, make_user):
    from sheets.campaigns.services import campaign_create

    table = campaign_create(user=gm, name="Rebels", system="ore")
    client.force_login(gm)
    url = reverse("npc_settings", kwargs={"pk": table.pk})
    assert "001:L768" in client.get(url).content.decode()
    response = client.post(url, {"npc_points": "60", "version": str(table.version)})
    assert response.status_code == 302
    npc = npc_create(user=gm, campaign_id=table.pk, name="Officer")
    assert npc.sheet["character_points"] == 60


@pytest.mark.parametrize("raw", ["lots", "-5", "100001"])
def test_a_bad_npc_rule_is_refused_beside_its_field_and_nothing_stored(client, gm, raw):
    from sheets.campaigns.models import Campaign
    from sheets.campaigns.services import campaign_create

    table = campaign_create(user=gm, name="Rebels", system="ore")
    client.force_login(gm)
    response = client.post(
        reverse("npc_settings", kwargs={"pk": table.pk}),
        {"npc_points": raw, "version": str(table.version)},
    )
    assert (
        response.status_code == 400
        and "Character points for a new NPC" in response.content.decode()
    )
    assert Campaign.objects.get(pk=table.pk).rule_settings == table.rule_settings


def test_a_stale_npc_rules_form_is_refused(client, gm):
    from sheets.campaigns.services import campaign_create

    table = campaign_create(user=gm, name="Rebels", system="ore")
    client.force_login(gm)
    response = client.post(
        reverse("npc_settings", kwargs={"pk": table.pk}),
        {"npc_points": "50", "version": str(table.version - 1)},
    )
    assert response.status_code == 400 and "changed elsewhere" in response.content.decode()


def test_a_quick_npc_starts_from_the_tables_npc_template(client, gm, table):
    from sheets.compendium.models import Book
    from sheets.compendium.services import entry_create

    entry = entry_create(
        user=gm,
        book=Book(system=table.system, campaign=table),
        kind="npc_template",
        data={
            "name": "Dock thug",
            "traits": [{"name": "Strength", "number": 3}, {"name": "Brawl", "number": 2}],
        },
    )
    client.force_login(gm)
    url = reverse("npc_quick", kwargs={"pk": table.pk})
    assert "Dock thug" in client.get(url).content.decode()
    response = client.post(url, {"name": "Thug", "template": str(entry.pk), "lines": "Melee 1"})
    assert response.status_code == 302
    thug = Character.objects.get(name="Thug")
    assert thug.sheet["attributes"]["strength"] == 3
    assert thug.sheet["abilities"]["brawl"] == 2 and thug.sheet["abilities"]["melee"] == 1


def test_the_gms_own_lists_keep_npcs_apart_from_their_characters(client, gm, table, hidden_npc):
    client.force_login(gm)
    assert SECRET_NAME not in client.get(reverse("character_list")).content.decode()
    page = client.get(reverse("campaign_detail", kwargs={"pk": table.pk})).content.decode()
    mine = page[page.index('id="my-characters"') :]
    assert SECRET_NAME not in mine


def test_the_groups_page_rolls_with_its_stat_block(client, gm, table, hidden_npc):
    group = group_create(
        user=gm, campaign_id=table.pk, block_id=str(hidden_npc.pk), name="Squad", count="3"
    )
    client.force_login(gm)
    page = client.get(reverse("minion_group", kwargs={"pk": group.pk})).content.decode()
    roll_menu = reverse("roll_menu", kwargs={"pk": hidden_npc.pk})
    assert roll_menu in page
    assert client.get(roll_menu).status_code == 200


def test_a_gm_who_steps_down_to_player_keeps_none_of_their_npcs(client, gm, table, hidden_npc):
    from sheets.campaigns.models import Membership, Role

    co_gm = get_user_model().objects.create_user(username="co_gm_han", password="x-long-pass-1")
    Membership.objects.create(campaign=table, user=co_gm, role=Role.GM)
    Membership.objects.filter(campaign=table, user=gm).update(role=Role.PLAYER)
    client.force_login(gm)
    assert client.get(reverse("character_sheet", kwargs={"pk": hidden_npc.pk})).status_code == 404
    client.force_login(co_gm)
    assert client.get(reverse("character_sheet", kwargs={"pk": hidden_npc.pk})).status_code == 200


def test_an_npc_neither_leaves_its_table_nor_goes_to_review(client, gm, table, hidden_npc):
    client.force_login(gm)
    left = client.post(
        reverse("character_leave_campaign", kwargs={"pk": hidden_npc.pk}), follow=True
    )
    assert "one of this table&#x27;s NPCs" in left.content.decode()
    sent = client.post(
        reverse("character_submit", kwargs={"pk": hidden_npc.pk}),
        {"version": str(hidden_npc.version)},
        follow=True,
    )
    assert "never sent for review" in sent.content.decode()
    hidden_npc.refresh_from_db()
    assert hidden_npc.campaign_id == table.pk and hidden_npc.review_state == "draft"
