"""The sheet dict: a blank one, the normal form of an import, and one edit at a time."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.weg_d6 import costs, traits
from rulesets.weg_d6.data import (
    ATTRIBUTE_ALIASES,
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTE_SLUGS,
    CURRENCY,
    CUSTOM_SPECIES,
    DROID_BASE_ATTRIBUTE_PIPS,
    DROID_PC_STARTING_FORCE_POINTS,
    EDITION_1E,
    EDITION_LABELS,
    EDITION_RE,
    FORCE_SKILL_LABELS,
    FORCE_SKILL_SLUGS,
    INITIAL_POWERS_1E,
    LEARNED_FORCE_SKILL_PIPS,
    MAX_CODE_PIPS,
    MAX_MOVE,
    MAX_POINTS,
    POWER_BY_SLUG,
    SKILL_BY_SLUG,
    SPECIES_BY_SLUG,
    WOUND_SLUGS_BY_EDITION,
)
from rulesets.weg_d6.force import force_order_problem, power_totals
from rulesets.weg_d6.traits import code_text as code

KINDS = ("character", "droid")
ROLES = ("pc", "npc")
STAGES = ("creation", "play")
# The character's name is kept once, on the character, not in the sheet.
INFO_FIELDS = ("player", "template", "description")
TEXT_LIMIT = 4000
MAX_FEATURES = 20


def _human_species() -> dict:
    human = SPECIES_BY_SLUG["human"]
    return {
        "name": "",
        "minimum": dict(human.minimum),
        "maximum": dict(human.maximum),
        "move": human.move,
        "move_max": human.move_max,
    }


def blank_sheet(settings: Mapping[str, Any] | None = None) -> dict:
    """Return a new human character at the species minimum, nothing spent."""
    chosen = costs.resolved(settings)
    species = _human_species()
    return {
        "edition": chosen["default_edition"],
        "kind": "character",
        "role": "pc",
        "stage": "creation",
        "info": dict.fromkeys(INFO_FIELDS, ""),
        "species": "human",
        "custom_species": species,
        "alien_template": None,
        "attributes": dict(species["minimum"]),
        "move": species["move"],
        "skills": {},
        "custom_skills": {},
        "specializations": {},
        "force": {
            "sensitive": False,
            "control": 0,
            "sense": 0,
            "alter": 0,
            "powers": [],
            "custom_powers": {},
            "power_picks": [],
        },
        "points": {
            "character": chosen["starting_character_points"],
            "force": chosen["starting_force_points"],
            "dark_side": 0,
        },
        "teacher": {"present": False, "control": 0, "sense": 0, "alter": 0},
        "interval": [],
        "wound": "healthy",
        "droid": {"speed": 0, "armor": 0, "equipment": []},
    }


# --- validate_sheet: the normal form of an imported sheet --------------------------------


def _fail(where: str, message: str) -> None:
    raise InvalidSheet(f"{where}: {message}")


def _mapping(value: Any, where: str, allowed: tuple[str, ...] | None = None) -> dict:
    if not isinstance(value, dict):
        _fail(where, "must be an object")
    if allowed is not None:
        unknown = sorted(set(value) - set(allowed))
        if unknown:
            _fail(where, f"unknown key(s) {', '.join(unknown)}")
    return value


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, "must be a whole number")
    if not low <= value <= high:
        _fail(where, f"must be between {low} and {high}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        _fail(where, "must be text")
    if len(value) > TEXT_LIMIT:
        _fail(where, f"is longer than {TEXT_LIMIT} characters")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        _fail(where, "must be true or false")
    return value


def _choice(value: Any, where: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        _fail(where, f"must be one of {', '.join(choices)}")
    return value


def _codes(value: Any, where: str, keys: tuple[str, ...], low: int = 0) -> dict:
    data = _mapping(value, where, keys)
    return {key: _whole(data.get(key, low), f"{where}.{key}", low, MAX_CODE_PIPS) for key in keys}


def _slug_key(key: Any, where: str) -> str:
    if not isinstance(key, str) or not key or traits.slugify(key) != key:
        _fail(where, f"“{key}” is not a plain lower-case key")
    return key


def validate_sheet(data: Any) -> dict:
    """Return the normal form of an imported sheet, or raise InvalidSheet saying what is wrong."""
    blank = blank_sheet()
    data = _mapping(data, "sheet", tuple(blank))
    sheet = copy.deepcopy(blank)
    sheet["edition"] = _choice(data.get("edition", EDITION_RE), "edition", tuple(EDITION_LABELS))
    sheet["kind"] = _choice(data.get("kind", "character"), "kind", KINDS)
    sheet["role"] = _choice(data.get("role", "pc"), "role", ROLES)
    sheet["stage"] = _choice(data.get("stage", "creation"), "stage", STAGES)
    info = _mapping(data.get("info", {}), "info", INFO_FIELDS)
    sheet["info"] = {key: _text(info.get(key, ""), f"info.{key}") for key in INFO_FIELDS}
    species = data.get("species", "human")
    sheet["species"] = _choice(species, "species", (*SPECIES_BY_SLUG, CUSTOM_SPECIES))
    custom = _mapping(
        data.get("custom_species", blank["custom_species"]),
        "custom_species",
        tuple(blank["custom_species"]),
    )
    merged = {**blank["custom_species"], **custom}
    sheet["custom_species"] = {
        "name": _text(merged["name"], "custom_species.name"),
        "minimum": _codes(merged["minimum"], "custom_species.minimum", ATTRIBUTE_SLUGS),
        "maximum": _codes(merged["maximum"], "custom_species.maximum", ATTRIBUTE_SLUGS),
        "move": _whole(merged["move"], "custom_species.move", 0, MAX_MOVE),
        "move_max": _whole(merged["move_max"], "custom_species.move_max", 0, MAX_MOVE),
    }
    template = data.get("alien_template")
    sheet["alien_template"] = (
        None if template is None else _codes(template, "alien_template", ATTRIBUTE_SLUGS)
    )
    sheet["attributes"] = _codes(
        data.get("attributes", blank["attributes"]), "attributes", ATTRIBUTE_SLUGS, low=1
    )
    sheet["move"] = _whole(data.get("move", blank["move"]), "move", 0, MAX_MOVE)
    sheet["custom_skills"] = _validate_custom_skills(data.get("custom_skills", {}))
    sheet["skills"] = {}
    for slug, pips in _mapping(data.get("skills", {}), "skills").items():
        where = f"skills.{slug}"
        if _slug_key(slug, where) not in SKILL_BY_SLUG and slug not in sheet["custom_skills"]:
            _fail(where, "is neither a catalog skill nor one of the sheet's custom skills")
        sheet["skills"][slug] = _whole(pips, where, 0, MAX_CODE_PIPS)
    sheet["specializations"] = _validate_specializations(data.get("specializations", {}), sheet)
    sheet["force"] = _validate_force(data.get("force", {}), blank["force"])
    points = _mapping(data.get("points", {}), "points", tuple(blank["points"]))
    sheet["points"] = {
        key: _whole(points.get(key, blank["points"][key]), f"points.{key}", 0, MAX_POINTS)
        for key in blank["points"]
    }
    teacher = _mapping(data.get("teacher", {}), "teacher", tuple(blank["teacher"]))
    sheet["teacher"] = {
        "present": _flag(teacher.get("present", False), "teacher.present"),
        **{
            skill: _whole(teacher.get(skill, 0), f"teacher.{skill}", 0, MAX_CODE_PIPS)
            for skill in FORCE_SKILL_SLUGS
        },
    }
    sheet["interval"] = _validate_interval(data.get("interval", []))
    sheet["wound"] = _choice(
        data.get("wound", "healthy"), "wound", WOUND_SLUGS_BY_EDITION[sheet["edition"]]
    )
    sheet["droid"] = _validate_droid(data.get("droid", blank["droid"]))
    return sheet


def _validate_custom_skills(value: Any) -> dict:
    result = {}
    for slug, entry in _mapping(value, "custom_skills").items():
        where = f"custom_skills.{_slug_key(slug, 'custom_skills')}"
        if slug in SKILL_BY_SLUG:
            _fail(where, "has the key of a catalog skill")
        entry = _mapping(entry, where, ("name", "attribute", "advanced", "prerequisite"))
        prerequisite = entry.get("prerequisite")
        if prerequisite is not None and not isinstance(prerequisite, str):
            _fail(f"{where}.prerequisite", "must be a skill key or null")
        result[slug] = {
            "name": _text(entry.get("name", ""), f"{where}.name") or slug,
            "attribute": _choice(entry.get("attribute"), f"{where}.attribute", ATTRIBUTE_SLUGS),
            "advanced": _flag(entry.get("advanced", False), f"{where}.advanced"),
            "prerequisite": prerequisite,
        }
    for slug, entry in result.items():
        prerequisite = entry["prerequisite"]
        if prerequisite is not None and prerequisite not in SKILL_BY_SLUG | result:
            _fail(f"custom_skills.{slug}.prerequisite", f"“{prerequisite}” is not a skill")
    return result


def _validate_specializations(value: Any, sheet: dict) -> dict:
    result = {}
    for slug, entry in _mapping(value, "specializations").items():
        where = f"specializations.{_slug_key(slug, 'specializations')}"
        entry = _mapping(entry, where, ("name", "skill", "pips"))
        parent = entry.get("skill")
        if parent not in SKILL_BY_SLUG and parent not in sheet["custom_skills"]:
            _fail(f"{where}.skill", f"“{parent}” is not a skill")
        result[slug] = {
            "name": _text(entry.get("name", ""), f"{where}.name") or slug,
            "skill": parent,
            "pips": _whole(entry.get("pips"), f"{where}.pips", 0, MAX_CODE_PIPS),
        }
    return result


def _validate_force(value: Any, blank: dict) -> dict:
    data = _mapping(value, "force", tuple(blank))
    custom_powers = {}
    for slug, entry in _mapping(data.get("custom_powers", {}), "force.custom_powers").items():
        where = f"force.custom_powers.{_slug_key(slug, 'force.custom_powers')}"
        if slug in POWER_BY_SLUG:
            _fail(where, "has the key of a catalog power")
        entry = _mapping(entry, where, ("name", "skills"))
        skills = entry.get("skills")
        if not isinstance(skills, list) or not skills or not set(skills) <= set(FORCE_SKILL_SLUGS):
            _fail(f"{where}.skills", "must list control, sense and/or alter")
        custom_powers[slug] = {
            "name": _text(entry.get("name", ""), f"{where}.name") or slug,
            "skills": [s for s in FORCE_SKILL_SLUGS if s in skills],
        }
    powers = data.get("powers", [])
    if not isinstance(powers, list):
        _fail("force.powers", "must be a list")
    for slug in powers:
        if slug not in POWER_BY_SLUG and slug not in custom_powers:
            _fail("force.powers", f"“{slug}” is not a Force power")
    if len(set(powers)) != len(powers):
        _fail("force.powers", "lists a power twice")
    picks = data.get("power_picks", [])
    if not isinstance(picks, list) or not set(picks) <= set(FORCE_SKILL_SLUGS):
        _fail("force.power_picks", "must list control, sense and/or alter")
    return {
        "sensitive": _flag(data.get("sensitive", False), "force.sensitive"),
        **{
            skill: _whole(data.get(skill, 0), f"force.{skill}", 0, MAX_CODE_PIPS)
            for skill in FORCE_SKILL_SLUGS
        },
        "powers": list(powers),
        "custom_powers": custom_powers,
        "power_picks": list(picks),
    }


def _validate_interval(value: Any) -> list:
    if not isinstance(value, list):
        _fail("interval", "must be a list")
    entries = []
    for index, entry in enumerate(value):
        where = f"interval.{index}"
        entry = _mapping(entry, where, ("trait", "from", "to", "cost"))
        if not isinstance(entry.get("trait"), str) or not entry["trait"]:
            _fail(f"{where}.trait", "must name a trait")
        entries.append(
            {
                "trait": entry["trait"],
                "from": _whole(entry.get("from"), f"{where}.from", 0, MAX_CODE_PIPS),
                "to": _whole(entry.get("to"), f"{where}.to", 0, MAX_CODE_PIPS),
                "cost": _whole(entry.get("cost", 0), f"{where}.cost", 0, MAX_POINTS),
            }
        )
        if entries[-1]["to"] < entries[-1]["from"]:
            _fail(where, "goes down; the list only records raises")
    return entries


def _validate_droid(value: Any) -> dict:
    data = _mapping(value, "droid", ("speed", "armor", "equipment"))
    equipment = data.get("equipment", [])
    if not isinstance(equipment, list):
        _fail("droid.equipment", "must be a list")
    items = []
    for index, item in enumerate(equipment):
        where = f"droid.equipment.{index}"
        item = _mapping(item, where, ("name", "features"))
        items.append(
            {
                "name": _text(item.get("name", ""), f"{where}.name"),
                "features": _whole(item.get("features", 0), f"{where}.features", 0, MAX_FEATURES),
            }
        )
    return {
        "speed": _whole(data.get("speed", 0), "droid.speed", 0, MAX_CODE_PIPS),
        "armor": _whole(data.get("armor", 0), "droid.armor", 0, MAX_CODE_PIPS),
        "equipment": items,
    }


# --- apply_edit ----------------------------------------------------------------------------

Handler = Callable[[dict, str, str, str, Mapping[str, Any]], None]


def apply_edit(sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any]) -> dict:
    """Return a new sheet with one trait changed, or raise InvalidEdit saying why not."""
    settings = costs.resolved(settings)
    new = copy.deepcopy(dict(sheet))
    head, _, rest = (trait or "").partition(".")
    handler = _HANDLERS.get(head)
    if handler is None:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of this sheet.")
    handler(new, trait, rest, "" if raw is None else str(raw).strip(), settings)
    return new


def _unknown(trait: str) -> InvalidEdit:
    return InvalidEdit(trait, f"“{trait}” is not a trait of this sheet.")


def _edit_info(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest in INFO_FIELDS:
        if len(raw) > TEXT_LIMIT:
            raise InvalidEdit(trait, f"Keep it under {TEXT_LIMIT} characters.")
        sheet["info"][rest] = raw
    elif rest == "edition":
        sheet["edition"] = _pick(trait, raw, tuple(EDITION_LABELS), "an edition")
        if sheet["edition"] == EDITION_1E and sheet["wound"] == "wounded_twice":
            # 1E has no such level: a second wound incapacitates (003:1840).
            sheet["wound"] = "incapacitated"
    elif rest == "kind":
        kind = _pick(trait, raw, KINDS, "character or droid")
        if kind != sheet["kind"]:
            _switch_kind(sheet, kind)
    elif rest == "role":
        sheet["role"] = _pick(trait, raw, ROLES, "pc or npc")
    elif rest == "stage":
        sheet["stage"] = _pick(trait, raw, STAGES, "creation or play")
    elif rest == "species":
        sheet["species"] = _pick(trait, raw, (*SPECIES_BY_SLUG, CUSTOM_SPECIES), "a species")
    else:
        raise _unknown(trait)


def _pick(trait: str, raw: str, choices: tuple[str, ...], what: str) -> str:
    if raw not in choices:
        raise InvalidEdit(trait, f"“{raw}” is not {what}; choose {', '.join(choices)}.")
    return raw


def _switch_kind(sheet: dict, kind: str) -> None:
    sheet["kind"] = kind
    if kind == "droid":
        # Droids start every attribute at 1D and never touch the Force (003:929, 003:1002).
        sheet["attributes"] = dict.fromkeys(ATTRIBUTE_SLUGS, DROID_BASE_ATTRIBUTE_PIPS)
        sheet["droid"]["speed"] = DROID_BASE_ATTRIBUTE_PIPS
        for skill in FORCE_SKILL_SLUGS:
            sheet["force"][skill] = 0
        sheet["force"].update(sensitive=False, powers=[], power_picks=[])
        if sheet["role"] == "pc":
            sheet["points"]["force"] = DROID_PC_STARTING_FORCE_POINTS
    else:
        sheet["attributes"] = dict(traits.species_of(sheet).minimum)


def _edit_attribute(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest not in ATTRIBUTE_BY_SLUG:
        raise _unknown(trait)
    pips = traits.parse_code(trait, raw)
    if pips < 3:
        raise InvalidEdit(trait, f"{ATTRIBUTE_BY_SLUG[rest].label} is at least 1D.")
    sheet["attributes"][rest] = pips


def _edit_species(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    custom = sheet["custom_species"]
    bound, _, attribute = rest.partition(".")
    if rest == "name":
        custom["name"] = raw[:200]
    elif rest in ("move", "move_max"):
        label = "Move" if rest == "move" else "Maximum Move"
        custom[rest] = traits.parse_whole(trait, raw, minimum=0, maximum=MAX_MOVE, label=label)
    elif bound in ("min", "max") and attribute in ATTRIBUTE_BY_SLUG:
        pips = traits.parse_code(trait, raw)
        low = pips if bound == "min" else custom["minimum"][attribute]
        high = pips if bound == "max" else custom["maximum"][attribute]
        if low > high:
            raise InvalidEdit(
                trait, f"The minimum {code(low)} would be above the maximum {code(high)}."
            )
        custom["minimum" if bound == "min" else "maximum"][attribute] = pips
    else:
        raise _unknown(trait)


def _edit_template(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "clear":
        sheet["alien_template"] = None
        return
    if rest not in ATTRIBUTE_BY_SLUG:
        raise _unknown(trait)
    if sheet["alien_template"] is None:
        # A Sourcebook template is an NPC, so it starts from the 12D norm (003:913).
        sheet["alien_template"] = dict.fromkeys(ATTRIBUTE_SLUGS, 6)
    sheet["alien_template"][rest] = traits.parse_code(trait, raw)


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
        raise InvalidEdit(trait, "1st edition has no advanced skills (digest §2.2).")
    if raw == "":
        sheet["skills"].pop(rest, None)
        return
    sheet["skills"][rest] = traits.parse_code(trait, raw)


def _add_custom_skill(sheet: dict, trait: str, raw: str) -> None:
    parts = [part.strip() for part in raw.split("|")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise InvalidEdit(
            trait, "Write the new skill as Name|attribute, or Name|attribute|advanced:prerequisite."
        )
    name, attribute_text = parts[0], parts[1].lower()
    attribute = ATTRIBUTE_ALIASES.get(attribute_text)
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
            raise InvalidEdit(trait, "1st edition has no advanced skills (digest §2.2).")
        advanced = True
        prerequisite = traits.slugify(prerequisite_text) or None
        if prerequisite is not None and traits.skill_info(sheet, prerequisite) is None:
            raise InvalidEdit(trait, f"“{prerequisite_text}” is not a skill to rest on.")
    sheet["custom_skills"][slug] = {
        "name": name[:200],
        "attribute": attribute,
        "advanced": advanced,
        "prerequisite": prerequisite,
    }


def _edit_specialization(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "add":
        if sheet["edition"] == EDITION_1E:
            raise InvalidEdit(trait, "1st edition has no specializations (digest §2.2).")
        name, _, parent_text = (part.strip() for part in raw.partition("|"))
        # Players write the skill as it reads on the sheet ("Space transports"), not its key.
        parent = traits.slugify(parent_text)
        if not name or traits.skill_info(sheet, parent) is None:
            raise InvalidEdit(
                trait, "Write the specialization as Name|skill, e.g. YT-1300|Space transports."
            )
        slug = traits.slugify(f"{parent} {name}")
        if slug in sheet["specializations"]:
            raise InvalidEdit(trait, f"{name} is already a specialization of that skill.")
        # A specialization starts where its skill stands, then improves on its own (002:37).
        sheet["specializations"][slug] = {
            "name": name[:200],
            "skill": parent,
            "pips": traits.skill_code(sheet, parent),
        }
    elif rest == "remove":
        if sheet["specializations"].pop(raw, None) is None:
            raise InvalidEdit(trait, f"“{raw}” is not a specialization on this sheet.")
    elif rest in sheet["specializations"]:
        sheet["specializations"][rest]["pips"] = traits.parse_code(trait, raw)
    else:
        raise _unknown(trait)


def _edit_force(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "sensitive":
        value = traits.parse_flag(trait, raw)
        if value and sheet["kind"] == "droid":
            raise InvalidEdit(trait, "Droids may never have Force skills (003:1002).")
        sheet["force"]["sensitive"] = value
        return
    if rest not in FORCE_SKILL_LABELS:
        raise _unknown(trait)
    pips = traits.parse_code(trait, raw or "0D")
    label = FORCE_SKILL_LABELS[rest]
    if pips and sheet["kind"] == "droid":
        raise InvalidEdit(trait, "Droids may never have Force skills (003:1002).")
    if pips and sheet["edition"] == EDITION_RE and not sheet["force"]["sensitive"]:
        raise InvalidEdit(
            trait, f"Only a Force-sensitive character has {label} (002:794); mark it first."
        )
    if 0 < pips < LEARNED_FORCE_SKILL_PIPS:
        raise InvalidEdit(trait, "A Force skill starts at 1D when learned (003:1764).")
    learned_now = sheet["force"][rest] == 0 and pips > 0
    sheet["force"][rest] = pips
    if learned_now and sheet["edition"] == EDITION_1E:
        _grant_initial_powers(sheet, rest, settings)


def _grant_initial_powers(sheet: dict, skill: str, settings: Mapping) -> None:
    """Give the traditional three powers that come with a 1E skill's first die (003:1778)."""
    for slug in INITIAL_POWERS_1E[skill]:
        needs = traits.power_skills(sheet, slug, settings)
        if slug not in sheet["force"]["powers"] and all(sheet["force"][s] for s in needs):
            sheet["force"]["powers"].append(slug)


def _parse_power(sheet: dict, trait: str, raw: str) -> tuple[str, dict | None]:
    """A catalog slug, or "Name|control+sense" for a power from outside the seeds."""
    if "|" not in raw:
        slug = traits.slugify(raw)
        if slug not in POWER_BY_SLUG and slug not in sheet["force"]["custom_powers"]:
            raise InvalidEdit(trait, f"“{raw}” is not a Force power; add others as Name|skills.")
        return slug, None
    name, _, skills_text = (part.strip() for part in raw.partition("|"))
    skills = [s.strip().lower() for s in skills_text.replace(",", "+").split("+") if s.strip()]
    if not name or not skills or not set(skills) <= set(FORCE_SKILL_SLUGS):
        raise InvalidEdit(trait, "Write a new power as Name|control+sense (control, sense, alter).")
    slug = traits.slugify(name)
    if slug in POWER_BY_SLUG or slug in sheet["force"]["custom_powers"]:
        raise InvalidEdit(trait, f"{name} already exists; add it by its key {slug}.")
    return slug, {"name": name[:200], "skills": [s for s in FORCE_SKILL_SLUGS if s in skills]}


def _power_problems(sheet: dict, slug: str, settings: Mapping) -> str:
    """Why a power cannot be learned now, or "" (skills missing, power total full)."""
    label = traits.power_label(sheet, slug)
    if slug in sheet["force"]["powers"]:
        return f"{label} is already learned."
    needs = traits.power_skills(sheet, slug, settings)
    missing = [FORCE_SKILL_LABELS[s] for s in needs if sheet["force"][s] == 0]
    if missing:
        return f"{label} needs {' and '.join(missing)}, still at 0D (003:1822)."
    for skill, (used, total) in power_totals(sheet, settings).items():
        if skill in needs and total is not None and used + 1 > total:
            return (
                f"{FORCE_SKILL_LABELS[skill]} {code(sheet['force'][skill])} holds {total} "
                f"powers and {used} are learned (003:1798)."
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
    elif rest == "remove":
        slug = traits.slugify(raw)
        if slug not in sheet["force"]["powers"]:
            raise InvalidEdit(trait, f"“{raw}” is not a learned power.")
        sheet["force"]["powers"].remove(slug)
        sheet["force"]["custom_powers"].pop(slug, None)
    else:
        raise _unknown(trait)


def _edit_points(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    labels = {
        "character": CURRENCY[sheet["edition"]][1].capitalize(),
        "force": "Force Points",
        "dark_side": "Dark Side Points",
    }
    if rest not in labels:
        raise _unknown(trait)
    sheet["points"][rest] = traits.parse_whole(
        trait, raw, minimum=0, maximum=MAX_POINTS, label=labels[rest]
    )


def _edit_teacher(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "present":
        sheet["teacher"]["present"] = traits.parse_flag(trait, raw)
    elif rest in FORCE_SKILL_LABELS:
        sheet["teacher"][rest] = traits.parse_code(trait, raw or "0D")
    else:
        raise _unknown(trait)


def _edit_move(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    sheet["move"] = traits.parse_whole(trait, raw, minimum=0, maximum=MAX_MOVE, label="Move")


def _edit_wound(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    allowed = WOUND_SLUGS_BY_EDITION[sheet["edition"]]
    if raw not in allowed:
        hint = " (1st edition has no wounded twice: a second wound incapacitates, 003:1840)"
        extra = hint if raw == "wounded_twice" else ""
        raise InvalidEdit(trait, f"“{raw}” is not a wound level{extra}.")
    sheet["wound"] = raw


def _edit_droid(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest not in ("speed", "armor"):
        raise _unknown(trait)
    sheet["droid"][rest] = traits.parse_code(trait, raw or "0D")


def _edit_equipment(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    items = sheet["droid"]["equipment"]
    if rest == "add":
        name, _, features = (part.strip() for part in raw.partition("|"))
        if not name:
            raise InvalidEdit(trait, "Write the item as Name or Name|extra features.")
        count = traits.parse_whole(
            trait, features or "0", minimum=0, maximum=MAX_FEATURES, label="Extra features"
        )
        items.append({"name": name[:200], "features": count})
        return
    if rest == "remove":
        index = traits.parse_whole(trait, raw, minimum=0, maximum=len(items) - 1, label="Item")
        items.pop(index)
        return
    index_text, _, field = rest.partition(".")
    if (
        not index_text.isdigit()
        or int(index_text) >= len(items)
        or field not in ("name", "features")
    ):
        raise _unknown(trait)
    item = items[int(index_text)]
    if field == "name":
        item["name"] = raw[:200]
    else:
        item["features"] = traits.parse_whole(
            trait, raw, minimum=0, maximum=MAX_FEATURES, label="Extra features"
        )


def _edit_interval(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    # A new adventure opens a new window for the one-pip rule (002:39).
    if rest != "close":
        raise _unknown(trait)
    sheet["interval"] = []


# --- paid advances ---------------------------------------------------------------------------

PIP_LIMITED_KINDS = (traits.SKILL, traits.ADVANCED, traits.SPECIALIZATION, traits.FORCE_SKILL)


def pip_limited(kind: str, settings: Mapping) -> bool:
    """Whether the one-pip-between-adventures rule covers this kind of trait (002:39)."""
    if kind in PIP_LIMITED_KINDS:
        return True
    return kind == traits.ATTRIBUTE and settings["pip_limit_scope"] == "skills_and_attributes"


def _recorded_steps(entry: Mapping[str, Any]) -> int:
    # Learning a Force skill (0D to 1D) or a flag is one step, whatever its pip span.
    if entry["from"] == 0 and entry["trait"].startswith("force."):
        return 1
    return entry["to"] - entry["from"]


def interval_pips(sheet: Mapping[str, Any], target: str) -> int:
    """Pips a trait has already gained in the current between-adventures window."""
    return sum(_recorded_steps(e) for e in sheet["interval"] if e["trait"] == target)


def _edit_advance(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping) -> None:
    if rest == "power":
        _advance_power(sheet, trait, raw, settings)
        return
    try:
        kind = traits.trait_kind(sheet, rest)
    except InvalidEdit:
        raise _unknown(trait) from None
    if kind == traits.POWER:
        _advance_power(sheet, trait, rest.partition(".")[2], settings)
        return
    label = traits.trait_label(sheet, rest)
    old = traits.trait_value(sheet, rest)
    if kind == traits.FORCE_SENSITIVE:
        new = 1
    elif kind == traits.MOVE:
        new = traits.parse_whole(trait, raw, minimum=0, maximum=MAX_MOVE, label="Move")
    else:
        new = traits.parse_code(trait, raw)
    try:
        steps = costs.advance_steps(sheet, rest, new, settings)
    except InvalidEdit as error:
        raise InvalidEdit(trait, error.message) from None
    if not steps:
        raise InvalidEdit(trait, f"{label} is already there.")
    if sheet["edition"] == EDITION_RE and pip_limited(kind, settings):
        before = interval_pips(sheet, rest)
        if before + len(steps) > 1:
            already = f"; it already rose {before} this time" if before else ""
            raise InvalidEdit(
                trait,
                f"{label} can rise only one pip between adventures (002:39){already}.",
            )
    if kind == traits.FORCE_SKILL and sheet["edition"] == EDITION_1E and old == 0:
        problem = force_order_problem(sheet, rest.partition(".")[2], settings)
        if problem:
            raise InvalidEdit(trait, problem)
    cost = costs.advance_cost(sheet, rest, new, settings)
    _pay(sheet, trait, cost.amount, cost.explanation)
    _set_value(sheet, rest, kind, new)
    if kind == traits.FORCE_SKILL:
        if sheet["edition"] == EDITION_RE:
            sheet["force"]["power_picks"].extend([rest.partition(".")[2]] * len(steps))
        elif old == 0:
            _grant_initial_powers(sheet, rest.partition(".")[2], settings)
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
    sheet["force"]["powers"].append(slug)
    sheet["interval"].append({"trait": f"power.{slug}", "from": 0, "to": 1, "cost": cost.amount})


_HANDLERS: dict[str, Handler] = {
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
    "interval": _edit_interval,
    "advance": _edit_advance,
}
