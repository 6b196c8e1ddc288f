"""Star O.R.E. (One-Roll Engine): the sheet, point-buy creation, the Force and hit locations.

Source: seeds/001_2d19305c3127dd9e.txt; digest: rules/ore.md. Pure Python, no Django.
The sheet's shape is the schema in `sheet.py`; `trait_rows` lists every trait key that
`apply_edit` takes, with its range.
"""

from __future__ import annotations

from rulesets.ore.combat import TABLE_EDITS
from rulesets.ore.compendium import (
    COMPENDIUM_KINDS,
    builtin_entries,
    entry_refs,
    pick_entry,
    refresh_entry,
)
from rulesets.ore.data import SETTINGS
from rulesets.ore.dice import DICE_READINGS, odds, roll, roll_options, rollables
from rulesets.ore.edits import apply_edit
from rulesets.ore.rules import (
    advance_cost,
    bacta_hours,
    capped_pool,
    check,
    cost_items,
    derived,
    next_costs,
    points_spent,
    status,
    trait_label,
    trait_rows,
)
from rulesets.ore.sheet import (
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    blank_sheet,
    demo_sheet,
    validate_sheet,
)

KEY = "ore"
# Experience awards are the GM's to give and take back (001's awards between sessions).
GM_EDITS = ("xp.add", "xp.award", "xp.*.remove")

__all__ = [
    "COMPENDIUM_KINDS",
    "DICE_READINGS",
    "GM_EDITS",
    "KEY",
    "MIGRATIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SETTINGS",
    "TABLE_EDITS",
    "advance_cost",
    "apply_edit",
    "bacta_hours",
    "blank_sheet",
    "builtin_entries",
    "capped_pool",
    "check",
    "cost_items",
    "demo_sheet",
    "derived",
    "entry_refs",
    "next_costs",
    "odds",
    "pick_entry",
    "points_spent",
    "refresh_entry",
    "roll",
    "roll_options",
    "rollables",
    "status",
    "trait_label",
    "trait_rows",
    "validate_sheet",
]
