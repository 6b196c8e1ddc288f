"""Two people, one sheet: edits to different traits both apply, and the page shows both;
an edit to a trait changed since the editor's version is refused, never overwriting it."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from sheets.characters.models import Character
from sheets.characters.services import StaleVersion, character_apply_edits
from sheets.history.models import Revision

HTMX = {"HTTP_HX_REQUEST": "true"}


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_gm_and_a_player_editing_different_traits_both_land(gm, player, table):
    kira = table.characters.get()
    seen = kira.version
    gm_client, player_client = logged_in(gm), logged_in(player)
    first = edit(gm_client, kira, {"only": "power", "power": "4", "version": seen}, **HTMX)
    assert first.status_code == 200 and "HX-Retarget" not in first
    second = edit(player_client, kira, {"edit": "attr.strength=3", "version": seen}, **HTMX)
    assert second.status_code == 200
    # The player's page was drawn before the GM's edit: it is redrawn whole, with both.
    assert second["HX-Retarget"] == "#sheet" and second["HX-Reswap"] == "outerHTML"
    text = second.content.decode()
    assert "Also shows changes by gm_yoda." in text
    assert 'name="power" value="4" checked' in text
    assert 'name="attr.strength" value="3" checked' in text
    assert 'id="sheet-version" value="3"' in text
    assert 'role="alert"' not in text
    kira.refresh_from_db()
    assert (kira.sheet["power"], kira.sheet["attributes"]["strength"]) == (4, 3)
    assert kira.version == seen + 2


@pytest.mark.django_db
def test_an_edit_after_ones_own_needs_no_redraw(player, swd10_character):
    client = logged_in(player)
    response = edit(client, swd10_character, {"edit": "attr.wits=2", "version": 1}, **HTMX)
    assert "HX-Retarget" not in response
    response = edit(client, swd10_character, {"edit": "attr.wits=3", "version": 2}, **HTMX)
    assert "HX-Retarget" not in response and "Also shows changes" not in response.content.decode()


@pytest.mark.django_db
def test_the_same_trait_from_an_older_version_is_refused_as_stale(player, swd10_character):
    first_tab, second_tab = logged_in(player), logged_in(player)
    assert (
        edit(first_tab, swd10_character, {"edit": "attr.wits=3", "version": 1}).status_code == 302
    )
    fragment = edit(second_tab, swd10_character, {"edit": "attr.wits=2", "version": 1}, **HTMX)
    assert fragment.status_code == 200 and fragment["HX-Retarget"] == "#sheet"
    text = fragment.content.decode()
    assert "This sheet was changed elsewhere" in text
    assert 'name="attr.wits" value="3" checked' in text
    page = edit(second_tab, swd10_character, {"edit": "attr.wits=2", "version": 1})
    assert page.status_code == 409
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["attributes"]["wits"] == 3
    assert swd10_character.version == 2


# Many people at once, on PostgreSQL, where row locks really make writers wait.

DIFFERENT = [
    "attr.strength",
    "attr.dexterity",
    "attr.stamina",
    "attr.charisma",
    "attr.manipulation",
    "attr.appearance",
    "attr.perception",
    "attr.intelligence",
    "abil.alertness",
    "abil.athletics",
    "abil.brawl",
    "abil.stealth",
]
SAME = "abil.dodge"


def _stored(sheet: dict, trait: str):
    kind, name = trait.split(".")
    return sheet["attributes" if kind == "attr" else "abilities"][name]


@pytest.mark.django_db(transaction=True)
def test_many_concurrent_editors_lose_no_acknowledged_edit(gm, player, table):
    if connection.vendor != "postgresql":
        pytest.skip("set DATABASE_URL=postgres://… to run the concurrency test on PostgreSQL")
    kira = table.characters.get()
    seen = kira.version
    jobs = [(player, trait, "2") for trait in DIFFERENT]
    jobs += [(player, SAME, value) for value in ("1", "2", "3")]
    jobs += [(gm, "power", "5"), (gm, "side.light", "3")]
    start = threading.Barrier(len(jobs))
    acknowledged: list[tuple[str, str]] = []
    stale: list[tuple[str, str]] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def run(user, trait: str, value: str) -> None:
        try:
            start.wait()
            character_apply_edits(
                user=user, character_id=kira.pk, edits={trait: value}, expected_version=seen
            )
        except StaleVersion:
            with lock:
                stale.append((trait, value))
        except BaseException as error:  # reported by the assertion below
            with lock:
                failures.append(error)
        else:
            with lock:
                acknowledged.append((trait, value))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    assert len(acknowledged) + len(stale) == len(jobs)
    kira = Character.objects.get(pk=kira.pk)
    # Every edit to a trait nobody else touched applied; of the three editors of one trait,
    # exactly one was first and the two others were told their version was stale.
    assert {t for t, _ in acknowledged} >= set(DIFFERENT) | {"power", "side.light"}
    same = [value for trait, value in acknowledged if trait == SAME]
    assert len(same) == 1 and len(stale) == 2
    assert all(trait == SAME for trait, _ in stale)
    for trait, value in acknowledged:
        if trait in ("power", "side.light"):
            stored = kira.sheet["power"] if trait == "power" else kira.sheet["light_side"]
        else:
            stored = _stored(kira.sheet, trait)
        assert str(stored) == value, trait
    # One revision per acknowledged write, versions in an unbroken run.
    versions = sorted(Revision.objects.filter(character=kira).values_list("version", flat=True))
    assert versions == list(range(1, kira.version + 1))
    assert kira.version == seen + len(acknowledged)
