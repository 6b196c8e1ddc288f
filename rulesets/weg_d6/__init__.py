"""West End Games d6 Star Wars: 1st edition (Rules Companion) and 2nd edition R&E.

Sources: seeds 002 (R&E upgrade) and 003 (1E Rules Companion); digest rules/weg_d6.md.
Every die code on the sheet is a whole number of pips (3 pips = 1D): 14 is 4D+2. The
sheet's shape is `SCHEMA` (sheet.py); the trait keys an edit takes are listed in edits.py.

Modules: data (catalogs), settings (the GM's readings), sheet (schema, blank, validation),
edits (apply_edit), rules (check, derived, rows, status), costs (advancement prices and
the one-pip rule), droids (building dice), force (power totals and learning order), traits
(reading a sheet by trait key), demo (example sheets), dice (rolls and exact odds).
"""

from __future__ import annotations

from rulesets.weg_d6.compendium import (
    COMPENDIUM_KINDS,
    builtin_entries,
    entry_refs,
    pick_entry,
    refresh_entry,
)
from rulesets.weg_d6.costs import advance_cost
from rulesets.weg_d6.demo import demo_sheet
from rulesets.weg_d6.dice import (
    DICE_READINGS,
    ROLL_SPENDS,
    odds,
    roll,
    roll_edits,
    roll_ledger_spend,
    roll_options,
    rollables,
)
from rulesets.weg_d6.edits import apply_edit
from rulesets.weg_d6.rules import check, derived, status, trait_label, trait_rows
from rulesets.weg_d6.settings import SETTINGS
from rulesets.weg_d6.sheet import (
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    blank_sheet,
    validate_sheet,
)

KEY = "weg_d6"
# The GM's calls at a table: a Dark Side Point for an evil act (003:1714-1716), whether a
# character truly atones (003:1726), redemption (002:825), the adventure's end.
GM_EDITS: tuple[str, ...] = (
    "darkside.gain",
    "darkside.atone",
    "darkside.redeem",
    "darkside.adventure_end",
)
# A call on the Dark Side writes its result with the roll, whoever at the table rolls it.
# A wound is what a damage roll did against the target's Strength (003:472, 002:557): the
# player marks it on their own sheet and the table's GM, who reads the damage summary in a
# fight, on any sheet at the table (the scene tracker's hit form; sheets/permissions.py).
TABLE_EDITS: tuple[str, ...] = ("darkside.called", "wound", "wound.*")

__all__ = [
    "COMPENDIUM_KINDS",
    "DICE_READINGS",
    "GM_EDITS",
    "KEY",
    "MIGRATIONS",
    "ROLL_SPENDS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SETTINGS",
    "TABLE_EDITS",
    "advance_cost",
    "apply_edit",
    "blank_sheet",
    "builtin_entries",
    "check",
    "demo_sheet",
    "derived",
    "entry_refs",
    "odds",
    "pick_entry",
    "refresh_entry",
    "roll",
    "roll_edits",
    "roll_ledger_spend",
    "roll_options",
    "rollables",
    "status",
    "trait_label",
    "trait_rows",
    "validate_sheet",
]
