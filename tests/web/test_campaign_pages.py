"""Campaign pages in the Django test client: open a table, invite, join, bring, leave,
run the table as GM, change its house rules; every refusal changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from sheets.campaigns.models import Campaign, Invitation, Membership, Role
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(name, args=args)


@pytest.fixture
def gm_client(client, gm):
    client.force_login(gm)
    return client


def as_user(client, user):
    client.force_login(user)
    return client


# My campaigns and a new one -------------------------------------------------------------


def test_the_top_navigation_leads_to_my_campaigns(player_client):
    page = player_client.get(url("character_list")).content.decode()
    assert f'href="{url("campaign_list")}"' in page
    assert "My campaigns" in page


def test_a_user_opens_a_campaign_and_becomes_its_gm(player_client, player):
    response = player_client.post(
        url("campaign_new"),
        {"name": "  Hutt   Space ", "system": "ore", "description": "Smugglers, 3 ABY."},
    )
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("campaign_detail", campaign.pk)
    assert (campaign.name, campaign.system, campaign.description) == (
        "Hutt Space",
        "ore",
        "Smugglers, 3 ABY.",
    )
    assert Membership.objects.get(campaign=campaign).role == Role.GM
    page = player_client.get(url("campaign_detail", campaign.pk)).content.decode()
    assert "Hutt Space" in page and "Smugglers, 3 ABY." in page
    assert "The table's sheets" in page


@pytest.mark.parametrize(
    ("posted", "field_message"),
    [
        ({"name": "   ", "system": "swd10"}, "A campaign needs a name."),
        ({"name": "X", "system": "dnd5e"}, "Pick one of the rule systems listed."),
        ({"name": "X" * 101, "system": "swd10"}, "A name is at most 100 characters."),
    ],
)
def test_a_refused_new_campaign_says_why_and_makes_nothing(player_client, posted, field_message):
    response = player_client.post(url("campaign_new"), posted)
    assert response.status_code == 400
    assert field_message in response.content.decode()
    assert not Campaign.objects.exists()


def test_my_campaigns_lists_each_table_with_my_role_and_its_sheet_count(
    client, table, other_table, player, gm, other_gm
):
    page = as_user(client, player).get(url("campaign_list")).content.decode()
    assert "Outer Rim" in page and "Core Worlds" not in page
    # Cells read the same whatever they carry for a phone's layout (data-label).
    row = re.sub(r"<td [^>]*>", "<td>", page.split("Outer Rim")[1].split("</tr>")[0])
    assert "<td>Star Wars Storytelling (d10)</td>" in row
    assert "<td>Player</td>" in row
    assert "<td>1</td>" in row  # Kira Dane sits at the table

    page = as_user(client, gm).get(url("campaign_list")).content.decode()
    row = page.split("Outer Rim")[1].split("</tr>")[0]
    assert 'class="badge gm">GM<' in row


# Invitations and joining -------------------------------------------------------------------


def test_the_gm_makes_an_invitation_and_sees_its_full_link(gm_client, table):
    expires = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    response = gm_client.post(
        url("campaign_invite", table.pk), {"expires_at": expires, "max_uses": "4"}
    )
    assert response.status_code == 302
    invitation = table.invitations.filter(max_uses=4).get()
    assert invitation.expires_at > timezone.now() + timedelta(days=2)
    page = gm_client.get(url("campaign_detail", table.pk)).content.decode()
    assert f"http://testserver{url('campaign_join', invitation.token)}" in page
    assert "used 0 of 4 times" in page
    assert "Live" in page


def test_an_invitation_made_with_htmx_answers_with_the_invitations_panel(gm_client, table):
    response = gm_client.post(url("campaign_invite", table.pk), {}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section class="panel" id="invitations"')
    assert "<html" not in body
    assert table.invitations.count() == 2


@pytest.mark.parametrize(
    ("posted", "message"),
    [
        ({"expires_at": "next tuesday"}, "Give a date and a time"),
        ({"expires_at": "2001-01-01T10:00"}, "Pick an expiry in the future, or none."),
        ({"max_uses": "0"}, "Allow from 1 to 1000 uses"),
        ({"max_uses": "lots"}, "Give a whole number of uses"),
    ],
)
def test_a_refused_invitation_says_why_beside_its_field(gm_client, table, posted, message):
    before = table.invitations.count()
    response = gm_client.post(url("campaign_invite", table.pk), posted)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert table.invitations.count() == before
    # With htmx the panel comes back as a 200 fragment carrying the same message.
    response = gm_client.post(url("campaign_invite", table.pk), posted, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and message in response.content.decode()
    assert table.invitations.count() == before


def test_a_player_follows_the_link_and_joins(client, table, gm, make_user):
    newcomer = make_user("han")
    invitation = invitation_create(user=gm, campaign_id=table.pk, max_uses=2)
    join = url("campaign_join", invitation.token)

    anonymous = client.get(join)
    assert anonymous.status_code == 302
    assert anonymous["Location"] == f"{url('login')}?next={join}"

    as_user(client, newcomer)
    page = client.get(join)
    assert page.status_code == 200
    assert "Outer Rim" in page.content.decode() and "gm_yoda" in page.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()

    response = client.post(join)
    assert response["Location"] == url("campaign_detail", table.pk)
    assert Membership.objects.get(user=newcomer, campaign=table).role == Role.PLAYER
    invitation.refresh_from_db()
    assert invitation.uses == 1


def _expired(invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )


def _revoked(invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(revoked_at=timezone.now())


def _used_up(invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(max_uses=3, uses=3)


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (_expired, "This invitation has expired."),
        (_revoked, "This invitation was revoked by the GM."),
        (_used_up, "used as many times as the GM allowed"),
    ],
)
def test_a_spent_invitation_is_refused_with_a_clear_message(
    client, table, gm, make_user, spoil, message
):
    newcomer = make_user("han")
    invitation = invitation_create(user=gm, campaign_id=table.pk)
    spoil(invitation)
    uses = Invitation.objects.get(pk=invitation.pk).uses
    as_user(client, newcomer)
    for method in (client.get, client.post):
        response = method(url("campaign_join", invitation.token))
        assert response.status_code == 400
        assert message in response.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()
    assert Invitation.objects.get(pk=invitation.pk).uses == uses


def test_joining_twice_is_refused_and_counts_no_use(client, table, gm, player):
    invitation = invitation_create(user=gm, campaign_id=table.pk)
    response = as_user(client, player).post(url("campaign_join", invitation.token))
    assert response.status_code == 400
    assert "You are already at the table of “Outer Rim”." in response.content.decode()
    assert Membership.objects.filter(user=player, campaign=table).count() == 1
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_an_unknown_invitation_is_not_found(client, table, gm, make_user):
    newcomer = make_user("han")
    as_user(client, newcomer)
    live = invitation_create(user=gm, campaign_id=table.pk).token
    for token in ("no-such-token", live + "x"):
        response = client.post(url("campaign_join", token))
        assert response.status_code == 404
        assert "This invitation link is not valid" in response.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()


def test_the_gm_revokes_an_invitation(gm_client, table, make_user, client):
    invitation = table.invitations.get()
    response = gm_client.post(url("campaign_invite_revoke", table.pk, invitation.pk))
    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert "Revoked" in gm_client.get(url("campaign_detail", table.pk)).content.decode()
    late = as_user(client, make_user("han")).post(url("campaign_join", invitation.token))
    assert late.status_code == 400


# The campaign page for a player -----------------------------------------------------------


def test_a_player_sees_the_table_members_and_house_rules_but_no_dashboard(client, table, player):
    page = as_user(client, player).get(url("campaign_detail", table.pk)).content.decode()
    for name in ("gm_yoda", "luke", "mara"):
        assert name in page
    assert 'class="badge gm">GM<' in page
    assert "Attribute priority dots" in page  # a SWd10 reading in force
    assert "House rules in force" in page
    assert "The table's sheets" not in page and "Invitations" not in page
    assert f"{url('character_new')}?campaign={table.pk}" in page
    assert "Kira Dane" in page  # the player's own character at the table


def test_a_reading_that_differs_from_the_book_is_marked(client, table, player):
    Campaign.objects.filter(pk=table.pk).update(rule_settings={"commoner_health_levels": 3})
    page = as_user(client, player).get(url("campaign_detail", table.pk)).content.decode()
    reading = page.split("A commoner")[1].split("</div>")[0]
    assert "three boxes" in reading and "House rule" in reading and "four boxes" in reading


def test_only_free_characters_of_the_system_are_offered(client, table, player):
    free = character_create(owner=player, name="Free Swd", system="swd10")
    character_create(owner=player, name="An Ore Hero", system="ore")
    page = as_user(client, player).get(url("campaign_detail", table.pk)).content.decode()
    select = page.split('name="character"')[1].split("</select>")[0]
    assert f'value="{free.pk}"' in select
    assert "An Ore Hero" not in select and "Kira Dane" not in select


def test_a_player_brings_a_character_to_the_table(client, table, player):
    free = character_create(owner=player, name="Free Swd", system="swd10")
    response = as_user(client, player).post(url("campaign_bring", table.pk), {"character": free.pk})
    assert response.status_code == 302
    free.refresh_from_db()
    assert free.campaign_id == table.pk


def test_bringing_a_character_of_another_system_is_refused(client, table, player):
    ore = character_create(owner=player, name="An Ore Hero", system="ore")
    response = as_user(client, player).post(url("campaign_bring", table.pk), {"character": ore.pk})
    assert response.status_code == 400
    assert "this table plays" in response.content.decode()
    ore.refresh_from_db()
    assert ore.campaign_id is None


def test_bringing_a_character_already_at_another_table_is_refused(
    client, table, other_table, other_gm, player
):
    elsewhere = character_create(owner=player, name="Roamer", system="swd10")
    link = invitation_create(user=other_gm, campaign_id=other_table.pk)
    campaign_join(user=player, token=link.token)
    character_bring(user=player, campaign_id=other_table.pk, character_id=elsewhere.pk)
    response = as_user(client, player).post(
        url("campaign_bring", table.pk), {"character": elsewhere.pk}
    )
    assert response.status_code == 400
    assert "already sits at “Core Worlds”" in response.content.decode()
    elsewhere.refresh_from_db()
    assert elsewhere.campaign_id == other_table.pk


def test_bringing_someone_elses_character_is_not_found(client, table, other_player):
    kira = Character.objects.get(name="Kira Dane")
    response = as_user(client, other_player).post(
        url("campaign_bring", table.pk), {"character": kira.pk}
    )
    assert response.status_code == 404
    kira.refresh_from_db()
    assert kira.owner.username == "luke" and kira.campaign_id == table.pk


def test_a_garbled_pick_is_refused_beside_the_field(client, table, player):
    response = as_user(client, player).post(url("campaign_bring", table.pk), {"character": "x"})
    assert response.status_code == 400
    assert "Pick one of your characters." in response.content.decode()


def test_a_player_leaves_and_keeps_their_characters(client, table, player):
    as_user(client, player)
    confirm = client.get(url("campaign_leave", table.pk))
    assert confirm.status_code == 200 and "Kira Dane" in confirm.content.decode()
    assert Membership.objects.filter(user=player, campaign=table).exists()
    response = client.post(url("campaign_leave", table.pk))
    assert response["Location"] == url("campaign_list")
    assert not Membership.objects.filter(user=player, campaign=table).exists()
    kira = Character.objects.get(name="Kira Dane")
    assert kira.owner == player and kira.campaign_id is None
    assert client.get(url("campaign_detail", table.pk)).status_code == 404


def test_the_only_gm_cannot_leave(gm_client, table, gm):
    response = gm_client.post(url("campaign_leave", table.pk))
    assert response.status_code == 400
    assert "only GM" in response.content.decode()
    assert Membership.objects.get(user=gm, campaign=table).role == Role.GM


# Running the table ----------------------------------------------------------------------------


def test_the_gm_removes_a_player_whose_characters_stay_theirs(gm_client, table, player):
    member = Membership.objects.get(user=player, campaign=table)
    confirm = gm_client.get(url("campaign_member_remove", table.pk, member.pk))
    assert confirm.status_code == 200 and "Kira Dane" in confirm.content.decode()
    response = gm_client.post(url("campaign_member_remove", table.pk, member.pk))
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=member.pk).exists()
    kira = Character.objects.get(name="Kira Dane")
    assert kira.owner == player and kira.campaign_id is None


def test_a_gm_cannot_be_removed_only_made_a_player(gm_client, table, gm):
    member = Membership.objects.get(user=gm, campaign=table)
    response = gm_client.post(url("campaign_member_remove", table.pk, member.pk))
    assert response.status_code == 400
    assert "you can only remove players" in response.content.decode()
    assert Membership.objects.filter(pk=member.pk).exists()


def test_the_gm_makes_a_player_a_co_gm_and_back(gm_client, client, table, other_player):
    member = Membership.objects.get(user=other_player, campaign=table)
    gm_client.post(url("campaign_member_role", table.pk, member.pk), {"role": "gm"})
    member.refresh_from_db()
    assert member.role == Role.GM
    co_gm_page = as_user(client, other_player).get(url("campaign_detail", table.pk))
    assert "The table's sheets" in co_gm_page.content.decode()

    gm_client.post(url("campaign_member_role", table.pk, member.pk), {"role": "player"})
    member.refresh_from_db()
    assert member.role == Role.PLAYER


def test_the_last_gm_stays_a_gm(gm_client, table, gm):
    member = Membership.objects.get(user=gm, campaign=table)
    response = gm_client.post(url("campaign_member_role", table.pk, member.pk), {"role": "player"})
    assert response.status_code == 400
    assert "A table needs one GM at least." in response.content.decode()
    member.refresh_from_db()
    assert member.role == Role.GM


def test_the_gm_renames_the_campaign(gm_client, table):
    response = gm_client.post(
        url("campaign_edit", table.pk), {"name": "Outer Rim II", "description": "Season two"}
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.name, table.description) == ("Outer Rim II", "Season two")
    refused = gm_client.post(url("campaign_edit", table.pk), {"name": "", "description": "x"})
    assert refused.status_code == 400
    assert "A campaign needs a name." in refused.content.decode()
    table.refresh_from_db()
    assert table.name == "Outer Rim II"


def test_the_dashboard_lists_every_sheet_with_its_status_and_last_change(gm_client, table, player):
    from rulesets.registry import get_ruleset
    from sheets.characters.services import character_apply_edits

    kira = Character.objects.get(name="Kira Dane")
    character_apply_edits(
        user=player, character_id=kira.pk, edits={"attr.strength": "3"}, expected_version=1
    )
    demo = character_create(
        owner=player, name="Demo Hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    character_bring(user=player, campaign_id=table.pk, character_id=demo.pk)

    page = gm_client.get(url("campaign_detail", table.pk)).content.decode()
    dashboard = page.split('id="dashboard"')[1].split("</section>")[0]
    kira_row = dashboard.split("Kira Dane")[1].split("</tr>")[0]
    assert f'href="{url("character_sheet", kira.pk)}"' in dashboard
    assert "Draft" in kira_row
    assert "by luke" in kira_row
    demo_row = dashboard.split("Demo Hero")[1].split("</tr>")[0]
    assert "Legal" in demo_row and "0 errors, 0 warnings" in demo_row


# House rules --------------------------------------------------------------------------------


@pytest.fixture
def demo_at_table(table, player):
    """A SWd10 sheet that places every attribute dot its groups allow."""
    from rulesets.registry import get_ruleset

    demo = character_create(
        owner=player, name="Demo Hero", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    character_bring(user=player, campaign_id=table.pk, character_id=demo.pk)
    return demo


def _settings_post(campaign: Campaign, **changes) -> dict:
    posted = {
        "attribute_free_dot": "True",
        "force_knowledges_at_creation": "knowledges_pool",
        "force_knowledge_first_dot_xp": "3",
        "flaw_points_buy_merits": "True",
        "commoner_health_levels": "4",
        "version": str(campaign.version),
    }
    return posted | changes


def test_the_house_rules_form_offers_every_reading(gm_client, table):
    page = gm_client.get(url("campaign_settings", table.pk)).content.decode()
    assert '<select id="id_attribute_free_dot" name="attribute_free_dot"' in page
    assert "on top of the free first dot" in page
    assert "digest §2.1" in page  # the seed reference of the reading


def test_a_change_that_breaks_no_sheet_is_saved_at_once(gm_client, table):
    response = gm_client.post(
        url("campaign_settings", table.pk), _settings_post(table, commoner_health_levels="3")
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.rule_settings == {"commoner_health_levels": 3}
    assert table.version == 2


def test_a_breaking_change_asks_first_then_saves_on_confirm(gm_client, table, demo_at_table):
    response = gm_client.post(
        url("campaign_settings", table.pk), _settings_post(table, attribute_free_dot="False")
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "1 sheet would break under these rules:" in page
    item = page.split("Demo Hero")[1].split("</li>\n")[0]
    assert "played by luke" in item
    assert "as the primary group it allows 6" in page
    table.refresh_from_db()
    assert table.rule_settings == {} and table.version == 1
    assert 'name="confirmed" value="1"' in page
    assert 'name="attribute_free_dot" value="False"' in page

    confirmed = gm_client.post(
        url("campaign_settings", table.pk),
        _settings_post(table, attribute_free_dot="False", confirmed="1"),
    )
    assert confirmed.status_code == 302
    table.refresh_from_db()
    assert table.rule_settings == {"attribute_free_dot": False}
    assert table.version == 2


def test_a_confirmation_made_on_an_old_version_is_refused(gm_client, table, demo_at_table):
    stale = _settings_post(table, attribute_free_dot="False", confirmed="1")
    Campaign.objects.filter(pk=table.pk).update(version=5)
    response = gm_client.post(url("campaign_settings", table.pk), stale)
    assert response.status_code == 409
    assert "The house rules changed since you opened this page" in response.content.decode()
    table.refresh_from_db()
    assert table.rule_settings == {}


def test_an_out_of_range_reading_is_refused_beside_it(client, gm):
    campaign = campaign_create(user=gm, name="Saga", system="o3d10")
    as_user(client, gm)
    response = client.post(
        url("campaign_settings", campaign.pk),
        {"stat_max": "99", "skill_max": "12", "version": str(campaign.version)},
    )
    assert response.status_code == 400
    page = response.content.decode()
    field = page.split('id="setting-stat_max"')[1].split('id="setting-')[0]
    assert "at most 20" in field and 'value="99"' in field
    campaign.refresh_from_db()
    assert campaign.rule_settings == {} and campaign.version == 1


def test_a_choice_not_offered_is_refused(gm_client, table):
    response = gm_client.post(
        url("campaign_settings", table.pk), _settings_post(table, commoner_health_levels="7")
    )
    assert response.status_code == 400
    assert "choose one of" in response.content.decode()
    table.refresh_from_db()
    assert table.rule_settings == {}


# Who may do what ---------------------------------------------------------------------------


def _gm_posts(campaign: Campaign) -> list[tuple[str, dict]]:
    gm_member = campaign.memberships.get(role=Role.GM)
    invitation = campaign.invitations.first()
    return [
        (url("campaign_edit", campaign.pk), {"name": "Hijacked", "description": ""}),
        (url("campaign_settings", campaign.pk), {"commoner_health_levels": "3", "version": "1"}),
        (url("campaign_invite", campaign.pk), {}),
        (url("campaign_invite_revoke", campaign.pk, invitation.pk), {}),
        (url("campaign_member_remove", campaign.pk, gm_member.pk), {}),
        (url("campaign_member_role", campaign.pk, gm_member.pk), {"role": "player"}),
    ]


def _snapshot(campaign: Campaign) -> tuple:
    campaign.refresh_from_db()
    return (
        campaign.name,
        campaign.rule_settings,
        campaign.version,
        sorted(campaign.memberships.values_list("user__username", "role")),
        sorted(campaign.invitations.values_list("pk", "revoked_at")),
    )


def test_a_player_posting_gm_urls_is_forbidden_and_changes_nothing(client, table, player):
    before = _snapshot(table)
    as_user(client, player)
    for target, data in _gm_posts(table):
        assert client.post(target, data).status_code == 403, target
    for name in ("campaign_edit", "campaign_settings"):
        assert client.get(url(name, table.pk)).status_code == 403
    gm_member = table.memberships.get(role=Role.GM)
    assert client.get(url("campaign_member_remove", table.pk, gm_member.pk)).status_code == 403
    assert _snapshot(table) == before


def test_another_tables_gm_finds_nothing(client, table, other_gm, other_table):
    before = _snapshot(table)
    as_user(client, other_gm)
    assert client.get(url("campaign_detail", table.pk)).status_code == 404
    for target, data in _gm_posts(table):
        assert client.post(target, data).status_code == 404, target
    assert client.post(url("campaign_leave", table.pk)).status_code == 404
    assert _snapshot(table) == before
    assert "Outer Rim" not in client.get(url("campaign_list")).content.decode()


def test_anonymous_visitors_are_sent_to_log_in(client, table):
    before = _snapshot(table)
    for target, data in _gm_posts(table):
        response = client.post(target, data)
        assert response.status_code == 302
        assert response["Location"].startswith(url("login"))
    for target in (
        url("campaign_list"),
        url("campaign_new"),
        url("campaign_detail", table.pk),
        url("campaign_leave", table.pk),
    ):
        assert client.get(target)["Location"].startswith(url("login"))
    assert _snapshot(table) == before
