"""Generated input, posted to every form and htmx endpoint: never a server error, and a
refused request leaves what is stored exactly as it was.

The inputs mix the sheet's real trait keys and values with what broke the server once:
NUL and other control characters, escaped surrogates, "²" and other non-ASCII digits
where a row number goes, huge numbers, NaN, long text and trait keys bent out of shape.

Each test tries FUZZ_EXAMPLES inputs (default 10, to keep the suite fast). A longer run:

    FUZZ_EXAMPLES=2000 .venv/bin/python -m pytest tests/web/test_fuzz_endpoints.py -q

and on PostgreSQL, which refuses more than SQLite does, with DATABASE_URL set to it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from html import unescape
from typing import Any
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms.models import model_to_dict
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from rulesets.registry import SYSTEMS, get_ruleset
from sheets.campaigns.models import Campaign, Invitation, Membership
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character, GMNote, Review
from sheets.characters.services import character_create, character_submit
from sheets.history.revisions import diff_ops

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# What broke the server once, or nearly: each is tried as a value, and inside keys.
ODD = [
    "\x00",
    "a\x00b",
    "\\ud800",
    "\\udfff",
    "²",
    "٣",
    "-1",
    "+1",
    "1e400",
    "NaN",
    "-Infinity",
    "9" * 4400,
    "x" * 5000,
    "",
    " ",
    "0",
    "1",
    "99999999999",
    "on",
    "|",
    "a|b|c",
    "..",
    "\r\n",
    "\x7f",
    "\x1b[31m",
    "\u202e",
    "\ufffe",
    "🜁",
    "<b>x</b>",
    "{{ x }}",
    "%00",
]
ODD_TEXT = st.sampled_from(ODD) | st.text(max_size=40) | st.integers().map(str)


def stored_rows(model: Any, **filters: Any) -> list[dict]:
    """Every field of the matching rows, as stored, in a stable order."""
    return [model_to_dict(row) | {"pk": row.pk} for row in model.objects.filter(**filters)]


# The sheet form of each system, as its page offers it: field names and button values.
_FORMS: dict[str, tuple[list[str], list[str]]] = {}


def sheet_form(client: Client, character: Character) -> tuple[list[str], list[str]]:
    """The trait keys the sheet page posts, and its buttons' "trait=value" pairs.

    Read from the page itself, so every field and button any layout draws is tried.
    """
    if character.system not in _FORMS:
        page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
        # The readings' fields come into the sheet's form when their panel is opened.
        page += client.get(reverse("character_readings", args=[character.pk])).content.decode()
        names = sorted(set(re.findall(r'name="([^"]+)"', page)) - {"csrfmiddlewaretoken"})
        buttons = sorted(set(re.findall(r'name="edit"\s+value="([^"]+)"', page)))
        _FORMS[character.system] = (names, [unescape(value) for value in buttons])
    return _FORMS[character.system]


def bent(key: str) -> st.SearchStrategy[str]:
    """A trait key, or one bent out of shape: a row number in other digits, a part
    dropped or added, a control character inside."""
    parts = key.split(".")
    changes = [st.just(key)]
    for index in range(len(parts)):
        changes.append(
            st.sampled_from(["²", "٣", "-1", "999999", "", "x", "\x00", "0" * 9]).map(
                lambda odd, index=index: ".".join([*parts[:index], odd, *parts[index + 1 :]])
            )
        )
    changes.append(st.just(".".join(parts[:-1])))
    changes.append(ODD_TEXT.map(lambda extra: f"{key}.{extra}"))
    return st.one_of(changes)


@st.composite
def sheet_posts(draw: Any, names: list[str], buttons: list[str]) -> dict[str, str]:
    """One post of the sheet form: a button, one field ("only") or the whole form."""
    mode = draw(st.sampled_from(["edit", "only", "save"]))
    if mode == "edit":
        trait, _, value = draw(st.sampled_from(buttons)).partition("=")
        value = draw(st.just(value) | ODD_TEXT)
        return {"edit": f"{draw(bent(trait))}={value}"}
    if mode == "only":
        trait = draw(bent(draw(st.sampled_from(names))))
        post = {"only": trait, trait: draw(ODD_TEXT)}
        for extra in range(1, draw(st.integers(0, 3)) + 1):
            post[f"{trait}.{extra}"] = draw(ODD_TEXT)
        return post
    fields = draw(st.lists(st.sampled_from(names), min_size=1, max_size=6, unique=True))
    post = {draw(bent(field)): draw(ODD_TEXT) for field in fields}
    return post | {"save": draw(st.sampled_from(["all", "details", "readings", "x"]))}


ODD_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | ODD_TEXT
    | st.sampled_from(["\ud800", "\udfff", "a\x00b"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ODD_TEXT, inner, max_size=3),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple = ()) -> Any:
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*prefix, index))


# Dates as files write them, and as they break: no offset, a day that does not exist, a
# moment that cannot be said in UTC.
ODD_DATES = st.sampled_from(
    [
        "2026-11-22T10:00:00",
        "2026-02-30T10:00:00+00:00",
        "0001-01-01T00:00:00+05:00",
        "9999-12-31T23:59:59-05:00",
        "2026-11-22T10:00:00+99:00",
        "yesterday",
    ]
) | st.datetimes().map(lambda moment: moment.isoformat() + "+14:00")


def _with_history(system: str) -> dict:
    """A file of schema version 2 as an export writes it: a history (created, renamed)
    and a ledger (an award, a purchase, its refund). Built without the database, so each
    generated file costs nothing to make."""
    sheet = get_ruleset(system).demo_sheet()
    created = {"name": "Fuzzed", "settings": {}, "sheet": sheet}
    renamed = created | {"name": "Fuzzed again"}
    when = "2026-11-22T10:00:00+00:00"
    entry = {"unit": "XP", "author": "luke", "created_at": when, "version": 2, "adventure": 1}
    return {
        "format": "datapad-character",
        "schema_version": 2,
        "system": system,
        "name": "Fuzzed again",
        "rule_settings": {},
        "sheet": sheet,
        "adventure": 1,
        "ledger": [
            entry | {"id": 1, "kind": "award", "amount": 40, "reason": "Session 1"},
            entry | {"id": 2, "kind": "purchase", "amount": -5, "trait": "attr.strength"},
            entry | {"id": 3, "kind": "refund", "amount": 5, "undoes": 2, "carried": False},
        ],
        "history": [
            {
                "version": 1,
                "created_at": when,
                "author": "luke",
                "summary": "Created",
                "ops": diff_ops({}, created),
                "changes": [],
                "changes_more": 0,
            },
            {
                "version": 2,
                "created_at": when,
                "author": "luke",
                "summary": "Renamed",
                "ops": diff_ops(created, renamed),
                "changes": [["Name", "Fuzzed", "Fuzzed again"]],
            },
        ],
        "exported_at": when,
    }


@st.composite
def character_files(draw: Any) -> bytes:
    """A real character file with one part replaced by an odd value (or left out), or raw
    bytes that are barely JSON (deep nesting, huge numbers, NaN). Half the files carry a
    history and a ledger, and most of their odd values land there: in an operation, a
    ledger entry, an author, a date."""
    kind = draw(st.sampled_from(["file", "history", "history", "raw"]))
    if kind == "raw":
        return draw(
            st.sampled_from(
                [
                    b"[" * 5000,
                    b"{" * 3000,
                    b'{"format": "datapad-character", "schema_version": ' + b"9" * 5000 + b"}",
                    b'{"format": "datapad-character", "schema_version": NaN}',
                    b'{"format": "datapad-character", "schema_version": 1e999}',
                    b'{"format": "datapad-character", "name": "\\ud800"}',
                    b"\xff\xfe\x00\x00",
                    b"",
                ]
            )
            | st.binary(max_size=200)
        )
    system = draw(st.sampled_from(sorted(SYSTEMS)))
    if kind == "history":
        data = _with_history(system)
        paths = [p for p in _paths(data) if p[:1] in (("history",), ("ledger",))]
        # And the sheet's own parts, which the history leads back from.
        paths += [("sheet", key) for key in data["sheet"]]
    else:
        data = {
            "format": "datapad-character",
            "schema_version": 1,
            "system": system,
            "name": "Fuzzed",
            "rule_settings": {},
            "sheet": get_ruleset(system).demo_sheet(),
        }
        paths = [p for p in _paths(data) if p]
    path = draw(st.sampled_from(paths))
    target = data
    for part in path[:-1]:
        target = target[part]
    if isinstance(target, dict) and draw(st.integers(0, 4)) == 0:
        # Left out: a key the schema fills by default, or one the format requires.
        del target[path[-1]]
    else:
        odd = ODD_DATES | ODD_JSON if path[-1] == "created_at" else ODD_JSON
        target[path[-1]] = draw(odd)
    # json.dumps writes a lone surrogate as the escape "\ud800", as another tool would.
    return json.dumps(data, allow_nan=True).encode()


def per_system(*systems: str) -> Callable[[type], type]:
    """Give the class one fuzz test a system, `test_<system>`, each running its
    `_check(system, data)`: a failure names the system it found it in."""

    def fuzz_test(cls: type, system: str) -> Callable[..., None]:
        def test(self: Any, data: Any) -> None:
            self._check(system, data)

        # Named before Hypothesis keeps its examples under the test's name.
        test.__name__ = f"test_{system}"
        test.__qualname__ = f"{cls.__qualname__}.test_{system}"
        return FUZZ(given(data=st.data())(test))

    def add(cls: type) -> type:
        for system in systems:
            setattr(cls, f"test_{system}", fuzz_test(cls, system))
        return cls

    return add


class FuzzCase(TestCase):
    """Each generated input runs in a transaction of its own, rolled back after it, with
    its own people (setUp would run once per test, outside those transactions)."""

    def setup_example(self) -> None:
        super().setup_example()
        users = get_user_model().objects
        self.player = users.create_user("fuzz_player", password="fuzz-pass-123456")
        self.gm = users.create_user("fuzz_gm", password="fuzz-pass-123456")
        self.stranger = users.create_user("fuzz_stranger", password="fuzz-pass-123456")
        self.as_player = self._client(self.player)
        self.as_gm = self._client(self.gm)
        self.as_stranger = self._client(self.stranger)

    def _client(self, user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    def assertNoServerError(self, response: Any) -> None:
        self.assertLess(response.status_code, 500, response.content[:500])

    def demo(self, system: str) -> Character:
        """The player's own demo character of `system`."""
        return character_create(
            owner=self.player,
            name="Fuzzed",
            system=system,
            sheet=get_ruleset(system).demo_sheet(),
        )

    def table(self) -> tuple[Campaign, Character]:
        campaign = campaign_create(user=self.gm, name="Fuzz table", system="swd10")
        link = invitation_create(user=self.gm, campaign_id=campaign.pk)
        campaign_join(user=self.player, token=link.token)
        character = self.demo("swd10")
        character_bring(user=self.player, campaign_id=campaign.pk, character_id=character.pk)
        character.refresh_from_db()
        return campaign, character


@per_system("swd10", "ore", "weg_d6", "o3d10")
class SheetEdits(FuzzCase):
    def _check(self, system: str, data: Any) -> None:
        character = self.demo(system)
        names, buttons = sheet_form(self.as_player, character)
        post = data.draw(sheet_posts(names, buttons))
        htmx = data.draw(st.booleans())
        before = stored_rows(Character, pk=character.pk)
        response = self.as_player.post(
            reverse("character_edit", args=[character.pk]),
            {"version": character.version} | post,
            headers={"HX-Request": "true"} if htmx else {},
        )
        self.assertNoServerError(response)
        after = stored_rows(Character, pk=character.pk)
        if not htmx and response.status_code != 302:
            self.assertEqual(after, before, f"refused ({response.status_code}) but changed")
        # Whatever the answer, a stored change is a whole new version with its revision.
        if after != before:
            self.assertEqual(after[0]["version"], before[0]["version"] + 1)
            self.assertEqual(character.revisions.count(), 2)


class CharacterForms(FuzzCase):
    @FUZZ
    @given(
        name=ODD_TEXT,
        system=st.sampled_from(sorted(SYSTEMS)) | ODD_TEXT,
        edition=st.sampled_from(["", "1e", "2e_re"]) | ODD_TEXT,
    )
    def test_new_character(self, name: str, system: str, edition: str) -> None:
        post = {"name": name, "system": system, "edition": edition}
        response = self.as_player.post(reverse("character_new"), post)
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertFalse(Character.objects.exists())

    @FUZZ
    @given(raw=character_files())
    def test_import(self, raw: bytes) -> None:
        upload = SimpleUploadedFile("fuzzed.datapad.json", raw, "application/json")
        response = self.as_player.post(reverse("character_import"), {"file": upload})
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertFalse(Character.objects.exists())
        else:
            # An accepted file makes a character that opens, and so do its history, the
            # diff of its whole history, the restore of its first version and its export.
            character = Character.objects.get()
            page = self.as_player.get(reverse("character_sheet", args=[character.pk]))
            self.assertEqual(page.status_code, 200)
            for url, query in [
                (reverse("character_history", args=[character.pk]), {}),
                (
                    reverse("character_history_diff", args=[character.pk]),
                    {"from": "1", "to": str(character.version)},
                ),
                (reverse("character_history_restore", args=[character.pk, 1]), {}),
            ]:
                self.assertNoServerError(self.as_player.get(url, query))
            exported = self.as_player.get(reverse("character_export", args=[character.pk]))
            self.assertEqual(exported.status_code, 200)
            # Restoring the first version writes what the file's history says it was.
            restored = self.as_player.post(
                reverse("character_history_restore", args=[character.pk, 1]),
                {"version": str(character.version)},
            )
            self.assertNoServerError(restored)


class CampaignForms(FuzzCase):
    @FUZZ
    @given(name=ODD_TEXT, system=st.sampled_from(sorted(SYSTEMS)) | ODD_TEXT, about=ODD_TEXT)
    def test_new_campaign(self, name: str, system: str, about: str) -> None:
        response = self.as_gm.post(
            reverse("campaign_new"), {"name": name, "system": system, "description": about}
        )
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertFalse(Campaign.objects.exists())

    @FUZZ
    @given(name=ODD_TEXT, about=ODD_TEXT)
    def test_campaign_edit(self, name: str, about: str) -> None:
        campaign, _ = self.table()
        before = stored_rows(Campaign)
        response = self.as_gm.post(
            reverse("campaign_edit", args=[campaign.pk]), {"name": name, "description": about}
        )
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertEqual(stored_rows(Campaign), before)

    @FUZZ
    @given(data=st.data())
    def test_house_rules(self, data: Any) -> None:
        campaign, _ = self.table()
        keys = [setting.key for setting in get_ruleset("swd10").SETTINGS]
        fields = data.draw(st.lists(st.sampled_from(keys) | ODD_TEXT, max_size=4))
        post = {key: data.draw(ODD_TEXT) for key in fields}
        post |= {
            "version": data.draw(st.just(str(campaign.version)) | ODD_TEXT),
            "confirmed": data.draw(st.sampled_from(["1", "0", ""]) | ODD_TEXT),
        }
        before = stored_rows(Campaign), stored_rows(Character)
        response = self.as_gm.post(reverse("campaign_settings", args=[campaign.pk]), post)
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertEqual((stored_rows(Campaign), stored_rows(Character)), before)

    @FUZZ
    @given(
        expires=ODD_TEXT | st.datetimes().map(lambda moment: moment.isoformat()),
        uses=ODD_TEXT,
        htmx=st.booleans(),
    )
    def test_invitation(self, expires: str, uses: str, htmx: bool) -> None:
        campaign, _ = self.table()
        before = stored_rows(Invitation)
        response = self.as_gm.post(
            reverse("campaign_invite", args=[campaign.pk]),
            {"expires_at": expires, "max_uses": uses},
            headers={"HX-Request": "true"} if htmx else {},
        )
        self.assertNoServerError(response)
        if len(stored_rows(Invitation)) == len(before):
            self.assertEqual(stored_rows(Invitation), before)

    @FUZZ
    @given(
        comment=ODD_TEXT,
        action=st.sampled_from(["character_request_changes", "character_approve"]),
        version=st.none() | ODD_TEXT,
    )
    def test_review_comment(self, comment: str, action: str, version: str | None) -> None:
        _, character = self.table()
        character_submit(user=self.player, character_id=character.pk, version=character.version)
        before = stored_rows(Character), stored_rows(Review)
        response = self.as_gm.post(
            reverse(action, args=[character.pk]),
            {"comment": comment, "version": character.version if version is None else version},
        )
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertEqual((stored_rows(Character), stored_rows(Review)), before)

    @FUZZ
    @given(text=ODD_TEXT)
    def test_gm_note(self, text: str) -> None:
        _, character = self.table()
        response = self.as_gm.post(reverse("gm_note_save", args=[character.pk]), {"text": text})
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertFalse(GMNote.objects.exists())

    @FUZZ
    @given(token=ODD_TEXT, post=st.booleans())
    def test_join_token(self, token: str, post: bool) -> None:
        self.table()
        before = stored_rows(Membership), stored_rows(Invitation)
        url = f"/campaigns/join/{quote(token, safe='')}/"
        response = self.as_stranger.post(url) if post else self.as_stranger.get(url)
        self.assertNoServerError(response)
        self.assertEqual((stored_rows(Membership), stored_rows(Invitation)), before)


class HistoryForms(FuzzCase):
    @FUZZ
    @given(older=ODD_TEXT, newer=ODD_TEXT)
    def test_diff_versions(self, older: str, newer: str) -> None:
        _, character = self.table()
        url = reverse("character_history_diff", args=[character.pk])
        response = self.as_player.get(url, {"from": older, "to": newer})
        self.assertNoServerError(response)

    @FUZZ
    @given(version=ODD_TEXT, target=st.integers(min_value=0, max_value=2**40))
    def test_restore(self, version: str, target: int) -> None:
        _, character = self.table()
        before = stored_rows(Character)
        url = reverse("character_history_restore", args=[character.pk, target])
        response = self.as_player.post(url, {"version": version})
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertEqual(stored_rows(Character), before)


class LedgerForms(FuzzCase):
    """The ledger's forms: award, correct, buy, ask, consent, correct a value, undo. A
    refused post leaves the sheet and the ledger exactly as they were."""

    # form -> (who posts it, its fields and a real value for each)
    FORMS = {
        "ledger_award": ("gm", {"amount": "5", "reason": "Session"}),
        "ledger_correct": ("gm", {"amount": "-2", "reason": "Typo"}),
        "ledger_buy": ("player", {"trait": "attr.strength", "teacher": "", "reason": ""}),
        "ledger_ask": ("player", {"merit": "acute_senses", "value": "1", "choice": "sight"}),
        "ledger_consent": ("gm", {"entry": "pending", "decision": "approve", "reason": ""}),
        "ledger_correct_trait": (
            "gm",
            {"trait": "attr.strength", "value": "3", "amount": "", "reason": "Noted wrong"},
        ),
        "ledger_undo": ("player", {"entry": "purchase", "reason": ""}),
    }

    def _in_play(self) -> Character:
        from sheets.advancement import services as ledger
        from sheets.characters.services import character_apply_edits

        _, character = self.table()
        character = character_apply_edits(
            user=self.player,
            character_id=character.pk,
            edits={"stage": "play"},
            expected_version=character.version,
        )
        ledger.award(user=self.gm, character_id=character.pk, amount="40", reason="Session")
        version = Character.objects.get(pk=character.pk).version
        self.bought = ledger.purchase(
            user=self.player, character_id=character.pk, trait="willpower", expected_version=version
        )
        self.pending = ledger.ask(
            user=self.player,
            character_id=character.pk,
            choice="acute_senses",
            value="2",
            detail="hearing",
            expected_version=version + 1,
        )
        return Character.objects.get(pk=character.pk)

    @FUZZ
    @given(data=st.data(), form=st.sampled_from(sorted(FORMS)))
    def test_ledger_form(self, data: Any, form: str) -> None:
        from sheets.advancement.models import LedgerEntry

        character = self._in_play()
        who, fields = self.FORMS[form]
        real = {"pending": str(self.pending.pk), "purchase": str(self.bought.pk)}
        post = {"version": str(character.version)}
        for name, value in fields.items():
            real_value = real.get(value, value)
            post[name] = data.draw(st.just(real_value) | ODD_TEXT, label=name)
        if data.draw(st.booleans(), label="odd version"):
            post["version"] = data.draw(ODD_TEXT, label="version")
        client = self.as_gm if who == "gm" else self.as_player
        before = stored_rows(Character), stored_rows(LedgerEntry)
        response = client.post(reverse(form, args=[character.pk]), post)
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertEqual((stored_rows(Character), stored_rows(LedgerEntry)), before)

    @FUZZ
    @given(amount=ODD_TEXT, reason=ODD_TEXT, action=st.sampled_from(["award", "end_adventure"]))
    def test_table_award(self, amount: str, reason: str, action: str) -> None:
        from sheets.advancement.models import LedgerEntry

        campaign, _ = self.table()
        before = stored_rows(Character), stored_rows(LedgerEntry)
        response = self.as_gm.post(
            reverse("campaign_award", args=[campaign.pk]),
            {"amount": amount, "reason": reason, "action": action},
        )
        self.assertNoServerError(response)
        if response.status_code != 302:
            self.assertEqual((stored_rows(Character), stored_rows(LedgerEntry)), before)


@per_system("swd10", "ore", "weg_d6", "o3d10")
class RollForms(FuzzCase):
    """The roll form and its odds fragment: each modifier, the table and the secret flag
    take odd text; a refused roll stores no entry and leaves the sheet as it was."""

    def _check(self, system: str, data: Any) -> None:
        from sheets.rolls.models import RollEntry
        from sheets.rolls.services import roll_setup, rollables_of

        character = self.demo(system)
        rollable = data.draw(st.sampled_from(rollables_of(character)))
        keys = [option.key for option in roll_setup(character, rollable.key).definitions]
        fields = data.draw(st.lists(st.sampled_from([*keys, "campaign", "secret"]), max_size=5))
        post = {field: data.draw(ODD_TEXT) for field in fields}
        url = reverse("character_roll", args=[character.pk, rollable.key])
        odds = self.as_player.get(
            reverse("roll_odds", args=[character.pk, rollable.key]),
            post,
            headers={"HX-Request": "true"},
        )
        self.assertNoServerError(odds)
        htmx = data.draw(st.booleans())
        before = stored_rows(Character, pk=character.pk)
        response = self.as_player.post(url, post, headers={"HX-Request": "true"} if htmx else {})
        self.assertNoServerError(response)
        rolled = RollEntry.objects.filter(character=character).exists()
        if not htmx:
            self.assertEqual(rolled, response.status_code == 302)
        if not rolled:
            self.assertEqual(stored_rows(Character, pk=character.pk), before)


@per_system("ore", "o3d10")
class HitForms(FuzzCase):
    """The hit form (wounds marked on an O.R.E. sheet, damage on a 1o3d10 one): each field
    and the roll and version take odd text; a refused hit stores nothing."""

    def _check(self, system: str, data: Any) -> None:
        from sheets.rolls.models import RollEntry

        character = self.demo(system)
        keys = {
            "ore": ["width", "height", "weapon", "damage", "penetration", "stun", "extra_damage"],
            "o3d10": ["damage", "location"],
        }[system]
        fields = data.draw(st.lists(st.sampled_from([*keys, "roll", "version"]), max_size=5))
        post = {"version": str(character.version)} | {f: data.draw(ODD_TEXT) for f in fields}
        url = reverse("character_hit", args=[character.pk])
        self.assertNoServerError(self.as_player.get(url, post))
        before = stored_rows(Character, pk=character.pk)
        response = self.as_player.post(url, post)
        self.assertNoServerError(response)
        marked = RollEntry.objects.filter(character=character).exists()
        self.assertEqual(marked, response.status_code == 302)
        if not marked:
            self.assertEqual(stored_rows(Character, pk=character.pk), before)


class CatalogSuggestions(FuzzCase):
    @FUZZ
    @given(typed=ODD_TEXT)
    def test_ore_weapon_matches(self, typed: str) -> None:
        response = self.as_player.get(reverse("ore_weapon_matches"), {"weapon.add": typed})
        self.assertEqual(response.status_code, 200)
        self.assertNotIn(b"\x00", response.content)
