"""Password reset by e-mail, through a real SMTP server: the link on the login page, the
mail, its link, the new password; the throttle; the e-mail settings read from EMAIL_URL."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from sheets.accounts.models import ResetRequest
from sheets.accounts.services import RESET_PER_CLIENT, RESET_PER_EMAIL
from sheets.settings import email_settings
from tests import mail_server

# The real SMTP server's fixtures (tests/mail_server.py).
smtp_inbox = mail_server.smtp_inbox
dead_mail_server = mail_server.dead_mail_server

pytestmark = [
    pytest.mark.django_db,
    # The test server asks for a login over plain SMTP on the loopback, which it warns of.
    pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS"),
]

ADDRESS = "luke@example.org"
NEW_PASSWORD = "a-brand-new-phrase-77"


@pytest.fixture
def with_address(player):
    player.email = ADDRESS
    player.save()
    return player


def reset_link(message) -> str:
    body = message.get_content()
    found = re.search(r"http://testserver(/accounts/reset/\S+/)", body)
    assert found, body
    return found.group(1)


def ask(client, address: str, **extra):
    return client.post(reverse("password_reset"), {"email": address}, **extra)


def test_the_login_page_links_to_the_password_reset(client):
    text = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}">Forgot your password?' in text
    page = client.get(reverse("password_reset"))
    assert page.status_code == 200
    # Datapad's own page, not the admin's.
    assert "Send me the link" in page.content.decode()
    assert "Django administration" not in page.content.decode()


def test_the_reset_mail_arrives_its_link_works_and_the_new_password_logs_in(
    client, with_address, password, smtp_inbox
):
    response = ask(client, ADDRESS)
    assert response["Location"] == reverse("password_reset_done")
    assert "Check your mail" in client.get(response["Location"]).content.decode()
    (message,) = smtp_inbox.to(ADDRESS)
    assert message["Subject"] == "Reset your Datapad password"
    assert "luke" in message.get_content()

    # The link opens the form (Django moves the token out of the address first).
    opened = client.get(reset_link(message), follow=True)
    assert "Choose a new password" in opened.content.decode()
    form_url = opened.redirect_chain[-1][0]
    done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done["Location"] == reverse("password_reset_complete")
    assert "Your new password is in force" in client.get(done["Location"]).content.decode()

    client.logout()
    old = client.post(reverse("login"), {"username": "luke", "password": password})
    assert old.status_code == 200  # refused, the form again
    new = client.post(reverse("login"), {"username": "luke", "password": NEW_PASSWORD})
    assert new["Location"] == reverse("character_list")

    # The link worked once.
    again = client.get(reset_link(message), follow=True)
    assert "This reset link does not work" in again.content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, with_address, smtp_inbox):
    known = ask(client, ADDRESS)
    unknown = ask(client, "nobody@example.org")
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert len(smtp_inbox.messages) == 1


def test_one_address_gets_only_a_few_mails_an_hour_and_the_answer_does_not_change(
    client, with_address, smtp_inbox
):
    for _ in range(RESET_PER_EMAIL + 2):
        response = ask(client, ADDRESS.upper())
        assert response["Location"] == reverse("password_reset_done")
    assert len(smtp_inbox.to(ADDRESS)) == RESET_PER_EMAIL


def test_too_many_requests_from_one_client_are_refused_beside_the_field(
    client, with_address, smtp_inbox
):
    for number in range(RESET_PER_CLIENT):
        assert ask(client, f"someone{number}@example.org").status_code == 302
    refused = ask(client, ADDRESS)
    assert refused.status_code == 429
    text = refused.content.decode()
    assert re.search(r'<span class="error" role="alert">Too many password reset requests', text)
    assert smtp_inbox.messages == []
    # Another client is not held back by this one's requests.
    other = ask(client, ADDRESS, REMOTE_ADDR="10.0.0.9")
    assert other["Location"] == reverse("password_reset_done")
    assert len(smtp_inbox.to(ADDRESS)) == 1


def test_the_throttle_keeps_only_a_digest_of_what_was_typed(client, with_address, smtp_inbox):
    ask(client, ADDRESS)
    (row,) = ResetRequest.objects.all()
    assert ADDRESS not in row.email_digest and len(row.email_digest) == 64


@pytest.mark.parametrize(
    "typed, message",
    [
        ("not-an-address", "Enter a valid email address."),
        ("", "This field is required."),
        ("a\x00b@example.org", "Null characters are not allowed."),
        ("x" * 300 + "@example.org", "at most 254 characters"),
    ],
)
def test_bad_input_is_refused_beside_the_field(client, with_address, smtp_inbox, typed, message):
    response = ask(client, typed)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert smtp_inbox.messages == [] and not ResetRequest.objects.exists()


def test_a_mail_server_that_does_not_answer_still_gives_the_same_answer(
    client, with_address, dead_mail_server
):
    assert ask(client, ADDRESS)["Location"] == reverse("password_reset_done")


def test_a_broken_reset_link_says_so(client):
    response = client.get(reverse("password_reset_confirm", args=["MQ", "nope-nope"]))
    assert "This reset link does not work" in response.content.decode()


# EMAIL_URL --------------------------------------------------------------------------------


def test_email_url_defaults_to_the_console():
    assert email_settings("console://")["EMAIL_BACKEND"].endswith("console.EmailBackend")


def test_email_url_reads_the_server_the_login_and_the_security():
    plain = email_settings("smtp://mail.example.org")
    assert (plain["EMAIL_HOST"], plain["EMAIL_PORT"], plain["EMAIL_USE_TLS"]) == (
        "mail.example.org",
        25,
        False,
    )
    tls = email_settings("smtp+tls://me%40example.org:s%3Acret%2F1@smtp.example.org")
    assert tls["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (tls["EMAIL_PORT"], tls["EMAIL_USE_TLS"], tls["EMAIL_USE_SSL"]) == (587, True, False)
    assert (tls["EMAIL_HOST_USER"], tls["EMAIL_HOST_PASSWORD"]) == ("me@example.org", "s:cret/1")
    ssl = email_settings("smtp+ssl://smtp.example.org:2465")
    assert (ssl["EMAIL_PORT"], ssl["EMAIL_USE_TLS"], ssl["EMAIL_USE_SSL"]) == (2465, False, True)


@pytest.mark.parametrize(
    "url, said",
    [
        ("smtps://mail.example.org", "use console://, smtp://, smtp+tls://, smtp+ssl://"),
        ("mail.example.org", "starts with nothing://"),
        ("smtp://", "names no mail server"),
        ("smtp://mail.example.org:99999", "not a URL we can read"),
    ],
)
def test_an_email_url_we_cannot_read_stops_the_start_with_the_reason(url, said):
    with pytest.raises(ImproperlyConfigured, match=re.escape(said)):
        email_settings(url)
