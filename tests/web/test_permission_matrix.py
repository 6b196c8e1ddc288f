"""Every URL of Datapad, asked by five people with GET and with POST: the exact answer each gets.

The people: nobody logged in, the owner of a character at a table, another player of that
table, the table's GM, and the GM of another table. For each (URL, method, person) the
matrix below says the one answer expected, so any change of who may do what fails here:

- 200 / 400 / 403 / 404 / 405: that status;
- LOGIN: a 302 to the login page (anonymous visitors log in first);
- MOVED: a 302 anywhere but the login page (a POST that did what it asked).

Beyond the status, every body a person receives is searched for what is not theirs to see
(the character names of other players, GM notes, share and invitation tokens, the other
table), PDFs by their extracted text; and any request that was refused, or any GET at all,
must leave the stored data exactly as it was.

A URL added to the project fails `test_every_url_is_in_the_matrix` until it gets its rows.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from PIL import Image
from pypdf import PdfReader

from sheets.accounts.models import AccessToken, Profile
from sheets.accounts.services import token_create
from sheets.advancement import services as ledger
from sheets.campaigns.models import Campaign, Invitation, Membership, Role
from sheets.campaigns.services import character_bring, character_take_out
from sheets.characters.models import Character, GMNote, Portrait, Review, ShareLink
from sheets.characters.portraits import portrait_set
from sheets.characters.services import (
    character_apply_edits,
    character_approve,
    character_create,
    character_submit,
    gm_note_save,
    share_link_create,
)
from sheets.compendium.models import Book, CompendiumEntry, EntryVersion
from sheets.compendium.services import entry_create
from sheets.history.models import Revision
from sheets.npcs.models import MinionGroup, MinionMember, Npc
from sheets.npcs.services import group_create, npc_create
from sheets.printing.models import TablePrint
from sheets.printing.pdf import render_character_pdf
from sheets.rolls.models import RollEntry
from sheets.transfer.datapad import export_character
from sheets.transfer.models import PendingImport
from sheets.vehicles.models import OwnerKind, Vehicle

pytestmark = pytest.mark.django_db

# Answers that are not a bare status code.
LOGIN = "302 to login"
MOVED = "302 elsewhere"

PEOPLE = ("anonymous", "owner", "other_player", "gm", "other_gm")

# Words only some people may read: each appears in the world below exactly where it belongs.
OWNER_SHEET = "Kira Dane"  # the owner's character at the table (from tests/conftest.py)
OTHER_SHEET = "Orrin Vashti"  # the other player's approved character at the same table
SPARE_SHEET = "Dax Morrow"  # the owner's character at no table
TABLE_NAME = "Outer Rim"  # the table (tests/conftest.py)
OTHER_TABLE_NAME = "Core Worlds"  # the other GM's table (tests/conftest.py)
GM_NOTE_MARKER = "GMNOTE-ZX81-only-for-the-gm"
HIDDEN_ENTRY_MARKER = "HIDDEN-QX42 secret weapon"  # an entry of the table's book, hidden
HIDDEN_NPC_MARKER = "Moff NPCSECRET-7Q"  # the name of the GM's hidden NPC (sheets/npcs)

# Pages that are public by design, so asking them as five people proves nothing; each with
# the reason it is left out.
EXCLUDED_NAMES = {
    "login": "the login form: public by design, it is where everyone else is sent",
    "logout": "django.contrib.auth's log-out: acts only on the caller's own session",
    "signup": "making an account: public by design",
    "theme": "the colour theme: a cookie of the caller's own browser, stored nowhere else "
    "(tests/web/test_theme.py)",
    "password_reset": "django.contrib.auth's password reset: public by design",
    "password_reset_done": "django.contrib.auth's password reset: public by design",
    "password_reset_confirm": "django.contrib.auth's password reset: public by design",
    "password_reset_complete": "django.contrib.auth's password reset: public by design",
}
EXCLUDED_PREFIXES = {
    "admin/": "Django's admin: staff only, guarded by its own login and permissions",
    "static/": "static files (whitenoise serves them; no URL pattern today): public by design",
    "api/": "the HTTP API (issue 29): its names are namespaced, so its own matrix asks them, "
    "every person with a token and without, in tests/api/test_api_matrix.py (see API_DELEGATED)",
}


def _row(*answers: int | str) -> dict[str, int | str]:
    assert len(answers) == len(PEOPLE)
    return dict(zip(PEOPLE, answers, strict=True))


def _all(answer: int | str) -> dict[str, int | str]:
    return _row(*(answer,) * len(PEOPLE))


def _logged_in(answer: int | str) -> dict[str, int | str]:
    return _row(LOGIN, *(answer,) * (len(PEOPLE) - 1))


# (url name) -> {method: {person: answer}}, people in the order
#                       anonymous, owner, other_player, gm, other_gm
MATRIX: dict[str, dict[str, dict[str, int | str]]] = {
    "home": {"GET": _all(200), "POST": _all(405)},
    # The icon where browsers look for it: a permanent redirect to the static file, for all.
    "favicon": {"GET": _all(301), "POST": _all(405)},
    # The caller's own password: nobody else's data, but only for someone logged in.
    "password_change": {"GET": _logged_in(200), "POST": _logged_in(MOVED)},
    "password_change_done": {"GET": _logged_in(200), "POST": _logged_in(405)},
    # One's own settings (e-mail address, review notices): each person's own.
    "account_settings": {"GET": _logged_in(200), "POST": _logged_in(MOVED)},
    "character_file_schema": {"GET": _all(200), "POST": _all(405)},
    # Catalog suggestions while typing: the same public catalog for anyone logged in.
    "ore_weapon_matches": {"GET": _logged_in(200), "POST": _all(405)},
    # My characters, a new one, an import: each person's own.
    "character_list": {"GET": _logged_in(200), "POST": _all(405)},
    "character_new": {"GET": _logged_in(200), "POST": _logged_in(MOVED)},
    "character_import": {"GET": _logged_in(200), "POST": _logged_in(MOVED)},
    # Another tool's file waiting for its preview (issue 29): only the person who uploaded
    # it sees or confirms it; anyone else finds nothing (404).
    "character_import_preview": {
        "GET": _row(LOGIN, 200, 404, 404, 404),
        "POST": _row(LOGIN, MOVED, 404, 404, 404),
    },
    # The owner's sheet at the table: its owner and the table's GM read it; the other
    # player and the other GM find nothing (404, so it is not even confirmed to exist).
    "character_sheet": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "character_pdf": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    # The sheet's rule readings panel, fetched when opened: whoever reads the sheet.
    "character_readings": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "character_export": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    # The file a character was imported from: whoever reads its history (the matrix's sheet
    # is given one, _imported_original); co-GM, share link and API token in
    # tests/transfer/test_import_original.py.
    "character_imported_file": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    # The Foundry VTT actor (issue 29): whoever may export the character downloads it, the
    # same people as the JSON export; the matrix's sheet is SWd10, so its format is WoD20.
    "character_export_foundry": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    # The page before that download, listing what the file cannot hold: the same people.
    "character_export_foundry_preview": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _all(405),
    },
    "character_history": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "character_history_diff": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    # Restore: the GM sees what it would change, but may not set the player's traits (400).
    "character_history_restore": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _row(LOGIN, MOVED, 404, 400, 404),
    },
    # A player's trait: the owner sets it; the GM is refused beside the field (400).
    "character_edit": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 400, 404)},
    # The compendium entries a sheet may pick (issue 26): who picks, the owner, lists them;
    # the GM sees the sheet but does not pick the player's choices (403).
    "character_pick": {"GET": _row(LOGIN, 200, 404, 403, 404), "POST": _all(405)},
    # The owner's own acts: the GM sees the sheet but may not do them (403).
    "character_copy": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 403, 404)},
    "character_remove": {
        "GET": _row(LOGIN, 200, 404, 403, 404),
        "POST": _row(LOGIN, MOVED, 404, 403, 404),
    },
    "character_submit": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 403, 404)},
    "character_leave_campaign": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 403, 404)},
    "character_share_create": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 403, 404)},
    "character_share_revoke": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 403, 404)},
    # The GM's acts: the owner sees the sheet but may not do them (403).
    "character_approve": {"GET": _all(405), "POST": _row(LOGIN, 403, 404, MOVED, 404)},
    "character_request_changes": {"GET": _all(405), "POST": _row(LOGIN, 403, 404, MOVED, 404)},
    "gm_note_save": {"GET": _all(405), "POST": _row(LOGIN, 403, 404, MOVED, 404)},
    # The advancement ledger: its owner and the table's GM read it. At a table only the GM
    # awards, corrects and ends an adventure (the owner is told so, 400); only the owner
    # buys (the GM is refused, 403; the owner's sheet is in creation, so 400); an unknown
    # entry cannot be undone (400).
    "character_ledger": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "ledger_award": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, MOVED, 404)},
    "ledger_correct": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, MOVED, 404)},
    "ledger_buy": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 403, 404)},
    "ledger_undo": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    "ledger_end_adventure": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, MOVED, 404)},
    # A merit asked for in play is the owner's (the GM: 403; Kira is in creation: 400); the
    # GM's consent to an unknown request and a correction in creation are refused (400).
    "ledger_ask": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 403, 404)},
    "ledger_consent": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    "ledger_correct_trait": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    # Points from elsewhere count at a table once a GM of that table accepts them: the
    # owner may not (403).
    "ledger_origin": {"GET": _all(405), "POST": _row(LOGIN, 403, 404, MOVED, 404)},
    # Training (WEG) goes on as the GM decides: the owner at a table is told so (400); the
    # GM's days pass on nothing, since Kira trains for nothing (400).
    "ledger_training": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    # WEG Dark Side decisions (issue 27 item 6) are the GM's: the owner at a table is told
    # so (400); Kira is an SWd10 sheet, which has none, so the GM is refused too (400).
    "ledger_dark_side": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    # Improving a weapon (WEG 1E) is the owner's: Kira's SWd10 sheet has none (400); the
    # GM may not buy for the player (400).
    "ledger_gear": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    "campaign_award": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    # A share link shows the sheet and its PDF, read-only, to anyone holding it.
    "shared_sheet": {"GET": _all(200), "POST": _all(405)},
    "shared_pdf": {"GET": _all(200), "POST": _all(405)},
    "shared_portrait": {"GET": _all(200), "POST": _all(405)},
    "shared_readings": {"GET": _all(200), "POST": _all(405)},
    # The portrait: whoever reads the sheet sees it; its owner puts one up (the GM may not,
    # 403) and takes it down, and so may the table's GM (sheets/permissions.py).
    "character_portrait": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "character_portrait_upload": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 403, 404)},
    "character_portrait_remove": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, MOVED, 404)},
    # Campaigns: my campaigns, a new one.
    "campaign_list": {"GET": _logged_in(200), "POST": _all(405)},
    "campaign_new": {"GET": _logged_in(200), "POST": _logged_in(MOVED)},
    # The invitation link: anyone logged in holding it may join; members already at the
    # table are told so (400) and nothing changes.
    "campaign_join": {
        "GET": _row(LOGIN, 400, 400, 400, 200),
        "POST": _row(LOGIN, 400, 400, 400, MOVED),
    },
    # The table's page: every member; the other GM finds nothing.
    "campaign_detail": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    # Running the table: its GM only; its players are refused (403).
    "campaign_edit": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "campaign_settings": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "campaign_invite": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "campaign_invite_revoke": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "campaign_member_remove": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "campaign_member_role": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    # Bringing the owner's spare character: only its owner may; for anyone else at the
    # table the character is not theirs to see (404).
    "campaign_bring": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 404, 404)},
    # Leaving: any member; the table's only GM may not (400, the table needs a GM).
    "campaign_leave": {
        "GET": _row(LOGIN, 200, 200, 200, 404),
        "POST": _row(LOGIN, MOVED, MOVED, 400, 404),
    },
    # The table's PDF: its GM only.
    "table_print_start": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "table_print_status": {"GET": _row(LOGIN, 403, 403, 200, 404), "POST": _all(405)},
    "table_print_pdf": {"GET": _row(LOGIN, 403, 403, 200, 404), "POST": _all(405)},
    # Rolling a sheet: its owner and the table's GM; nobody else finds it (404).
    "roll_menu": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "character_roll": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _row(LOGIN, MOVED, 404, MOVED, 404),
    },
    "roll_odds": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    # Spends between rolls (SWd10, issue 27): whoever may roll the sheet. The matrix's sheet
    # is still in creation, where a full rest's Willpower is refused (400, nothing stored).
    "character_spend": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _row(LOGIN, 400, 404, 400, 404),
    },
    # The rolls of a sheet at no table: whoever sees the sheet; the table's log: its members.
    "character_roll_log": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "campaign_roll_log": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    # Marking a hit: whoever may edit the target (its owner, the table's GM); Kira plays
    # SWd10, which has no hit-to-marks rule here, so the page says so and a POST is 400.
    "character_hit": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _row(LOGIN, 400, 404, 400, 404),
    },
    # The compendium (issue 26): the books one may open, and the rule of the file format for
    # all. A table's book and its visible entries are read by its members; its GMs (a co-GM
    # too, below) change them and its players are refused (403); another table's GM finds
    # nothing (404). Copying with no source named (a bare GET) is refused (400); an import's
    # POST is its preview, which writes nothing (200).
    "compendium_home": {"GET": _logged_in(200), "POST": _all(405)},
    "compendium_file_schema": {"GET": _all(200), "POST": _all(405)},
    "compendium_browse": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    "compendium_builtin": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    "compendium_export": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    "compendium_entry": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    "compendium_entry_new": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "compendium_copy": {
        "GET": _row(LOGIN, 403, 403, 400, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "compendium_import": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, 200, 404),
    },
    "compendium_entry_edit": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "compendium_entry_remove": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "compendium_entry_visibility": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    # Copying into the table's book what a brought sheet picked from its owner's own book:
    # the table's GM (Kira uses none: the page says so, a post is refused, 400); the owner
    # sees the sheet but may not write the table's book (403); others find no sheet (404).
    "compendium_adopt": {
        "GET": _row(LOGIN, 403, 404, 200, 404),
        "POST": _row(LOGIN, 403, 404, 400, 404),
    },
    # NPCs and minions (issue 28): the table's GMs make them (players refused, 403; another
    # GM finds no table, 404). A hidden NPC and a group of minions are found by nobody but
    # the table's GMs (404, posts included, as for any sheet one cannot see); the hidden
    # NPC has no portrait, so its picture is 404 for its GM too.
    "npc_new": {"GET": _row(LOGIN, 403, 403, 200, 404), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "npc_quick": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "minion_group_new": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "npc_settings": {
        "GET": _row(LOGIN, 403, 403, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "npc_detail": {"GET": _row(LOGIN, 404, 404, 200, 404), "POST": _all(405)},
    "npc_reveal": {"GET": _all(405), "POST": _row(LOGIN, 404, 404, MOVED, 404)},
    "npc_portrait": {"GET": _row(LOGIN, 404, 404, 404, 404), "POST": _all(405)},
    "minion_group": {"GET": _row(LOGIN, 404, 404, 200, 404), "POST": _all(405)},
    "minion_hit": {"GET": _all(405), "POST": _row(LOGIN, 404, 404, MOVED, 404)},
    "minion_heal": {"GET": _all(405), "POST": _row(LOGIN, 404, 404, MOVED, 404)},
    # Vehicles (issue 28 item 3): a character's vehicle (the owner's Kira Dane's) is seen and
    # changed by whoever sees and edits the character, so another player or GM finds none
    # (404). A table's vehicles are listed to its members; its GMs make one (players 403).
    # A hit and a pip bought are WEG d6's and the table plays SWd10: refused (400), unchanged.
    "vehicle_list": {
        "GET": _row(LOGIN, 200, 200, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "character_vehicles": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _row(LOGIN, MOVED, 404, MOVED, 404),
    },
    "vehicle_sheet": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "vehicle_edit": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, MOVED, 404)},
    "vehicle_hit": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    "vehicle_improve": {"GET": _all(405), "POST": _row(LOGIN, 400, 404, 400, 404)},
    "vehicle_roll": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _row(LOGIN, 200, 404, 200, 404),
    },
    "vehicle_print": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    # Deleting a vehicle (H18): asked first, then done by whoever may change it; another
    # player or GM finds none (404).
    "vehicle_delete": {
        "GET": _row(LOGIN, 200, 404, 200, 404),
        "POST": _row(LOGIN, MOVED, 404, MOVED, 404),
    },
    # The GM's PDF of a scene's NPCs and vehicles (H18): its GMs only, a player 403 as for
    # any change to a scene, anybody else 404.
    "scene_print": {"GET": _row(LOGIN, 403, 403, 200, 404), "POST": _all(405)},
    # Personal access tokens for the HTTP API (issue 29), on one's own settings page: each
    # person makes their own (the page shows the new secret once, 200); only its owner
    # revokes one, anyone else finds no such token (404).
    "access_token_create": {"GET": _all(405), "POST": _logged_in(200)},
    "access_token_revoke": {"GET": _all(405), "POST": _row(LOGIN, MOVED, 404, 404, 404)},
    # Live pages (issue 30, sheets/live): a sheet's stream and what changed on it are
    # answered as the sheet page is; the table's stream as its roll log. Asked here through
    # WSGI, a stream answers what is new and ends (only an ASGI server holds it open).
    "live_sheet_stream": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "live_sheet_changes": {"GET": _row(LOGIN, 200, 404, 200, 404), "POST": _all(405)},
    "live_campaign_stream": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    # Scenes (issue 28 item 4, sheets/scenes): the table's members read a scene (a player
    # its filtered view: the hidden NPC in it is left out); its GMs change it; a player's
    # post is 403 (they may see it), a stranger's 404. A refused hit (no fields) is 400.
    "scene_list": {
        "GET": _row(LOGIN, 200, 200, 200, 404),
        "POST": _row(LOGIN, 403, 403, MOVED, 404),
    },
    "scene_detail": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    "scene_tracker": {"GET": _row(LOGIN, 200, 200, 200, 404), "POST": _all(405)},
    "scene_join": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "scene_leave": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "scene_initiative": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "scene_step": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    "scene_hit": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
    # Showing a vehicle's damage to the players: GMs only. The matrix's scene holds no
    # vehicle, so the GM's post (a minion's row) is refused beside the row, nothing stored.
    "scene_show": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, 400, 404)},
    # Ending a scene (or reopening it): its GMs only, a player 403, another table's GM 404.
    "scene_end": {"GET": _all(405), "POST": _row(LOGIN, 403, 403, MOVED, 404)},
}

# (url name, method, person) -> why the app answers wrongly today. Each is a real bug with
# the CORRECT answer in the matrix above; strict, so a fix makes it fail until removed.
# (Empty: the one found, the share page naming the table, is fixed.)
KNOWN_BUGS: dict[tuple[str, str, str], str] = {}


# The world ---------------------------------------------------------------------------------


@dataclass
class World:
    users: dict[str, Any]  # person -> user (None for anonymous)
    table: Campaign
    other_table: Campaign
    kira: Character
    orrin: Character
    spare: Character
    invitation: Invitation
    share: ShareLink
    other_membership: Membership
    table_print: TablePrint
    import_file: bytes
    portrait: Portrait
    entry: CompendiumEntry | None = None  # a visible entry of the table's compendium
    hidden_entry: CompendiumEntry | None = None  # one its GM hid from the players
    npc: Character | None = None  # the GM's hidden NPC at the table
    group: MinionGroup | None = None  # a group of minions with the NPC as its stat block


_TABLE_PDF: dict[str, bytes] = {}


def _table_pdf(character: Character) -> bytes:
    """A real PDF of the approved sheet for the finished build; rendered once per run."""
    if "pdf" not in _TABLE_PDF:
        _TABLE_PDF["pdf"] = render_character_pdf(character)
    return _TABLE_PDF["pdf"]


@pytest.fixture
def world(player, other_player, gm, other_gm, table, other_table, swd10_character) -> World:
    kira = swd10_character
    # Kira was given 5 XP off-table and brought back: they wait for the GM's acceptance.
    character_take_out(user=player, character_id=kira.pk)
    ledger.award(user=player, character_id=kira.pk, amount="5", reason="Off-table session")
    character_bring(user=player, campaign_id=table.pk, character_id=kira.pk)
    kira.refresh_from_db()
    # Kira was submitted at version 1, then edited: the owner may submit again and the GM
    # may approve or ask for changes at the current version.
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    kira = character_apply_edits(
        user=player,
        character_id=kira.pk,
        edits={"attr.strength": "2"},
        expected_version=kira.version,
    )
    gm_note_save(user=gm, character_id=kira.pk, text=f"Owes Jabba. {GM_NOTE_MARKER}")
    share = share_link_create(user=player, character_id=kira.pk)
    portrait, _ = portrait_set(
        user=player, character_id=kira.pk, data=_picture("navy"), replaces=""
    )

    orrin = character_create(owner=other_player, name=OTHER_SHEET, system="swd10")
    character_bring(user=other_player, campaign_id=table.pk, character_id=orrin.pk)
    character_submit(user=other_player, character_id=orrin.pk, version=orrin.version)
    orrin = character_approve(user=gm, character_id=orrin.pk, version=orrin.version)
    gm_note_save(user=gm, character_id=orrin.pk, text=f"Secret twin. {GM_NOTE_MARKER}")

    spare = character_create(owner=player, name=SPARE_SHEET, system="swd10")
    exported = export_character(spare) | {"name": "Imported Ione"}

    table_print = TablePrint.objects.create(
        campaign=table,
        requested_by=gm,
        state=TablePrint.State.DONE,
        done=1,
        total=1,
        pdf=_table_pdf(orrin),
        finished_at=timezone.now(),
    )
    book = Book(system=table.system, campaign=table)
    entry = entry_create(user=gm, book=book, kind="weapon", data=_compendium_weapon())
    hidden_entry = entry_create(
        user=gm,
        book=book,
        kind="weapon",
        data=_compendium_weapon(HIDDEN_ENTRY_MARKER),
        hidden=True,
    )
    npc = npc_create(user=gm, campaign_id=table.pk, name=HIDDEN_NPC_MARKER)
    group = group_create(
        user=gm, campaign_id=table.pk, block_id=str(npc.pk), name="Squad", count="2"
    )
    kira.refresh_from_db()
    table.refresh_from_db()
    return World(
        users={
            "anonymous": None,
            "owner": player,
            "other_player": other_player,
            "gm": gm,
            "other_gm": other_gm,
        },
        table=table,
        other_table=other_table,
        kira=kira,
        orrin=orrin,
        spare=spare,
        invitation=table.invitations.get(),
        share=share,
        other_membership=table.memberships.get(user=other_player),
        table_print=table_print,
        import_file=json.dumps(exported).encode(),
        portrait=portrait,
        entry=entry,
        hidden_entry=hidden_entry,
        npc=npc,
        group=group,
    )


def _picture(color: str) -> bytes:
    """A small PNG, as a browser would upload it."""
    out = io.BytesIO()
    Image.new("RGB", (60, 80), color).save(out, format="PNG")
    return out.getvalue()


# What each URL is asked with ---------------------------------------------------------------


def _pending_import_token(w: World) -> str:
    """The owner's upload of another tool's file, waiting for its preview (issue 29)."""
    pending, _ = PendingImport.objects.get_or_create(
        token="matrix-pending-import",
        defaults={
            "owner": w.users["owner"],
            "format": "swd6_sheet",
            "raw": json.dumps({"Name": "Keth Orlan", "Stats": _VALTHORON_ATTRIBUTES}).encode(),
        },
    )
    return pending.token


def _imported_original(w: World) -> int:
    """Kira Dane as if imported from another tool's file, kept beside her; made once."""
    from sheets.transfer.models import ImportedFile

    raw = json.dumps({"Name": OWNER_SHEET, "Stats": _VALTHORON_ATTRIBUTES}).encode()
    ImportedFile.objects.get_or_create(
        character=w.kira,
        defaults={"format": "swd6_sheet", "filename": "kira.json", "raw": raw, "size": len(raw)},
    )
    return w.kira.pk


_VALTHORON_ATTRIBUTES = [
    {"Type": "Attribute", "Name": label, "Species": 6}
    for label in ("Dexterity", "Knowledge", "Mechanical", "Perception", "Strength", "Technical")
]


def _matrix_vehicle(w: World) -> Vehicle:
    """Kira Dane's speeder, and beside it one of the table's and one of the hidden NPC's
    (whose name no player may read in the table's list); made once per world."""
    from sheets.vehicles.services import vehicle_create

    gm = w.users["gm"]
    found = Vehicle.objects.filter(character=w.kira).first()
    if found is None:
        vehicle_create(user=gm, name="Tantive", owner=OwnerKind.CAMPAIGN, campaign_id=w.table.pk)
        vehicle_create(
            user=gm, name=f"Shuttle of {HIDDEN_NPC_MARKER}", owner="npc", character_id=w.npc.pk
        )
        found = vehicle_create(
            user=w.users["owner"], name="Kira's speeder", owner="character", character_id=w.kira.pk
        )
    return found


def _scene_rows() -> list[tuple]:
    from sheets.scenes.models import Participant, Scene

    scenes = Scene.objects.order_by("pk").values_list("pk", "round", "turn", "version")
    rows = Participant.objects.order_by("pk").values_list("pk", "scene", "initiative")
    return [*scenes, *rows]


def _matrix_scene(w: World):
    """The table's scene with Kira Dane, the hidden NPC and one minion of the group in it
    (a player's view must never name the NPC); made once per world."""
    from sheets.scenes.models import Scene
    from sheets.scenes.services import participants_add, scene_create

    found = Scene.objects.filter(campaign=w.table).first()
    if found is None:
        gm = w.users["gm"]
        found = scene_create(user=gm, campaign_id=w.table.pk, name="Ambush")
        picks = [f"character:{w.kira.pk}", f"character:{w.npc.pk}"]
        picks.append(f"member:{w.group.members.first().pk}")
        participants_add(user=gm, scene_id=found.pk, picks=picks, expected_version=1)
        found.refresh_from_db()
    return found


def _scene_kwargs(name: str, w: World) -> dict[str, Any]:
    scene = _matrix_scene(w)  # made before the stored state is read
    return {"pk": w.table.pk} if name == "scene_list" else {"pk": scene.pk}


def _scene_post(name: str, w: World) -> dict[str, Any]:
    scene = _matrix_scene(w)
    version = {"version": str(scene.version)}
    kira = str(scene.participants.get(character=w.kira).pk)
    minion = str(scene.participants.get(kind="member").pk)
    return {
        "scene_list": {"name": "Cantina"},
        "scene_join": version | {"pick": f"character:{w.orrin.pk}"},
        "scene_leave": version | {"participant": kira},
        "scene_initiative": version | {"participant": kira, "action": "type", "value": "3"},
        "scene_step": version | {"direction": "next"},
        "scene_hit": version | {"participant": minion, "levels": "1"},
        "scene_show": version | {"participant": minion, "shown": "1"},
        "scene_end": version | {"ended": "1"},
    }.get(name, {})


def _vehicle_kwargs(name: str, w: World) -> dict[str, Any]:
    vehicle = _matrix_vehicle(w)  # made before the stored state is read
    if name == "vehicle_list":
        return {"pk": w.table.pk}
    if name == "character_vehicles":
        return {"pk": w.kira.pk}
    return {"pk": vehicle.pk}


def _vehicle_post(name: str, w: World) -> dict[str, Any]:
    version = {"version": str(_matrix_vehicle(w).version)}
    return {
        "vehicle_list": {"name": "Escort"},
        "character_vehicles": {"name": "Kira's bike"},
        "vehicle_edit": version | {"crew": "2"},
        "vehicle_hit": version | {"damage_roll": "12", "hull_roll": "10"},
        "vehicle_improve": version | {"code": "maneuverability"},
        "vehicle_roll": {"code": "pilot", "crew": str(w.kira.pk), "trait": "abil.pilot"},
        "vehicle_delete": version,
    }.get(name, {})


def _url_kwargs(name: str, w: World) -> dict[str, Any]:
    if name.startswith("vehicle_") or name == "character_vehicles":
        return _vehicle_kwargs(name, w)
    if name.startswith("scene_"):
        return _scene_kwargs(name, w)
    if name == "character_import_preview":
        return {"token": _pending_import_token(w)}
    if name == "character_imported_file":
        return {"pk": _imported_original(w)}
    kira, table = w.kira.pk, w.table.pk
    return {
        "character_sheet": {"pk": kira},
        "character_edit": {"pk": kira},
        "character_pick": {"pk": kira, "kind": "weapon"},
        "character_copy": {"pk": kira},
        "character_remove": {"pk": kira},
        "character_pdf": {"pk": kira},
        "character_export": {"pk": kira},
        "character_export_foundry": {"pk": kira, "format_key": "foundry_wod20"},
        "character_export_foundry_preview": {"pk": kira, "format_key": "foundry_wod20"},
        "character_history": {"pk": kira},
        "character_history_diff": {"pk": kira},
        "character_history_restore": {"pk": kira, "version": 1},
        "character_ledger": {"pk": kira},
        "ledger_award": {"pk": kira},
        "ledger_correct": {"pk": kira},
        "ledger_buy": {"pk": kira},
        "ledger_undo": {"pk": kira},
        "ledger_end_adventure": {"pk": kira},
        "ledger_ask": {"pk": kira},
        "ledger_consent": {"pk": kira},
        "ledger_correct_trait": {"pk": kira},
        "ledger_origin": {"pk": kira},
        "ledger_training": {"pk": kira},
        "ledger_dark_side": {"pk": kira},
        "ledger_gear": {"pk": kira},
        "campaign_award": {"campaign_id": table},
        "character_submit": {"pk": kira},
        "character_approve": {"pk": kira},
        "character_request_changes": {"pk": kira},
        "gm_note_save": {"pk": kira},
        "character_leave_campaign": {"pk": kira},
        "character_share_create": {"pk": kira},
        "character_share_revoke": {"pk": kira, "link_id": w.share.pk},
        "shared_sheet": {"token": w.share.token},
        "shared_pdf": {"token": w.share.token},
        "shared_portrait": {"token": w.share.token, "digest": w.portrait.digest},
        "character_readings": {"pk": kira},
        "shared_readings": {"token": w.share.token},
        "character_portrait": {"pk": kira, "digest": w.portrait.digest},
        "character_portrait_upload": {"pk": kira},
        "character_portrait_remove": {"pk": kira},
        "campaign_join": {"token": w.invitation.token},
        "campaign_detail": {"pk": table},
        "campaign_edit": {"pk": table},
        "campaign_settings": {"pk": table},
        "campaign_invite": {"pk": table},
        "campaign_invite_revoke": {"pk": table, "invitation_pk": w.invitation.pk},
        "campaign_member_remove": {"pk": table, "membership_pk": w.other_membership.pk},
        "campaign_member_role": {"pk": table, "membership_pk": w.other_membership.pk},
        "campaign_bring": {"pk": table},
        "campaign_leave": {"pk": table},
        "table_print_start": {"pk": table},
        "table_print_status": {"pk": table, "print_pk": w.table_print.pk},
        "table_print_pdf": {"pk": table, "print_pk": w.table_print.pk},
        "roll_menu": {"pk": kira},
        "character_roll": {"pk": kira, "key": "attr.strength"},
        "roll_odds": {"pk": kira, "key": "attr.strength"},
        "character_spend": {"pk": kira},
        "character_roll_log": {"pk": kira},
        "campaign_roll_log": {"pk": table},
        "character_hit": {"pk": kira},
        "compendium_browse": {"book": f"table-{table}"},
        "compendium_builtin": {"book": f"table-{table}", "kind": "merit", "slug": "acute_senses"},
        "compendium_entry_new": {"book": f"table-{table}"},
        "compendium_copy": {"book": f"table-{table}"},
        "compendium_export": {"book": f"table-{table}"},
        "compendium_import": {"book": f"table-{table}"},
        "compendium_entry": {"pk": w.entry.pk},
        "compendium_entry_edit": {"pk": w.entry.pk},
        "compendium_entry_remove": {"pk": w.entry.pk},
        "compendium_entry_visibility": {"pk": w.entry.pk},
        "compendium_adopt": {"pk": kira},
        "npc_new": {"pk": table},
        "npc_quick": {"pk": table},
        "minion_group_new": {"pk": table},
        "npc_settings": {"pk": table},
        "npc_detail": {"pk": w.npc.pk},
        "npc_reveal": {"pk": w.npc.pk},
        "npc_portrait": {"pk": w.npc.pk, "digest": "0" * 64},
        "minion_group": {"pk": w.group.pk},
        "minion_hit": {"pk": w.group.pk},
        "minion_heal": {"pk": w.group.pk},
        "access_token_revoke": {"pk": _owners_token(w)},
        "live_sheet_stream": {"pk": kira},
        "live_sheet_changes": {"pk": kira},
        "live_campaign_stream": {"pk": table},
    }.get(name, {})


def _owners_token(w: World) -> int:
    """The owner's personal access token for the API (made once per world)."""
    token = AccessToken.objects.filter(user=w.users["owner"], name="Matrix bot").first()
    if token is None:
        token, _ = token_create(
            user=w.users["owner"], name="Matrix bot", scopes=["table:read"], expiry="30"
        )
    return token.pk


def _post_data(name: str, w: World, password: str) -> dict[str, Any]:
    """Plausible data for each form: what its own page would post."""
    if name.startswith("vehicle_") or name == "character_vehicles":
        return _vehicle_post(name, w)
    if name.startswith("scene_"):
        return _scene_post(name, w)
    version = {"version": str(w.kira.version)}
    return {
        "password_change": {
            "old_password": password,
            "new_password1": "another-long-password-77",
            "new_password2": "another-long-password-77",
        },
        "account_settings": {"email": "someone@example.org", "mail_on_decision": "on"},
        "character_new": {"name": "Fresh Face", "system": "swd10"},
        "character_import": {
            "file": SimpleUploadedFile("ione.datapad.json", w.import_file, "application/json")
        },
        "character_import_preview": {"action": "confirm"},
        "character_edit": {"edit": "attr.strength=3"} | version,
        "character_remove": version,
        "character_history_restore": version,
        "ledger_award": version | {"amount": "5", "reason": "Session 3"},
        "ledger_correct": version | {"amount": "5", "reason": "Forgot the bonus"},
        "ledger_buy": version | {"trait": "attr.strength"},
        "ledger_undo": version | {"entry": "999999", "reason": "Wrong"},
        "ledger_end_adventure": version,
        "ledger_ask": version | {"merit": "ambidextrous", "value": "1"},
        "ledger_consent": version | {"entry": "999999", "decision": "approve"},
        "ledger_correct_trait": version
        | {"trait": "attr.strength", "value": "3", "reason": "Noted wrong"},
        "ledger_origin": version | {"entry": "all", "decision": "accept"},
        "ledger_training": version | {"action": "pass", "days": "3"},
        "ledger_dark_side": version | {"action": "gain", "reason": "Struck in anger"},
        "ledger_gear": version | {"weapon": "0"},
        "campaign_award": {"amount": "5", "reason": "Session 3"},
        "character_submit": version,
        "character_approve": version | {"comment": "Looks right."},
        "character_request_changes": version | {"comment": "Lower Strength, please."},
        "gm_note_save": {"text": "Rewritten note."},
        "campaign_new": {"name": "Hutt Space", "system": "swd10", "description": "Smugglers."},
        "campaign_edit": {"name": "Outer Rim Run", "description": "Renamed."},
        "campaign_settings": {
            "version": str(w.table.version),
            "commoner_health_levels": "3",
            "confirmed": "1",
        },
        "campaign_invite": {"expires_at": "", "max_uses": "3"},
        "campaign_member_role": {"role": "gm"},
        "campaign_bring": {"character": str(w.spare.pk)},
        "character_roll": {"campaign": str(w.table.pk), "difficulty": "7"},
        "character_spend": {"campaign": str(w.table.pk), "spend": "full_rest"},
        "character_hit": version | {"width": "2", "height": "7"},
        "character_portrait_upload": {
            "portrait": SimpleUploadedFile("me.png", _picture("teal"), "image/png"),
            "replaces": w.portrait.digest,
        },
        "character_portrait_remove": {"replaces": w.portrait.digest},
        "compendium_entry_new": {"_kind": "weapon"} | _compendium_form("Hold-out blaster"),
        "compendium_copy": {"source": "seed:merit:acute_senses"},
        "compendium_import": {
            "file": SimpleUploadedFile("book.json", _compendium_file(), "application/json")
        },
        "compendium_entry_edit": {"_version": "1"} | _compendium_form("Heavy repeater", damage="5"),
        "compendium_entry_remove": {"version": "1"},
        "compendium_entry_visibility": {"version": "1", "hidden": "1"},
        "compendium_adopt": version,
        "npc_new": {"name": "Grand Moff Two"},
        "npc_quick": {"name": "Thug", "attr.strength": "2"},
        "minion_group_new": {"name": "Patrol", "block": str(w.npc.pk), "count": "3"},
        "npc_reveal": {"visibility": "name", "version": "1"},
        "npc_settings": {"npc_dot_budget": "none", "version": str(w.table.version)},
        "minion_hit": {"member": str(w.group.members.first().pk), "levels": "1", "version": "1"},
        "minion_heal": {"member": str(w.group.members.first().pk), "version": "1"},
        "access_token_create": {"name": "Dice bot", "scopes": ["rolls:write"], "expiry": "30"},
    }.get(name, {})


def _compendium_weapon(name: str = "Heavy repeater") -> dict:
    return {"name": name, "difficulty": 6, "damage": 4, "rate": "2", "clip": 30}


def _compendium_form(name: str, **fields: str) -> dict[str, str]:
    weapon = _compendium_weapon(name) | fields
    return {key: str(value) for key, value in weapon.items()}


def _compendium_file() -> bytes:
    entries = [{"kind": "weapon", "hidden": False, "data": _compendium_weapon("Bowcaster")}]
    book = {"format": "datapad-compendium", "version": 1, "system": "swd10", "entries": entries}
    return json.dumps(book).encode()


# What each person may read -----------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    label: str
    value: Callable[[World], str]
    readers: frozenset[str]
    # URLs that show it to anyone asking them, by design (their token is the key).
    open_at: frozenset[str] = frozenset()


SECRETS = (
    Secret(
        "the owner's character's name",
        lambda w: OWNER_SHEET,
        frozenset({"owner", "gm"}),
        frozenset({"shared_sheet", "shared_pdf", "shared_readings"}),
    ),
    Secret(
        "the other player's character's name",
        lambda w: OTHER_SHEET,
        frozenset({"other_player", "gm"}),
    ),
    Secret("the owner's character at no table", lambda w: SPARE_SHEET, frozenset({"owner"})),
    Secret("a GM note", lambda w: GM_NOTE_MARKER, frozenset({"gm"})),
    Secret(
        "the share link's token",
        lambda w: w.share.token,
        frozenset({"owner"}),
        frozenset({"shared_sheet", "shared_pdf", "shared_readings"}),
    ),
    Secret(
        "the invitation's token",
        lambda w: w.invitation.token,
        frozenset({"gm"}),
        frozenset({"campaign_join"}),
    ),
    Secret(
        "the table's name",
        lambda w: TABLE_NAME,
        frozenset({"owner", "other_player", "gm"}),
        # Whoever holds the invitation sees which table it opens.
        frozenset({"campaign_join"}),
    ),
    Secret("the other table's name", lambda w: OTHER_TABLE_NAME, frozenset({"other_gm"})),
    Secret("a hidden compendium entry", lambda w: HIDDEN_ENTRY_MARKER, frozenset({"gm"})),
    Secret("a hidden NPC's name", lambda w: HIDDEN_NPC_MARKER, frozenset({"gm"})),
)


def _readable_text(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if response.get("Content-Type", "").startswith("application/pdf"):
        reader = PdfReader(io.BytesIO(content))
        return "\n".join(page.extract_text() for page in reader.pages)
    return content.decode("utf-8", errors="replace")


def stored_state() -> dict[str, list]:
    """Everything a refused request must leave as it was."""
    return {
        "users": list(
            get_user_model().objects.order_by("pk").values_list("pk", "password", "email")
        ),
        "profiles": list(
            Profile.objects.order_by("pk").values_list("pk", "mail_on_submit", "mail_on_decision")
        ),
        "characters": list(
            Character.objects.order_by("pk").values_list(
                "pk",
                "owner",
                "name",
                "sheet",
                "rule_settings",
                "campaign",
                "review_state",
                "review_version",
                "version",
            )
        ),
        "revisions": list(Revision.objects.order_by("pk").values_list("pk", "version")),
        "campaigns": list(
            Campaign.objects.order_by("pk").values_list(
                "pk", "name", "description", "rule_settings", "version"
            )
        ),
        "memberships": list(
            Membership.objects.order_by("pk").values_list("pk", "campaign", "user", "role")
        ),
        "invitations": list(
            Invitation.objects.order_by("pk").values_list(
                "pk", "token", "expires_at", "max_uses", "uses", "revoked_at"
            )
        ),
        "share_links": list(
            ShareLink.objects.order_by("pk").values_list("pk", "character", "token", "revoked_at")
        ),
        "reviews": list(
            Review.objects.order_by("pk").values_list("pk", "character", "kind", "version")
        ),
        "gm_notes": list(GMNote.objects.order_by("pk").values_list("pk", "character", "text")),
        "table_prints": list(TablePrint.objects.order_by("pk").values_list("pk", "state")),
        "queued_tasks": list(DBTaskResult.objects.order_by("pk").values_list("pk")),
        "rolls": list(RollEntry.objects.order_by("pk").values_list("pk", "secret")),
        "portraits": list(Portrait.objects.order_by("pk").values_list("pk", "digest")),
        "compendium_entries": list(
            CompendiumEntry.objects.order_by("pk").values_list(
                "pk", "name", "data", "version", "hidden"
            )
        ),
        "entry_versions": list(EntryVersion.objects.order_by("pk").values_list("pk")),
        "npcs": list(Npc.objects.order_by("pk").values_list("pk", "visibility", "version")),
        "minion_groups": list(MinionGroup.objects.order_by("pk").values_list("pk", "version")),
        "vehicles": list(Vehicle.objects.order_by("pk").values_list("pk", "data", "version")),
        "scenes": list(_scene_rows()),
        "access_tokens": list(
            AccessToken.objects.order_by("pk").values_list("pk", "user", "revoked_at")
        ),
        "minion_members": list(
            MinionMember.objects.order_by("pk").values_list("pk", "group", "wounds")
        ),
    }


# The tests ---------------------------------------------------------------------------------


def _walk(patterns, prefix: str = "") -> Iterator[tuple[str, str | None]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern.name


def project_urls() -> list[tuple[str, str | None]]:
    """Every (route, name) of the project but the exclusions above."""
    return [
        (route, name)
        for route, name in _walk(get_resolver().url_patterns)
        if not route.startswith(tuple(EXCLUDED_PREFIXES)) and name not in EXCLUDED_NAMES
    ]


def test_every_url_is_in_the_matrix():
    urls = project_urls()
    unnamed = [route for route, name in urls if name is None]
    assert not unnamed, f"Name these URLs so the matrix can list them: {unnamed}"
    names = {name for _, name in urls}
    # reverse() reaches one route per name: a second route under a name would go untested.
    assert len(names) == len(urls), f"Give each route its own name: {sorted(urls)}"
    assert names - MATRIX.keys() == set(), "URLs with no rows in MATRIX: add them"
    assert MATRIX.keys() - names == set(), "MATRIX rows for URLs that no longer exist"
    assert EXCLUDED_NAMES.keys() <= {name for _, name in _walk(get_resolver().url_patterns)}


def test_every_row_answers_every_method_for_every_person():
    for name, methods in MATRIX.items():
        assert methods.keys() == {"GET", "POST"}, name
        for answers in methods.values():
            assert answers.keys() == set(PEOPLE), name


def _cases() -> Iterator[Any]:
    for name, methods in MATRIX.items():
        for method, answers in methods.items():
            for person in PEOPLE:
                bug = KNOWN_BUGS.get((name, method, person))
                marks = [pytest.mark.xfail(strict=True, reason=bug)] if bug else []
                yield pytest.param(
                    name,
                    method,
                    person,
                    answers[person],
                    id=f"{name}-{method}-{person}",
                    marks=marks,
                )


@pytest.mark.parametrize(("name", "method", "person", "expected"), list(_cases()))
def test_answer(client, world, password, name, method, person, expected):
    user = world.users[person]
    if user is not None:
        client.force_login(user)
    url = reverse(name, kwargs=_url_kwargs(name, world))
    before = stored_state()

    if method == "GET":
        response = client.get(url)
    else:
        response = client.post(url, _post_data(name, world, password))

    if expected == LOGIN:
        assert response.status_code == 302, f"{method} {url}: {response.status_code}"
        assert response["Location"].startswith(reverse("login")), response["Location"]
    elif expected == MOVED:
        assert response.status_code == 302, f"{method} {url}: {response.status_code}"
        assert not response["Location"].startswith(reverse("login")), response["Location"]
    else:
        assert response.status_code == expected, f"{method} {url}: {response.status_code}"

    if method == "GET" or expected not in (200, MOVED):
        # A GET never writes; a refused POST changes nothing at all.
        assert stored_state() == before
    elif expected == MOVED:
        # A refusal can redirect too (with a message): this one must really have acted.
        assert stored_state() != before, f"{method} {url} redirected but stored nothing"

    text = _readable_text(response)
    for secret in SECRETS:
        if person in secret.readers or name in secret.open_at:
            continue
        assert secret.value(world) not in text, f"{person} was shown {secret.label} by {name}"


# The portrait's URLs asked by two more people: a co-GM (a second GM of the table) is
# answered exactly as the table's GM; a share link's holder is anyone asking the
# "shared_portrait" row above, which is 200 for all five, logged in or not.
PORTRAIT_NAMES = (
    "character_portrait",
    "character_portrait_upload",
    "character_portrait_remove",
    "shared_portrait",
)


# The readings panel and the spends between rolls asked by three more people: a co-GM is
# answered as the table's GM; a share link's holder, after opening the shared sheet, as
# anyone logged out (their link opens "shared_readings", 200 for all above); so is a tool
# sending an API token, which is no credential for the site's pages
# (tests/web/test_readings_panel.py has the same).
READINGS_NAMES = ("character_readings", "shared_readings", "character_spend")


# The search above can only prove a leak if the words are really on the pages that may show
# them: these are the same words, found where they belong.
SHOWN = [
    ("gm", "character_sheet", (OWNER_SHEET, GM_NOTE_MARKER)),
    ("owner", "character_sheet", (OWNER_SHEET, "share.token")),
    ("owner", "character_pdf", (OWNER_SHEET,)),
    ("owner", "character_list", (OWNER_SHEET, SPARE_SHEET, TABLE_NAME)),
    ("other_player", "character_list", (OTHER_SHEET,)),
    ("gm", "campaign_detail", (OWNER_SHEET, OTHER_SHEET, TABLE_NAME, "invitation.token")),
    ("gm", "table_print_pdf", (OTHER_SHEET,)),
    ("other_gm", "campaign_list", (OTHER_TABLE_NAME,)),
    ("gm", "compendium_browse", (HIDDEN_ENTRY_MARKER, "Heavy repeater")),
    ("owner", "compendium_browse", ("Heavy repeater",)),
]


@pytest.mark.parametrize(
    ("person", "name", "words"), SHOWN, ids=[f"{name}-{person}" for person, name, _ in SHOWN]
)
def test_the_secrets_are_found_where_they_belong(client, world, person, name, words):
    client.force_login(world.users[person])
    response = client.get(reverse(name, kwargs=_url_kwargs(name, world)))
    assert response.status_code == 200
    text = _readable_text(response)
    tokens = {"share.token": world.share.token, "invitation.token": world.invitation.token}
    for word in words:
        assert tokens.get(word, word) in text, f"{word} missing from {name} for {person}"


# The compendium asked by two more people (issue 26). A co-GM (a second GM of the table) is
# answered exactly as the table's GM. A share link's holder holds one sheet, not its
# table's book: after opening the shared sheet, they are answered as anyone logged out.
COMPENDIUM_NAMES = sorted(name for name in MATRIX if name.startswith("compendium_"))


# The hidden entry's own pages: the table's players find nothing there (404), as if it did
# not exist; its GM reads and changes it.
HIDDEN_ENTRY_NAMES = (
    "compendium_entry",
    "compendium_entry_edit",
    "compendium_entry_remove",
    "compendium_entry_visibility",
)


@pytest.mark.parametrize("name", HIDDEN_ENTRY_NAMES)
@pytest.mark.parametrize("person", ["owner", "other_player"])
def test_a_hidden_entry_is_not_found_by_the_tables_players(client, world, person, name):
    client.force_login(world.users[person])
    url = reverse(name, kwargs={"pk": world.hidden_entry.pk})
    before = stored_state()
    response = (
        client.post(url, {"version": "1"}) if name.endswith("visibility") else client.get(url)
    )
    assert response.status_code == 404
    assert HIDDEN_ENTRY_MARKER not in response.content.decode()
    assert stored_state() == before


def test_the_hidden_entry_is_the_gms_to_read(client, world):
    client.force_login(world.users["gm"])
    response = client.get(reverse("compendium_entry", kwargs={"pk": world.hidden_entry.pk}))
    assert HIDDEN_ENTRY_MARKER in response.content.decode()


# NPCs and minions asked by two more people (issue 28): a co-GM is answered as the table's
# GM; a share link's holder, after opening the shared sheet, as anyone logged out.
NPC_NAMES = sorted(name for name in MATRIX if name.startswith(("npc_", "minion_")))


# Three more people asked about the URL groups above (portraits, the readings panel and the
# spends, the compendium, NPCs and minions): a co-GM is answered exactly as the table's GM;
# a share link's holder, after opening the shared sheet, as anyone logged out; so is a tool
# sending an API token, which is no credential for the site's pages.
CO_GM_NAMES = (*PORTRAIT_NAMES, *READINGS_NAMES, *COMPENDIUM_NAMES, *NPC_NAMES)
SHARE_HOLDER_NAMES = (*READINGS_NAMES, *COMPENDIUM_NAMES, *NPC_NAMES)
TOKEN_NAMES = READINGS_NAMES


def _asked(names) -> list[tuple[str, str]]:
    return [(name, method) for name in names for method in ("GET", "POST")]


@pytest.mark.parametrize(("name", "method"), _asked(CO_GM_NAMES))
def test_a_co_gm_is_answered_as_the_tables_gm(client, world, password, make_user, name, method):
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=world.table, user=co_gm, role=Role.GM)
    world.users["gm"] = co_gm
    test_answer(client, world, password, name, method, "gm", MATRIX[name][method]["gm"])


@pytest.mark.parametrize(("name", "method"), _asked(SHARE_HOLDER_NAMES))
def test_a_share_links_holder_is_answered_as_anyone_logged_out(
    client, world, password, name, method
):
    assert (
        client.get(reverse("shared_sheet", kwargs={"token": world.share.token})).status_code == 200
    )
    expected = MATRIX[name][method]["anonymous"]
    test_answer(client, world, password, name, method, "anonymous", expected)


@pytest.mark.parametrize(("name", "method"), _asked(TOKEN_NAMES))
def test_an_api_token_is_answered_as_anyone_logged_out(client, world, password, name, method):
    _token, secret = token_create(
        user=world.users["owner"], name="Readings bot", scopes=["table:read"], expiry="30"
    )
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {secret}"
    expected = MATRIX[name][method]["anonymous"]
    test_answer(client, world, password, name, method, "anonymous", expected)


# The HTTP API (issue 29) ------------------------------------------------------------------
# Its routes sit under /api/ with namespaced names, which the walk above reverses without:
# they are left out here (EXCLUDED_PREFIXES) and asked in tests/api/test_api_matrix.py,
# every person with a token and without, a co-GM and a share link's holder too. This list
# says which, so a route added there and not here (or gone) fails.
API_DELEGATED = frozenset(
    {
        "openapi-json",
        "openapi-view",
        "api-root",
        "api-not-found",
        "api_characters",
        "api_character",
        "api_character_rollables",
        "api_character_odds",
        "api_character_roll",
        "api_campaign_rolls",
    }
)


def test_the_api_routes_are_asked_by_the_api_matrix():
    from tests.api.test_api_matrix import API_MATRIX, api_route_names

    assert api_route_names() == API_DELEGATED
    assert API_MATRIX.keys() == API_DELEGATED
