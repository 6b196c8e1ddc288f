"""SWd10 non-player characters: commoners and heroes by their Power, and a minion's
health levels.

Sources: 000:L96 (Power 0 is a commoner, one dot or more a hero, Power set by the
Storyteller), L98 (a commoner's four health levels, a hero's full track), L108-110 (a
hero's current Power contests a commoner's attack), L187 (a commoner's Stamina soaks
bashing damage only). The seed gives NPCs no dot budget: whether the player's priorities
guide an NPC's dots is the GM's setting `npc_dot_budget`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import Setting, resolve_settings
from rulesets.core.npcs import (
    Condition,
    HitField,
    Note,
    NpcReport,
    kept_rules,
    quick_report,
    warn_pool,
    whole_number,
)
from rulesets.swd10.data import ATTRIBUTES
from rulesets.swd10.rules import SETTINGS, check, health_track

NPC_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "npc_dot_budget",
        "An NPC's attribute and ability dots",
        "guide",
        "000:L96 gives NPCs no dot budget; digest §2.3 [INTERP] lets a commoner NPC have Power 0",
        "As a guide, the player's priorities (6/4/3, 11/7/4) and merits are shown beside an "
        "NPC's dots as warnings.",
        choices=(("guide", "The player's priorities as a guide"), ("none", "No budget")),
    ),
)
# The player's creation rules an NPC is not held to: its dots (as a guide at most), a
# hero's Power 1 (L294), Willpower Wits + 1 (L296) and the experience it spent (L298).
REPLACED = (
    "attributes_",
    "abilities_",
    "merits_",
    "power_at_creation",
    "willpower_at_creation",
    "xp_over_budget",
)
GUIDE_POOLS = ("attributes.", "abilities.", "merits")
QUICK_TRAITS = (*(f"attr.{a.slug}" for a in ATTRIBUTES), "power")


def prepare_npc(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    """Return the sheet as a commoner (Power 0, L96); the GM raises Power for a hero NPC."""
    npc = copy.deepcopy(dict(sheet))
    npc["power"] = 0
    npc["power_current"] = 0
    return npc


def npc_report(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], *, quick: bool = False
) -> NpcReport:
    notes = [_kind_note(sheet)]
    if quick:
        return quick_report(notes)
    chosen = resolve_settings(NPC_SETTINGS, settings)
    full = check(sheet, resolve_settings(SETTINGS, settings))
    report = NpcReport(violations=kept_rules(full, REPLACED), notes=notes)
    if chosen["npc_dot_budget"] == "guide":
        for pool in full.pools:
            if pool.key.startswith(GUIDE_POOLS):
                report.pools.append(pool)
                # Merits are a most to take (L298), not dots to place: only more warns.
                if pool.key != "merits" or pool.over:
                    warn_pool(report, pool, "the player's priorities allow")
    return report


def _kind_note(sheet: Mapping[str, Any]) -> Note:
    if sheet["power"] == 0:
        return Note(
            "A commoner (Power 0): four health levels, Stamina soaks bashing damage only, "
            "and a hero's current Power contests its attacks.",
            "000:L96, L98, L108, L187",
        )
    return Note(
        f"A hero NPC (Power {sheet['power']}, the Storyteller's to set): the full health track.",
        "000:L96, L98",
    )


# Minions ---------------------------------------------------------------------------------


def fresh_wounds(block: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    return {"levels": 0}


def hit_fields(block: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[HitField, ...]:
    track = health_track(block, settings)
    return (
        HitField(
            "levels",
            "Health levels of damage (after soak)",
            minimum=1,
            maximum=len(track),
            default="1",
            source="000:L98",
        ),
    )


def hit(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any], raw
) -> dict:
    """Mark the hit's health levels, the track's last (Incapacitated) at most."""
    (spec,) = hit_fields(block, settings)
    levels = whole_number(raw, spec)
    return {"levels": min(spec.maximum, wounds.get("levels", 0) + levels)}


def condition(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any]
) -> Condition:
    track = health_track(block, settings)
    marks = min(len(track), wounds.get("levels", 0))
    if marks == 0:
        return Condition("Unhurt", "", False, 0, len(track), "000:L98")
    level = track[marks - 1]
    penalty = "" if not level.penalty else f"{level.penalty:+d}"
    return Condition(level.name, penalty, level.penalty is None, marks, len(track), "000:L98")
