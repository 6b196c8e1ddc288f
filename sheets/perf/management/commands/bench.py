"""Measure, never assert: htmx edit time against a trivial view, queries, PDF and checks,
and the GM's campaign page with 5 and with 50 sheets.

Runs on a throw-away test database (the real one is never touched) and prints figures
and ratios; `make bench` calls it.
"""

from __future__ import annotations

import gc
import gzip
import importlib
import re
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import unquote, urlencode

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.test.utils import (
    CaptureQueriesContext,
    override_settings,
    setup_test_environment,
    teardown_test_environment,
)
from django.urls import path, reverse
from weasyprint import HTML

import sheets.urls
from rulesets.core import resolve_settings
from rulesets.core.rolls import dice_readings, parse_roll_options
from rulesets.registry import get_ruleset, ready_systems
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.campaigns.state import statuses_not_kept
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.characters.state import forget_sheet_states, states_not_kept
from sheets.perf.management.commands._compendium_bench import measure_compendium
from sheets.perf.management.commands._live_bench import measure_live
from sheets.perf.management.commands._scene_bench import measure_scene
from sheets.printing.pdf import PDF_CACHE, character_document, render_character_pdf
from sheets.storage import minified

FORM = "application/x-www-form-urlencoded"
# The reference for a sheet's PDF: the least WeasyPrint renders, one page of text.
ONE_PAGE = "<!doctype html><html><body><h1>Reference</h1><p>One page of text.</p></body></html>"

try:
    import brotli
except ImportError:  # WhiteNoise then serves gzip only
    brotli = None


def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@login_required
def trivial_logged_in(request: HttpRequest) -> HttpResponse:
    # Same as `trivial`, but pays for the session and user look-ups every edit pays for.
    return HttpResponse(f"ok {request.user.pk}")


# The bench's own URL configuration: the app's URLs plus trivial views for comparison.
urlpatterns = [
    path("bench/trivial/", trivial),
    path("bench/trivial-logged-in/", trivial_logged_in),
    *sheets.urls.urlpatterns,
]


def timed(
    action: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter
) -> list[float]:
    samples = []
    for _ in range(runs):
        start = clock()
        action()
        samples.append(clock() - start)
    return samples


def describe(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms"


class Command(BaseCommand):
    help = "Print timings of edits, PDFs and rule checks (figures only, nothing asserted)."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=200)
        parser.add_argument(
            "--edits-only", action="store_true", help="time the edits alone (no odds, PDF, pages)"
        )
        parser.add_argument(
            "--compendium-only",
            action="store_true",
            help="time a sheet's edit and page beside a book of 500 entries and an empty one",
        )
        parser.add_argument(
            "--live-only",
            action="store_true",
            help="time the live table alone: the roll log's poll, the streams' reads of a roll",
        )
        parser.add_argument(
            "--pages-only",
            action="store_true",
            help="time the GM's dashboard and the ledger page alone (no edits, odds, PDF)",
        )

    def handle(
        self,
        *args,
        runs: int,
        edits_only: bool = False,
        pages_only: bool = False,
        compendium_only: bool = False,
        live_only: bool = False,
        **options,
    ) -> None:
        self.live_only = live_only
        self.compendium_only = compendium_only
        self.edits_only = edits_only
        self.pages_only = pages_only
        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            with override_settings(
                ROOT_URLCONF=__name__,
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
            ):
                self.measure(runs)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()

    def measure(self, runs: int) -> None:
        user = get_user_model().objects.create_user("bench", password="bench-pass-123")
        client = Client()
        client.force_login(user)
        out = self.stdout.write
        out(f"Datapad bench on {connection.vendor}, {runs} runs each\n")
        if self.compendium_only:
            measure_compendium(out, runs)
            return
        if self.live_only:
            measure_live(out, runs)
            return

        if not self.pages_only:
            for info in ready_systems():
                self.measure_system(info.key, info.name, user, client, runs)
        if not self.edits_only:
            measure_live(out, runs)  # issue 30: the roll log's poll, a stream's read
            self.measure_dashboard(runs)
            measure_scene(self.stdout.write, runs)  # issue 28: 30 in a scene
            self.measure_ledger(runs)
            measure_compendium(out, runs)  # issue 26: a book of 500 entries beside none

    def measure_system(self, key: str, name: str, user, client: Client, runs: int) -> None:
        out = self.stdout.write
        ruleset = get_ruleset(key)
        settings = resolve_settings(ruleset.SETTINGS, {})
        sheet = ruleset.demo_sheet()
        character = character_create(owner=user, name="Bench", system=key, sheet=sheet)
        out(f"[{name}]")

        check = timed(
            lambda: (ruleset.check(sheet, settings), ruleset.derived(sheet, settings)), runs
        )
        out(f"  full check + derived values       {describe(check)}")
        if not self.edits_only:
            self.measure_odds(ruleset, sheet, settings, character, client, runs)

        trait, values = _edit_target(key)
        url = f"/characters/{character.pk}/edit/"
        sizes: list[int] = []

        def one_edit(step: int) -> float:
            version = Character.objects.values_list("version", flat=True).get(pk=character.pk)
            value = values[step % len(values)]
            # As people use it: the sheet before this edit was drawn by another worker (the
            # last edit's answer, the page), so this process has kept nothing of it.
            forget_sheet_states()
            start = time.perf_counter()
            # Encoded as htmx sends a form (the test client's default is multipart).
            response = client.post(
                url,
                urlencode({"edit": f"{trait}={value}", "version": version}),
                content_type=FORM,
                HTTP_HX_REQUEST="true",
            )
            elapsed = time.perf_counter() - start
            after = Character.objects.values_list("version", flat=True).get(pk=character.pk)
            if response.status_code != 200 or after != version + 1:
                # A refusal answers 200 too, and costs less than a write: never time one.
                raise RuntimeError(f"the bench edit {trait}={value} was not saved")
            sizes.append(len(response.content))
            return elapsed

        def reference() -> float:
            return timed(lambda: client.get("/bench/trivial-logged-in/"), 1)[0]

        # Paired runs: each edit beside a reference request made just before it, so load
        # from other work on the machine weighs on both alike. The same edits are timed
        # with the engine's answers kept for the request (sheet_state: the write service,
        # the revision and the response ask about the same two sheets) and without them.
        # Each edit's step follows the last one's: its value differs from the stored one.
        steps = iter(range(1, 2 * runs + 2))
        reference(), one_edit(next(steps))  # warm: templates, the ruleset's tables
        pairs, unkept = [], []
        for _ in range(runs):
            pairs.append((reference(), one_edit(next(steps))))
            with states_not_kept():
                unkept.append((reference(), one_edit(next(steps))))
        last = 2 * runs + 1
        references = [ref for ref, _ in pairs + unkept]
        edit_times = [edit for _, edit in pairs]
        unkept_times = [edit for _, edit in unkept]
        out(f"  trivial view, logged in           {describe(references)}   (the reference)")
        out(f"  htmx trait edit (server)          {describe(edit_times)}")
        out(f"  the edit, engine answers not kept {describe(unkept_times)}")
        for label, samples in (("edit", pairs), ("edit, answers not kept", unkept)):
            ratios = [edit / ref for ref, edit in samples]
            over = statistics.median(e for _, e in samples) / statistics.median(
                r for r, _ in samples
            )
            out(
                f"  {label + ' / trivial logged in':34s}{over:7.2f}x"
                f"   (median of paired ratios {statistics.median(ratios):.2f}x)"
            )
        saved = statistics.median(unkept_times) / statistics.median(edit_times)
        out(f"  not kept / kept (median)          {saved:7.2f}x   (above 1: keeping them pays)")
        out(
            f"  edit response size                median {int(statistics.median(sizes)):6d} B"
            f"   largest {max(sizes):6d} B   (aim: under 8 KB)"
        )

        with CaptureQueriesContext(connection) as queries:
            one_edit(last + 1)
        out(f"  database queries per edit         {len(queries):7d}")

        packed = client.post(
            url,
            urlencode(
                {
                    "edit": f"{trait}={values[(last + 2) % len(values)]}",
                    "version": Character.objects.values_list("version", flat=True).get(
                        pk=character.pk
                    ),
                }
            ),
            content_type=FORM,
            HTTP_HX_REQUEST="true",
            HTTP_ACCEPT_ENCODING="gzip",
        )
        out(
            f"  edit response on the wire (gzip)  {len(packed.content):6d} B"
            f"   (raw {len(gzip.decompress(packed.content)):6d} B)"
        )
        if self.edits_only:
            return
        self.measure_page(client, character.pk)

        character.refresh_from_db()
        render_character_pdf(character)  # warm: templates, fonts, CSS parsed once

        def uncached() -> bytes:
            PDF_CACHE.clear()
            return render_character_pdf(character)

        pdf_runs = max(5, runs // 20)
        # What a gunicorn worker's print of a sheet nobody printed before costs: the worker
        # printed each system's demo sheet at start (sheets/wsgi.py), as this process has.
        pdf = timed(uncached, pdf_runs)
        reference = timed(lambda: HTML(string=ONE_PAGE).write_pdf(), pdf_runs)
        out(f"  PDF first render ({pdf_runs} runs)       {describe(pdf)}   (aim: under 400 ms)")
        # A process that never printed (runserver skips the warm-up): stylesheets, fonts
        # and templates loaded by the print itself. Each run is a new Python process.
        fresh = [fresh_process_first_print(key) for _ in range(3)]
        out(f"  PDF first in a fresh process      {describe(fresh)}   (no warm-up: runserver)")
        # CPU time of this process: steadier than the wall clock when other work shares
        # the cores, as it often does on these machines.
        pdf_cpu = timed(uncached, pdf_runs, clock=time.process_time)
        out(f"  PDF first render, CPU time        {describe(pdf_cpu)}")
        # A render costs about the same for every box laid out: the count is the figure to
        # compare when the wall clock is shared with other work.
        pages = character_document(character).pages
        out(f"  PDF layout boxes                  {sum(1 for _ in _boxes(pages)):7d}")
        out(f"  one-page WeasyPrint document      {describe(reference)}")
        out(
            "  PDF first / one-page document     "
            f"{statistics.median(pdf) / statistics.median(reference):7.1f}x"
        )
        pdf_url = f"/characters/{character.pk}/pdf/"
        client.get(pdf_url)
        before = PDF_CACHE.renders
        cached = timed(lambda: client.get(pdf_url), runs)
        out(
            f"  PDF download, cached (view)       {describe(cached)}   (aim: under 10 ms; "
            f"renders during it: {PDF_CACHE.renders - before})"
        )
        out(
            f"  PDF first / cached (median)       "
            f"{statistics.median(pdf) / statistics.median(cached):7.1f}x"
        )

    def measure_page(self, client: Client, pk: int) -> None:
        """The sheet page's size raw and gzip-compressed, and with its CSS and scripts as
        WhiteNoise serves them compressed in production."""
        raw = client.get(f"/characters/{pk}/")
        packed = client.get(f"/characters/{pk}/", HTTP_ACCEPT_ENCODING="gzip")
        names = [
            unquote(address.removeprefix(django_settings.STATIC_URL))
            for address in re.findall(
                r'(?:href|src)="/?(' + re.escape(django_settings.STATIC_URL) + r'[^"?#]+)"',
                raw.content.decode(),
            )
        ]
        # As production serves them: our own CSS and scripts minified by the static files
        # storage, and without django-htmx's debug script, which only DEBUG pages load.
        assets = [(name, finders.find(name)) for name in names if "django-htmx" not in name]
        raw_assets = packed_assets = brotli_assets = 0
        for name, found in assets:
            if not found:
                continue
            data = minified(name, Path(found).read_text()).encode()
            raw_assets += len(data)
            packed_assets += len(gzip.compress(data, compresslevel=9))
            brotli_assets += len(brotli.compress(data)) if brotli else 0
        out = self.stdout.write
        out(
            f"  sheet page HTML                   raw {len(raw.content):7d} B   "
            f"gzip {len(packed.content):6d} B   ({len(raw.content) / len(packed.content):.1f}x)"
        )
        out(
            f"  page + its {len(assets)} CSS/JS files       "
            f"raw {len(raw.content) + raw_assets:7d} B"
            f"   gzip {len(packed.content) + packed_assets:6d} B   (aim: under 40 KB)"
        )
        if brotli:
            out(
                "  the same, CSS/JS in brotli        "
                f"              {len(packed.content) + brotli_assets:6d} B"
                "   (WhiteNoise serves .br to browsers that take it)"
            )

    def measure_odds(self, ruleset, sheet, settings, character, client: Client, runs: int) -> None:
        """Exact odds of every pool of the demo sheet (the first ask of each, before any
        cache), and the roll page that draws them with their chart."""
        out = self.stdout.write
        readings = dice_readings(settings, ruleset.DICE_READINGS)
        asked = [
            (rollable, parse_roll_options(ruleset.roll_options(rollable, settings), {}) | readings)
            for rollable in ruleset.rollables(sheet, settings)
        ]
        dice = importlib.import_module(f"{ruleset.__name__}.dice")
        first = []
        for r, o in asked:
            # Truly a first ask: no cached sub-result of an earlier pool helps, and no
            # garbage collection left over from the pages above lands inside the timing.
            for cached in vars(dice).values():
                if hasattr(cached, "cache_clear"):
                    cached.cache_clear()
            gc.collect()
            first.append(timed(lambda r=r, o=o: ruleset.odds(r, o), 1)[0])
        out(
            f"  odds, first ask ({len(first):2} pools)      {describe(first)}"
            f"   max {max(first) * 1000:6.2f} ms"
        )
        url = reverse("character_roll", args=[character.pk, asked[-1][0].key])
        page = timed(lambda: client.get(url), max(1, runs // 4))
        out(f"  roll page (odds + chart)          {describe(page)}")

    def measure_dashboard(self, runs: int) -> None:
        """The GM's campaign page: server time and queries with 5 sheets and with 50."""
        out = self.stdout.write
        gm = get_user_model().objects.create_user("bench-gm", password="bench-pass-123")
        client = Client()
        client.force_login(gm)
        page_runs = max(5, runs // 10)
        out(f"[GM's campaign page, {page_runs} runs each]")
        logged_in_times = timed(lambda: client.get("/bench/trivial-logged-in/"), page_runs)
        out(f"  trivial view, logged in           {describe(logged_in_times)}")
        medians = {}
        for count in (5, 50):
            url = f"/campaigns/{_bench_table(gm, count).pk}/"
            gc.collect()
            gc.freeze()  # as a started worker does (sheets/wsgi.py)

            def one_page(url: str = url) -> None:
                if client.get(url).status_code != 200:
                    raise RuntimeError("the bench's campaign page did not answer 200")

            one_page()  # warm: templates, the ruleset's tables
            page_times = timed(one_page, page_runs)
            with CaptureQueriesContext(connection) as queries:
                one_page()
            medians[count] = statistics.median(page_times)
            ratio = medians[count] / statistics.median(logged_in_times)
            out(f"  dashboard, {count:2d} sheets              {describe(page_times)}")
            out(f"  dashboard, {count:2d} sheets: queries     {len(queries):7d}")
            out(f"  dashboard, {count:2d} / trivial logged in {ratio:7.2f}x")
            # Before the statuses were kept by version: every sheet checked on every view.
            with statuses_not_kept():
                unkept = statistics.median(timed(one_page, page_runs))
            unkept_ratio = unkept / statistics.median(logged_in_times)
            out(f"  the same, every status checked    {unkept_ratio:7.2f}x   (before issue 30)")
        out(
            f"  dashboard 50 / 5 sheets (median)  {medians[50] / medians[5]:7.2f}x"
            "   (queries must not grow; only a sheet changed since the last view is checked)"
        )
        gc.unfreeze()

    def measure_ledger(self, runs: int) -> None:
        """The Advancement page of a sheet with 10, 100 and 1,000 ledger entries: it shows 25
        a page, so past the first page its time and queries should not grow with them."""
        out = self.stdout.write
        owner = get_user_model().objects.create_user("bench-ledger", password="bench-pass-123")
        client = Client()
        client.force_login(owner)
        page_runs = max(5, runs // 10)
        out(f"[Advancement (ledger) page, {page_runs} runs each]")
        logged_in_times = timed(lambda: client.get("/bench/trivial-logged-in/"), page_runs)
        out(f"  trivial view, logged in           {describe(logged_in_times)}")
        medians = {}
        urls = {
            count: reverse("character_ledger", args=[_bench_ledger(owner, count).pk])
            for count in (10, 100, 1000)
        }
        # As a started worker does (sheets/wsgi.py): what was built so far is out of the
        # collector's sweeps, which would otherwise land on whichever page is timed.
        gc.collect()
        gc.freeze()
        for count, url in urls.items():

            def one_page(url: str = url) -> None:
                if client.get(url).status_code != 200:
                    raise RuntimeError("the bench's ledger page did not answer 200")

            one_page()  # warm: templates, the ruleset's tables
            page_times = timed(one_page, page_runs)
            with CaptureQueriesContext(connection) as queries:
                one_page()
            medians[count] = statistics.median(page_times)
            ratio = medians[count] / statistics.median(logged_in_times)
            out(f"  ledger, {count:4d} entries             {describe(page_times)}")
            out(f"  ledger, {count:4d} entries: queries    {len(queries):7d}")
            out(f"  ledger, {count:4d} / trivial logged in {ratio:7.2f}x")
        out(
            f"  ledger 1,000 / 10 entries (median) {medians[1000] / medians[10]:6.2f}x"
            "   (10 rows shown against 25)"
        )
        out(
            f"  ledger 1,000 / 100 entries (median) {medians[1000] / medians[100]:5.2f}x"
            "   (a page of 25 each: neither time nor queries should grow)"
        )
        gc.unfreeze()


def _bench_ledger(owner, entries: int) -> Character:
    """A SWd10 demo sheet whose ledger holds `entries` awards and corrections (written in
    bulk: the page reads them, how they were written does not matter here)."""
    from sheets.advancement.models import LedgerEntry

    demo = get_ruleset("swd10").demo_sheet()
    character = character_create(owner=owner, name=f"Ledger {entries}", system="swd10", sheet=demo)
    kinds = (LedgerEntry.Kind.AWARD, LedgerEntry.Kind.CORRECTION)
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            character=character,
            kind=kinds[index % 7 == 6],
            amount=-1 if index % 7 == 6 else 2,
            unit="XP",
            reason=f"Session {index}",
            author=owner,
            version=character.version,
        )
        for index in range(entries)
    )
    return character


def _bench_table(gm, sheets: int):
    """A SWd10 table of `sheets` demo sheets, one player each, every sheet changed once."""
    campaign = campaign_create(user=gm, name=f"Bench table {sheets}", system="swd10")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    demo = get_ruleset("swd10").demo_sheet()
    user_model = get_user_model()
    for index in range(sheets):
        player = user_model.objects.create_user(f"bench-{sheets}-{index}", password="bench-pass-1")
        campaign_join(user=player, token=link.token)
        character = character_create(owner=player, name=f"Hero {index}", system="swd10", sheet=demo)
        character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
        character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"abil.stealth": "2"},
            expected_version=character.version,
        )
    return campaign


def _edit_target(system: str) -> tuple[str, list[str]]:
    """A trait each system's demo sheet can flip back and forth, every step accepted: the
    O.R.E. and 1o3d10 demos are in play, where a stat rises only on the ledger, so their
    edits are the damage a fight marks."""
    targets = {
        "swd10": ("abil.stealth", ["1", "2", "3", "0"]),
        "ore": ("wound.torso.0", ["cycle"]),
        "weg_d6": ("attr.dexterity", ["3D+1", "3D+2", "3D"]),
        "o3d10": ("hp.current", ["10", "12"]),
    }
    return targets[system]


FRESH_PRINT = """
import time, django
django.setup()
from sheets.printing.pdf import _render, warm_up_character
character = warm_up_character({system!r})
character.name = "Fresh"
start = time.perf_counter()
_render(character)
print(time.perf_counter() - start)
"""


def fresh_process_first_print(system: str) -> float:
    """Seconds of the first print in a new Python process that loaded Django and the
    app but printed nothing before (what runserver's first print of a system pays)."""
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", FRESH_PRINT.format(system=system)],
        cwd=django_settings.BASE_DIR,
        env=os.environ | {"DJANGO_SETTINGS_MODULE": "sheets.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def _boxes(pages) -> Iterator:
    """Every box of the laid-out pages, the pages' own included."""
    stack = [page._page_box for page in pages]
    while stack:
        box = stack.pop()
        yield box
        stack.extend(getattr(box, "children", ()))
