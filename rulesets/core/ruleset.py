"""The contract: the questions every system's package answers, with the same names.

The web layer talks to a system only through these. A package (rulesets/<key>/) holds
`data.py` (catalogs with source lines), `sheet.py` (the declared schema), `rules.py`
(checks, costs, derived values), `edits.py` (`apply_edit`) and `dice.py` (rolls and
odds), and its `__init__` exposes exactly the names below. Its display name and summary
live in the registry, not here. tests/rulesets/test_contract.py checks every system.

All functions are pure and deterministic and never mutate what they are given; dice take
an injected random.Random. `settings` is always the resolved mapping
(`resolve_settings(SETTINGS, chosen)`), never raw form values.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from pydantic import BaseModel

from rulesets.core.compendium import BuiltinEntry, EntryKind
from rulesets.core.cost import Cost
from rulesets.core.report import Report
from rulesets.core.rolls import Odds, Rollable, RollOption, RollResult
from rulesets.core.rows import Status, TraitRow
from rulesets.core.schema import Migration
from rulesets.core.settings import Setting

Settings = Mapping[str, Any]
Sheet = Mapping[str, Any]


class Ruleset(Protocol):
    KEY: str
    # The readings a GM may change, each with the seed's default and its source line.
    SETTINGS: tuple[Setting, ...]
    # The declared shape of a stored sheet; blank_sheet, validate_sheet and the JSON
    # Schema of the character file all come from it.
    SCHEMA: type[BaseModel]
    SCHEMA_VERSION: int
    # Steps from schema version n to n + 1, for sheets stored under an older shape.
    MIGRATIONS: Mapping[int, Migration]
    # Edits that are the GM's at a table but have no row of their own to mark them (an
    # "add an award" row, a "next in-game day" button): fnmatch patterns of trait keys.
    GM_EDITS: tuple[str, ...]

    def blank_sheet(self, settings: Settings) -> dict:
        """Return a new sheet in the creation stage."""

    def demo_sheet(self) -> dict:
        """Return a complete, legal example sheet under the default settings."""

    def validate_sheet(self, data: Any) -> dict:
        """Return the normal form of a stored or imported sheet (older versions upgraded),
        or raise InvalidSheet naming every field at fault."""

    def apply_edit(self, sheet: Sheet, trait: str, raw: str, settings: Settings) -> dict:
        """Return a new sheet with one trait set from the raw text a form sent, or raise
        InvalidEdit(trait, message)."""

    def check(self, sheet: Sheet, settings: Settings) -> Report:
        """Return every budget pool and every broken rule, all at once."""

    def derived(self, sheet: Sheet, settings: Settings) -> dict:
        """Return the values computed from the sheet and never stored."""

    def advance_cost(self, sheet: Sheet, trait: str, new_value: int, settings: Settings) -> Cost:
        """Price raising `trait` to `new_value`, with a line a player can read."""

    def trait_label(self, trait: str) -> str:
        """Return the player-facing name of a trait key ("attr.wits" -> "Wits")."""

    def trait_rows(self, sheet: Sheet, settings: Settings) -> list[TraitRow]:
        """Return one row per trait of the sheet, in the order the sheet prints them."""

    def status(self, sheet: Sheet, settings: Settings) -> Status:
        """Summarise the sheet for a GM's list: stage, legal, errors, warnings, unspent."""

    # The dice (rulesets/core/rolls.py). `options` is parse_roll_options(roll_options(...),
    # form) joined with dice_readings(settings, DICE_READINGS); DICE_READINGS names the
    # settings (dice readings, declared in dice.py and part of SETTINGS) the dice use.
    DICE_READINGS: tuple[str, ...]

    def rollables(self, sheet: Sheet, settings: Settings) -> tuple[Rollable, ...]:
        """Return every trait or pool of the sheet that can be rolled, with what the sheet
        adds to it (wounds, points to spend) as facts."""

    def roll_options(self, rollable: Rollable, settings: Settings) -> tuple[RollOption, ...]:
        """Return the modifiers a player sets before rolling, each with its range."""

    def odds(self, rollable: Rollable, options: Settings) -> Odds:
        """Return the exact chance of success (Fractions, never a simulation) and the bars of
        the distribution, or raise InvalidRoll(option, message)."""

    def roll(self, rollable: Rollable, options: Settings, rng: random.Random) -> RollResult:
        """Roll once with the caller's generator, read as `odds` counts, or raise
        InvalidRoll."""

    # The compendium (rulesets/core/compendium.py; each system's compendium.py): the kinds
    # of entry a GM may add, each a schema, and the seeds' catalogs as read-only entries.
    COMPENDIUM_KINDS: tuple[EntryKind, ...]

    def builtin_entries(self) -> tuple[BuiltinEntry, ...]:
        """Return the seeds' catalogs as entries, each with its seed line."""

    def pick_entry(
        self,
        sheet: Sheet,
        kind: str,
        ref: str,
        version: int,
        data: Mapping[str, Any],
        settings: Settings,
    ) -> dict:
        """Return a new sheet with an entry (`data`, valid for `kind`) picked onto it: a
        snapshot of what the sheet needs, marked {"compendium": {"kind", "ref",
        "version"}}, so it keeps working when the entry is gone; or raise InvalidEntry."""

    def entry_refs(self, sheet: Sheet) -> list[tuple[str, str, int]]:
        """Return (kind, ref, version) of every compendium entry the sheet uses."""

    def refresh_entry(
        self,
        sheet: Sheet,
        kind: str,
        ref: str,
        version: int,
        data: Mapping[str, Any],
        settings: Settings,
    ) -> dict:
        """Return the sheet with every item picked from entry `ref` brought to this version
        of it (`check` of the result against `check` of the sheet says what a GM's change
        breaks); a kind copied once (a template's fill) changes nothing. Or raise
        InvalidEntry."""


CONTRACT = (
    "blank_sheet",
    "demo_sheet",
    "validate_sheet",
    "apply_edit",
    "check",
    "derived",
    "advance_cost",
    "trait_label",
    "trait_rows",
    "status",
    "rollables",
    "roll_options",
    "odds",
    "roll",
    "builtin_entries",
    "pick_entry",
    "entry_refs",
    "refresh_entry",
)
