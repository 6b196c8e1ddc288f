"""500 open streams on the real ASGI server do not starve the pages: with every one of them
open and answered, a sheet page asked beside them is answered too."""

from __future__ import annotations

import socket

import pytest
from django.test import Client
from django.urls import reverse

from tests.live.asgi_server import asgi_server_fixture  # noqa: F401  (asgi_server)

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 500


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def _open_stream(port: int, path: str, cookie: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=120)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    return sock


def _headers(sock: socket.socket) -> str:
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(4096)
        if not chunk:
            break
        received += chunk
    return received.decode(errors="replace")


def test_five_hundred_open_streams_leave_the_pages_answering(
    asgi_server, player, table, swd10_character
):
    port = int(asgi_server.rsplit(":", 1)[1])
    cookie = _session_cookie(player)
    path = reverse("live_campaign_stream", args=[table.pk])
    streams = [_open_stream(port, path, cookie) for _ in range(STREAMS)]
    try:
        answered = [_headers(sock) for sock in streams]
        assert all(head.startswith("HTTP/1.1 200") for head in answered)
        page = _open_stream(port, reverse("character_sheet", args=[swd10_character.pk]), cookie)
        head = _headers(page)
        page.close()
        assert head.startswith("HTTP/1.1 200"), head[:200]
        assert "text/html" in head
    finally:
        for sock in streams:
            sock.close()
