"""WEG d6 non-player characters: the 12D attribute norm, and a minion's wound level.

Sources: 003:909-913 (NPCs have 12D of attributes, player characters 18D); the wound
levels in data.WOUND_LEVELS with their lines. The seed gives NPCs no skill dice, so the
NPC report has no skill pool; the 12D is a norm the published NPCs break (Dedelin 18D,
003:2487; Volq 16D, 003:2467), hence a warning, never an error (digest, ambiguity 12).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import Setting, resolve_settings
from rulesets.core.npcs import Condition, HitField, NpcReport, choice, kept_rules, quick_report
from rulesets.weg_d6 import rules
from rulesets.weg_d6.data import (
    ATTRIBUTES,
    EDITION_1E,
    WOUND_BY_SLUG,
    WOUND_LADDER,
    WOUND_LEVELS,
    WOUND_SLUGS_BY_EDITION,
)
from rulesets.weg_d6.settings import SETTINGS

# npc_attribute_dice (12, 003:913) is one of the system's own settings already.
NPC_SETTINGS: tuple[Setting, ...] = ()
# The player's skill dice (003:913 gives an NPC none to spend): the NPC report drops them.
REPLACED = ("skill_dice_",)
QUICK_TRAITS = tuple(f"attr.{a.slug}" for a in ATTRIBUTES)


def prepare_npc(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    """Return the sheet marked as a non-player character (its budget is then 12D)."""
    npc = copy.deepcopy(dict(sheet))
    npc["role"] = "npc"
    return npc


def npc_report(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], *, quick: bool = False
) -> NpcReport:
    """The NPC's budget: the attribute norm (003:913) as a warning, no skill dice."""
    if quick:
        return quick_report()
    settings = resolve_settings(SETTINGS, settings)
    full = rules.check(prepare_npc(sheet, settings), settings)
    report = NpcReport(violations=kept_rules(full, REPLACED))
    report.pools = [pool for pool in full.pools if not pool.key.startswith("skill_dice")]
    return report


# Minions ---------------------------------------------------------------------------------


def _edition(block: Mapping[str, Any]) -> str:
    return block.get("edition", EDITION_1E)


def fresh_wounds(block: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    return {"level": "healthy"}


def hit_fields(block: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[HitField, ...]:
    """The damage roll's result against Strength, as the GM reads it off the table."""
    levels = WOUND_SLUGS_BY_EDITION[_edition(block)]
    return (
        HitField(
            "level",
            "Result of the damage roll",
            tuple((s, WOUND_BY_SLUG[s].label) for s in levels if s not in ("healthy",)),
            default="wounded",
            source="003:1840",
        ),
    )


def hit(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any], raw
) -> dict:
    """Mark one hit: a wound on a wounded member climbs the edition's ladder (R&E: wounded
    twice, 002:557; 1E: incapacitated, 003:1840); otherwise the worse level stands."""
    (spec,) = hit_fields(block, settings)
    result = choice(raw, spec)
    current = wounds.get("level", "healthy")
    ladder = WOUND_LADDER[_edition(block)]
    if result == "wounded" and current in ladder[1:-1]:
        result = ladder[ladder.index(current) + 1]
    order = [w.slug for w in WOUND_LEVELS]
    return {"level": max(current, result, key=order.index)}


def condition(
    block: Mapping[str, Any], settings: Mapping[str, Any], wounds: Mapping[str, Any]
) -> Condition:
    level = WOUND_BY_SLUG[wounds.get("level", "healthy")]
    order = [w.slug for w in WOUND_LEVELS]
    penalty = f"−{abs(level.penalty) // 3}D" if level.penalty else ""
    return Condition(
        level.label,
        penalty,
        not level.can_act,
        order.index(level.slug),
        len(order) - 1,
        level.source,
    )
