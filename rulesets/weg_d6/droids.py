"""Droid building dice (1E Rules Companion, 003:929-947), counted in pips of building dice.

Only what is bought above the free 1D attributes is paid: attributes at 5D per 1D, speed
above Dexterity and armor at 3D per 1D, 1D per item plus 1D per extra feature, and skill
dice above their attribute one for one. Those readings are the ones that make the seed's
R2 (34D) and 3PO (35D) fit their 35D budget (digest §4.1-4.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core import Report
from rulesets.weg_d6 import traits
from rulesets.weg_d6.data import (
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTE_SLUGS,
    DROID_ARMOR_RATE,
    DROID_ATTRIBUTE_RATE,
    DROID_BASE_ATTRIBUTE_PIPS,
    DROID_BUILDING_DICE,
    DROID_FEATURE_DICE,
    DROID_ITEM_DICE,
    DROID_PC_STARTING_FORCE_POINTS,
    DROID_SKILL_CAP_PIPS,
    DROID_SPEED_RATE,
    FORCE_SKILL_LABELS,
)
from rulesets.weg_d6.traits import code_text as code

PIPS = 3


@dataclass(frozen=True)
class DroidBuild:
    """Building dice spent, in pips, part by part."""

    attributes: int
    speed: int
    armor: int
    equipment: int
    skills: int

    @property
    def total(self) -> int:
        return self.attributes + self.speed + self.armor + self.equipment + self.skills


def item_pips(item: Mapping[str, Any]) -> int:
    return (DROID_ITEM_DICE + DROID_FEATURE_DICE * item["features"]) * PIPS


def droid_build(sheet: Mapping[str, Any]) -> DroidBuild:
    attributes = sheet["attributes"]
    raised = sum(max(0, attributes[a] - DROID_BASE_ATTRIBUTE_PIPS) for a in ATTRIBUTE_SLUGS)
    speed_above = max(0, sheet["droid"]["speed"] - attributes["dexterity"])
    skills = 0
    for slug, pips in sheet["skills"].items():
        info = traits.skill_info(sheet, slug)
        if info is not None:
            skills += max(0, pips - attributes[info.attribute])
    return DroidBuild(
        attributes=raised * DROID_ATTRIBUTE_RATE,
        speed=speed_above * DROID_SPEED_RATE,
        armor=sheet["droid"]["armor"] * DROID_ARMOR_RATE,
        equipment=sum(item_pips(item) for item in sheet["droid"]["equipment"]),
        skills=skills,
    )


def building_allowance(sheet: Mapping[str, Any]) -> int:
    return DROID_BUILDING_DICE[sheet["role"]] * PIPS


def check_droid(sheet: Mapping[str, Any], report: Report) -> None:
    """Add the droid's building-dice pool and every droid rule it breaks."""
    build = droid_build(sheet)
    allowed = building_allowance(sheet)
    report.add_pool(
        traits.PipPool(
            "building_dice", "Droid building dice", allowed, build.total, "pips", "003:931"
        )
    )
    who = "a player-character" if sheet["role"] == "pc" else "a non-player"
    if sheet["stage"] == "creation":
        if build.total > allowed:
            report.error(
                "droid_over_budget",
                None,
                f"The build spends {code(build.total)} of building dice; {who} droid has "
                f"{code(allowed)}.",
                "003:931",
            )
        elif build.total < allowed:
            report.warn(
                "droid_dice_left",
                None,
                f"{traits.amount_text(allowed - build.total)} of building dice still to spend.",
                "003:931",
            )
    for slug, pips in sheet["skills"].items():
        if pips > DROID_SKILL_CAP_PIPS:
            label = traits.trait_name(sheet, f"skill.{slug}")
            report.error(
                "droid_skill_cap",
                f"skill.{slug}",
                f"{label} is {code(pips)}; no droid skill goes above 13D.",
                "003:947",
            )
    for skill, label in FORCE_SKILL_LABELS.items():
        if sheet["force"][skill]:
            report.error(
                "droid_force_skill",
                f"force.{skill}",
                f"{label} is {code(sheet['force'][skill])}; droids may never have Force skills.",
                "003:1002",
            )
    if sheet["force"]["sensitive"]:
        report.error(
            "droid_force_skill",
            "force.sensitive",
            "A droid cannot be Force-sensitive; it may only use Force Points.",
            "003:1002",
        )
    # Whole dice are the safe reading; a pip bought at 5 or 3 pips is for the GM (§10.11).
    for slug in ATTRIBUTE_SLUGS:
        if sheet["attributes"][slug] % PIPS:
            report.warn(
                "droid_part_die",
                f"attr.{slug}",
                f"{ATTRIBUTE_BY_SLUG[slug].label} {code(sheet['attributes'][slug])} buys part "
                "of a die; the seed prices attributes in whole dice, so ask the GM.",
                "003:933",
            )
    if sheet["droid"]["armor"] % PIPS:
        report.warn(
            "droid_part_die",
            "droid.armor",
            f"Armor +{code(sheet['droid']['armor'])} buys part of a die; ask the GM.",
            "003:935",
        )
    if (
        sheet["role"] == "pc"
        and sheet["stage"] == "creation"
        and sheet["points"]["force"] < DROID_PC_STARTING_FORCE_POINTS
    ):
        report.warn(
            "droid_force_point",
            "points.force",
            "Every player-character droid starts with 1 Force Point.",
            "003:1004",
        )


def droid_summary(sheet: Mapping[str, Any]) -> dict:
    build = droid_build(sheet)
    allowed = building_allowance(sheet)
    return {
        "attributes": code(build.attributes),
        "speed": code(build.speed),
        "armor": code(build.armor),
        "equipment": code(build.equipment),
        "skills": code(build.skills),
        "spent": code(build.total),
        "allowed": code(allowed),
        "left": code(max(0, allowed - build.total)),
        "items": [
            {"name": item["name"], "features": item["features"], "cost": code(item_pips(item))}
            for item in sheet["droid"]["equipment"]
        ],
    }
