"""Review notices: what waits for the GM on My campaigns, what the GM asked on My characters,
and the e-mails each person chose on their settings page, sent once the step is committed."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from sheets.accounts.models import Profile
from sheets.accounts.services import preferences_save
from sheets.characters.models import Review, ReviewState
from sheets.characters.services import (
    ActionRefused,
    character_approve,
    character_request_changes,
    character_submit,
)
from tests import mail_server

# The real SMTP server's fixtures (tests/mail_server.py).
smtp_inbox = mail_server.smtp_inbox
dead_mail_server = mail_server.dead_mail_server

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS"),
]

GM_MAIL = "gm@example.org"
PLAYER_MAIL = "luke@example.org"
OTHER_MAIL = "mara@example.org"


@pytest.fixture
def kira(table):
    return table.characters.get()


@pytest.fixture
def everyone_asks(gm, player, other_player):
    """Every person at the table has an address and ticked both notices."""
    for user, address in ((gm, GM_MAIL), (player, PLAYER_MAIL), (other_player, OTHER_MAIL)):
        preferences_save(user=user, email=address, mail_on_submit=True, mail_on_decision=True)


# The settings page --------------------------------------------------------------------------


def test_the_settings_page_keeps_the_address_and_the_notices_chosen(player_client, player):
    page = player_client.get(reverse("account_settings"))
    assert page.status_code == 200
    assert "Review notices by e-mail" in page.content.decode()
    saved = player_client.post(
        reverse("account_settings"), {"email": PLAYER_MAIL, "mail_on_decision": "on"}
    )
    assert saved["Location"] == reverse("account_settings")
    player.refresh_from_db()
    assert player.email == PLAYER_MAIL
    profile = Profile.objects.get(user=player)
    assert (profile.mail_on_submit, profile.mail_on_decision) == (False, True)
    text = player_client.get(reverse("account_settings")).content.decode()
    assert re.search(r'name="mail_on_decision"[^>]*checked', text)
    assert not re.search(r'name="mail_on_submit"[^>]*checked', text)


def test_unticking_every_notice_and_clearing_the_address_is_saved(player_client, player):
    preferences_save(user=player, email=PLAYER_MAIL, mail_on_submit=True, mail_on_decision=True)
    # Nothing ticked and nothing typed: the browser posts no field at all.
    saved = player_client.post(reverse("account_settings"), {})
    assert saved["Location"] == reverse("account_settings")
    player.refresh_from_db()
    profile = Profile.objects.get(user=player)
    assert (player.email, profile.mail_on_submit, profile.mail_on_decision) == ("", False, False)


def test_the_settings_page_is_linked_from_every_page_for_a_logged_in_user(player_client):
    text = player_client.get(reverse("character_list")).content.decode()
    assert f'href="{reverse("account_settings")}">Settings</a>' in text


@pytest.mark.parametrize(
    "posted, message",
    [
        ({"email": "", "mail_on_submit": "on"}, "Give an e-mail address to get notices"),
        ({"email": "not-an-address"}, "Enter a valid email address."),
        ({"email": "a\x00@example.org"}, "Null characters are not allowed."),
        ({"email": "x" * 300 + "@example.org"}, "at most 254 characters"),
    ],
)
def test_a_refused_setting_is_said_beside_the_address_and_nothing_is_stored(
    player_client, player, posted, message
):
    response = player_client.post(reverse("account_settings"), posted)
    assert response.status_code == 400
    text = response.content.decode()
    assert re.search(
        r'<span class="error" role="alert" id="email-error">[^<]*' + re.escape(message), text
    )
    player.refresh_from_db()
    assert player.email == "" and not Profile.objects.filter(user=player).exists()


# What waits, on the lists -------------------------------------------------------------------


def test_my_campaigns_shows_the_gm_how_many_sheets_await_review(
    client, gm, player, other_player, table, kira
):
    from sheets.campaigns.services import character_bring
    from sheets.characters.services import character_create

    other = character_create(owner=other_player, name="Mara Vel", system="swd10")
    character_bring(user=other_player, campaign_id=table.pk, character_id=other.pk)
    client.force_login(gm)
    assert "awaiting review" not in client.get(reverse("campaign_list")).content.decode()
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    character_submit(user=other_player, character_id=other.pk, version=1)
    text = client.get(reverse("campaign_list")).content.decode()
    assert "<strong>2 awaiting review</strong>" in text
    character_approve(user=gm, character_id=kira.pk, version=kira.version)
    assert (
        "<strong>1 awaiting review</strong>"
        in client.get(reverse("campaign_list")).content.decode()
    )
    # The players see their table, not the GM's to-do list.
    client.force_login(player)
    assert "awaiting review" not in client.get(reverse("campaign_list")).content.decode()


def test_my_characters_shows_the_player_what_the_gm_asked_until_it_is_resubmitted(
    player_client, gm, player, kira
):
    character_request_changes(
        user=gm, character_id=kira.pk, version=kira.version, comment="A smuggler needs a ship."
    )
    text = player_client.get(reverse("character_list")).content.decode()
    notices = text[text.index('id="review-notices"') : text.index("</section>")]
    assert "Kira Dane" in notices and "gm_yoda" in notices
    assert "A smuggler needs a ship." in notices
    assert f'href="{reverse("character_sheet", args=[kira.pk])}#review"' in notices
    assert "Changes requested" in text
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    text = player_client.get(reverse("character_list")).content.decode()
    assert 'id="review-notices"' not in text and "Submitted" in text
    character_approve(user=gm, character_id=kira.pk, version=kira.version)
    text = player_client.get(reverse("character_list")).content.decode()
    assert 'id="review-notices"' not in text
    assert '<span class="review-state approved">Approved</span>' in text


# E-mail ---------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_submission_mails_the_gms_who_asked_and_nobody_else(
    client, smtp_inbox, everyone_asks, player, kira
):
    client.force_login(player)
    response = client.post(reverse("character_submit", args=[kira.pk]), {"version": kira.version})
    assert response.status_code == 302
    assert smtp_inbox.recipients == [[GM_MAIL]]
    (message,) = smtp_inbox.messages
    assert message["Subject"] == "Kira Dane awaits your review at Outer Rim"
    body = message.get_content()
    assert "luke submitted Kira Dane (version 1)" in body
    assert f"http://127.0.0.1:8000/characters/{kira.pk}/#review" in body


@pytest.mark.django_db(transaction=True)
def test_a_decision_mails_the_player_with_the_gms_comment(
    client, smtp_inbox, everyone_asks, gm, kira
):
    client.force_login(gm)
    client.post(
        reverse("character_request_changes", args=[kira.pk]),
        {"version": kira.version, "comment": "Pick a Nature that fits."},
    )
    client.post(reverse("character_approve", args=[kira.pk]), {"version": kira.version})
    assert smtp_inbox.recipients == [[PLAYER_MAIL], [PLAYER_MAIL]]
    asked, approved = smtp_inbox.messages
    assert asked["Subject"] == "Changes asked for Kira Dane at Outer Rim"
    assert "Pick a Nature that fits." in asked.get_content()
    assert approved["Subject"] == "Kira Dane is approved at Outer Rim"
    assert "approved Kira Dane as it stands at version 1" in approved.get_content()


@pytest.mark.django_db(transaction=True)
def test_nobody_gets_a_notice_they_did_not_tick(smtp_inbox, gm, player, kira):
    preferences_save(user=gm, email=GM_MAIL, mail_on_submit=False, mail_on_decision=True)
    preferences_save(user=player, email=PLAYER_MAIL, mail_on_submit=True, mail_on_decision=False)
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    character_approve(user=gm, character_id=kira.pk, version=kira.version)
    assert smtp_inbox.messages == []


def test_the_mail_leaves_only_once_the_step_is_committed(
    django_capture_on_commit_callbacks, everyone_asks, player, gm, kira
):
    with django_capture_on_commit_callbacks() as waiting:
        character_submit(user=player, character_id=kira.pk, version=kira.version)
        # Still inside the step's transaction: nothing has left.
        assert mail.outbox == []
    assert len(waiting) == 1 and mail.outbox == []
    waiting[0]()
    assert [m.to for m in mail.outbox] == [[GM_MAIL]]
    # A refused step (a stale version) leaves nothing to send.
    with django_capture_on_commit_callbacks() as refused, pytest.raises(ActionRefused):
        character_approve(user=gm, character_id=kira.pk, version=kira.version + 5)
    assert refused == []


@pytest.mark.django_db(transaction=True)
def test_a_failing_mail_server_never_fails_the_review(
    client, dead_mail_server, everyone_asks, player, gm, kira, caplog
):
    client.force_login(player)
    submitted = client.post(reverse("character_submit", args=[kira.pk]), {"version": kira.version})
    assert submitted.status_code == 302
    client.force_login(gm)
    asked = client.post(
        reverse("character_request_changes", args=[kira.pk]),
        {"version": kira.version, "comment": "More detail, please."},
    )
    assert asked.status_code == 302
    kira.refresh_from_db()
    assert kira.review_state == ReviewState.CHANGES_REQUESTED
    assert list(Review.objects.values_list("kind", flat=True).order_by("pk")) == [
        "submitted",
        "changes_requested",
    ]
    assert "Review notices not sent" in caplog.text
