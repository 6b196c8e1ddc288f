"""Fixtures for the HTTP API: personal access tokens and a client that sends one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheets.accounts import services as accounts

# The page matrix's world (its people, the table, Kira's sheet, the secrets), for the API's.
from tests.web.test_permission_matrix import world  # noqa: F401

ALL_SCOPES = tuple(accounts.SCOPES)


@pytest.fixture
def make_token() -> Callable[..., str]:
    """A token's secret for `user`, with the scopes asked (all by default)."""

    def make(user, scopes=ALL_SCOPES, expiry: str = "90", name: str = "Dice bot") -> str:
        _token, secret = accounts.token_create(user=user, name=name, scopes=scopes, expiry=expiry)
        return secret

    return make


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@pytest.fixture
def api(client):
    """The test client speaking to /api/ with a token (None: with none)."""

    class Api:
        def get(self, url: str, secret: str | None = None, **query):
            return client.get(url, query, headers=bearer(secret) if secret else {})

        def post(self, url: str, body, secret: str | None = None, raw: bool = False):
            import json

            data = body if raw else json.dumps(body)
            return client.post(
                url,
                data,
                content_type="application/json",
                headers=bearer(secret) if secret else {},
            )

    return Api()
