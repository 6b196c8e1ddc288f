"""Star Wars Storytelling (d10), "SWd10": White Wolf style dots.

data.py holds the catalogs, sheet.py the sheet's shape (SCHEMA), rules.py the checks, costs,
derived values and rows, edits.py apply_edit; prerequisites.py judges merit and Force
ability prerequisites and xp.py prices raises.
"""

from __future__ import annotations

from rulesets.swd10.compendium import (
    COMPENDIUM_KINDS,
    builtin_entries,
    entry_refs,
    pick_entry,
    refresh_entry,
)
from rulesets.swd10.dice import (
    DICE_READINGS,
    PATH_TRAITS,
    ROLL_SPENDS,
    at_round,
    between_pools,
    between_rolls,
    odds,
    power_soak,
    power_soak_offer,
    roll,
    roll_edits,
    roll_options,
    rollables,
    round_state,
    scene_state,
)
from rulesets.swd10.edits import apply_edit
from rulesets.swd10.rules import (
    SETTINGS,
    advance_cost,
    check,
    derived,
    health_track,
    owned_merits,
    status,
    trait_label,
    trait_rows,
    xp_spent,
)
from rulesets.swd10.sheet import (
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    blank_sheet,
    demo_sheet,
    validate_sheet,
)

KEY = "swd10"
# Traits a roll's outcome writes whoever rolls (sheets/rolls): a Path roll failed or botched
# loses its grades (000:L124-126), at a table too, where only the GM sets them by hand.
ROLL_RULED: frozenset[str] = frozenset(PATH_TRAITS.values())
GM_EDITS: tuple[str, ...] = ()
# Traits only a counted spend writes (the roll page's spends between rolls, which keep the
# scene's once-a-scene count, 000:L91-94): a plain sheet edit of one is refused.
SPEND_ONLY: frozenset[str] = frozenset({"destiny.refill"})
# Health levels a hit leaves after soak (000:L183-L189): the player marks their own, and the
# table's GM, who applies the damage in a fight, any sheet at the table (the scene tracker's
# hit form; sheets/permissions.py reads this).
TABLE_EDITS: tuple[str, ...] = ("health",)

__all__ = [
    "COMPENDIUM_KINDS",
    "DICE_READINGS",
    "GM_EDITS",
    "KEY",
    "MIGRATIONS",
    "ROLL_RULED",
    "ROLL_SPENDS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SETTINGS",
    "SPEND_ONLY",
    "TABLE_EDITS",
    "advance_cost",
    "apply_edit",
    "at_round",
    "between_pools",
    "between_rolls",
    "blank_sheet",
    "builtin_entries",
    "check",
    "demo_sheet",
    "derived",
    "entry_refs",
    "health_track",
    "odds",
    "owned_merits",
    "pick_entry",
    "power_soak",
    "power_soak_offer",
    "refresh_entry",
    "roll",
    "roll_edits",
    "roll_options",
    "rollables",
    "round_state",
    "scene_state",
    "status",
    "trait_label",
    "trait_rows",
    "validate_sheet",
    "xp_spent",
]
