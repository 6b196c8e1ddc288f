"""A real SMTP server for the mail tests: aiosmtpd on a free loopback port, keeping what it
receives, with Django's settings pointed at it through an EMAIL_URL as production reads it."""

from __future__ import annotations

import email
import socket
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from sheets.settings import email_settings

# Percent-encoded in the URL: the "@" and "/" of the password must reach the server whole.
MAIL_USER = "datapad"
MAIL_PASSWORD = "p@ss/word"


@dataclass
class Inbox:
    messages: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope) -> str:
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [
            m for m, rcpt in zip(self.messages, self.recipients, strict=True) if address in rcpt
        ]


def authenticator(server, session, envelope, mechanism, auth_data) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and (
        auth_data.login.decode(),
        auth_data.password.decode(),
    ) == (MAIL_USER, MAIL_PASSWORD)
    return AuthResult(success=ok)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def use_email_url(settings, url: str) -> None:
    for name, value in email_settings(url).items():
        setattr(settings, name, value)
    settings.EMAIL_TIMEOUT = 5


@pytest.fixture
def smtp_inbox(settings):
    """Mail goes to a real SMTP server that asks for a login, as a provider's does."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        authenticator=authenticator,
        auth_required=True,
        auth_require_tls=False,
    )
    controller.start()
    use_email_url(settings, f"smtp://{MAIL_USER}:p%40ss%2Fword@127.0.0.1:{port}")
    yield inbox
    controller.stop()


@pytest.fixture
def dead_mail_server(settings):
    """Mail goes to a port where nothing listens: every send fails."""
    use_email_url(settings, f"smtp://127.0.0.1:{free_port()}")
