"""Readings of Star O.R.E. a GM may change, each with the seed's (or digest's) default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.core import Setting, resolve_settings
from rulesets.ore.data import (
    DROID_SPECIES_COST_DERIVED,
    POWER_WIGGLE_DIE_COST_CORRECTED,
    POWER_WIGGLE_DIE_COST_PRINTED,
    SPECIES_BY_SLUG,
)

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "creation_budget",
        "Character points for a new character",
        150,
        "L772 (100-200 for beginners, 400+ for heroes like Obi-Wan in Episode III)",
        help="The budget a new sheet starts with; each sheet may still set its own.",
        minimum=0,
        maximum=5000,
    ),
    Setting(
        "force_wiggle_cost",
        "Cost of a Force power wiggle die",
        POWER_WIGGLE_DIE_COST_PRINTED,
        "L786 prints 5; digest §2.3 suggests 20 (hard and wiggle dice cost 2x and 4x elsewhere)",
        choices=(
            (POWER_WIGGLE_DIE_COST_PRINTED, "5 CP, as printed"),
            (POWER_WIGGLE_DIE_COST_CORRECTED, "20 CP, the likely intent"),
        ),
    ),
    Setting(
        "droid_species_cost",
        "Cost of the Droid species",
        SPECIES_BY_SLUG["droid"].cost,
        "L800 prints 5; its abilities priced by L849-L851 come to 15 (digest §2.5)",
        choices=(
            (SPECIES_BY_SLUG["droid"].cost, "5 CP, as printed"),
            (DROID_SPECIES_COST_DERIVED, "15 CP, priced from the ability table"),
        ),
    ),
    Setting(
        "species_stat_penalty",
        "A species stat penalty (Wookiee -1d Command)",
        "lower_maximum",
        "L814; digest §2.5 proposal: mirror the bonus rule of L792",
        choices=(
            ("lower_maximum", "Lowers that stat's maximum"),
            ("ignored", "Has no effect on the sheet"),
        ),
    ),
    Setting(
        "willpower_basis",
        "Base Willpower counts Command + Cool",
        "final",
        "L750, L888; digest §2.1 proposal",
        choices=(
            ("final", "as bought (recomputed when they change)"),
            ("starting", "at their starting 1d each"),
        ),
    ),
    Setting(
        "ability_die_price",
        "Price of a stat or skill hard/wiggle die bought as an ability",
        "full",
        "L855-L856; digest §2.5 proposal",
        choices=(
            ("full", "The listed price is the whole die (10/20, 4/8)"),
            ("surcharge", "The listed price comes on top of a normal die (5 or 2)"),
        ),
    ),
    Setting(
        "house_stat_cap",
        "House cap on stats before species bonuses (0 = none)",
        0,
        "L768 (the GM may restrict spending); digest §2.2 proposal",
        minimum=0,
        maximum=10,
    ),
    Setting(
        "full_mixed_location",
        "A location full of Shock and normal damage together",
        "disabled",
        "L207-L219 say nothing about a mix; digest §1.4 proposal",
        choices=(
            ("disabled", "is disabled; destroyed only when every box is normal damage"),
            ("destroyed", "is destroyed as soon as one box is normal damage"),
        ),
    ),
    Setting(
        "feint_penalty",
        "Feint penalty",
        "-1d",
        "L1157 prints -1d; the Feint text (L372) names none",
        choices=(("-1d", "-1d, as on the sheet"), ("-", "none, as in the text")),
    ),
    Setting(
        "bacta_time",
        "Bacta tank healing time",
        "5_minus_width",
        "L248 prints width - 5 hours; every other timer (L240, L822, L922) is 5 - width",
        choices=(
            ("5_minus_width", "5 - width hours"),
            ("width_minus_5", "width - 5 hours, as printed"),
        ),
    ),
)
SETTING_BY_KEY = {setting.key: setting for setting in SETTINGS}


def resolved(settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """Merge a campaign's chosen values over the defaults, coercing raw form values."""
    chosen = {}
    for key, value in (settings or {}).items():
        setting = SETTING_BY_KEY.get(key)
        if setting is not None:
            chosen[key] = setting.coerce(value)
    return resolve_settings(SETTINGS, chosen)
