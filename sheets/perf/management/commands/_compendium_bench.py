"""`make bench`'s compendium part (issue 26 item 1): a WEG sheet's htmx edit and its page,
at a table whose book holds 500 entries beside one whose book is empty, and the pick list
of one kind from the full book, each beside a logged-in trivial view in the same run.
Figures only: neither the edit nor the page should grow with the book."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulesets.core.compendium import find_kind, validate_entry
from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.characters.state import forget_sheet_states
from sheets.compendium.models import Book, CompendiumEntry, EntryVersion

ENTRIES = 500
FORM = "application/x-www-form-urlencoded"
STEPS = ("3D+1", "3D+2", "3D")


def _describe(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms"


def _once(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _fill(book: Book, author, count: int) -> None:
    """`count` weapons, skills and equipment in `book`, each validated by its kind's schema
    and given its first version (written in bulk: the pages read them, how they were
    written does not matter here)."""
    kinds = get_ruleset("weg_d6").COMPENDIUM_KINDS
    made = {
        "weapon": lambda n: {"name": f"Blaster {n}", "skill": "blaster", "damage": 10 + n % 9},
        "skill": lambda n: {"name": f"Lore {n}", "attribute": "knowledge"},
        "equipment": lambda n: {"name": f"Kit {n}", "description": "A case of tools."},
    }
    rows = []
    for n in range(count):
        kind = ("weapon", "skill", "equipment")[n % 3]
        data = validate_entry(find_kind(kinds, kind), made[kind](n))
        rows.append(
            CompendiumEntry(
                campaign=book.campaign,
                system="weg_d6",
                kind=kind,
                name=data["name"],
                data=data,
                author=author,
            )
        )
    entries = CompendiumEntry.objects.bulk_create(rows)
    EntryVersion.objects.bulk_create(
        EntryVersion(entry=e, version=1, name=e.name, data=e.data, summary="Added", author=author)
        for e in entries
    )


def _table_sheet(gm, player, entries: int) -> tuple[Character, Book]:
    """A WEG table whose book holds `entries`, the player's demo sheet brought to it, one
    of the book's weapons picked (when it has any) as the sheet's picker does."""
    campaign = campaign_create(user=gm, name=f"Bench book {entries}", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    book = Book(system="weg_d6", campaign=campaign)
    _fill(book, gm, entries)
    demo = get_ruleset("weg_d6").demo_sheet()
    character = character_create(owner=player, name=f"Book {entries}", system="weg_d6", sheet=demo)
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    weapon = book.entries().filter(kind="weapon").first()
    if weapon is not None:
        character.refresh_from_db()
        character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"compendium.add": weapon.ref},
            expected_version=character.version,
        )
    character.refresh_from_db()
    return character, book


def measure_compendium(out: Callable[[str], object], runs: int) -> None:
    users = get_user_model().objects
    gm = users.create_user("bench-book-gm", password="bench-pass-123")
    player = users.create_user("bench-book-player", password="bench-pass-123")
    sheets = {count: _table_sheet(gm, player, count)[0] for count in (0, ENTRIES)}
    client = Client()
    client.force_login(player)
    page_runs = max(5, runs // 10)
    out(f"[Compendium: a WEG sheet at a table whose book is empty or holds {ENTRIES}]")
    gc.collect()
    gc.freeze()  # as a started worker does (sheets/wsgi.py)

    def reference() -> float:
        return _once(lambda: client.get("/bench/trivial-logged-in/"))

    # Each sheet's steps from 1: step 0 is the demo's own value, which would change nothing.
    steps = {character.pk: iter(range(1, 10**6)) for character in sheets.values()}

    def one_edit(character: Character) -> float:
        version = Character.objects.values_list("version", flat=True).get(pk=character.pk)
        forget_sheet_states()  # as in a worker that did not draw this sheet before
        url = reverse("character_edit", args=[character.pk])
        value = STEPS[next(steps[character.pk]) % len(STEPS)]
        data = urlencode({"edit": f"attr.dexterity={value}", "version": version})
        start = time.perf_counter()
        response = client.post(url, data, content_type=FORM, HTTP_HX_REQUEST="true")
        elapsed = time.perf_counter() - start
        after = Character.objects.values_list("version", flat=True).get(pk=character.pk)
        if response.status_code != 200 or after != version + 1:
            raise RuntimeError("the compendium bench's edit was not saved")
        return elapsed

    def one_page(url: str) -> float:
        start = time.perf_counter()
        if client.get(url).status_code != 200:
            raise RuntimeError(f"the compendium bench's {url} did not answer 200")
        return time.perf_counter() - start

    medians: dict[tuple[str, int], float] = {}
    references: list[float] = []
    for count, character in sheets.items():
        page = reverse("character_sheet", args=[character.pk])
        reference(), one_edit(character), one_page(page)  # warm
        edits, pages = [], []
        # Paired: each timing beside a reference made just before it, so other work on
        # the machine weighs on both alike.
        for _ in range(runs):
            references.append(reference())
            edits.append(one_edit(character))
        for _ in range(page_runs):
            references.append(reference())
            pages.append(one_page(page))
        with CaptureQueriesContext(connection) as edit_queries:
            one_edit(character)
        with CaptureQueriesContext(connection) as page_queries:
            one_page(page)
        medians["edit", count] = statistics.median(edits)
        medians["page", count] = statistics.median(pages)
        out(f"  edit, book of {count:3d}                {_describe(edits)}")
        out(f"  sheet page, book of {count:3d}          {_describe(pages)}")
        out(
            f"  queries, book of {count:3d}             edit {len(edit_queries):3d}"
            f"   page {len(page_queries):3d}"
        )
    weapons = reverse("character_pick", args=[sheets[ENTRIES].pk, "weapon"])
    one_page(weapons)
    picks = []
    for _ in range(page_runs):
        references.append(reference())
        picks.append(one_page(weapons))
    trivial = statistics.median(references)
    out(f"  trivial view, logged in           {_describe(references)}   (the reference)")
    for what in ("edit", "page"):
        for count in (0, ENTRIES):
            label = f"{what}, book of {count} / trivial"
            out(f"  {label:34s}{medians[what, count] / trivial:7.2f}x")
        growth = medians[what, ENTRIES] / medians[what, 0]
        out(f"  {what}, book of {ENTRIES} / empty book     {growth:7.2f}x   (should stay near 1)")
    out(
        f"  weapon pick list ({ENTRIES // 3 + 1} of {ENTRIES})      {_describe(picks)}"
        f"   {statistics.median(picks) / trivial:.2f}x trivial"
    )
    gc.unfreeze()
