"""1o3d10 non-player characters: stat and skill points the GM sets, and a minion's HP.

The seed has no creation budget at all (digest, rules/1o3d10.md §3: L262), so an NPC's
points are GM settings defaulting to the digest's proposal for a player character (24
stat points, 20 skill points), and an NPC off them is warned, never refused. A minion's
HP and health states follow L39-L45 (dead below -3 x Strength).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.core import Pool, Setting, resolve_settings
from rulesets.core.npcs import (
    Condition,
    HitField,
    NpcReport,
    kept_rules,
    quick_report,
    warn_pool,
    whole_number,
)
from rulesets.o3d10.data import DEATH_MULTIPLIER, SETTINGS, STATS, UNCONSCIOUS
from rulesets.o3d10.rules import check, health_state, max_hp

NPC_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "npc_stat_points",
        "Stat points of an NPC",
        24,
        "the seed sets none (L262); digest §3 creation_stat_points proposal",
        minimum=4,
        maximum=80,
    ),
    Setting(
        "npc_skill_points",
        "Skill points of an NPC",
        20,
        "the seed sets none (L262); digest §3 creation_skill_points proposal",
        minimum=0,
        maximum=200,
    ),
)
REPLACED = ("stat_points_", "skill_points_")
QUICK_TRAITS = tuple(f"stat.{s.slug}" for s in STATS)
_POOLS = {"stats": "npc_stat_points", "skills": "npc_skill_points"}
MOST_DAMAGE = 999


def prepare_npc(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    return dict(sheet)


def npc_report(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], *, quick: bool = False
) -> NpcReport:
    if quick:
        return quick_report()
    chosen = resolve_settings(NPC_SETTINGS, settings)
    full = check(sheet, resolve_settings(SETTINGS, settings))
    report = NpcReport(violations=kept_rules(full, REPLACED))
    for pool in full.pools:
        if pool.key in _POOLS:
            npc_pool = Pool(
                pool.key,
                f"{pool.label} (the GM's NPC setting)",
                chosen[_POOLS[pool.key]],
                pool.spent,
                pool.unit,
                f"setting {_POOLS[pool.key]}",
            )
            report.pools.append(npc_pool)
            warn_pool(report, npc_pool, "the NPC setting gives")
    return report


# Minions ---------------------------------------------------------------------------------


def fresh_wounds(block: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    return {"hp_lost": 0}


def hit_fields(block: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[HitField, ...]:
    return (HitField("damage", "HP of damage", minimum=1, maximum=MOST_DAMAGE, default="1"),)


def hit(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any], raw
) -> dict:
    """Take the damage off the member's HP; past death (L45) there is nothing left to lose."""
    (spec,) = hit_fields(block, settings)
    damage = whole_number(raw, spec)
    strength = block["stats"]["strength"]
    most = _max_hp(block, settings) + DEATH_MULTIPLIER * strength + 1
    return {"hp_lost": min(most, wounds.get("hp_lost", 0) + damage)}


def _max_hp(block: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    return max_hp(block["stats"]["strength"], resolve_settings(SETTINGS, settings))


def condition(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any]
) -> Condition:
    top = _max_hp(block, settings)
    lost = wounds.get("hp_lost", 0)
    state = health_state(top - lost, block["stats"]["strength"])
    return Condition(
        f"{state.label}, HP {top - lost} of {top}",
        "",
        state.rank >= UNCONSCIOUS.rank,
        lost,
        top,
        f"004:{state.source}",
    )
