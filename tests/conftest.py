"""Shared fixtures: people of the permission matrix and a SWd10 character to work on."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

# CI runs the suite on both cores beside browsers and a database: an example slowed by that
# load is no bug, so no deadline there. Each test keeps the number of examples it sets.
hypothesis_settings.register_profile("ci", deadline=None, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

# Tests that touch no database: the rules (tests/rulesets imports no Django; its tests pass
# with the Django plugin off, -p no:django), the template hygiene checks and the import
# contracts. .ci/run runs them once, on SQLite, and leaves them out of the PostgreSQL run
# (-m "not no_database"), where they would test nothing new. A test here that asks for a
# database stops the collection, so the mark cannot hide a database test from PostgreSQL.
NO_DATABASE = ("tests/rulesets/", "tests/test_architecture.py", "tests/web/test_templates.py")
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "no_database: touches no database (NO_DATABASE above)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not item.nodeid.startswith(NO_DATABASE):
            continue
        if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames):
            raise pytest.UsageError(f"{item.nodeid} asks for a database: take it off NO_DATABASE")
        if _is_django_database_test_case(getattr(item, "cls", None)):
            raise pytest.UsageError(f"{item.nodeid} is a database TestCase: not for NO_DATABASE")
        item.add_marker(pytest.mark.no_database)


def _is_django_database_test_case(cls: type | None) -> bool:
    # By name, so that this file imports no Django where the plugin is off (-p no:django).
    return cls is not None and any(
        base.__module__ == "django.test.testcases" and base.__name__ == "TransactionTestCase"
        for base in cls.__mro__
    )


# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls
# from such a thread unless told this is deliberate (live_server and fixtures need them).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "a-long-test-password-42"


@pytest.fixture
def make_user(django_user_model):
    def make(username: str):
        return django_user_model.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def player(make_user):
    return make_user("luke")


@pytest.fixture
def other_player(make_user):
    return make_user("mara")


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def swd10_character(player):
    from sheets.characters.services import character_create

    return character_create(owner=player, name="Kira Dane", system="swd10")


@pytest.fixture(autouse=True)
def fast_password_hashing(request):
    # Real hashing costs ~100 ms per user; these tests check behaviour, not hash strength.
    # The rules tests also run without Django (-p no:django), where there is nothing to set.
    if request.config.pluginmanager.hasplugin("django"):
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def gm(make_user):
    return make_user("gm_yoda")


@pytest.fixture
def other_gm(make_user):
    return make_user("gm_palpatine")


@pytest.fixture
def table(gm, player, other_player, swd10_character):
    """A SWd10 campaign run by `gm`, with `player` (whose Kira Dane sits at it) and
    `other_player` as members."""
    from sheets.campaigns.services import (
        campaign_create,
        campaign_join,
        character_bring,
        invitation_create,
    )

    campaign = campaign_create(user=gm, name="Outer Rim", system="swd10")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    campaign_join(user=other_player, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=swd10_character.pk)
    swd10_character.refresh_from_db()
    return campaign


@pytest.fixture
def other_table(other_gm):
    """Another GM's SWd10 campaign, with nobody else at it."""
    from sheets.campaigns.services import campaign_create

    return campaign_create(user=other_gm, name="Core Worlds", system="swd10")


@pytest.fixture
def in_play(player, gm, table, swd10_character):
    """Kira Dane at the GM's table, finished, with 20 XP awarded by the GM (the ledger's
    consent and held-purchase tests)."""
    from sheets.advancement import services as ledger
    from sheets.characters.models import Character
    from sheets.characters.services import character_apply_edits

    character = character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"stage": "play"},
        expected_version=swd10_character.version,
    )
    ledger.award(user=gm, character_id=character.pk, amount="20", reason="Session 1")
    return Character.objects.get(pk=character.pk)
