"""check() and derived(): every budget and broken rule at once, and the codes as rolled."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from rulesets.core import InvalidEdit, Pool, Report, roll
from rulesets.weg_d6 import costs, droids, traits
from rulesets.weg_d6.data import (
    ALIEN_TEMPLATE_BONUS_PIPS,
    ALIEN_TEMPLATE_MIN_PER_ATTRIBUTE,
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTE_SLUGS,
    CP_LIMIT_PER_ROLL,
    CURRENCY,
    EDITION_1E,
    EDITION_LABELS,
    EDITION_RE,
    FORCE_SKILL_LABELS,
    FORCE_SKILL_SLUGS,
    INITIAL_POWER_COUNT_1E,
    WOUND_BY_SLUG,
    WOUND_LADDER,
)
from rulesets.weg_d6.force import force_order_problem, power_totals
from rulesets.weg_d6.sheet import interval_pips, pip_limited
from rulesets.weg_d6.traits import code_text as code

PIPS = 3


# --- wounds, the Dark Side and Character Points in play ------------------------------------


def wound_after_another(level: str, edition: str) -> str:
    """The level a character reaches when wounded again (002:555-557; 003:1840)."""
    ladder = WOUND_LADDER[edition]
    if level == "stunned":
        level = "healthy"
    if level not in ladder:
        return level
    index = ladder.index(level)
    return ladder[min(index + 1, len(ladder) - 1)]


def dark_side_check(dark_side_points: int, rng: random.Random) -> tuple[int, bool]:
    """Roll 1D when a Dark Side Point is gained: at or below the new total consumes (003:1708)."""
    die = roll(1, 6, rng)[0]
    return die, die <= dark_side_points


def consumption_odds(dark_side_points: int) -> int:
    """Faces of 1D (out of 6) that consume a character on gaining one more point."""
    return min(6, dark_side_points + 1)


def roll_spend_problems(
    edition: str, roll_kind: str, character_points: int, force_point: bool
) -> list[str]:
    """Why a spend of CP on one R&E roll is not allowed (002:483-487); [] when it is."""
    if edition != EDITION_RE:
        return []
    problems = []
    limit = CP_LIMIT_PER_ROLL[roll_kind]
    if character_points > limit:
        problems.append(
            f"At most {limit} Character Points on a {roll_kind} roll; {character_points} "
            "were spent (002:483-485)."
        )
    if character_points and force_point:
        problems.append("Character Points or a Force Point in a round, never both (002:487).")
    return problems


# --- check --------------------------------------------------------------------------------


def check(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Report:
    """Return every budget pool and every broken rule of the sheet, all at once."""
    settings = costs.resolved(settings)
    report = Report()
    if sheet["kind"] == "droid":
        droids.check_droid(sheet, report)
    else:
        _check_attributes(sheet, settings, report)
        _check_force(sheet, settings, report)
    _check_skills(sheet, settings, report)
    _check_powers(sheet, settings, report)
    _check_interval(sheet, settings, report)
    _check_dark_side(sheet, report)
    return report


def _severity_for(sheet: Mapping[str, Any], reading: str) -> str:
    """NPCs only ever get warnings: published ones break the norms (digest §10.12)."""
    if reading == "off":
        return "off"
    return "warning" if sheet["role"] == "npc" else reading


def _report(report: Report, severity: str, code_: str, trait: str | None, text: str, src: str):
    if severity == "error":
        report.error(code_, trait, text, src)
    elif severity == "warning":
        report.warn(code_, trait, text, src)


def _check_attributes(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report):
    attributes = sheet["attributes"]
    total = sum(attributes.values())
    template = sheet["alien_template"]
    creation = sheet["stage"] == "creation"
    if template is not None:
        added = {a: attributes[a] - template[a] for a in ATTRIBUTE_SLUGS}
        spent = sum(added.values())
        report.add_pool(
            Pool(
                "alien_template",
                "Dice added to the alien template",
                ALIEN_TEMPLATE_BONUS_PIPS,
                spent,
                "pips",
                "003:911",
            )
        )
        if creation:
            severity = _severity_for(sheet, "error")
            for slug, pips in added.items():
                if pips < ALIEN_TEMPLATE_MIN_PER_ATTRIBUTE:
                    _report(
                        report,
                        severity,
                        "alien_template_each",
                        f"attr.{slug}",
                        f"{ATTRIBUTE_BY_SLUG[slug].label} gets {code(pips)} over the "
                        f"template's {code(template[slug])}; 1D of the 6D must go to each "
                        "attribute (003:911).",
                        "003:911",
                    )
            if spent > ALIEN_TEMPLATE_BONUS_PIPS:
                _report(
                    report,
                    severity,
                    "alien_template_over",
                    None,
                    f"{code(spent)} added to the template; an alien PC adds 6D (003:911).",
                    "003:911",
                )
            elif spent < ALIEN_TEMPLATE_BONUS_PIPS:
                report.warn(
                    "alien_template_left",
                    None,
                    f"{traits.amount_text(ALIEN_TEMPLATE_BONUS_PIPS - spent)} of the 6D still "
                    "to add (003:911).",
                    "003:911",
                )
    else:
        pc = sheet["role"] == "pc"
        allowed = (settings["pc_attribute_dice"] if pc else settings["npc_attribute_dice"]) * PIPS
        report.add_pool(Pool("attributes", "Attribute dice", allowed, total, "pips", "003:913"))
        if creation and total != allowed:
            who = "a player character" if pc else "a non-player character"
            text = f"The attributes add up to {code(total)}; {who} has {code(allowed)} (003:913)."
            if total > allowed and pc:
                report.error("attributes_over", None, text, "003:913")
            elif pc:
                report.warn(
                    "attributes_left",
                    None,
                    f"{traits.amount_text(allowed - total)} of attribute dice still to place; "
                    f"the attributes add up to {code(total)} of {code(allowed)} (003:913).",
                    "003:913",
                )
            else:
                report.warn("npc_attribute_norm", None, text, "003:913")
    _check_species(sheet, settings, report)


def _check_species(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report):
    species = traits.species_of(sheet)
    creation = sheet["stage"] == "creation"
    severity = _severity_for(sheet, settings["species_limits"]) if creation else "warning"
    for slug in ATTRIBUTE_SLUGS:
        pips = sheet["attributes"][slug]
        label = ATTRIBUTE_BY_SLUG[slug].label
        if pips > species.maximum[slug]:
            after = "" if creation else "; raising past it needs the GM's roll to fail (002:53)"
            _report(
                report,
                severity,
                "species_maximum",
                f"attr.{slug}",
                f"{label} is {code(pips)}; the {species.label} maximum is "
                f"{code(species.maximum[slug])}{after}.",
                "002:53",
            )
        elif pips < species.minimum[slug] and creation:
            _report(
                report,
                severity,
                "species_minimum",
                f"attr.{slug}",
                f"{label} is {code(pips)}; the {species.label} minimum is "
                f"{code(species.minimum[slug])} ({species.source}).",
                species.source,
            )
    if sheet["edition"] == EDITION_RE and sheet["move"] > species.move_max:
        report.error(
            "move_maximum",
            "move",
            f"Move is {sheet['move']}; the {species.label} maximum is {species.move_max} (002:57).",
            "002:57",
        )


def _skill_dice_spent(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    """Creation skill dice in pips: dice above the attribute, advanced double, specs at 1/3."""
    spent = 0
    for slug, pips in sheet["skills"].items():
        info = traits.skill_info(sheet, slug)
        if info is None:
            continue
        above = max(0, pips - sheet["attributes"][info.attribute])
        spent += above * (2 if info.advanced else 1)
    spec_pips = 0
    for spec in sheet["specializations"].values():
        spec_pips += max(0, spec["pips"] - traits.skill_code(sheet, spec["skill"]))
    return spent + math.ceil(spec_pips / settings["specialization_ratio"])


def _check_skills(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report):
    creation = sheet["stage"] == "creation"
    droid = sheet["kind"] == "droid"
    edition = sheet["edition"]
    for slug, pips in sheet["skills"].items():
        info = traits.skill_info(sheet, slug)
        if info is None:
            continue
        trait = f"skill.{slug}"
        attribute = sheet["attributes"][info.attribute]
        attribute_label = ATTRIBUTE_BY_SLUG[info.attribute].label
        if pips < attribute:
            text = (
                f"{info.label} is {code(pips)}, below its attribute {attribute_label} "
                f"{code(attribute)}; a skill starts at its attribute (003:947)."
            )
            if creation:
                report.error("skill_below_attribute", trait, text, "003:947")
            else:
                report.warn("skill_below_attribute", trait, text, "003:947")
        cap = settings["creation_skill_cap"] * PIPS
        if (
            creation
            and not droid
            and edition == EDITION_RE
            and cap
            and not info.advanced
            and pips - attribute > cap
        ):
            report.error(
                "creation_skill_cap",
                trait,
                f"{info.label} has {code(pips - attribute)} of skill dice; at creation one skill "
                f"takes at most {code(cap)} (GM setting; not in either seed).",
            )
        if info.advanced:
            _check_advanced(sheet, settings, report, info, trait)
    for slug, spec in sheet["specializations"].items():
        trait = f"spec.{slug}"
        label = traits.trait_label(sheet, trait)
        if edition == EDITION_1E:
            report.error(
                "no_specializations_1e",
                trait,
                f"{label}: 1st edition has no specializations (digest §2.2).",
            )
        parent = traits.skill_code(sheet, spec["skill"])
        if spec["pips"] < parent:
            text = (
                f"{label} is {code(spec['pips'])}, below its skill's {code(parent)}; it "
                "starts where its skill stands (002:37)."
            )
            if creation:
                report.error("specialization_below_skill", trait, text, "002:37")
            else:
                report.warn("specialization_below_skill", trait, text, "002:37")
    if creation and not droid:
        allowed = settings["skill_dice"] * PIPS
        spent = _skill_dice_spent(sheet, settings)
        report.add_pool(
            Pool(
                "skill_dice", "Skill dice", allowed, spent, "pips", "GM setting; not in either seed"
            )
        )
        if spent > allowed:
            severity = _severity_for(sheet, "error")
            _report(
                report,
                severity,
                "skill_dice_over",
                None,
                f"{code(spent)} of skill dice spent; creation gives {code(allowed)} "
                "(GM setting; not in either seed).",
                "",
            )
        elif spent < allowed:
            report.warn(
                "skill_dice_left",
                None,
                f"{traits.amount_text(allowed - spent)} of skill dice still to spend.",
            )


def _check_advanced(sheet, settings, report: Report, info: traits.SkillInfo, trait: str) -> None:
    if sheet["edition"] == EDITION_1E:
        report.error(
            "no_advanced_skills_1e",
            trait,
            f"{info.label}: 1st edition has no advanced skills (digest §2.2).",
        )
    if info.prerequisite is None:
        return
    needed = settings["advanced_prerequisite_dice"] * PIPS
    have = traits.skill_code(sheet, info.prerequisite)
    if have < needed:
        prerequisite = traits.skill_info(sheet, info.prerequisite)
        name = prerequisite.label if prerequisite else info.prerequisite
        report.error(
            "advanced_prerequisite",
            trait,
            f"{info.label} rests on {name} {code(needed)}; {name} is {code(have)} "
            "(GM setting; not in either seed).",
        )


def _check_force(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report):
    force = sheet["force"]
    learned = [s for s in FORCE_SKILL_SLUGS if force[s]]
    if sheet["edition"] == EDITION_RE and learned and not force["sensitive"]:
        for skill in learned:
            report.error(
                "force_needs_sensitivity",
                f"force.{skill}",
                f"{FORCE_SKILL_LABELS[skill]} is {code(force[skill])}, but only a "
                "Force-sensitive character learns Force skills (002:794).",
                "002:794",
            )
    if sheet["edition"] == EDITION_1E and force["alter"]:
        problem = force_order_problem(sheet, "alter", settings)
        if problem:
            report.error("alter_before_control_sense", "force.alter", problem, "003:1762")
    if sheet["edition"] == EDITION_RE and force["power_picks"]:
        picks = ", ".join(FORCE_SKILL_LABELS[s] for s in force["power_picks"])
        report.warn(
            "power_picks_waiting",
            "power.add",
            f"Force skill raises still owe powers, one for each ({picks}); the teacher picks "
            "them (002:800).",
            "002:800",
        )


def _check_powers(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report):
    force = sheet["force"]
    for slug in force["powers"]:
        needs = traits.power_skills(sheet, slug, settings)
        missing = [FORCE_SKILL_LABELS[s] for s in needs if not force[s]]
        if missing:
            report.error(
                "power_needs_skill",
                f"power.{slug}",
                f"{traits.power_label(sheet, slug)} needs {' and '.join(missing)}, still at 0D "
                "(003:1822).",
                "003:1822",
            )
    for skill, (used, total) in power_totals(sheet, settings).items():
        if total is None or not force[skill]:
            continue
        label = FORCE_SKILL_LABELS[skill]
        report.add_pool(
            Pool(f"powers_{skill}", f"{label} powers", total, used, "powers", "003:1798")
        )
        if used > total:
            report.error(
                "power_total",
                f"force.{skill}",
                f"{used} powers use {label}; {label} {code(force[skill])} holds {total} "
                "(3 per die and 1 per pip, 003:1798).",
                "003:1798",
            )
        elif (
            sheet["edition"] == EDITION_1E
            and sheet["stage"] == "creation"
            and sheet["role"] == "pc"
            and used < total
        ):
            minimum = INITIAL_POWER_COUNT_1E if force[skill] == PIPS else total
            if used < minimum:
                report.warn(
                    "powers_to_choose",
                    f"force.{skill}",
                    f"{label} {code(force[skill])} starts with {minimum} powers mastered; "
                    f"{minimum - used} still to choose (003:1778, 003:1800).",
                    "003:1800",
                )


def _interval_kind(trait: str) -> str:
    if trait.startswith("attr."):
        return traits.ATTRIBUTE
    if trait.startswith(("skill.", "spec.")) or trait in {f"force.{s}" for s in FORCE_SKILL_SLUGS}:
        return traits.SKILL
    return ""


def _check_interval(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report):
    if sheet["edition"] != EDITION_RE:
        return
    for trait in dict.fromkeys(e["trait"] for e in sheet["interval"]):
        kind = _interval_kind(trait)
        if not kind or not pip_limited(kind, settings):
            continue
        pips = interval_pips(sheet, trait)
        if pips > 1:
            try:
                label = traits.trait_label(sheet, trait)
            except InvalidEdit:  # a removed trait still shows by its key
                label = trait
            report.error(
                "second_pip_between_adventures",
                trait,
                f"{label} rose {pips} pips since the last adventure; a skill rises one pip "
                "between adventures (002:39).",
                "002:39",
            )


def _check_dark_side(sheet: Mapping[str, Any], report: Report) -> None:
    points = sheet["points"]["dark_side"]
    if not points:
        return
    faces = consumption_odds(points)
    doom = "1-6, certain" if faces >= 6 else f"1-{faces}"
    note = (
        " (R&E keeps the core book's roll, not in either seed)"
        if (sheet["edition"] == EDITION_RE)
        else ""
    )
    report.warn(
        "dark_side_consumption",
        "points.dark_side",
        f"{points} Dark Side Points: when the next one comes the GM rolls 1D and {doom} "
        f"consumes the character (003:1708){note}.",
        "003:1708",
    )


# --- derived ----------------------------------------------------------------------------------


def _apply_penalty(pips: int, penalty: int) -> int:
    # A penalty bigger than the code leaves 0D, never a negative roll (digest §10.17).
    return max(0, pips + penalty)


def derived(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    """Return values computed from the sheet: effective codes, totals, powers, droid dice."""
    settings = costs.resolved(settings)
    edition = sheet["edition"]
    wound = WOUND_BY_SLUG[sheet["wound"]]
    penalty = wound.penalty if wound.can_act else 0
    spare_strength = wound.spares_strength_in_1e and edition == EDITION_1E

    codes: dict[str, int] = {f"attr.{a}": sheet["attributes"][a] for a in ATTRIBUTE_SLUGS}
    for slug, pips in sheet["skills"].items():
        codes[f"skill.{slug}"] = pips
    for slug, spec in sheet["specializations"].items():
        codes[f"spec.{slug}"] = spec["pips"]
    for skill in FORCE_SKILL_SLUGS:
        if sheet["force"][skill]:
            codes[f"force.{skill}"] = sheet["force"][skill]
    effective = {
        key: code(
            pips if spare_strength and key == "attr.strength" else _apply_penalty(pips, penalty)
        )
        for key, pips in codes.items()
    }
    by_attribute: dict[str, list[dict]] = {a: [] for a in ATTRIBUTE_SLUGS}
    for slug in sheet["skills"]:
        info = traits.skill_info(sheet, slug)
        if info is not None:
            key = f"skill.{slug}"
            by_attribute[info.attribute].append(
                {
                    "key": key,
                    "label": info.label,
                    "code": code(codes[key]),
                    "effective": effective[key],
                    "advanced": info.advanced,
                }
            )
    species = traits.species_of(sheet)
    short, name = CURRENCY[edition]
    dark_side = sheet["points"]["dark_side"]
    result = {
        "edition": EDITION_LABELS[edition],
        "currency": {"short": short, "name": name},
        "species": {
            "label": species.label,
            "minimum": {a: code(species.minimum[a]) for a in ATTRIBUTE_SLUGS},
            "maximum": {a: code(species.maximum[a]) for a in ATTRIBUTE_SLUGS},
            "move": species.move,
            "move_max": species.move_max,
        },
        "codes": {key: code(pips) for key, pips in codes.items()},
        "effective": effective,
        "skills_by_attribute": by_attribute,
        "attribute_total": code(sum(sheet["attributes"].values())),
        "skill_dice_spent": code(_skill_dice_spent(sheet, settings)),
        "wound": {
            "level": wound.slug,
            "label": wound.label,
            "penalty": code(penalty) if penalty else "",
            "can_act": wound.can_act,
            "if_wounded_again": WOUND_BY_SLUG[wound_after_another(wound.slug, edition)].label,
            "source": wound.source,
        },
        "powers": {
            skill: {"used": used, "total": total}
            for skill, (used, total) in power_totals(sheet, settings).items()
        },
        "dark_side": {
            "points": dark_side,
            "consumed_on": consumption_odds(dark_side) if dark_side else 0,
            # R&E adds 1D per Dark Side Point to Force skill rolls (002:810).
            "force_bonus": code(dark_side * PIPS) if edition == EDITION_RE and dark_side else "",
        },
        "move": sheet["move"] if edition == EDITION_RE else None,
    }
    if sheet["kind"] == "droid":
        result["droid"] = droids.droid_summary(sheet)
    return result
