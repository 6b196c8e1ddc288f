"""The campaign services and the permission selector, below the pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import timezone

from rulesets.registry import get_ruleset
from sheets.campaigns.models import Membership, Role
from sheets.campaigns.services import (
    CampaignRefused,
    SettingsRefused,
    campaign_create,
    campaign_join,
    campaign_leave,
    campaign_settings_save,
    character_bring,
    invitation_create,
    invitation_revoke,
    member_remove,
    member_set_role,
)
from sheets.characters.models import ReviewState
from sheets.characters.services import (
    ActionRefused,
    EditRefused,
    character_apply_edits,
    character_approve,
    character_create,
    character_request_changes,
    character_submit,
)
from sheets.permissions import Need, character_access, character_for

pytestmark = pytest.mark.django_db


# The permission selector ---------------------------------------------------------------


def test_who_may_do_what_with_a_sheet_at_a_table(
    table, swd10_character, player, other_player, gm, other_gm
):
    expected = {
        "anonymous": (False, False, False),
        "owner": (True, True, False),
        "other player": (False, False, False),
        "gm": (True, False, True),
        "other gm": (False, False, False),
    }
    people = {
        "anonymous": AnonymousUser(),
        "owner": player,
        "other player": other_player,
        "gm": gm,
        "other gm": other_gm,
    }
    for who, (view, owner, is_gm) in expected.items():
        access = character_access(people[who], swd10_character)
        assert (access.view, access.owner, access.gm) == (view, owner, is_gm), who


def test_the_selector_answers_404_to_strangers_and_403_to_the_wrong_role(
    table, swd10_character, player, other_player, gm, other_gm
):
    for stranger in (other_player, other_gm, AnonymousUser()):
        with pytest.raises(Http404):
            character_for(stranger, swd10_character.pk)
    with pytest.raises(PermissionDenied):
        character_for(gm, swd10_character.pk, Need.OWNER)
    with pytest.raises(PermissionDenied):
        character_for(player, swd10_character.pk, Need.GM)
    assert character_for(gm, swd10_character.pk, Need.GM)[1].gm


def test_a_co_gm_sees_the_table_and_a_former_gm_does_not(table, swd10_character, gm, player):
    second = campaign_create(user=player, name="Side quest", system="swd10")
    assert Membership.objects.get(campaign=second, user=player).role == Role.GM
    member = Membership.objects.get(campaign=table, user=player)
    member_set_role(user=gm, campaign_id=table.pk, membership_id=member.pk, role=Role.GM)
    assert character_access(player, swd10_character).gm
    member_set_role(user=player, campaign_id=table.pk, membership_id=member.pk, role="player")
    assert not character_access(player, swd10_character).gm
    only_gm = Membership.objects.get(campaign=table, user=gm)
    with pytest.raises(CampaignRefused, match="one GM at least"):
        member_set_role(user=gm, campaign_id=table.pk, membership_id=only_gm.pk, role="player")


# Invitations ---------------------------------------------------------------------------


@pytest.fixture
def newcomer(make_user):
    return make_user("han")


def test_an_invitation_counts_its_uses_and_stops_at_its_limit(table, gm, newcomer, make_user):
    link = invitation_create(user=gm, campaign_id=table.pk, max_uses=1)
    campaign_join(user=newcomer, token=link.token)
    link.refresh_from_db()
    assert link.uses == 1
    late = make_user("lando")
    with pytest.raises(CampaignRefused, match="used as many times"):
        campaign_join(user=late, token=link.token)
    assert not table.memberships.filter(user=late).exists()


def test_expired_revoked_unknown_and_twice_are_refused(table, gm, newcomer, player):
    expired = invitation_create(user=gm, campaign_id=table.pk)
    expired.expires_at = timezone.now() - timedelta(minutes=1)
    expired.save()
    revoked = invitation_create(user=gm, campaign_id=table.pk)
    invitation_revoke(user=gm, campaign_id=table.pk, invitation_id=revoked.pk)
    live = invitation_create(user=gm, campaign_id=table.pk)
    for token, message in [
        (expired.token, "expired"),
        (revoked.token, "revoked"),
        ("no-such-token", "not valid"),
        ("\x00" * 500, "not valid"),
    ]:
        with pytest.raises(CampaignRefused, match=message):
            campaign_join(user=newcomer, token=token)
    with pytest.raises(CampaignRefused, match="already at the table"):
        campaign_join(user=player, token=live.token)
    live.refresh_from_db()
    assert live.uses == 0
    assert not table.memberships.filter(user=newcomer).exists()


def test_invitation_limits_are_checked(table, gm, player):
    with pytest.raises(CampaignRefused, match="future"):
        invitation_create(
            user=gm, campaign_id=table.pk, expires_at=timezone.now() - timedelta(days=1)
        )
    with pytest.raises(CampaignRefused, match="from 1 to"):
        invitation_create(user=gm, campaign_id=table.pk, max_uses=0)
    with pytest.raises(PermissionDenied):
        invitation_create(user=player, campaign_id=table.pk)


# Characters at the table -------------------------------------------------------------


def test_only_a_character_of_the_tables_system_and_of_no_other_table_comes_in(
    table, other_table, player, other_gm
):
    weg = character_create(owner=player, name="Jax", system="weg_d6")
    with pytest.raises(CampaignRefused, match="plays Star Wars Storytelling"):
        character_bring(user=player, campaign_id=table.pk, character_id=weg.pk)
    weg.refresh_from_db()
    assert weg.campaign_id is None
    # A player at two tables cannot seat one character at both.
    link = invitation_create(user=other_gm, campaign_id=other_table.pk)
    campaign_join(user=player, token=link.token)
    seated = table.characters.get()
    with pytest.raises(CampaignRefused, match="already sits at"):
        character_bring(user=player, campaign_id=other_table.pk, character_id=seated.pk)
    seated.refresh_from_db()
    assert seated.campaign_id == table.pk


def test_leaving_takes_the_characters_off_the_table_but_keeps_them(
    table, player, swd10_character, gm
):
    campaign_leave(user=player, campaign_id=table.pk)
    swd10_character.refresh_from_db()
    assert swd10_character.campaign_id is None
    assert swd10_character.owner == player
    with pytest.raises(CampaignRefused, match="only GM"):
        campaign_leave(user=gm, campaign_id=table.pk)


def test_the_gm_removes_a_player_and_their_characters_leave_with_them(
    table, player, swd10_character, gm, other_gm
):
    member = Membership.objects.get(campaign=table, user=player)
    with pytest.raises(Http404):
        member_remove(user=other_gm, campaign_id=table.pk, membership_id=member.pk)
    assert member_remove(user=gm, campaign_id=table.pk, membership_id=member.pk) == "luke"
    swd10_character.refresh_from_db()
    assert swd10_character.campaign_id is None


# House rules ---------------------------------------------------------------------------


def test_a_change_that_breaks_sheets_waits_for_the_gms_confirmation(table, gm, player):
    legal = character_create(
        owner=player,
        name="Legal Lee",
        system="swd10",
        sheet=get_ruleset("swd10").demo_sheet(),
        campaign=table,
    )
    submitted = {"attribute_free_dot": "False"}
    campaign, broken, saved = campaign_settings_save(
        user=gm, campaign_id=table.pk, submitted=submitted, expected_version=1, confirmed=False
    )
    assert not saved
    assert [b.character.name for b in broken] == ["Legal Lee"]
    assert broken[0].before.legal and not broken[0].after.legal
    campaign.refresh_from_db()
    assert campaign.rule_settings == {} and campaign.version == 1
    campaign, broken, saved = campaign_settings_save(
        user=gm, campaign_id=table.pk, submitted=submitted, expected_version=1, confirmed=True
    )
    assert saved and campaign.rule_settings == {"attribute_free_dot": False}
    # A stale confirmation (the rules moved since the GM looked) saves nothing.
    with pytest.raises(CampaignRefused, match="changed since"):
        campaign_settings_save(
            user=gm,
            campaign_id=table.pk,
            submitted={"attribute_free_dot": "True"},
            expected_version=1,
            confirmed=True,
        )
    legal.refresh_from_db()
    assert legal.readings_in_force == {"attribute_free_dot": False}


def test_a_reading_out_of_range_is_refused_and_nothing_changes(gm):
    campaign = campaign_create(user=gm, name="Kessel", system="weg_d6")
    with pytest.raises(SettingsRefused) as refused:
        campaign_settings_save(
            user=gm,
            campaign_id=campaign.pk,
            submitted={"skill_dice": "999", "creation_skill_cap": "abc"},
            expected_version=1,
            confirmed=True,
        )
    assert set(refused.value.errors) == {"skill_dice", "creation_skill_cap"}
    campaign.refresh_from_db()
    assert campaign.rule_settings == {} and campaign.version == 1


def test_only_a_gm_sets_house_rules(table, player):
    with pytest.raises(PermissionDenied):
        campaign_settings_save(
            user=player,
            campaign_id=table.pk,
            submitted={"attribute_free_dot": "False"},
            expected_version=1,
            confirmed=True,
        )


def test_a_player_cannot_set_their_own_readings_at_a_table(table, player, swd10_character):
    with pytest.raises(EditRefused) as refused:
        character_apply_edits(
            user=player,
            character_id=swd10_character.pk,
            edits={"setting.attribute_free_dot": "no"},
            expected_version=swd10_character.version,
        )
    assert "house rules" in refused.value.errors["setting.attribute_free_dot"]


# Review --------------------------------------------------------------------------------


def test_review_is_tied_to_a_version(table, player, gm, swd10_character):
    version = swd10_character.version
    character_submit(user=player, character_id=swd10_character.pk, version=version)
    with pytest.raises(ActionRefused, match="already with the GM"):
        character_submit(user=player, character_id=swd10_character.pk, version=version)
    with pytest.raises(ActionRefused, match="Say what should change"):
        character_request_changes(
            user=gm, character_id=swd10_character.pk, version=version, comment="  "
        )
    character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"attr.strength": "2"},
        expected_version=version,
    )
    with pytest.raises(ActionRefused, match="changed since you opened it"):
        character_approve(user=gm, character_id=swd10_character.pk, version=version)
    swd10_character.refresh_from_db()
    assert swd10_character.review_state == ReviewState.SUBMITTED
    approved = character_approve(
        user=gm, character_id=swd10_character.pk, version=version + 1, comment="Welcome aboard"
    )
    assert approved.review_label == "Approved"
    character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"attr.dexterity": "2"},
        expected_version=version + 1,
    )
    swd10_character.refresh_from_db()
    assert swd10_character.review_label == "Changed since approval"
    with pytest.raises(PermissionDenied):
        character_approve(
            user=player, character_id=swd10_character.pk, version=swd10_character.version
        )


def test_outside_a_campaign_there_is_no_one_to_submit_to(player, swd10_character):
    with pytest.raises(ActionRefused, match="campaign first"):
        character_submit(
            user=player, character_id=swd10_character.pk, version=swd10_character.version
        )
