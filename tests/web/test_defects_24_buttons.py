"""Issue 24, defect 8: the sheet and the table's page offer no button the person looking
cannot use. "Back to creation" is the GM's at a table (and nobody's on a shared page);
the table's only GM has no "Make a player"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sheets.campaigns.models import Membership, Role
from sheets.campaigns.services import member_set_role
from sheets.characters.models import Character
from sheets.characters.services import (
    EditRefused,
    character_apply_edits,
    character_create,
    share_link_create,
)

pytestmark = pytest.mark.django_db


def stage_box(client, url: str) -> str:
    page = client.get(url).content.decode()
    return re.search(r'<div class="stage" id="stage".*?</div>', page, re.S).group(0)


def sheet_url(character: Character) -> str:
    return reverse("character_sheet", kwargs={"pk": character.pk})


def sent_back(user, character: Character) -> bool:
    """Whether the edit service lets `user` send the sheet back to creation."""
    try:
        character_apply_edits(
            user=user,
            character_id=character.pk,
            edits={"stage": "creation"},
            expected_version=Character.objects.get(pk=character.pk).version,
        )
    except EditRefused:
        return False
    return True


def test_a_player_at_a_table_is_not_offered_back_to_creation(client, player, in_play):
    client.force_login(player)
    assert "Back to creation" not in stage_box(client, sheet_url(in_play))
    # The button would only have met a refusal.
    assert not sent_back(player, in_play)


def test_the_gm_of_the_table_is_offered_back_to_creation_and_it_works(client, gm, in_play):
    client.force_login(gm)
    box = stage_box(client, sheet_url(in_play))
    button = re.search(r"<button[^>]*>Back to creation</button>", box).group(0)
    assert "disabled" not in button
    assert sent_back(gm, in_play)


def test_a_player_at_no_table_is_offered_back_to_creation_and_it_works(client, player):
    character = character_create(owner=player, name="Solo", system="swd10")
    character = character_apply_edits(
        user=player, character_id=character.pk, edits={"stage": "play"}, expected_version=1
    )
    client.force_login(player)
    assert "Back to creation" in stage_box(client, sheet_url(character))
    assert sent_back(player, character)


def test_a_shared_page_offers_no_stage_button(client, player):
    character = character_create(owner=player, name="Solo", system="swd10")
    link = share_link_create(user=player, character_id=character.pk)
    in_creation = stage_box(client, reverse("shared_sheet", kwargs={"token": link.token}))
    character_apply_edits(
        user=player, character_id=character.pk, edits={"stage": "play"}, expected_version=1
    )
    in_play = stage_box(client, reverse("shared_sheet", kwargs={"token": link.token}))
    assert "<button" not in in_creation and "Finish creation" not in in_creation
    assert "<button" not in in_play and "Back to creation" not in in_play
    assert "In play" in in_play


def members_box(client, campaign) -> str:
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    return re.search(r'<section class="panel" id="members".*?</section>', page, re.S).group(0)


def member_line(box: str, username: str) -> str:
    return next(line for line in box.split("<li>") if f'"who">{username}' in line)


def test_the_only_gm_of_a_table_is_not_offered_make_a_player(client, gm, table):
    client.force_login(gm)
    assert "Make a player" not in member_line(members_box(client, table), gm.username)


def test_with_a_co_gm_each_gm_may_be_made_a_player_where_the_service_allows(
    client, gm, other_player, table
):
    co_gm = Membership.objects.get(user=other_player, campaign=table)
    member_set_role(user=gm, campaign_id=table.pk, membership_id=co_gm.pk, role=Role.GM)
    client.force_login(gm)
    box = members_box(client, table)
    assert "Make a player" in member_line(box, gm.username)
    assert "Make a player" in member_line(box, other_player.username)
    # The creator steps down; the co-GM left is now the only GM, with no such button.
    own = Membership.objects.get(user=gm, campaign=table)
    member_set_role(user=gm, campaign_id=table.pk, membership_id=own.pk, role=Role.PLAYER)
    client.force_login(other_player)
    box = members_box(client, table)
    assert "Make a player" not in member_line(box, other_player.username)
    assert "Make a co-GM" in member_line(box, gm.username)
