"""apply_edit: one trait changed from a raw form string, into a new sheet (never in place)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

from rulesets.core import InvalidEdit
from rulesets.ore.data import (
    ABILITIES,
    ABILITY_BY_SLUG,
    ABILITY_MAXIMUM_LEVEL,
    ALL_LOCATIONS,
    ARMOR_BY_SLUG,
    ARMOR_ROWS,
    BOX_EMPTY,
    BOX_KILLING,
    BOX_SHOCK,
    FORM_BY_SLUG,
    INFO_KEYS,
    LIGHTSABER_FORMS,
    LOCATION_BY_SLUG,
    POWER_BY_SLUG,
    POWER_MAXIMUM_DICE,
    SKILL_BY_LABEL,
    SKILL_BY_SLUG,
    SKILL_MAXIMUM,
    SPECIES,
    SPECIES_BY_SLUG,
    STAT_BY_SLUG,
    STUNT_BY_SLUG,
    STUNT_MAXIMUM_DICE,
    TEXT_MAX_LENGTH,
    WEAPON_BY_SLUG,
    WEAPON_ROWS,
)
from rulesets.ore.rules import (
    base_willpower,
    is_droid,
    next_box_state,
    points_spent,
    skill_extra_dice,
    skill_row,
    stat_extra_dice,
    stat_maximum,
    stat_maximum_reason,
)
from rulesets.ore.settings import resolved
from rulesets.ore.sheet import MAX_POINTS, fit_wounds, new_skill, skill_id, skill_name

_WHOLE = re.compile(r"^\s*([+-]?\d{1,6})\s*(d|hd|wd)?\s*$", re.IGNORECASE)
_YES = {"1", "true", "on", "yes", "y", "approved"}
_NO = {"0", "false", "off", "no", "n", ""}
_BOX_WORDS = {
    "empty": BOX_EMPTY,
    "clear": BOX_EMPTY,
    "shock": BOX_SHOCK,
    "/": BOX_SHOCK,
    "killing": BOX_KILLING,
    "normal": BOX_KILLING,
    "x": BOX_KILLING,
}


def _number(trait: str, raw: str, lowest: int, highest: int, what: str = "") -> int:
    """Read "3", "3d", "1hd" as a whole number within bounds, or refuse in plain words."""
    match = _WHOLE.match(str(raw))
    if match is None:
        raise InvalidEdit(trait, f"“{raw}” is not a whole number; write it like 3 or 3d.")
    value = int(match[1])
    what = what or "This value"
    if value < lowest:
        raise InvalidEdit(trait, f"{what} cannot go below {lowest}; “{raw}” is too low.")
    if value > highest:
        raise InvalidEdit(trait, f"{what} can go up to {highest}; “{raw}” is too high.")
    return value


def _flag(trait: str, raw: str) -> bool:
    text = str(raw).strip().lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise InvalidEdit(trait, f"“{raw}” is not yes or no.")


def _text(trait: str, raw: str, longest: int = TEXT_MAX_LENGTH) -> str:
    text = str(raw).strip()
    if len(text) > longest:
        raise InvalidEdit(trait, f"Keep it under {longest} characters.")
    return text


def _index(trait: str, raw_index: str, rows: list, what: str) -> int:
    if not raw_index.isdigit() or int(raw_index) >= len(rows):
        raise InvalidEdit(trait, f"There is no {what} number {raw_index} on this sheet.")
    return int(raw_index)


def apply_edit(sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any]) -> dict:
    """Return a new sheet with one trait changed from the raw string a form submitted."""
    settings = resolved(settings)
    new = copy.deepcopy(dict(sheet))
    parts = str(trait).split(".")
    handler = _HANDLERS.get(parts[0])
    if handler is None:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a Star O.R.E. sheet.")
    handler(new, trait, parts[1:], raw if raw is not None else "", settings)
    fit_wounds(new)
    return new


def _unknown(trait: str) -> InvalidEdit:
    return InvalidEdit(trait, f"“{trait}” is not a trait of a Star O.R.E. sheet.")


# --- identity and points --------------------------------------------------------------------


def _edit_info(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if len(rest) != 1 or rest[0] not in INFO_KEYS:
        raise _unknown(trait)
    sheet["info"][rest[0]] = _text(trait, raw)


def _edit_species(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    wanted = str(raw).strip().lower()
    species = SPECIES_BY_SLUG.get(wanted) or next(
        (s for s in SPECIES if s.label.lower() == wanted), None
    )
    if species is None:
        names = ", ".join(s.label for s in SPECIES)
        raise InvalidEdit(trait, f"“{raw}” is not a known species; choose one of {names}.")
    sheet["species"] = species.slug
    force_sense = sheet["powers"]["force_sense"]
    if species.droid:
        # A droid has no Force Sense at all (L766), so its free die goes too.
        force_sense["dice"] = 0
    elif force_sense["dice"] < POWER_BY_SLUG["force_sense"].free_dice:
        force_sense["dice"] = POWER_BY_SLUG["force_sense"].free_dice
    for skill_slug, (specialty, _hard) in species.skill_hard_dice.items():
        wanted_id = skill_id(skill_name(SKILL_BY_SLUG[skill_slug].label, specialty))
        if skill_row(sheet, wanted_id) is None:
            sheet["skills"].append(new_skill(skill_slug, specialty))


def _edit_points(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    sheet["character_points"] = _number(trait, raw, 0, MAX_POINTS, "The character point budget")


def _edit_phase(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    phase = str(raw).strip().lower()
    if phase == "creation":
        sheet["phase"], sheet["creation_spent"] = "creation", None
        return
    if phase != "play":
        raise InvalidEdit(trait, "The phase is either creation or play.")
    spent = points_spent(sheet, settings)
    if spent > sheet["character_points"] + sum(a["amount"] for a in sheet["xp_awards"]):
        raise InvalidEdit(
            trait,
            f"Creation cannot finish over budget: {spent} CP spent of "
            f"{sheet['character_points']} CP.",
        )
    sheet["phase"], sheet["creation_spent"] = "play", spent


def _edit_xp(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest == ["award"]:
        amount_text, _bar, note = str(raw).partition("|")
        amount = _number(trait, amount_text, 1, MAX_POINTS, "An experience award")
        sheet["xp_awards"].append({"amount": amount, "note": _text(trait, note, 500)})
        return
    if len(rest) == 2 and rest[1] == "remove":
        del sheet["xp_awards"][_index(trait, rest[0], sheet["xp_awards"], "experience award")]
        return
    raise _unknown(trait)


# --- stats, skills, Willpower, Dark Side ----------------------------------------------------


def _edit_stat(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if len(rest) != 1 or rest[0] not in STAT_BY_SLUG:
        raise _unknown(trait)
    slug = rest[0]
    label = STAT_BY_SLUG[slug].label
    hard, wiggle = stat_extra_dice(sheet, slug)
    maximum = stat_maximum(sheet, slug, settings)
    value = _number(trait, raw, 0, 10**6, label)
    if value < 1:
        raise InvalidEdit(trait, f"{label} cannot go below 1d: every stat starts at 1d (L760).")
    if value + hard + wiggle > maximum:
        extra = f" with {hard + wiggle} ability dice" if hard + wiggle else ""
        raise InvalidEdit(
            trait,
            f"{label} {value}d{extra} is above the maximum of {maximum}d "
            f"({stat_maximum_reason(sheet, slug, settings)}).",
        )
    sheet["stats"][slug] = value


def _edit_skill(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest == ["add"]:
        _add_skill(sheet, trait, raw)
        return
    if not rest:
        raise _unknown(trait)
    row = skill_row(sheet, rest[0])
    if row is None:
        raise InvalidEdit(trait, f"There is no skill “{rest[0]}” on this sheet.")
    action = rest[1:]
    if not action:
        hard, wiggle = skill_extra_dice(sheet, row)
        highest = SKILL_MAXIMUM - hard - wiggle
        value = _number(trait, raw, 0, 10**6, row["name"])
        if value > highest:
            extra = f" (it already has {hard + wiggle} hard/wiggle dice)" if hard + wiggle else ""
            raise InvalidEdit(
                trait,
                f"{row['name']} can go up to {highest}d{extra}; a skill tops out at 5d (L62).",
            )
        row["dice"] = value
    elif action == ["stat"]:
        stat = str(raw).strip().lower()
        if stat not in STAT_BY_SLUG:
            raise InvalidEdit(trait, f"“{raw}” is not one of the six stats.")
        row["stat"] = stat
    elif action == ["specialty"]:
        catalog = SKILL_BY_SLUG.get(row["skill"])
        if catalog is None or not catalog.takes_specialty:
            raise InvalidEdit(trait, f"{row['name']} takes no [specialty].")
        specialty = _text(trait, raw, 100)
        if not specialty:
            raise InvalidEdit(trait, f"{catalog.label} needs a specialty, such as a language.")
        name = skill_name(catalog.label, specialty)
        if any(r is not row and r["name"].lower() == name.lower() for r in sheet["skills"]):
            raise InvalidEdit(trait, f"{name} is already on the sheet.")
        # The id stays as it was so that links and ability targets keep pointing here.
        row["specialty"] = specialty
        row["name"] = name
    elif action == ["remove"]:
        if row["free"]:
            raise InvalidEdit(trait, f"{row['name']} is a starting language and stays (L762).")
        if any(a["target"] == row["id"] for a in sheet["abilities"]):
            raise InvalidEdit(
                trait, f"An ability still adds dice to {row['name']}; remove it first."
            )
        sheet["skills"].remove(row)
    else:
        raise _unknown(trait)


def _add_skill(sheet: dict, trait: str, raw: str) -> None:
    """Add "Blaster", "Lore [Jedi lore]" or a custom "Name|stat" (L662)."""
    name_part, _bar, stat_part = str(raw).partition("|")
    name = _text(trait, name_part, 100)
    if not name:
        raise InvalidEdit(trait, "Give the skill a name.")
    label, _open, specialty = name.partition("[")
    specialty = specialty.rstrip("]").strip()
    catalog = SKILL_BY_LABEL.get(label.strip().lower())
    if catalog and not stat_part:
        if catalog.takes_specialty and not specialty:
            raise InvalidEdit(
                trait, f"{catalog.label} needs a specialty: write it like {catalog.label} [field]."
            )
        if specialty and not catalog.takes_specialty:
            raise InvalidEdit(trait, f"{catalog.label} takes no [specialty].")
        row = new_skill(catalog.slug, specialty)
    else:
        stat = stat_part.strip().lower()
        if stat not in STAT_BY_SLUG:
            raise InvalidEdit(
                trait,
                f"“{name}” is not in the skill list; add it as Name|stat, e.g. {name}|brains.",
            )
        row = {
            "id": skill_id(name),
            "skill": "",
            "name": name,
            "specialty": "",
            "stat": stat,
            "dice": 0,
            "free": 0,
        }
    if not row["id"]:
        raise InvalidEdit(trait, "A skill name needs letters or digits.")
    if any(r["name"].lower() == row["name"].lower() for r in sheet["skills"]):
        raise InvalidEdit(trait, f"{row['name']} is already on the sheet.")
    base_id, number = row["id"], 2
    # A renamed specialty keeps its old id, so a new skill may need another one.
    while skill_row(sheet, row["id"]) is not None:
        row["id"], number = f"{base_id}_{number}", number + 1
    sheet["skills"].append(row)


def _edit_willpower(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Willpower (L764).")
    willpower = sheet["willpower"]
    if rest == ["bought"]:
        willpower["bought"] = _number(trait, raw, 0, 100, "Willpower points bought")
    elif rest == ["extra"]:
        willpower["extra"] = _number(trait, raw, 0, 100, "Extra current Willpower")
    elif rest == ["current"]:
        current = _number(trait, raw, 0, MAX_POINTS, "Current Willpower")
        base = base_willpower(sheet, settings) or 0
        willpower["adjustment"] = current - base - willpower["extra"]
    else:
        raise _unknown(trait)


def _edit_dark_side(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest not in (["base"], ["current"]):
        raise _unknown(trait)
    if is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Willpower, so no Dark Side Points (L764).")
    sheet["dark_side"][rest[0]] = _number(trait, raw, 0, MAX_POINTS, "Dark Side Points")


# --- the Force ------------------------------------------------------------------------------


def _edit_power(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if not rest or rest[0] not in POWER_BY_SLUG or len(rest) > 2:
        raise _unknown(trait)
    power = POWER_BY_SLUG[rest[0]]
    row = sheet["powers"][power.slug]
    part = {(): "dice", ("hard",): "hard", ("wiggle",): "wiggle"}.get(tuple(rest[1:]))
    if rest[1:] == ["approved"]:
        row["approved"] = _flag(trait, raw)
        return
    if part is None:
        raise _unknown(trait)
    value = _number(trait, raw, 0, 10**6, power.label)
    if value and is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Force Sense and cannot learn Force powers (L766).")
    if part == "dice" and not is_droid(sheet) and value < power.free_dice:
        raise InvalidEdit(
            trait, f"{power.label} cannot go below {power.free_dice}d: every living being has it."
        )
    others = sum(row[p] for p in ("dice", "hard", "wiggle") if p != part)
    if value + others > POWER_MAXIMUM_DICE:
        raise InvalidEdit(
            trait,
            f"That makes a pool of {value + others} dice for {power.label}; a power holds at "
            f"most {POWER_MAXIMUM_DICE} dice, hard and wiggle dice included (L876).",
        )
    row[part] = value


def _edit_stunt(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if not rest or rest[0] not in STUNT_BY_SLUG or len(rest) > 2:
        raise _unknown(trait)
    stunt = STUNT_BY_SLUG[rest[0]]
    action = rest[1:]
    if action in (["hard"], ["wiggle"]):
        raise InvalidEdit(
            trait,
            f"{stunt.label} is a stunt: stunts take normal dice only, no {action[0]} dice (L884).",
        )
    if action == ["approved"]:
        if stunt.slug not in sheet["stunts"]:
            raise InvalidEdit(trait, f"Buy at least 1d of {stunt.label} first.")
        sheet["stunts"][stunt.slug]["approved"] = _flag(trait, raw)
        return
    if action:
        raise _unknown(trait)
    if str(raw).strip().lower().endswith(("hd", "wd")):
        raise InvalidEdit(trait, f"{stunt.label} is a stunt: stunts take normal dice only (L884).")
    value = _number(trait, raw, 0, STUNT_MAXIMUM_DICE, stunt.label)
    if value and is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Force Sense and cannot learn Force stunts (L766).")
    if value == 0:
        sheet["stunts"].pop(stunt.slug, None)
    else:
        sheet["stunts"].setdefault(stunt.slug, {"dice": 0, "approved": False})["dice"] = value


def _edit_form(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    wanted = str(raw).strip().lower().removeprefix("form").strip()
    if wanted and wanted not in FORM_BY_SLUG:
        names = ", ".join(form.label for form in LIGHTSABER_FORMS)
        raise InvalidEdit(trait, f"“{raw}” is not a lightsaber form; choose one of {names}.")
    sheet["lightsaber_form"] = wanted


# --- abilities, gear, wounds ----------------------------------------------------------------


def _edit_ability(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    rows = sheet["abilities"]
    if rest == ["add"]:
        slug, _bar, target = str(raw).partition("|")
        ability = ABILITY_BY_SLUG.get(slug.strip().lower())
        if ability is None:
            names = ", ".join(a.slug for a in ABILITIES)
            raise InvalidEdit(trait, f"“{slug}” is not an ability; choose one of {names}.")
        target = target.strip()
        if ability.target == "stat" and target.lower() not in STAT_BY_SLUG:
            raise InvalidEdit(trait, f"{ability.label} needs a stat: write {ability.slug}|body.")
        if ability.target == "skill" and skill_row(sheet, target) is None:
            raise InvalidEdit(
                trait, f"{ability.label} needs a skill on the sheet: write {ability.slug}|blaster."
            )
        if not ability.target and target:
            raise InvalidEdit(trait, f"{ability.label} applies to no stat or skill.")
        target = target.lower() if ability.target == "stat" else target
        for row in rows:
            if row["ability"] == ability.slug and row["target"] == target:
                raise InvalidEdit(trait, f"{ability.label} is already bought; raise its level.")
        rows.append({"ability": ability.slug, "target": target, "level": 1})
        return
    if len(rest) != 2:
        raise _unknown(trait)
    index = _index(trait, rest[0], rows, "ability")
    if rest[1] == "remove":
        del rows[index]
    elif rest[1] == "level":
        rows[index]["level"] = _number(trait, raw, 1, ABILITY_MAXIMUM_LEVEL, "An ability level")
    else:
        raise _unknown(trait)


def _edit_armor(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    rows = sheet["armor"]
    if rest == ["add"]:
        if len(rows) >= ARMOR_ROWS:
            raise InvalidEdit(trait, f"The sheet has room for {ARMOR_ROWS} armor rows (L1135).")
        rows.append(_armor_from(trait, raw))
        return
    if len(rest) != 2:
        raise _unknown(trait)
    row = rows[_index(trait, rest[0], rows, "armor row")]
    field = rest[1]
    if field == "remove":
        rows.remove(row)
    elif field == "name":
        row["name"] = _text(trait, raw, 200)
    elif field == "special":
        row["special"] = _text(trait, raw, 500)
    elif field in ("ar", "move"):
        row[field] = _number(trait, raw, 0, 50, "That value")
    elif field == "coordination":
        row["coordination"] = _number(trait, raw.lstrip("-"), 0, 10, "The Coordination penalty")
    elif field == "worn":
        row["worn"] = _flag(trait, raw)
    elif field == "covers":
        row["covers"] = _locations(trait, raw)
    else:
        raise _unknown(trait)


def _armor_from(trait: str, raw: str) -> dict:
    name = _text(trait, raw, 200)
    armor = ARMOR_BY_SLUG.get(name.lower()) or next(
        (a for a in ARMOR_BY_SLUG.values() if a.label.lower() == name.lower()), None
    )
    if armor is None:
        if not name:
            raise InvalidEdit(trait, "Name the armor or pick it from the list.")
        return {
            "from": "",
            "name": name,
            "ar": 0,
            "coordination": 0,
            "move": 10,
            "special": "",
            "covers": list(ALL_LOCATIONS),
            "worn": True,
        }
    return {
        "from": armor.slug,
        "name": armor.label,
        "ar": armor.ar,
        "coordination": armor.coordination_penalty,
        "move": armor.move,
        "special": armor.special,
        "covers": list(armor.covers),
        "worn": True,
    }


def _locations(trait: str, raw: str) -> list[str]:
    text = str(raw).strip().lower()
    if text in ("all", ""):
        return list(ALL_LOCATIONS)
    wanted = {part.strip().replace(" ", "_") for part in text.split(",") if part.strip()}
    unknown = sorted(wanted - set(ALL_LOCATIONS))
    if unknown:
        raise InvalidEdit(trait, f"Unknown hit location(s): {', '.join(unknown)}.")
    return [slug for slug in ALL_LOCATIONS if slug in wanted]


def _edit_weapon(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    rows = sheet["weapons"]
    if rest == ["add"]:
        if len(rows) >= WEAPON_ROWS:
            raise InvalidEdit(trait, f"The sheet has room for {WEAPON_ROWS} weapons (L1139-L1148).")
        rows.append(_weapon_from(trait, raw))
        return
    if len(rest) != 2:
        raise _unknown(trait)
    row = rows[_index(trait, rest[0], rows, "weapon")]
    field = rest[1]
    if field == "remove":
        rows.remove(row)
    elif field in ("name", "damage"):
        row[field] = _text(trait, raw, 200)
    elif field == "special":
        row["special"] = _text(trait, raw, 500)
    elif field in ("penetration", "initiative"):
        row[field] = _number(trait, raw.lstrip("+"), 0, 50, "That value")
    else:
        raise _unknown(trait)


def _weapon_from(trait: str, raw: str) -> dict:
    name = _text(trait, raw, 200)
    weapon = WEAPON_BY_SLUG.get(name.lower()) or next(
        (w for w in WEAPON_BY_SLUG.values() if w.label.lower() == name.lower()), None
    )
    if weapon is None:
        if not name:
            raise InvalidEdit(trait, "Name the weapon or pick it from the list.")
        return {
            "from": "",
            "name": name,
            "damage": "width",
            "penetration": 0,
            "initiative": 0,
            "special": "",
        }
    return {
        "from": weapon.slug,
        "name": weapon.label,
        "damage": weapon.damage,
        "penetration": weapon.penetration,
        "initiative": weapon.initiative,
        "special": weapon.special,
    }


def _edit_wound(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    """wound.<location>.<box> cycles or sets one box; wound.<location>.clear empties them."""
    if len(rest) != 2 or rest[0] not in LOCATION_BY_SLUG:
        raise _unknown(trait)
    boxes = sheet["wounds"][rest[0]]
    label = LOCATION_BY_SLUG[rest[0]].label
    if rest[1] == "clear":
        boxes[:] = [BOX_EMPTY] * len(boxes)
        return
    if not rest[1].isdigit() or not 1 <= int(rest[1]) <= len(boxes):
        raise InvalidEdit(trait, f"The {label} has boxes 1 to {len(boxes)}.")
    index = int(rest[1]) - 1
    word = str(raw).strip().lower()
    if word in ("", "cycle"):
        boxes[index] = next_box_state(boxes[index])
    elif word in _BOX_WORDS:
        boxes[index] = _BOX_WORDS[word]
    else:
        raise InvalidEdit(
            trait, "Mark a box as empty, shock (/) or normal damage (X), or cycle it."
        )


_HANDLERS: dict[str, Callable[[dict, str, list[str], str, Mapping], None]] = {
    "info": _edit_info,
    "species": _edit_species,
    "character_points": _edit_points,
    "phase": _edit_phase,
    "xp": _edit_xp,
    "stat": _edit_stat,
    "skill": _edit_skill,
    "willpower": _edit_willpower,
    "dsp": _edit_dark_side,
    "power": _edit_power,
    "stunt": _edit_stunt,
    "lightsaber_form": _edit_form,
    "ability": _edit_ability,
    "armor": _edit_armor,
    "weapon": _edit_weapon,
    "wound": _edit_wound,
}
