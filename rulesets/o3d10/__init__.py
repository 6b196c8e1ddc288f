"""1o3d10, a homebrew Star Wars system: the middle die of 3d10, health from HP and Strength.

Source: seeds/004_8cbd6e5c00de6f21.txt; digest: rules/1o3d10.md. The seed has no creation,
advancement or equipment rules, so budgets, ranges, XP prices, maximum HP, Defense and the
equipment rows are house rules: settings whose label says "(house rule)".

The sheet's shape is declared once in sheet.py (SCHEMA); trait keys and their ranges come
from rules.trait_rows. The exact odds of the roll live in dice.py and are exported here.
"""

from __future__ import annotations

from rulesets.o3d10.compendium import (
    COMPENDIUM_KINDS,
    builtin_entries,
    entry_refs,
    pick_entry,
    refresh_entry,
)
from rulesets.o3d10.data import SETTINGS
from rulesets.o3d10.dice import (
    DICE_READINGS,
    TABLE_EDITS,
    chance_at_least,
    critical_fail_count,
    explosion_at_least,
    kept_counts,
    odds,
    roll,
    roll_edits,
    roll_options,
    rollables,
    success_chance,
)
from rulesets.o3d10.edits import apply_edit
from rulesets.o3d10.rules import (
    GM_EDITS,
    KEY,
    advance_cost,
    check,
    derived,
    status,
    trait_label,
    trait_rows,
)
from rulesets.o3d10.sheet import (
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    blank_sheet,
    demo_sheet,
    validate_sheet,
)

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
    "blank_sheet",
    "builtin_entries",
    "chance_at_least",
    "check",
    "critical_fail_count",
    "demo_sheet",
    "derived",
    "entry_refs",
    "explosion_at_least",
    "kept_counts",
    "odds",
    "pick_entry",
    "refresh_entry",
    "roll",
    "roll_edits",
    "roll_options",
    "rollables",
    "status",
    "success_chance",
    "trait_label",
    "trait_rows",
    "validate_sheet",
]
