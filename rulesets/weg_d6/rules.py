"""check, derived, trait_label, trait_rows and status: what a WEG d6 sheet says and allows.

Advancement prices live in costs.py (advance_cost), droid building dice in droids.py and
Force power totals in force.py; this module puts them together for the contract.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core import (
    Cost,
    DieCode,
    InvalidEdit,
    Pool,
    Report,
    RowKind,
    Setter,
    Stage,
    Status,
    TraitRow,
    resolve_settings,
    roll,
)
from rulesets.core.stage import STAGE_CHOICES, STAGE_TRAIT
from rulesets.weg_d6 import costs, droids, traits, wounds
from rulesets.weg_d6.costs import next_costs
from rulesets.weg_d6.data import (
    ALIEN_TEMPLATE_BONUS_PIPS,
    ALIEN_TEMPLATE_MIN_PER_ATTRIBUTE,
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTE_SLUGS,
    ATTRIBUTES,
    CURRENCY,
    CUSTOM_SPECIES,
    EDITION_1E,
    EDITION_LABELS,
    EDITION_RE,
    EDITIONS,
    EQUIPMENT_TEXT_LIMIT,
    FORCE_SKILL_LABELS,
    FORCE_SKILL_SLUGS,
    FORCE_SKILLS,
    FORCE_TEMPLATES_1E,
    INITIAL_POWER_COUNT_1E,
    INITIAL_POWERS_1E,
    KINDS,
    LOWEST_ATTRIBUTE_PIPS,
    MAX_CODE_PIPS,
    MAX_CREDITS,
    MAX_FEATURES,
    MAX_MOVE,
    MAX_POINTS,
    POWER_BY_SLUG,
    QUOTE_LIMIT,
    ROLES,
    SKILL_BY_SLUG,
    SKILLS,
    SPECIES_CHOICES,
    WEAPON_TEXT_LIMITS,
    WOUND_BY_SLUG,
    WOUND_LADDER,
)
from rulesets.weg_d6.edits import (
    DROID_CODE_LABELS,
    EQUIPMENT_NOUN,
    GEAR_LABELS,
    INFO_NOTES,
    INFO_TEXT_LABELS,
    POINT_LABELS,
    QUOTE_LABEL,
    WEAPON_FIELD_LABELS,
    force_skill_lock,
    point_label,
    species_bounds,
    wound_choices,
)
from rulesets.weg_d6.force import force_order_problem, overfilled_by, power_totals
from rulesets.weg_d6.settings import SETTINGS
from rulesets.weg_d6.traits import code_text as code

PIPS = 3
# A cap the core book sets and the GM may change: the sentence says so in a player's
# words; where it comes from stays in the message's source (a tooltip).
GM_READING = "a reading the GM may change"
GM_SETTING_SOURCE = "GM setting; not in either seed"


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


# --- check --------------------------------------------------------------------------------


def check(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Report:
    """Return every budget pool and every broken rule of the sheet, all at once."""
    settings = resolve_settings(SETTINGS, settings)
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
            traits.PipPool(
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
                        "attribute.",
                        "003:911",
                    )
            if spent > ALIEN_TEMPLATE_BONUS_PIPS:
                _report(
                    report,
                    severity,
                    "alien_template_over",
                    None,
                    f"{code(spent)} added to the template; an alien PC adds 6D.",
                    "003:911",
                )
            elif spent < ALIEN_TEMPLATE_BONUS_PIPS:
                report.warn(
                    "alien_template_left",
                    None,
                    f"{traits.amount_text(ALIEN_TEMPLATE_BONUS_PIPS - spent)} of the 6D still "
                    "to add.",
                    "003:911",
                )
    else:
        pc = sheet["role"] == "pc"
        allowed = (settings["pc_attribute_dice"] if pc else settings["npc_attribute_dice"]) * PIPS
        report.add_pool(
            traits.PipPool("attributes", "Attribute dice", allowed, total, "pips", "003:913")
        )
        if creation and total != allowed:
            who = "a player character" if pc else "a non-player character"
            text = f"The attributes add up to {code(total)}; {who} has {code(allowed)}."
            if total > allowed and pc:
                report.error("attributes_over", None, text, "003:913")
            elif pc:
                report.warn(
                    "attributes_left",
                    None,
                    f"{traits.amount_text(allowed - total)} of attribute dice still to place; "
                    f"the attributes add up to {code(total)} of {code(allowed)}.",
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
            after = "" if creation else "; raising past it needs the GM's roll to fail"
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
                f"{code(species.minimum[slug])}.",
                species.source,
            )
    if sheet["edition"] == EDITION_RE and sheet["move"] > species.move_max:
        report.error(
            "move_maximum",
            "move",
            f"Move is {sheet['move']}; the {species.label} maximum is {species.move_max}.",
            "002:57",
        )


def force_paid_with_skill_dice(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    """Whether a character's Force skills come out of the beginning skill dice (the core
    books' rule, a GM reading: digest §3); a droid never has any (003:1002)."""
    return sheet["kind"] != "droid" and settings["force_creation"] == "skill_dice"


def _force_dice_spent(sheet: Mapping[str, Any]) -> int:
    # A Force skill rests on no attribute: every die of it is bought.
    return sum(sheet["force"][skill] for skill in FORCE_SKILL_SLUGS)


def _skill_dice_spent(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    """Creation skill dice in pips: dice above the attribute, advanced double, specs at 1/3,
    and the Force skills whole when the reading in force pays them with skill dice."""
    spent = _force_dice_spent(sheet) if force_paid_with_skill_dice(sheet, settings) else 0
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
                f"{code(attribute)}; a skill starts at its attribute."
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
                f"takes at most {code(cap)} ({GM_READING}).",
                GM_SETTING_SOURCE,
            )
        if info.advanced:
            _check_advanced(sheet, settings, report, info, trait)
    for slug, spec in sheet["specializations"].items():
        trait = f"spec.{slug}"
        label = traits.trait_name(sheet, trait)
        if edition == EDITION_1E:
            report.error(
                "no_specializations_1e",
                trait,
                f"{label}: 1st edition has no specializations.",
            )
        parent = traits.skill_code(sheet, spec["skill"])
        if spec["pips"] < parent:
            text = (
                f"{label} is {code(spec['pips'])}, below its skill's {code(parent)}; it "
                "starts where its skill stands."
            )
            if creation:
                report.error("specialization_below_skill", trait, text, "002:37")
            else:
                report.warn("specialization_below_skill", trait, text, "002:37")
        spec_cap = settings["creation_specialization_cap"] * PIPS
        if creation and edition == EDITION_RE and spec_cap and spec["pips"] - parent > spec_cap:
            report.error(
                "creation_specialization_cap",
                trait,
                f"{label} is {code(spec['pips'] - parent)} above its skill; at creation a "
                f"specialization rises at most {code(spec_cap)} above it ({GM_READING}).",
                GM_SETTING_SOURCE,
            )
    if creation and not droid:
        _check_force_dice(sheet, settings, report)
        allowed = settings["skill_dice"] * PIPS
        spent = _skill_dice_spent(sheet, settings)
        report.add_pool(
            traits.PipPool("skill_dice", "Skill dice", allowed, spent, "pips", GM_SETTING_SOURCE)
        )
        if spent > allowed:
            severity = _severity_for(sheet, "error")
            _report(
                report,
                severity,
                "skill_dice_over",
                None,
                f"{code(spent)} of skill dice spent; creation gives {code(allowed)} "
                f"({GM_READING}).",
                GM_SETTING_SOURCE,
            )
        elif spent < allowed:
            report.warn(
                "skill_dice_left",
                None,
                f"{traits.amount_text(allowed - spent)} of skill dice still to spend.",
            )


def _check_force_dice(sheet: Mapping[str, Any], settings: Mapping[str, Any], report: Report):
    """Count a new character's Force skills under the GM's reading "force_creation".

    With skill dice (the default), R&E's per-skill creation cap holds for them as for any
    skill; with Force dice of their own, they fill a pool of their own.
    """
    force = sheet["force"]
    if force_paid_with_skill_dice(sheet, settings):
        cap = settings["creation_skill_cap"] * PIPS
        if sheet["edition"] != EDITION_RE or not cap:
            return
        for skill in FORCE_SKILL_SLUGS:
            if force[skill] > cap:
                label = FORCE_SKILL_LABELS[skill]
                report.error(
                    "creation_skill_cap",
                    f"force.{skill}",
                    f"{label} has {code(force[skill])} of skill dice; at creation one skill "
                    f"takes at most {code(cap)}, Force skills too ({GM_READING}).",
                    GM_SETTING_SOURCE,
                )
        return
    allowed = settings["creation_force_dice"] * PIPS
    spent = _force_dice_spent(sheet)
    report.add_pool(
        traits.PipPool("force_dice", "Force dice", allowed, spent, "pips", GM_SETTING_SOURCE)
    )
    if spent > allowed:
        report.error(
            "force_dice_over",
            None,
            f"{code(spent)} in Force skills; creation gives {code(allowed)} of Force dice "
            f"({GM_READING}).",
            GM_SETTING_SOURCE,
        )


def _check_advanced(sheet, settings, report: Report, info: traits.SkillInfo, trait: str) -> None:
    if sheet["edition"] == EDITION_1E:
        report.error(
            "no_advanced_skills_1e",
            trait,
            f"{info.label}: 1st edition has no advanced skills.",
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
            f"{info.label} rests on {name} {code(needed)}; {name} is {code(have)} ({GM_READING}).",
            GM_SETTING_SOURCE,
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
                "Force-sensitive character learns Force skills.",
                "002:794",
            )
    if (
        sheet["edition"] == EDITION_1E
        and sheet["stage"] == "creation"
        and learned
        and not force["sensitive"]
        and not sheet["teacher"]["present"]
    ):
        for skill in learned:
            report.error(
                "force_needs_template",
                f"force.{skill}",
                f"{FORCE_SKILL_LABELS[skill]} is {code(force[skill])}, but in 1st edition a "
                f"new character has Force skills only from a Force template ({_templates()}) "
                "or with a teacher or master.",
                "003:1758",
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
            f"Force skill raises still owe powers, one for each ({picks}); the teacher picks them.",
            "002:800",
        )


def _templates() -> str:
    return ", ".join(FORCE_TEMPLATES_1E[:-1]) + " or " + FORCE_TEMPLATES_1E[-1]


def _set_proposal(sheet: Mapping[str, Any], skill: str, settings: Mapping[str, Any]) -> str:
    """When a 1E traditional set cannot fit, say which powers and what the player may do."""
    force = sheet["force"]
    own = FORCE_SKILL_LABELS[skill]
    blocked = []
    for slug in INITIAL_POWERS_1E[skill]:
        needs = traits.power_skills(sheet, slug, settings)
        if slug in force["powers"] or not all(force[s] for s in needs):
            continue
        full = [s for s in overfilled_by(sheet, slug, settings) if s != skill]
        if full:
            where = " and ".join(f"{FORCE_SKILL_LABELS[s]} {code(force[s])}" for s in full)
            blocked.append((traits.power_label(sheet, slug), where))
    if not blocked:
        return ""
    said = "; ".join(f"{label} would overfill {where}" for label, where in blocked)
    return (
        f" Of the traditional {own} set, {said}: drop a power there to take it, or choose "
        f"another {own} power."
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
                f"{traits.power_label(sheet, slug)} needs {' and '.join(missing)}, still at 0D.",
                "003:1822",
            )
    for skill, (used, total) in power_totals(sheet, settings).items():
        if total is None or not force[skill]:
            continue
        label = FORCE_SKILL_LABELS[skill]
        report.add_pool(
            Pool(f"powers_{skill}", f"{label} powers", total, used, "powers", "003:1798", cap=True)
        )
        if used > total:
            report.error(
                "power_total",
                f"force.{skill}",
                f"{used} powers use {label}; {label} {code(force[skill])} holds {total} "
                "(3 per die and 1 per pip).",
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
                    f"{minimum - used} still to choose." + _set_proposal(sheet, skill, settings),
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
        if not kind or not costs.pip_limited(kind, settings):
            continue
        pips = costs.interval_pips(sheet, trait)
        if pips > 1:
            try:
                label = traits.trait_name(sheet, trait)
            except InvalidEdit:  # a removed trait still shows by its key
                label = trait
            report.error(
                "second_pip_between_adventures",
                trait,
                f"{label} rose {pips} pips since the last adventure; a skill rises one pip "
                "between adventures.",
                "002:39",
            )


def _check_dark_side(sheet: Mapping[str, Any], report: Report) -> None:
    points = sheet["points"]["dark_side"]
    if not points:
        return
    faces = consumption_odds(points)
    doom = "1-6, certain" if faces >= 6 else f"1-{faces}"
    note = " (R&E keeps the core book's roll)" if (sheet["edition"] == EDITION_RE) else ""
    report.warn(
        "dark_side_consumption",
        "points.dark_side",
        f"{points} Dark Side Points: when the next one comes the GM rolls 1D and {doom} "
        f"consumes the character{note}.",
        "003:1708",
    )


# --- derived ----------------------------------------------------------------------------------


def _apply_penalty(pips: int, penalty: int) -> int:
    # A penalty bigger than the code leaves 0D, never a negative roll (digest §10.17).
    return max(0, pips + penalty)


def rolled_pips(sheet: Mapping[str, Any], key: str, pips: int) -> int:
    """A code as rolled under the sheet's wound: less its penalty (a 1E stun spares Strength)."""
    wound = WOUND_BY_SLUG[sheet["wound"]]
    if not wound.can_act:
        return pips
    # The stun results a 1E sheet keeps (wounds.py): their dice, none for Strength (003:438).
    stun = -3 * (wounds.stun_dice(sheet, key) or 0)
    if wound.slug == "stunned" and not wounds.stunned_level_counts(sheet):
        return _apply_penalty(pips, stun)
    if wound.spares_strength_in_1e and sheet["edition"] == EDITION_1E and key == "attr.strength":
        return pips
    return _apply_penalty(pips, wound.penalty + stun)


def _rolls_note(sheet: Mapping[str, Any], key: str, pips: int) -> str:
    """Say what a code rolls while a wound takes dice off it, or "" when it rolls as written."""
    if WOUND_BY_SLUG[sheet["wound"]].can_act and wounds.stun_dice(sheet, key) is None:
        out = wounds.stuns_now(sheet).unconscious  # 003:448; else immobile, 003:446
        return "no roll: unconscious from stun" if out else "no roll: immobile from stun"
    rolled = rolled_pips(sheet, key, pips)
    if rolled == pips:
        return ""
    stuns = wounds.stuns_now(sheet).count if sheet.get("stuns") else 0
    while_ = f"{stuns} stun{'s' if stuns > 1 else ''}" if stuns else "stunned"
    if sheet["wound"] not in ("healthy", "stunned"):
        while_ = WOUND_BY_SLUG[sheet["wound"]].label.lower() + (f", {while_}" if stuns else "")
    return f"rolls {code(rolled)} while {while_}"


def _notes(*parts: str) -> str:
    return "; ".join(part for part in parts if part)


def derived(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    """Return values computed from the sheet: effective codes, totals, powers, droid dice."""
    settings = resolve_settings(SETTINGS, settings)
    edition = sheet["edition"]
    wound = WOUND_BY_SLUG[sheet["wound"]]
    penalty = wound.penalty if wound.can_act else 0
    if wound.slug == "stunned" and not wounds.stunned_level_counts(sheet):
        penalty = 0  # the kept stun results say the penalty (wounds.py)

    codes: dict[str, int] = {f"attr.{a}": sheet["attributes"][a] for a in ATTRIBUTE_SLUGS}
    for slug, pips in sheet["skills"].items():
        codes[f"skill.{slug}"] = pips
    for slug, spec in sheet["specializations"].items():
        codes[f"spec.{slug}"] = spec["pips"]
    for skill in FORCE_SKILL_SLUGS:
        if sheet["force"][skill]:
            codes[f"force.{skill}"] = sheet["force"][skill]
    effective = {key: code(rolled_pips(sheet, key, pips)) for key, pips in codes.items()}
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
            # The 1E stun results kept, read with no scene round (the sheet page reads
            # them at its scene's round: layouts/weg_d6.py).
            "stuns": wounds.stuns_shown(sheet) if edition == EDITION_1E else None,
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


# --- status, labels and rows --------------------------------------------------------------


def status(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Status:
    """Summarise the sheet for a GM's list: stage, legal, errors, warnings, unspent points."""
    return Status.from_report(
        check(sheet, settings),
        stage=sheet["stage"],
        unspent=sheet["points"]["character"],
        unit=CURRENCY[sheet["edition"]][0],
    )


FIXED_LABELS = {
    STAGE_TRAIT: "Stage",
    **{f"info.{key}": label for key, label in INFO_TEXT_LABELS.items()},
    "info.description": "Background and description",
    "info.physical": INFO_NOTES["physical"][0],
    "info.quote": QUOTE_LABEL,
    **{f"gear.{key}": label for key, label in GEAR_LABELS.items()},
    "weapon.add": "Add a weapon",
    "weapon.remove": "Remove a weapon",
    "info.edition": "Edition",
    "info.kind": "Kind",
    "info.role": "Role",
    "info.species": "Species",
    "move": "Move",
    "wound": "Wound level",
    "force.sensitive": "Force-sensitive",
    "teacher.present": "Training with a teacher or master",
    "points.character": "Character Points",
    **{f"points.{key}": label for key, label in POINT_LABELS.items()},
    **{f"droid.{key}": label for key, label in DROID_CODE_LABELS.items()},
    "species.name": "Species name",
    "species.move": "Species Move",
    "species.move_max": "Species maximum Move",
    "template.clear": "Drop the alien template",
    "interval.close": "A new adventure begins",
    "interval.forget": "A refunded raise leaves the adventure's window",
    "skill.add": "Add a custom skill",
    "skill.remove": "Remove a skill",
    "spec.add": "Add a specialization",
    "spec.remove": "Remove a specialization",
    "power.add": "Add a Force power",
    "power.remove": "Forget a Force power",
    "advance.power": "Learn a Force power",
    "advance.power.add": "Learn a Force power",
    "equipment.add": "Add a droid item",
    "equipment.remove": "Remove a droid item",
}


def _words(slug: str) -> str:
    return slug.replace("_", " ").capitalize()


def trait_label(trait: str) -> str:
    """Return the player-facing name of any trait key apply_edit takes; else the key itself."""
    if trait in FIXED_LABELS:
        return FIXED_LABELS[trait]
    head, _, rest = trait.partition(".")
    if head == "advance" and rest:
        return f"Advance {trait_label(rest)}"
    if head == "attr" and rest in ATTRIBUTE_BY_SLUG:
        return ATTRIBUTE_BY_SLUG[rest].label
    if head == "force" and rest in FORCE_SKILL_LABELS:
        return FORCE_SKILL_LABELS[rest]
    if head == "teacher" and rest in FORCE_SKILL_LABELS:
        return f"Teacher's {FORCE_SKILL_LABELS[rest]}"
    if head == "template" and rest in ATTRIBUTE_BY_SLUG:
        return f"Template {ATTRIBUTE_BY_SLUG[rest].label}"
    if head == "skill" and rest:
        entry = SKILL_BY_SLUG.get(rest)
        return entry.label if entry else _words(rest)
    if head == "spec" and rest:
        return f"Specialization {_words(rest)}"
    if head == "power" and rest:
        entry = POWER_BY_SLUG.get(rest)
        return entry.label if entry else _words(rest)
    bound, _, attribute = rest.partition(".")
    if head == "species" and bound in ("min", "max") and attribute in ATTRIBUTE_BY_SLUG:
        word = "minimum" if bound == "min" else "maximum"
        return f"Species {ATTRIBUTE_BY_SLUG[attribute].label} {word}"
    index, _, field = rest.partition(".")
    if head == "equipment" and index.isascii() and index.isdigit() and field:
        word = "name" if field == "name" else "extra features"
        return f"Droid item {int(index) + 1} {word}"
    if head == "weapon" and index.isascii() and index.isdigit() and field in WEAPON_FIELD_LABELS:
        word = "name" if field == "name" else WEAPON_FIELD_LABELS[field].lower()
        return f"Weapon {int(index) + 1} {word}"
    return trait


@dataclass(frozen=True)
class CodeRow(TraitRow):
    """A die-code row a player steps a pip at a time, as the classic sheet is kept.

    `down` and `up` are the codes one step below and above, exactly as apply_edit takes
    them (a Force skill is learned at 1D and unlearned to 0D), or "" where there is no
    such step. `remove` is the edit ("trait=raw") that takes the row off the sheet or back
    to untrained, named by `remove_label`.
    """

    down: str = ""
    up: str = ""
    remove: str = ""
    remove_label: str = ""


def _code_row(
    key: str,
    label: str,
    pips: int,
    *,
    section: str,
    group: str = "",
    minimum: int = 0,
    maximum: int = MAX_CODE_PIPS,
    shown: str | None = None,
    next_cost: Cost | None = None,
    locked: str = "",
    setter: Setter = Setter.PLAYER,
    source: str = "",
    note: str = "",
    stepped: bool = False,
    trained: bool = True,
    remove: tuple[str, str] = ("", ""),
    in_play: bool = False,
) -> TraitRow:
    fields: dict[str, Any] = {
        "key": key,
        "label": label,
        "section": section,
        "value": pips,
        "shown": code(pips) if shown is None else shown,
        "kind": RowKind.CODE,
        "minimum": minimum,
        "maximum": maximum,
        "next_cost": next_cost,
        "locked": locked,
        "setter": setter,
        "source": source,
        "group": group,
        "note": note,
    }
    if not stepped:
        return TraitRow(**fields)
    up, down = costs.step_up(key, pips), costs.step_down(key, pips)
    return CodeRow(
        **fields,
        up=code(up) if not locked and up <= maximum else "",
        # In play a bought value goes down only by the ledger's undo or the GM's correction
        # (the edit service refuses a plain lowering): no "−" is offered.
        down=code(down)
        if not locked and trained and down >= minimum and not (in_play and next_cost)
        else "",
        remove=remove[0],
        remove_label=remove[1],
    )


def _number_row(key: str, label: str, value: int, maximum: int, **extra: Any) -> TraitRow:
    return TraitRow(
        key=key,
        label=label,
        value=value,
        shown=str(value),
        kind=RowKind.NUMBER,
        minimum=0,
        maximum=maximum,
        **extra,
    )


def _choice_row(key: str, label: str, value: str, choices: tuple, **extra: Any) -> TraitRow:
    shown = dict(choices).get(value, value)
    return TraitRow(
        key=key,
        label=label,
        value=value,
        shown=shown,
        kind=RowKind.CHOICE,
        choices=tuple(choices),
        **extra,
    )


def _text_row(key: str, label: str, value: str, **extra: Any) -> TraitRow:
    return TraitRow(key=key, label=label, value=value, shown=value, kind=RowKind.TEXT, **extra)


def _flag_row(key: str, label: str, value: bool, **extra: Any) -> TraitRow:
    shown = "yes" if value else "no"
    return TraitRow(key=key, label=label, value=value, shown=shown, kind=RowKind.FLAG, **extra)


def trait_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[TraitRow]:
    """Return one row per trait a player or GM sets, in the order the sheet prints them."""
    settings = resolve_settings(SETTINGS, settings)
    prices = next_costs(sheet, settings)
    rows = _detail_rows(sheet)
    rows += _attribute_rows(sheet, settings, prices)
    rows += _force_rows(sheet, settings, prices)
    rows += _point_rows(sheet, prices)
    rows.append(
        _choice_row(
            "wound",
            "Wound level",
            sheet["wound"],
            wound_choices(sheet),
            section="wounds",
            source="002:553" if sheet["edition"] == EDITION_RE else "003:1840",
        )
    )
    rows += _weapon_rows(sheet)
    if sheet["kind"] == "droid":
        rows += _droid_rows(sheet)
    else:
        rows += _gear_rows(sheet)
        rows += _species_rows(sheet)
    return rows


def _detail_rows(sheet: Mapping[str, Any]) -> list[TraitRow]:
    section = "details"
    rows = [
        _text_row("info.player", "Player", sheet["info"]["player"], section=section),
        _text_row(
            "info.template",
            "Template (character type)",
            sheet["info"]["template"],
            section=section,
        ),
    ]
    if sheet["kind"] != "droid":
        rows.append(
            _choice_row(
                "info.species",
                "Species",
                sheet["species"],
                SPECIES_CHOICES,
                section=section,
                note="A custom species takes the limits the GM sets.",
            )
        )
    rows += [
        _choice_row("info.kind", "Kind", sheet["kind"], KINDS, section=section, source="003:915"),
        _choice_row(
            "info.role",
            "Role",
            sheet["role"],
            ROLES,
            section=section,
            source="003:913",
            note="A player character has 18D of attributes, a non-player character 12D.",
        ),
        _choice_row(STAGE_TRAIT, "Stage", sheet["stage"], STAGE_CHOICES, section=section),
        _choice_row(
            "info.edition",
            "Edition of this sheet",
            sheet["edition"],
            EDITIONS,
            section=section,
        ),
        _text_row(
            "info.description",
            "Background and description",
            sheet["info"]["description"],
            section=section,
            maximum=INFO_NOTES["description"][1],
        ),
    ]
    if sheet["kind"] != "droid":
        # The classic template's looks and quote; a droid's looks are its equipment.
        rows += [
            TraitRow(
                key="info.physical",
                label=INFO_NOTES["physical"][0],
                section="background",
                value=sheet["info"]["physical"],
                shown=sheet["info"]["physical"],
                kind=RowKind.NOTES,
                maximum=INFO_NOTES["physical"][1],
            ),
            _text_row(
                "info.quote",
                QUOTE_LABEL,
                sheet["info"]["quote"],
                section="background",
                maximum=QUOTE_LIMIT,
            ),
        ]
    return rows


def _weapon_rows(sheet: Mapping[str, Any]) -> list[TraitRow]:
    rows = []
    for index, weapon in enumerate(sheet["weapons"]):
        for field, label in WEAPON_FIELD_LABELS.items():
            rows.append(
                _text_row(
                    f"weapon.{index}.{field}",
                    label,
                    weapon[field],
                    section="weapons",
                    group=f"Weapon {index + 1}",
                    maximum=WEAPON_TEXT_LIMITS.get(field),
                    note="a code, or STR+1D for a weapon swung with Strength (003:2702)"
                    if field == "damage" and not weapon[field]
                    else "",
                )
            )
    return rows


def _gear_rows(sheet: Mapping[str, Any]) -> list[TraitRow]:
    gear = sheet["gear"]
    return [
        _number_row(
            "gear.credits", GEAR_LABELS["credits"], gear["credits"], MAX_CREDITS, section="gear"
        ),
        TraitRow(
            key="gear.equipment",
            label=GEAR_LABELS["equipment"],
            section="gear",
            value=gear["equipment"],
            shown=gear["equipment"],
            kind=RowKind.NOTES,
            maximum=EQUIPMENT_TEXT_LIMIT,
        ),
    ]


def _over(pips: int, base: int) -> str:
    """A code as dice over what it rests on ("+1D"): how a player writes a skill, and the
    form "+1D" typed into the field stands for (edits.parse_skill_code)."""
    if pips <= base:
        return ""
    return DieCode.from_pips(pips - base).format(signed=True) + " over it"


def _skill_note(sheet: Mapping[str, Any], info: traits.SkillInfo, settings: Mapping) -> str:
    notes = []
    if info.slug not in sheet["skills"]:
        attribute = ATTRIBUTE_BY_SLUG[info.attribute]
        pips = sheet["attributes"][info.attribute]
        notes.append(f"untrained: rolls {code(pips)} ({attribute.label})")
        notes.append(_rolls_note(sheet, f"attr.{info.attribute}", pips))
    else:
        pips = sheet["skills"][info.slug]
        notes.append(_over(pips, sheet["attributes"][info.attribute]))
        notes.append(_rolls_note(sheet, f"skill.{info.slug}", pips))
    if info.advanced:
        prerequisite = traits.skill_info(sheet, info.prerequisite or "")
        needs = settings["advanced_prerequisite_dice"]
        notes.append(
            "advanced: double cost"
            + (f", needs {prerequisite.label} {needs}D" if prerequisite else "")
        )
    if info.custom:
        notes.append("custom")
    elif SKILL_BY_SLUG[info.slug].outside:
        notes.append("from the core book")
    return _notes(*notes)


def _attribute_rows(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], prices: Mapping[str, Cost]
) -> list[TraitRow]:
    species = traits.species_of(sheet)
    droid = sheet["kind"] == "droid"
    edition_1e = sheet["edition"] == EDITION_1E
    rows = []
    for attribute in ATTRIBUTES:
        slug = attribute.slug
        key = f"attr.{slug}"
        limits = (
            ""
            if droid
            else f"{species.label} {code(species.minimum[slug])}–{code(species.maximum[slug])}"
        )
        rows.append(
            _code_row(
                key,
                attribute.label,
                sheet["attributes"][slug],
                section="attributes",
                group=attribute.label,
                minimum=LOWEST_ATTRIBUTE_PIPS,
                next_cost=prices.get(key),
                source=attribute.source,
                note=_notes(limits, _rolls_note(sheet, key, sheet["attributes"][slug])),
                stepped=True,
                in_play=sheet["stage"] == Stage.PLAY,
            )
        )
        catalog = [s.slug for s in SKILLS if s.attribute == slug]
        custom = [k for k, c in sheet["custom_skills"].items() if c["attribute"] == slug]
        for skill_slug in catalog + custom:
            info = traits.skill_info(sheet, skill_slug)
            trained = skill_slug in sheet["skills"]
            if info.advanced and edition_1e and not trained:
                continue  # 1st edition has no advanced skills to offer
            skill_key = f"skill.{skill_slug}"
            pips = traits.skill_code(sheet, skill_slug)
            locked = "1st edition has no advanced skills." if info.advanced and edition_1e else ""
            rows.append(
                _code_row(
                    skill_key,
                    info.label,
                    pips,
                    section="attributes",
                    group=attribute.label,
                    shown=code(pips) if trained else "",
                    next_cost=prices.get(skill_key),
                    locked=locked,
                    source="" if info.custom else SKILL_BY_SLUG[skill_slug].source,
                    note=_skill_note(sheet, info, settings),
                    stepped=True,
                    in_play=sheet["stage"] == Stage.PLAY,
                    trained=trained,
                    remove=_skill_removal(skill_key, info, trained and not locked),
                )
            )
            for spec_slug, spec in sheet["specializations"].items():
                if spec["skill"] != skill_slug:
                    continue
                spec_key = f"spec.{spec_slug}"
                rows.append(
                    _code_row(
                        spec_key,
                        f"{info.label}: {spec['name']}",
                        spec["pips"],
                        section="attributes",
                        group=attribute.label,
                        next_cost=prices.get(spec_key),
                        source="002:37",
                        note=_notes(
                            "1st edition has no specializations." if edition_1e else "",
                            _over(spec["pips"], pips),
                            _rolls_note(sheet, spec_key, spec["pips"]),
                        ),
                        stepped=True,
                        in_play=sheet["stage"] == Stage.PLAY,
                        remove=(f"spec.remove={spec_slug}", "remove"),
                    )
                )
    return rows


def _skill_removal(key: str, info: traits.SkillInfo, untrainable: bool) -> tuple[str, str]:
    """The edit that takes a skill off: a custom one goes, a catalog one goes untrained."""
    if info.custom:
        return f"skill.remove={info.slug}", "remove"
    return (f"{key}=", "untrain") if untrainable else ("", "")


def _power_total_note(sheet: Mapping[str, Any], settings: Mapping, skill: str) -> str:
    used, total = power_totals(sheet, settings)[skill]
    if total is None:
        return f"{used} power{'s' if used != 1 else ''} use it"
    return f"powers {used} of {total} (3 per die and 1 per pip)"


def _force_rows(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], prices: Mapping[str, Cost]
) -> list[TraitRow]:
    edition_1e = sheet["edition"] == EDITION_1E
    droid = sheet["kind"] == "droid"
    force = sheet["force"]
    rows = [
        _flag_row(
            "force.sensitive",
            "Force-sensitive",
            force["sensitive"],
            section="force",
            next_cost=None if force["sensitive"] else prices.get("force.sensitive"),
            locked="Droids are never Force-sensitive." if droid else "",
            # 1E: the Force comes with a Force template or a master's training, the GM's
            # call; R&E: the player buys it (20 CP in play).
            setter=Setter.GM if edition_1e else Setter.PLAYER,
            source="003:1758" if edition_1e else "002:59",
            note=f"Marks a Force template ({_templates()}) or a master's training, as the GM "
            "allows; a new character's Force skills need it, or a teacher."
            if edition_1e
            else "Needed before any Force skill.",
        )
    ]
    # In play an R&E player never steps a Force skill down (advancement.plain_play_refusals):
    # the ledger's undo and the GM's correction lower it, so no "−" is offered.
    steps_down = not (sheet["stage"] == Stage.PLAY and sheet["edition"] == EDITION_RE)
    for slug, label in FORCE_SKILLS:
        key = f"force.{slug}"
        rows.append(
            _code_row(
                key,
                label,
                force[slug],
                section="force",
                next_cost=prices.get(key),
                locked=force_skill_lock(sheet, slug),
                source="003:1820" if edition_1e else "002:794",
                note=_notes(
                    _power_total_note(sheet, settings, slug),
                    _rolls_note(sheet, key, force[slug]) if force[slug] else "",
                ),
                stepped=True,
                in_play=sheet["stage"] == Stage.PLAY,
                trained=bool(force[slug]) and steps_down,
            )
        )
    teacher = sheet["teacher"]
    # The teacher or master is a character the GM brings into the story (003:1758-1760).
    rows.append(
        _flag_row(
            "teacher.present",
            "Training with a teacher or master",
            teacher["present"],
            section="force",
            group="Teacher",
            setter=Setter.GM,
            source="003:1758" if edition_1e else "002:798",
            note="Without one, Force skills cost double."
            if not edition_1e
            else "A 0D Force skill is learned only from a teacher or master.",
        )
    )
    for slug, label in FORCE_SKILLS:
        rows.append(
            _code_row(
                f"teacher.{slug}",
                f"Teacher's {label}",
                teacher[slug],
                section="force",
                group="Teacher",
                setter=Setter.GM,
                source="003:1770",
                note="A raise above the teacher's code costs double." if edition_1e else "",
            )
        )
    return rows


def _point_rows(sheet: Mapping[str, Any], prices: Mapping[str, Cost]) -> list[TraitRow]:
    points = sheet["points"]
    rows = [
        _number_row(
            "points.character",
            point_label(sheet, "character"),
            points["character"],
            MAX_POINTS,
            section="points",
            source="003:1762" if sheet["edition"] == EDITION_1E else "002:43",
        ),
        _number_row(
            "points.force",
            point_label(sheet, "force"),
            points["force"],
            MAX_POINTS,
            section="points",
            source="003:1004",
        ),
        _number_row(
            "points.dark_side",
            point_label(sheet, "dark_side"),
            points["dark_side"],
            MAX_POINTS,
            section="points",
            # The GM judges which act earns one, and what the GM says goes.
            setter=Setter.GM,
            source="003:1714",
        ),
    ]
    if sheet["edition"] != EDITION_1E and sheet["kind"] != "droid":
        species = traits.species_of(sheet)
        rows.append(
            _number_row(
                "move",
                "Move",
                sheet["move"],
                MAX_MOVE,
                section="points",
                next_cost=prices.get("move"),
                source="002:55",
                note=f"{species.label} maximum {species.move_max}",
            )
        )
    return rows


def _droid_rows(sheet: Mapping[str, Any]) -> list[TraitRow]:
    droid = sheet["droid"]
    rows = [
        _code_row(
            "droid.speed",
            "Speed code",
            droid["speed"],
            section="droid",
            source="003:935",
            note="3D of building dice per 1D above Dexterity",
            stepped=True,
        ),
        _code_row(
            "droid.armor",
            "Armor",
            droid["armor"],
            section="droid",
            source="003:935",
            note="3D of building dice per 1D",
            stepped=True,
        ),
    ]
    for index, item in enumerate(droid["equipment"]):
        group = f"{EQUIPMENT_NOUN.capitalize()} {index + 1}"
        rows.append(
            _text_row(
                f"equipment.{index}.name",
                "Item",
                item["name"],
                section="droid",
                group=group,
                source="003:937",
            )
        )
        rows.append(
            _number_row(
                f"equipment.{index}.features",
                "Extra features",
                item["features"],
                MAX_FEATURES,
                section="droid",
                group=group,
                source="003:945",
                note=f"this item takes {code(droids.item_pips(item))} of building dice",
            )
        )
    return rows


def _species_rows(sheet: Mapping[str, Any]) -> list[TraitRow]:
    rows = []
    if sheet["species"] == CUSTOM_SPECIES:
        custom = sheet["custom_species"]
        # The GM's own species: its limits are the GM's to set (002:53 leaves them to the
        # species description, which only the GM writes for a new species).
        gm = {"section": "species", "setter": Setter.GM, "source": "002:53"}
        rows += [
            _text_row("species.name", "Species name", custom["name"], **gm),
            _number_row("species.move", "Move", custom["move"], MAX_MOVE, **gm),
            _number_row("species.move_max", "Maximum Move", custom["move_max"], MAX_MOVE, **gm),
        ]
        for attribute in ATTRIBUTES:
            for bound, word in (("min", "minimum"), ("max", "maximum")):
                low, high = species_bounds(sheet, bound, attribute.slug)
                rows.append(
                    _code_row(
                        f"species.{bound}.{attribute.slug}",
                        f"{attribute.label} {word}",
                        custom[word][attribute.slug],
                        group=attribute.label,
                        minimum=low,
                        maximum=high,
                        **gm,
                    )
                )
    template = sheet["alien_template"]
    if template is not None:
        for attribute in ATTRIBUTES:
            rows.append(
                _code_row(
                    f"template.{attribute.slug}",
                    attribute.label,
                    template[attribute.slug],
                    section="species",
                    group="Alien template",
                    source="003:911",
                    note="The template plus 6D, at least 1D to each attribute",
                )
            )
    return rows
