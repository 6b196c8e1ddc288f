"""Review on the sheet page: submit, approve a version, ask for changes, see what changed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sheets.characters.models import Review, ReviewState

pytestmark = pytest.mark.django_db


def sheet(client, character):
    return client.get(reverse("character_sheet", args=[character.pk])).content.decode()


def act(client, name, character, **data):
    return client.post(reverse(name, args=[character.pk]), data)


@pytest.fixture
def kira(table):
    return table.characters.get()


@pytest.fixture
def gm_client(client, gm):
    client.force_login(gm)
    return client


@pytest.fixture
def second_client():
    """A second browser, for the other person at the table."""
    return Client()


def test_the_player_submits_the_version_they_see(player_client, kira):
    text = sheet(player_client, kira)
    assert "Submit to the GM" in text and "Approve this version" not in text
    response = act(player_client, "character_submit", kira, version=kira.version)
    assert response.status_code == 302
    kira.refresh_from_db()
    assert (kira.review_state, kira.review_version) == (ReviewState.SUBMITTED, kira.version)
    text = sheet(player_client, kira)
    assert "Submitted" in text and "Submit to the GM" not in text
    assert "at version 1 by luke" in text


def test_submitting_outside_a_campaign_is_refused_with_the_reason(player_client, swd10_character):
    response = act(player_client, "character_submit", swd10_character, version=1)
    assert response.status_code == 400
    assert "Bring this character to a campaign first" in response.content.decode()
    swd10_character.refresh_from_db()
    assert swd10_character.review_state == ReviewState.DRAFT
    assert not Review.objects.exists()


def test_asking_for_changes_needs_a_comment_and_the_player_reads_it(
    gm_client, second_client, player, kira
):
    text = sheet(gm_client, kira)
    assert "Approve this version" in text and "Request changes" in text
    empty = act(gm_client, "character_request_changes", kira, version=kira.version, comment=" ")
    assert empty.status_code == 400
    assert "Say what should change" in empty.content.decode()
    kira.refresh_from_db()
    assert kira.review_state == ReviewState.DRAFT
    asked = act(
        gm_client,
        "character_request_changes",
        kira,
        version=kira.version,
        comment="Pick a Nature that fits a smuggler.",
    )
    assert asked.status_code == 302
    second_client.force_login(player)
    text = sheet(second_client, kira)
    assert "Changes requested" in text
    assert "Pick a Nature that fits a smuggler." in text and "by gm_yoda" in text


def test_an_approved_sheet_that_changes_shows_the_difference_to_both(
    gm_client, second_client, player, kira
):
    assert act(gm_client, "character_approve", kira, version=kira.version).status_code == 302
    second_client.force_login(player)
    second_client.post(
        reverse("character_edit", args=[kira.pk]),
        {"edit": "attr.strength=3", "version": kira.version},
    )
    kira.refresh_from_db()
    assert kira.changed_since_approval
    for client in (gm_client, second_client):
        text = sheet(client, kira)
        assert "Changed since approval" in text
        assert "Changed since the approval of version 1" in text
        assert "<strong>Strength</strong>: <del>1</del> → <ins>3</ins>" in text
    # Approving the current version again clears it.
    assert act(gm_client, "character_approve", kira, version=kira.version).status_code == 302
    kira.refresh_from_db()
    assert kira.review_label == "Approved"
    assert "Changed since the approval" not in sheet(gm_client, kira)


def test_the_edit_response_redraws_the_review_status(player_client, gm, kira):
    from sheets.characters.services import character_approve

    character_approve(user=gm, character_id=kira.pk, version=kira.version)
    response = player_client.post(
        reverse("character_edit", args=[kira.pk]),
        {"edit": "attr.wits=2", "version": kira.version},
        HTTP_HX_REQUEST="true",
    )
    text = response.content.decode()
    assert 'id="review-status" class="review-status" hx-swap-oob="true"' in text
    assert "Changed since approval" in text and "<strong>Wits</strong>" in text


def test_approving_an_old_version_is_refused_and_nothing_changes(
    gm_client, second_client, player, kira
):
    seen = kira.version
    second_client.force_login(player)
    second_client.post(
        reverse("character_edit", args=[kira.pk]), {"edit": "attr.wits=2", "version": seen}
    )
    response = act(gm_client, "character_approve", kira, version=seen, comment="Fine.")
    assert response.status_code == 400
    text = response.content.decode()
    assert "This sheet changed since you opened it" in text
    # The comment typed is kept for a second try.
    assert ">Fine.</textarea>" in text
    kira.refresh_from_db()
    assert kira.review_state == ReviewState.DRAFT
    assert not Review.objects.exists()


def test_the_player_cannot_approve_their_own_sheet(player_client, kira):
    response = act(player_client, "character_approve", kira, version=kira.version)
    assert response.status_code == 403
    assert act(player_client, "character_request_changes", kira, version=1).status_code == 403
    kira.refresh_from_db()
    assert kira.review_state == ReviewState.DRAFT


def test_the_gm_of_another_table_does_not_find_the_sheet(client, other_gm, other_table, kira):
    client.force_login(other_gm)
    for name in ("character_approve", "character_request_changes", "character_submit"):
        assert act(client, name, kira, version=kira.version, comment="x").status_code == 404
    assert client.get(reverse("character_sheet", args=[kira.pk])).status_code == 404
    kira.refresh_from_db()
    assert kira.review_state == ReviewState.DRAFT


def test_review_urls_answer_only_posts(player_client, kira):
    assert player_client.get(reverse("character_submit", args=[kira.pk])).status_code == 405


def test_anonymous_review_posts_go_to_log_in(client, kira):
    response = act(client, "character_approve", kira, version=1)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
