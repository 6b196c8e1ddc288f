"""apply_edit: one trait of a WEG d6 sheet set from the raw text a form sent.

Trait keys (raw is what the form submits):

    stage "creation" | "play"; info.player|template|description|physical|quote (text);
    info.edition|kind|role|species (a choice)
    attr.<attribute> "3D+1"; move "11"; wound "wounded"
    species.name, species.move, species.move_max, species.min.<attr>, species.max.<attr>
    template.<attr> "2D" / template.clear          the 1E alien template
    skill.<slug> "4D+2", or "+1D" for the attribute plus 1D ("" resets it to the
        attribute); skill.add "Name|DEX" or
        "Name|TEC|advanced:first_aid" (an empty third part is no advanced skill);
        skill.remove "<slug>"
    spec.add "Name|<skill>"; spec.<slug> "6D" or "+1D" (its skill plus 1D); spec.remove
        "<slug>"
    force.sensitive yes/no; force.control|sense|alter "1D"
    power.add "<slug>" or "Name|control+sense"; power.remove "<slug>" (gives back the
        R&E picks it used under the reading forgotten_power_picks; in play, a power learned
        this adventure is undone on the ledger, whose power.undo always gives them back)
    points.character|force|dark_side; teacher.present yes/no; teacher.control|sense|alter
    droid.speed|armor "2D"; equipment.add "Name|features"; equipment.<i>.name|features;
        equipment.remove "<i>" (rows count from 0 in keys, from 1 in messages)
    weapon.add "Name" or "Name|damage"; weapon.<i>.name|damage|range|ammo; weapon.remove "<i>"
    gear.credits "1200"; gear.equipment (text)
    advance.<trait> "<new code>"   a paid raise: the one-pip rule, points spent, recorded
        in interval; advance.force.sensitive; advance.power (or advance.power.add) "<slug>"
    interval.close                 a new adventure: the one-pip window starts over
    interval.forget "<trait>"      a refunded purchase leaves the window (the ledger's undo;
        a plain edit may not send it in play)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rulesets.core import DieCode, InvalidEdit, Stage, resolve_settings
from rulesets.core.diecode import DieCodeError
from rulesets.core.edits import copy_sheet
from rulesets.core.parsing import (
    parse_choice,
    parse_code,
    parse_flag,
    parse_notes,
    parse_row_index,
    parse_text,
    parse_whole,
)
from rulesets.core.stage import STAGE_TRAIT, change_stage
from rulesets.weg_d6 import costs, darkside, traits, wounds
from rulesets.weg_d6.data import (
    ATTRIBUTE_ALIASES,
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTE_SLUGS,
    CURRENCY,
    DESCRIPTION_LIMIT,
    DROID_BASE_ATTRIBUTE_PIPS,
    DROID_PC_STARTING_FORCE_POINTS,
    EDITION_1E,
    EDITION_RE,
    EDITIONS,
    EQUIPMENT_TEXT_LIMIT,
    FORCE_SKILL_LABELS,
    FORCE_SKILL_SLUGS,
    INITIAL_POWERS_1E,
    KINDS,
    LEARNED_FORCE_SKILL_PIPS,
    LOWEST_ATTRIBUTE_PIPS,
    MAX_CODE_PIPS,
    MAX_CREDITS,
    MAX_CUSTOM_POWERS,
    MAX_CUSTOM_SKILLS,
    MAX_EQUIPMENT,
    MAX_FEATURES,
    MAX_INTERVAL,
    MAX_MOVE,
    MAX_POINTS,
    MAX_SPECIALIZATIONS,
    MAX_WEAPONS,
    NAME_LIMIT,
    PHYSICAL_LIMIT,
    POWER_BY_SLUG,
    QUOTE_LIMIT,
    ROLES,
    SPECIES_CHOICES,
    WEAPON_TEXT_LIMITS,
    WOUND_BY_SLUG,
    WOUND_SLUGS_BY_EDITION,
)
from rulesets.weg_d6.force import (
    force_order_problem,
    force_skill_steps,
    learning_this_adventure,
    overfilled_by,
    picks_in_skill_order,
    picks_spent,
)
from rulesets.weg_d6.settings import SETTINGS
from rulesets.weg_d6.traits import code_text as code

Handler = Callable[[dict, str, str, str, Mapping[str, Any]], None]

INFO_TEXT_LABELS = {"player": "Player", "template": "Template"}
INFO_NOTES = {
    "description": ("Background and description", DESCRIPTION_LIMIT),
    "physical": ("Physical description", PHYSICAL_LIMIT),
}
QUOTE_LABEL = "Quote"
WEAPON_NOUN = "weapon"
WEAPON_FIELD_LABELS = {"name": "Weapon", "damage": "Damage", "range": "Range", "ammo": "Ammo"}
GEAR_LABELS = {"credits": "Credits", "equipment": "Equipment"}
POINT_LABELS = {"force": "Force Points", "dark_side": "Dark Side Points"}
DROID_CODE_LABELS = {"speed": "Speed code", "armor": "Armor"}
EQUIPMENT_NOUN = "droid item"


def apply_edit(sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any]) -> dict:
    """Return a new sheet with one trait changed, or raise InvalidEdit saying why not."""
    settings = resolve_settings(SETTINGS, settings)
    new = copy_sheet(dict(sheet))
    head, _, rest = (trait or "").partition(".")
    handler = _HANDLERS.get(head)
    if handler is None:
        raise _unknown(trait)
    handler(new, trait, rest, "" if raw is None else str(raw).strip(), settings)
    return new


def _unknown(trait: str) -> InvalidEdit:
    return InvalidEdit(trait, f"“{trait}” is not a trait of this sheet.")


def _edit_stage(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    # WEG keeps no snapshot of creation: its checks read the stage itself.
    change_stage(sheet, raw, freeze=_keep_as_is, reopen=_keep_as_is)


def _keep_as_is(sheet: dict) -> None:
    """Leave the sheet as it is when the stage changes."""


def _edit_info(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest in INFO_TEXT_LABELS:
        sheet["info"][rest] = parse_text(trait, raw, label=INFO_TEXT_LABELS[rest], limit=NAME_LIMIT)
    elif rest in INFO_NOTES:
        label, limit = INFO_NOTES[rest]
        sheet["info"][rest] = parse_notes(trait, raw, label=label, limit=limit)
    elif rest == "quote":
        sheet["info"][rest] = parse_text(trait, raw, label=QUOTE_LABEL, limit=QUOTE_LIMIT)
    elif rest == "edition":
        sheet["edition"] = parse_choice(trait, raw, EDITIONS, label="Edition")
        if sheet["edition"] == EDITION_1E and sheet["wound"] == "wounded_twice":
            # 1E has no such level: a second wound incapacitates (003:1840).
            sheet["wound"] = "incapacitated"
        if sheet["edition"] != EDITION_1E:
            sheet["stuns"] = []  # R&E reads stun on the core chart: no results kept (002:561)
    elif rest == "kind":
        kind = parse_choice(trait, raw, KINDS, label="Kind")
        if kind != sheet["kind"]:
            _switch_kind(sheet, kind)
    elif rest == "role":
        sheet["role"] = parse_choice(trait, raw, ROLES, label="Role")
    elif rest == "species":
        sheet["species"] = parse_choice(trait, raw, SPECIES_CHOICES, label="Species")
    else:
        raise _unknown(trait)


def _switch_kind(sheet: dict, kind: str) -> None:
    sheet["kind"] = kind
    if kind == "droid":
        # Droids start every attribute at 1D and never touch the Force (003:929, 003:1002).
        sheet["attributes"] = dict.fromkeys(ATTRIBUTE_SLUGS, DROID_BASE_ATTRIBUTE_PIPS)
        sheet["droid"]["speed"] = DROID_BASE_ATTRIBUTE_PIPS
        for skill in FORCE_SKILL_SLUGS:
            sheet["force"][skill] = 0
        sheet["force"].update(sensitive=False, powers=[], power_picks=[], power_picks_spent={})
        if sheet["role"] == "pc":
            sheet["points"]["force"] = DROID_PC_STARTING_FORCE_POINTS
    else:
        minimum = traits.species_of(sheet).minimum
        # A GM's species may allow 0D; an attribute on the sheet is still at least 1D.
        sheet["attributes"] = {a: max(LOWEST_ATTRIBUTE_PIPS, minimum[a]) for a in ATTRIBUTE_SLUGS}


def _edit_attribute(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest not in ATTRIBUTE_BY_SLUG:
        raise _unknown(trait)
    sheet["attributes"][rest] = parse_code(
        trait,
        raw,
        label=ATTRIBUTE_BY_SLUG[rest].label,
        minimum=LOWEST_ATTRIBUTE_PIPS,
        maximum=MAX_CODE_PIPS,
    )


def species_bounds(sheet: Mapping[str, Any], bound: str, attribute: str) -> tuple[int, int]:
    """The range a custom species' minimum or maximum may take: never crossing the other."""
    custom = sheet["custom_species"]
    if bound == "min":
        return 0, custom["maximum"][attribute]
    return custom["minimum"][attribute], MAX_CODE_PIPS


def _edit_species(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    custom = sheet["custom_species"]
    bound, _, attribute = rest.partition(".")
    if rest == "name":
        custom["name"] = parse_text(trait, raw, label="Species name", limit=NAME_LIMIT)
    elif rest in ("move", "move_max"):
        label = "Move" if rest == "move" else "Maximum Move"
        custom[rest] = parse_whole(trait, raw, label=label, minimum=0, maximum=MAX_MOVE)
    elif bound in ("min", "max") and attribute in ATTRIBUTE_BY_SLUG:
        low, high = species_bounds(sheet, bound, attribute)
        word = "minimum" if bound == "min" else "maximum"
        custom[word][attribute] = parse_code(
            trait,
            raw,
            label=f"{ATTRIBUTE_BY_SLUG[attribute].label} {word}",
            minimum=low,
            maximum=high,
        )
    else:
        raise _unknown(trait)


def _edit_template(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "clear":
        sheet["alien_template"] = None
        return
    if rest not in ATTRIBUTE_BY_SLUG:
        raise _unknown(trait)
    pips = parse_code(
        trait, raw, label=f"Template {ATTRIBUTE_BY_SLUG[rest].label}", maximum=MAX_CODE_PIPS
    )
    if sheet["alien_template"] is None:
        # A Sourcebook template is an NPC, so it starts from the 12D norm (003:913).
        sheet["alien_template"] = dict.fromkeys(ATTRIBUTE_SLUGS, 6)
    sheet["alien_template"][rest] = pips


def _edit_skill(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "add":
        _add_custom_skill(sheet, trait, raw)
        return
    if rest == "remove":
        if traits.skill_info(sheet, raw) is None:
            raise InvalidEdit(trait, f"“{raw}” is not a skill on this sheet.")
        sheet["skills"].pop(raw, None)
        sheet["custom_skills"].pop(raw, None)
        sheet["specializations"] = {
            slug: spec for slug, spec in sheet["specializations"].items() if spec["skill"] != raw
        }
        return
    info = traits.skill_info(sheet, rest)
    if info is None:
        raise _unknown(trait)
    if info.advanced and sheet["edition"] == EDITION_1E:
        raise InvalidEdit(trait, "1st edition has no advanced skills.")
    if raw == "":
        sheet["skills"].pop(rest, None)
        return
    attribute = ATTRIBUTE_BY_SLUG[info.attribute].label
    base = sheet["attributes"][info.attribute]
    sheet["skills"][rest] = parse_skill_code(trait, raw, info.label, base, attribute)


def parse_skill_code(trait: str, raw: str, label: str, base: int, base_label: str) -> int:
    """Read a skill's code: "4D+1" as written, "+1D" as its base plus 1D.

    A WEG player writes a skill as dice over its attribute ("Dodge +1D"), and a
    specialization as dice over its skill: a code with a leading "+" means that, never a
    code of its own. A leading "-" is a penalty, no code for a skill, and is refused.
    """
    if not raw.startswith("+"):
        return parse_code(trait, raw, label=label, maximum=MAX_CODE_PIPS)
    try:
        offset = DieCode.parse(raw).total_pips
    except DieCodeError as error:
        raise InvalidEdit(trait, f"{label}: {error}") from None
    pips = base + offset
    if pips > MAX_CODE_PIPS:
        raise InvalidEdit(
            trait,
            f"{label}: {base_label} {code(base)} {raw} comes to {code(pips)}; a code is at "
            f"most {code(MAX_CODE_PIPS)}.",
        )
    return pips


def _add_custom_skill(sheet: dict, trait: str, raw: str) -> None:
    parts = [part.strip() for part in raw.split("|")]
    if len(parts) == 3 and not parts[2]:
        parts.pop()  # an "add" row's advanced choice left at "not advanced"
    if len(parts) not in (2, 3) or not parts[0]:
        raise InvalidEdit(
            trait, "Write the new skill as Name|attribute, or Name|attribute|advanced:prerequisite."
        )
    if len(sheet["custom_skills"]) >= MAX_CUSTOM_SKILLS:
        raise InvalidEdit(trait, f"A sheet keeps at most {MAX_CUSTOM_SKILLS} custom skills.")
    name = parse_text(trait, parts[0], label="Skill name", limit=NAME_LIMIT)
    attribute = ATTRIBUTE_ALIASES.get(parts[1].lower())
    if attribute is None:
        raise InvalidEdit(
            trait,
            f"“{parts[1]}” is not an attribute; use Dexterity, Knowledge, Mechanical, "
            "Perception, Strength or Technical.",
        )
    slug = traits.slugify(name)
    if not slug or traits.skill_info(sheet, slug) is not None:
        raise InvalidEdit(trait, f"There is already a skill called {name}.")
    advanced, prerequisite = False, None
    if len(parts) == 3:
        flag, _, prerequisite_text = parts[2].partition(":")
        if flag.lower() != "advanced":
            raise InvalidEdit(trait, "The third part can only be advanced:prerequisite.")
        if sheet["edition"] == EDITION_1E:
            raise InvalidEdit(trait, "1st edition has no advanced skills.")
        advanced = True
        prerequisite = traits.slugify(prerequisite_text) or None
        if prerequisite is not None and traits.skill_info(sheet, prerequisite) is None:
            raise InvalidEdit(trait, f"“{prerequisite_text}” is not a skill to rest on.")
    sheet["custom_skills"][slug] = {
        "name": name,
        "attribute": attribute,
        "advanced": advanced,
        "prerequisite": prerequisite,
    }


def _edit_specialization(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "add":
        if sheet["edition"] == EDITION_1E:
            raise InvalidEdit(trait, "1st edition has no specializations.")
        if len(sheet["specializations"]) >= MAX_SPECIALIZATIONS:
            raise InvalidEdit(
                trait, f"A sheet keeps at most {MAX_SPECIALIZATIONS} specializations."
            )
        name_text, _, parent_text = (part.strip() for part in raw.partition("|"))
        # Players write the skill as it reads on the sheet ("Space transports"), not its key.
        parent = traits.slugify(parent_text)
        if not name_text or traits.skill_info(sheet, parent) is None:
            raise InvalidEdit(
                trait, "Write the specialization as Name|skill, e.g. YT-1300|Space transports."
            )
        name = parse_text(trait, name_text, label="Specialization", limit=NAME_LIMIT)
        slug = traits.slugify(f"{parent} {name}")
        if slug in sheet["specializations"]:
            raise InvalidEdit(trait, f"{name} is already a specialization of that skill.")
        # A specialization starts where its skill stands, then improves on its own (002:37).
        sheet["specializations"][slug] = {
            "name": name,
            "skill": parent,
            "pips": traits.skill_code(sheet, parent),
        }
    elif rest == "remove":
        if sheet["specializations"].pop(raw, None) is None:
            raise InvalidEdit(trait, f"“{raw}” is not a specialization on this sheet.")
    elif rest in sheet["specializations"]:
        label = traits.trait_name(sheet, trait)
        parent = sheet["specializations"][rest]["skill"]
        parent_info = traits.skill_info(sheet, parent)
        sheet["specializations"][rest]["pips"] = parse_skill_code(
            trait,
            raw,
            label,
            traits.skill_code(sheet, parent),
            parent_info.label if parent_info else parent,
        )
    else:
        raise _unknown(trait)


def force_skill_lock(sheet: Mapping[str, Any], skill: str) -> str:
    """Why a Force skill cannot be given dice now, in plain words, or ""."""
    if sheet["kind"] == "droid":
        return "Droids may never have Force skills."
    if sheet["edition"] == EDITION_RE and not sheet["force"]["sensitive"]:
        return f"Only a Force-sensitive character has {FORCE_SKILL_LABELS[skill]}; mark it first."
    return ""


def _edit_force(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "sensitive":
        value = parse_flag(trait, raw, label="Force-sensitive")
        if value and sheet["kind"] == "droid":
            raise InvalidEdit(trait, "Droids may never have Force skills.")
        sheet["force"]["sensitive"] = value
        return
    if rest not in FORCE_SKILL_LABELS:
        raise _unknown(trait)
    label = FORCE_SKILL_LABELS[rest]
    pips = parse_code(trait, raw or "0D", label=label, maximum=MAX_CODE_PIPS)
    lock = force_skill_lock(sheet, rest)
    if pips and lock:
        raise InvalidEdit(trait, lock)
    if 0 < pips < LEARNED_FORCE_SKILL_PIPS:
        raise InvalidEdit(trait, "A Force skill starts at 1D when learned.")
    learned_now = sheet["force"][rest] == 0 and pips > 0
    lowered_by = force_skill_steps(pips, sheet["force"][rest])
    sheet["force"][rest] = pips
    if learned_now and sheet["edition"] == EDITION_1E:
        _grant_initial_powers(sheet, rest, settings)
    if lowered_by:
        _take_back_picks(sheet, rest, lowered_by)


def _take_back_picks(sheet: dict, skill: str, steps: int) -> None:
    """Take back the picks the lowered pips brought (002:800), one per step: unused ones
    first, then those that taught a power, newest first.

    Only the GM's correction gets that far in play (a player's lowering is refused, and the
    ledger refunds no raise before the power its pick taught: advancement.py). The power
    stays, the GM's to drop; the pick goes with its pip, so dropping the power later gives
    back none that no pip owes.
    """
    picks = list(sheet["force"]["power_picks"])
    spent = {slug: list(used) for slug, used in picks_spent(sheet).items()}
    for _ in range(steps):
        if skill in picks:
            picks.remove(skill)
            continue
        newest = next(
            (slug for slug in reversed(sheet["force"]["powers"]) if skill in spent.get(slug, ())),
            None,
        )
        if newest is None:
            break
        # Kept, even empty: the power is on record as holding no pick (force.py).
        spent[newest].remove(skill)
    sheet["force"]["power_picks"] = picks
    sheet["force"]["power_picks_spent"] = spent


def _grant_initial_powers(sheet: dict, skill: str, settings: Mapping) -> None:
    """Give the traditional three powers that come with a 1E skill's first die (003:1778).

    A power that would break a power total under the reading in force is left out: the
    sheet then proposes the choice (rules.py, "initial_set_swap").
    """
    for slug in INITIAL_POWERS_1E[skill]:
        needs = traits.power_skills(sheet, slug, settings)
        if slug in sheet["force"]["powers"] or not all(sheet["force"][s] for s in needs):
            continue
        if not overfilled_by(sheet, slug, settings):
            sheet["force"]["powers"].append(slug)


def _parse_power(sheet: dict, trait: str, raw: str) -> tuple[str, dict | None]:
    """A catalog slug, or "Name|control+sense" for a power from outside the seeds."""
    if "|" not in raw:
        slug = traits.slugify(raw)
        if slug not in POWER_BY_SLUG and slug not in sheet["force"]["custom_powers"]:
            raise InvalidEdit(trait, f"“{raw}” is not a Force power; add others as Name|skills.")
        return slug, None
    name_text, _, skills_text = (part.strip() for part in raw.partition("|"))
    skills = [s.strip().lower() for s in skills_text.replace(",", "+").split("+") if s.strip()]
    if not name_text or not skills or not set(skills) <= set(FORCE_SKILL_SLUGS):
        raise InvalidEdit(trait, "Write a new power as Name|control+sense (control, sense, alter).")
    if len(sheet["force"]["custom_powers"]) >= MAX_CUSTOM_POWERS:
        raise InvalidEdit(trait, f"A sheet keeps at most {MAX_CUSTOM_POWERS} custom powers.")
    name = parse_text(trait, name_text, label="Power name", limit=NAME_LIMIT)
    slug = traits.slugify(name)
    if not slug or slug in POWER_BY_SLUG or slug in sheet["force"]["custom_powers"]:
        raise InvalidEdit(trait, f"{name} already exists; add it by its key {slug}.")
    return slug, {"name": name, "skills": [s for s in FORCE_SKILL_SLUGS if s in skills]}


def _power_problems(sheet: dict, slug: str, settings: Mapping) -> str:
    """Why a power cannot be learned now, or "" (skills missing, power total full)."""
    label = traits.power_label(sheet, slug)
    if slug in sheet["force"]["powers"]:
        return f"{label} is already learned."
    needs = traits.power_skills(sheet, slug, settings)
    missing = [FORCE_SKILL_LABELS[s] for s in needs if sheet["force"][s] == 0]
    if missing:
        return f"{label} needs {' and '.join(missing)}, still at 0D."
    for skill in overfilled_by(sheet, slug, settings):
        pips = sheet["force"][skill]
        return (
            f"{FORCE_SKILL_LABELS[skill]} {code(pips)} holds {pips} powers and all are "
            "learned (3 per die and 1 per pip)."
        )
    return ""


def _edit_power(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "add":
        slug, custom = _parse_power(sheet, trait, raw)
        if custom is not None:
            sheet["force"]["custom_powers"][slug] = custom
        problem = _power_problems(sheet, slug, settings)
        if problem:
            raise InvalidEdit(trait, problem)
        sheet["force"]["powers"].append(slug)
    elif rest in ("remove", "undo"):
        slug = traits.slugify(raw)
        if slug not in sheet["force"]["powers"]:
            raise InvalidEdit(trait, f"“{raw}” is not a learned power.")
        problem = _learned_this_adventure(sheet, slug)
        if problem:
            raise InvalidEdit(trait, problem)
        sheet["force"]["powers"].remove(slug)
        sheet["force"]["custom_powers"].pop(slug, None)
        # The ledger's undo ("undo") restores the sheet as before the learning; forgetting
        # a power on the sheet follows the GM's reading.
        returned = rest == "undo" or settings["forgotten_power_picks"] == "returned"
        _give_back_picks(sheet, slug, returned=returned)
    else:
        raise _unknown(trait)


def _learned_this_adventure(sheet: Mapping[str, Any], slug: str) -> str:
    """Why a power learned in play this adventure is not dropped on the sheet, or "".

    Its purchase is still the player's to undo on the ledger, which gives back what it
    took; a removal here would keep the points and leave that undo nothing to undo
    (force.py). Once the adventure ends the sheet may forget it: no undo is left to keep.
    """
    if sheet["stage"] != Stage.PLAY:
        return ""
    learning = learning_this_adventure(sheet, slug)
    if learning is None:
        return ""
    took = []
    if learning["cost"]:
        points = CURRENCY[sheet["edition"]][1]
        took.append(f"1 {points[:-1]}" if learning["cost"] == 1 else f"{learning['cost']} {points}")
    took += [f"a {FORCE_SKILL_LABELS[skill]} pick" for skill in picks_spent(sheet).get(slug, ())]
    label = traits.power_label(sheet, slug)
    if not took:
        return f"{label} was learned this adventure: undo it on the Advancement page."
    paid = "for" if learning["cost"] else "with"
    if len(took) > 1 or learning["cost"] > 1:
        back = "them"
    else:
        back = "it" if learning["cost"] else "the pick"
    return (
        f"{label} was learned this adventure {paid} {' and '.join(took)}: undo it on the "
        f"Advancement page to get {back} back."
    )


def _give_back_picks(sheet: dict, slug: str, *, returned: bool) -> None:
    """Return the picks a dropped power used up (the raises that owed them still stand), or,
    `returned` false, only forget which picks it used."""
    spent = dict(picks_spent(sheet))
    given_back = spent.pop(slug, [])
    sheet["force"]["power_picks_spent"] = spent
    if given_back and returned:
        picks = sheet["force"]["power_picks"] + given_back
        sheet["force"]["power_picks"] = picks_in_skill_order(picks)


def point_label(sheet: Mapping[str, Any], kind: str) -> str:
    """Name a kind of points: the advancement currency changes its name by edition."""
    if kind == "character":
        return CURRENCY[sheet["edition"]][1].capitalize()
    return POINT_LABELS[kind]


def _edit_points(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest not in sheet["points"]:
        raise _unknown(trait)
    sheet["points"][rest] = parse_whole(
        trait, raw, label=point_label(sheet, rest), minimum=0, maximum=MAX_POINTS
    )


def _edit_teacher(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "present":
        sheet["teacher"]["present"] = parse_flag(trait, raw, label="Teacher")
    elif rest in FORCE_SKILL_LABELS:
        sheet["teacher"][rest] = parse_code(
            trait,
            raw or "0D",
            label=f"Teacher's {FORCE_SKILL_LABELS[rest]}",
            maximum=MAX_CODE_PIPS,
        )
    else:
        raise _unknown(trait)


def _edit_move(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    sheet["move"] = parse_whole(trait, raw, label="Move", minimum=0, maximum=MAX_MOVE)


def wound_choices(sheet: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(
        (slug, WOUND_BY_SLUG[slug].label) for slug in WOUND_SLUGS_BY_EDITION[sheet["edition"]]
    )


def _edit_wound(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "hit":
        # 1E: a damage roll against the Strength roll, read on the damage summary (003:472);
        # a stun result is kept, with the scene round it came in ("…|@scene.round").
        raw, _at, when = raw.partition("@")
        now = wounds.parse_now(trait, "@" + when) if _at else None
        raw = raw.rstrip("| ")
        level = wounds.wound_after_hit(sheet, trait, raw)
        parts = raw.replace(",", "|").split("|")
        hit = wounds.hit_1e(int(parts[0]), int(parts[1]), stun=parts[-1].strip() == "stun")
        if hit.stuns or hit.unconscious:
            wounds.add_stun(sheet, hit.stuns, hit.unconscious, now, settings)
        sheet["wound"] = level
        return
    if rest == "settle":
        # The scene's next round ("@scene.round"): what no longer counts falls away.
        wounds.settle(sheet, wounds.parse_now(trait, raw), settings)
        return
    if rest in ("stun_over", "woke"):
        if sheet["edition"] != EDITION_1E:
            raise InvalidEdit(trait, "R&E keeps no stun results (002:561).")
        if rest == "stun_over":
            wounds.stun_over(sheet)  # its time passed, or pain controlled (003:1842)
        else:
            wounds.woke(sheet, wounds.parse_now(trait, raw), settings)
        return
    if rest:
        raise _unknown(trait)
    if raw == "wounded_twice" and sheet["edition"] == EDITION_1E:
        # 003:1840: a second 1E wound incapacitates.
        raise InvalidEdit(trait, "1st edition has no wounded twice: a second wound incapacitates.")
    sheet["wound"] = parse_choice(trait, raw, wound_choices(sheet), label="Wound level")


def _edit_droid(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest not in DROID_CODE_LABELS:
        raise _unknown(trait)
    sheet["droid"][rest] = parse_code(
        trait, raw or "0D", label=DROID_CODE_LABELS[rest], maximum=MAX_CODE_PIPS
    )


def _edit_equipment(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    items = sheet["droid"]["equipment"]
    if rest == "add":
        name_text, _, features = (part.strip() for part in raw.partition("|"))
        if not name_text:
            raise InvalidEdit(trait, "Write the item as Name or Name|extra features.")
        if len(items) >= MAX_EQUIPMENT:
            raise InvalidEdit(trait, f"A droid carries at most {MAX_EQUIPMENT} items here.")
        name = parse_text(trait, name_text, label="Item", limit=NAME_LIMIT)
        count = parse_whole(
            trait, features or "0", label="Extra features", minimum=0, maximum=MAX_FEATURES
        )
        items.append({"name": name, "features": count})
        return
    if rest == "remove":
        items.pop(parse_row_index(trait, raw, items, noun=EQUIPMENT_NOUN))
        return
    index_text, _, field = rest.partition(".")
    if field not in ("name", "features"):
        raise _unknown(trait)
    item = items[parse_row_index(trait, index_text, items, noun=EQUIPMENT_NOUN)]
    if field == "name":
        item["name"] = parse_text(trait, raw, label="Item", limit=NAME_LIMIT)
    else:
        item["features"] = parse_whole(
            trait, raw, label="Extra features", minimum=0, maximum=MAX_FEATURES
        )


def _edit_weapon(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    weapons = sheet["weapons"]
    if rest == "add":
        name_text, _, damage_text = (part.strip() for part in raw.partition("|"))
        if not name_text:
            raise InvalidEdit(trait, "Write the weapon's name, e.g. Blaster pistol.")
        if len(weapons) >= MAX_WEAPONS:
            raise InvalidEdit(trait, f"A sheet lists at most {MAX_WEAPONS} weapons.")
        name = parse_text(trait, name_text, label="Weapon", limit=NAME_LIMIT)
        damage = parse_damage(trait, damage_text) if damage_text else ""
        weapons.append({"name": name, "damage": damage, "range": "", "ammo": ""})
        return
    if rest == "remove":
        weapons.pop(parse_row_index(trait, raw, weapons, noun=WEAPON_NOUN))
        return
    index_text, _, field = rest.partition(".")
    if field not in WEAPON_FIELD_LABELS:
        raise _unknown(trait)
    weapon = weapons[parse_row_index(trait, index_text, weapons, noun=WEAPON_NOUN)]
    if field == "name":
        weapon["name"] = parse_text(trait, raw, label="Weapon", limit=NAME_LIMIT)
        if not weapon["name"]:
            raise InvalidEdit(trait, "A weapon needs a name; remove it instead.")
    elif field == "damage":
        weapon["damage"] = parse_damage(trait, raw) if raw else ""
    else:
        weapon[field] = parse_text(
            trait, raw, label=WEAPON_FIELD_LABELS[field], limit=WEAPON_TEXT_LIMITS[field]
        )


def parse_damage(trait: str, raw: str) -> str:
    """Read a weapon's damage as the books write it: a code (4D, 5D+2) or one relative to
    the wielder's Strength (STR+1D, STR-1D; 003:2350, 003:2702); return it normalised."""
    text = raw.strip().upper().replace(" ", "")
    prefix = ""
    if text.startswith("STR") and len(text) > 3:
        prefix, text = "STR", text[3:]
    try:
        damage = DieCode.parse(text)
    except DieCodeError:
        damage = None
    signed = text.startswith(("+", "-"))
    if damage is None or (prefix and not signed) or (not prefix and signed):
        raise InvalidEdit(
            trait, f"Damage: “{raw[:40]}” is not a damage code; write it like 4D, 5D+2 or STR+1D."
        )
    if len(raw) > WEAPON_TEXT_LIMITS["damage"]:
        raise InvalidEdit(trait, f"Damage is limited to {WEAPON_TEXT_LIMITS['damage']} characters.")
    return prefix + damage.format(signed=bool(prefix))


def _edit_gear(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "credits":
        sheet["gear"]["credits"] = parse_whole(
            trait, raw or "0", label="Credits", minimum=0, maximum=MAX_CREDITS
        )
    elif rest == "equipment":
        sheet["gear"]["equipment"] = parse_notes(
            trait, raw, label="Equipment", limit=EQUIPMENT_TEXT_LIMIT
        )
    else:
        raise _unknown(trait)


def _edit_interval(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "close":
        # A new adventure opens a new window for the one-pip rule (002:39).
        sheet["interval"] = []
    elif rest == "forget":
        # A refunded purchase leaves the window: its pip may be bought again this time,
        # and a power it taught is no longer held as learned this adventure.
        for index in range(len(sheet["interval"]) - 1, -1, -1):
            if sheet["interval"][index]["trait"] == raw:
                del sheet["interval"][index]
                break
    else:
        raise _unknown(trait)


# --- paid advances ---------------------------------------------------------------------------


def _edit_advance(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if len(sheet["interval"]) >= MAX_INTERVAL:
        raise InvalidEdit(
            trait, f"{MAX_INTERVAL} raises are recorded; start a new adventure to record more."
        )
    # "advance.power.add" is the same paid learning, named as the sheet's "add" rows are.
    if rest in ("power", "power.add"):
        _advance_power(sheet, trait, raw, settings)
        return
    try:
        kind = traits.trait_kind(sheet, rest)
    except InvalidEdit:
        raise _unknown(trait) from None
    if kind == traits.POWER:
        _advance_power(sheet, trait, rest.partition(".")[2], settings)
        return
    label = traits.trait_name(sheet, rest)
    old = traits.trait_value(sheet, rest)
    if kind == traits.FORCE_SENSITIVE:
        new = 1
    elif kind == traits.MOVE:
        new = parse_whole(trait, raw, label="Move", minimum=0, maximum=MAX_MOVE)
    else:
        new = parse_code(trait, raw, label=label, maximum=MAX_CODE_PIPS)
    try:
        steps = costs.advance_steps(sheet, rest, new, settings)
    except InvalidEdit as error:
        raise InvalidEdit(trait, error.message) from None
    if not steps:
        raise InvalidEdit(trait, f"{label} is already there.")
    if sheet["edition"] == EDITION_RE and costs.pip_limited(kind, settings):
        before = costs.interval_pips(sheet, rest)
        if before + len(steps) > 1:
            already = f"; it already rose {before} this time" if before else ""
            raise InvalidEdit(trait, f"{label} can rise only one pip between adventures{already}.")
    if kind == traits.FORCE_SKILL and sheet["edition"] == EDITION_1E and old == 0:
        problem = force_order_problem(sheet, rest.partition(".")[2], settings)
        if problem:
            raise InvalidEdit(trait, problem)
    cost = costs.advance_cost(sheet, rest, new, settings)
    _pay(sheet, trait, cost.amount, cost.explanation)
    _set_value(sheet, rest, kind, new)
    if kind == traits.FORCE_SKILL:
        skill = rest.partition(".")[2]
        if sheet["edition"] == EDITION_RE:
            picks = sheet["force"]["power_picks"] + [skill] * len(steps)
            sheet["force"]["power_picks"] = picks_in_skill_order(picks)
        elif old == 0:
            _grant_initial_powers(sheet, skill, settings)
    sheet["interval"].append({"trait": rest, "from": old, "to": new, "cost": cost.amount})


def _pay(sheet: dict, trait: str, amount: int, explanation: str) -> None:
    have = sheet["points"]["character"]
    if amount > have:
        name = CURRENCY[sheet["edition"]][1]
        raise InvalidEdit(trait, f"{explanation}, but only {have} {name} are left.")
    sheet["points"]["character"] = have - amount


def _set_value(sheet: dict, target: str, kind: str, value: int) -> None:
    rest = target.partition(".")[2]
    if kind == traits.ATTRIBUTE:
        sheet["attributes"][rest] = value
    elif kind in (traits.SKILL, traits.ADVANCED):
        sheet["skills"][rest] = value
    elif kind == traits.SPECIALIZATION:
        sheet["specializations"][rest]["pips"] = value
    elif kind == traits.FORCE_SKILL:
        sheet["force"][rest] = value
    elif kind == traits.MOVE:
        sheet["move"] = value
    else:
        sheet["force"]["sensitive"] = True


def _advance_power(sheet: dict, trait: str, raw: str, settings: Mapping) -> None:
    slug, custom = _parse_power(sheet, trait, raw)
    if custom is not None:
        sheet["force"]["custom_powers"][slug] = custom
    problem = _power_problems(sheet, slug, settings)
    if problem:
        raise InvalidEdit(trait, problem)
    cost = costs.power_cost(sheet, slug, settings)
    used = costs.free_picks_for(sheet, slug, settings) if sheet["edition"] == EDITION_RE else []
    _pay(sheet, trait, cost.amount, cost.explanation)
    for skill in used:
        sheet["force"]["power_picks"].remove(skill)
    if used:
        # Kept so that dropping the power gives these picks back (force.py).
        sheet["force"]["power_picks_spent"] = {**picks_spent(sheet), slug: used}
    sheet["force"]["powers"].append(slug)
    sheet["interval"].append({"trait": f"power.{slug}", "from": 0, "to": 1, "cost": cost.amount})


_HANDLERS: dict[str, Handler] = {
    STAGE_TRAIT: _edit_stage,
    "info": _edit_info,
    "attr": _edit_attribute,
    "species": _edit_species,
    "template": _edit_template,
    "skill": _edit_skill,
    "spec": _edit_specialization,
    "force": _edit_force,
    "power": _edit_power,
    "points": _edit_points,
    "teacher": _edit_teacher,
    "move": _edit_move,
    "wound": _edit_wound,
    "droid": _edit_droid,
    "equipment": _edit_equipment,
    "weapon": _edit_weapon,
    "gear": _edit_gear,
    "interval": _edit_interval,
    "advance": _edit_advance,
    # Calling on the Dark Side, a point for an evil act, atonement, redemption (darkside.py).
    "darkside": darkside.edit,
}
