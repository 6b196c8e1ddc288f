"""Star O.R.E. non-player characters: a points budget the GM sets, and a minor NPC's
hit locations for minions.

Sources: 001:L768, L772 (the GM sets the character points budget; 100-200 for
beginners); L236 (an unimportant NPC, an ordinary soldier or civilian, is out on any
damage to location 10 or on five or more to any one location). The seed gives NPCs no
budget of their own: `npc_points` is the GM's, defaulting to the low end of the digest's
beginner range (rules/ore.md §2.2), and an NPC over it is warned, never refused.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import Pool, Setting, resolve_settings
from rulesets.core.npcs import (
    Condition,
    HitField,
    Note,
    NpcReport,
    choice,
    kept_rules,
    quick_report,
    warn_pool,
    whole_number,
)
from rulesets.ore.data import HIT_LOCATIONS, LOCATION_BY_SLUG, MAX_POINTS, SETTINGS, STATS
from rulesets.ore.rules import check, cost_unit, points_spent

NPC_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "npc_points",
        "Character points for a new NPC",
        100,
        "001:L768, L772 set no NPC budget; digest §2.2: 100 is the low end of a beginner's range",
        "A new NPC's sheet starts with this budget; each NPC may still set its own.",
        minimum=0,
        maximum=MAX_POINTS,
    ),
)
# The player's budget rules an NPC is not held to (L772): over or under, it only warns.
REPLACED = ("over_budget", "points_unspent", "insufficient_xp")
QUICK_TRAITS = tuple(f"stat.{s.slug}" for s in STATS)
# L236: location 10 is the head; five points in one location put a minor NPC out.
MINOR_NPC_OUT_AT = 5
HEAD = "head"


def prepare_npc(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    """Return the sheet with the GM's NPC budget as its own."""
    npc = copy.deepcopy(dict(sheet))
    npc["character_points"] = resolve_settings(NPC_SETTINGS, settings)["npc_points"]
    return npc


def npc_report(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], *, quick: bool = False
) -> NpcReport:
    notes = [Note("Hit as a minor NPC when it runs with a group of minions.", "001:L236")]
    if quick:
        return quick_report(notes)
    settings = resolve_settings(SETTINGS, settings)
    full = check(sheet, settings)
    report = NpcReport(violations=kept_rules(full, REPLACED), notes=notes)
    pool = Pool(
        "points",
        "Character points (the GM's NPC budget)",
        sheet["character_points"],
        points_spent(sheet, settings),
        unit=cost_unit(sheet),
        source="001:L768, L772",
    )
    report.pools.append(pool)
    warn_pool(report, pool, "the NPC's budget")
    return report


# Minions: each member a minor NPC (L236) -------------------------------------------------


def fresh_wounds(block: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    return {"damage": {}}


def hit_fields(block: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[HitField, ...]:
    heights = {loc.slug: "-".join(str(h) for h in loc.heights) for loc in HIT_LOCATIONS}
    return (
        HitField(
            "location",
            "Hit location",
            tuple((loc.slug, f"{heights[loc.slug]} {loc.label}") for loc in HIT_LOCATIONS),
            default="torso",
            source="001:L221-L228",
        ),
        HitField("damage", "Points of damage", minimum=1, maximum=20, default="1"),
    )


def hit(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any], raw
) -> dict:
    location_field, damage_field = hit_fields(block, settings)
    location = choice(raw, location_field)
    amount = whole_number(raw, damage_field)
    damage = dict(wounds.get("damage", {}))
    damage[location] = damage.get(location, 0) + amount
    return {"damage": damage}


def condition(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any]
) -> Condition:
    damage = {k: v for k, v in wounds.get("damage", {}).items() if v}
    marks = sum(damage.values())
    if not damage:
        return Condition("Unhurt", "", False, 0, MINOR_NPC_OUT_AT, "001:L236")
    down = damage.get(HEAD, 0) > 0 or max(damage.values()) >= MINOR_NPC_OUT_AT
    where = ", ".join(f"{LOCATION_BY_SLUG[k].label} {v}" for k, v in damage.items())
    label = f"Out (minor NPC): {where}" if down else f"Hit: {where}"
    return Condition(label, "", down, marks, MINOR_NPC_OUT_AT, "001:L236")
