"""apply_edit: one trait changed from a raw form string, into a new sheet (never in place)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.edits import copy_sheet
from rulesets.core.parsing import (
    parse_choice,
    parse_flag,
    parse_notes,
    parse_row_index,
    parse_text,
    parse_whole,
)
from rulesets.core.stage import STAGE_TRAIT, change_stage
from rulesets.ore.data import (
    ABILITIES,
    ABILITY_BY_SLUG,
    ABILITY_MAXIMUM_LEVEL,
    ABILITY_ROWS,
    ALL_LOCATIONS,
    ARMOR_BY_SLUG,
    ARMOR_COORDINATION_MAXIMUM,
    ARMOR_ROWS,
    BOX_EMPTY,
    BOX_KILLING,
    BOX_SHOCK,
    FORM_BY_SLUG,
    GEAR_NUMBER_MAXIMUM,
    INFO_FIELDS,
    INFO_NOTES,
    LIGHTSABER_FORMS,
    LOCATION_BY_SLUG,
    MAX_POINTS,
    POWER_BY_SLUG,
    POWER_MAXIMUM_DICE,
    ROW_TEXT_LENGTH,
    SETTINGS,
    SKILL_BY_LABEL,
    SKILL_BY_SLUG,
    SKILL_MAXIMUM,
    SKILL_NAME_LENGTH,
    SKILL_ROWS,
    SPECIAL_TEXT_LENGTH,
    SPECIES,
    SPECIES_BY_SLUG,
    STAT_BY_SLUG,
    STATS,
    STUNT_BY_SLUG,
    STUNT_MAXIMUM_DICE,
    TEXT_MAX_LENGTH,
    WEAPON_BY_SLUG,
    WEAPON_ROWS,
    WEAPONS,
    WILLPOWER_BOUGHT_MAXIMUM,
    XP_AWARD_ROWS,
    Weapon,
)
from rulesets.ore.rules import (
    base_willpower,
    fit_wounds,
    is_droid,
    new_skill,
    next_box_state,
    points_spent,
    skill_extra_dice,
    skill_id,
    skill_name,
    skill_row,
    species_skill_dice,
    stat_extra_dice,
    stat_maximum,
    stat_maximum_reason,
    xp_awarded,
)

# A die count may carry its kind, as the seed writes it: "3d", "1hd", "2wd".
_DICE = re.compile(r"\s*([+-]?[0-9]{1,9})\s*(d|hd|wd)?\s*", re.IGNORECASE)
# Words that mark a wound box, beside the choice values "empty", "shock" and "killing".
BOX_WORDS = {
    "empty": BOX_EMPTY,
    "clear": BOX_EMPTY,
    "shock": BOX_SHOCK,
    "/": BOX_SHOCK,
    "killing": BOX_KILLING,
    "normal": BOX_KILLING,
    "x": BOX_KILLING,
}
INFO_LABELS = {key: label for key, label, _source in INFO_FIELDS}
# Skill ids become trait keys; "add" is the key that adds a skill, so no skill may take it.
RESERVED_SKILL_IDS = frozenset({"add"})


def _dice(
    trait: str, raw: Any, *, label: str, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Read a count of dice ("3", "3d", "1hd") within [minimum, maximum] when given."""
    match = _DICE.fullmatch(str(raw))
    text = match[1] if match else str(raw)
    return parse_whole(trait, text, label=label, minimum=minimum, maximum=maximum)


def apply_edit(sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any]) -> dict:
    """Return a new sheet with one trait changed from the raw string a form submitted."""
    settings = resolve_settings(SETTINGS, settings)
    new = copy_sheet(dict(sheet))
    parts = str(trait).split(".")
    handler = _HANDLERS.get(parts[0])
    if handler is None:
        raise _unknown(trait)
    handler(new, trait, parts[1:], raw if raw is not None else "", settings)
    fit_wounds(new)
    return new


def _unknown(trait: str) -> InvalidEdit:
    return InvalidEdit(trait, f"“{trait}” is not a trait of a Star O.R.E. sheet.")


# --- identity, points and the stage --------------------------------------------------------


def _edit_info(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if len(rest) != 1 or rest[0] not in INFO_LABELS:
        raise _unknown(trait)
    key, label = rest[0], INFO_LABELS[rest[0]]
    read = parse_notes if key in INFO_NOTES else parse_text
    sheet["info"][key] = read(trait, raw, label=label, limit=TEXT_MAX_LENGTH)


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
    names = {row["name"].lower() for row in sheet["skills"]}
    for skill_slug, (specialty, _hard) in species_skill_dice(sheet, settings).items():
        row = new_skill(skill_slug, specialty)
        taken = skill_row(sheet, row["id"]) is not None or row["name"].lower() in names
        if not taken and len(sheet["skills"]) < SKILL_ROWS:
            sheet["skills"].append(row)


def _edit_points(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)
    sheet["character_points"] = parse_whole(
        trait, raw, label="The character point budget", minimum=0, maximum=MAX_POINTS
    )


def _edit_stage(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest:
        raise _unknown(trait)

    def freeze(new: dict) -> None:
        # What creation cost is kept, so that later purchases are counted as XP (L826).
        spent = points_spent(new, settings)
        if spent > new["character_points"] + xp_awarded(new):
            raise InvalidEdit(
                trait,
                f"Creation cannot finish over budget: {spent} CP spent of "
                f"{new['character_points']} CP.",
            )
        new["creation_spent"] = spent

    def reopen(new: dict) -> None:
        new["creation_spent"] = None

    change_stage(sheet, raw, freeze=freeze, reopen=reopen)


def _edit_xp(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    awards = sheet["xp_awards"]
    # "xp.add" is the sheet's add row (named like every other add row); "xp.award" stays.
    if rest in (["add"], ["award"]):
        if len(awards) >= XP_AWARD_ROWS:
            raise InvalidEdit(trait, f"The sheet keeps at most {XP_AWARD_ROWS} experience awards.")
        amount_text, _bar, note = str(raw).partition("|")
        amount = parse_whole(
            trait, amount_text, label="An experience award", minimum=1, maximum=MAX_POINTS
        )
        note = parse_text(trait, note, label="The award's note", limit=SPECIAL_TEXT_LENGTH)
        awards.append({"amount": amount, "note": note})
        return
    if len(rest) != 2:
        raise _unknown(trait)
    index = parse_row_index(trait, rest[0], awards, noun="experience award")
    if rest[1] == "remove":
        del awards[index]
    elif rest[1] == "amount":
        awards[index]["amount"] = parse_whole(
            trait, raw, label="An experience award", minimum=1, maximum=MAX_POINTS
        )
    elif rest[1] == "note":
        awards[index]["note"] = parse_text(
            trait, raw, label="The award's note", limit=SPECIAL_TEXT_LENGTH
        )
    else:
        raise _unknown(trait)


# --- stats, skills, Willpower, Dark Side ----------------------------------------------------


def _edit_stat(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if len(rest) != 1 or rest[0] not in STAT_BY_SLUG:
        raise _unknown(trait)
    slug = rest[0]
    label = STAT_BY_SLUG[slug].label
    hard, wiggle = stat_extra_dice(sheet, slug)
    maximum = stat_maximum(sheet, slug, settings)
    value = _dice(trait, raw, label=label)
    if value < 1:
        raise InvalidEdit(trait, f"{label} cannot go below 1d: every stat starts at 1d.")
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
        hard, wiggle = skill_extra_dice(sheet, row, settings)
        highest = SKILL_MAXIMUM - hard - wiggle
        value = _dice(trait, raw, label=row["name"], minimum=0)
        if value > highest:
            extra = f" (it already has {hard + wiggle} hard/wiggle dice)" if hard + wiggle else ""
            raise InvalidEdit(
                trait,
                f"{row['name']} can go up to {highest}d{extra}; a skill tops out at "
                f"{SKILL_MAXIMUM}d.",
            )
        row["dice"] = value
    elif action == ["stat"]:
        stats = [(stat.slug, stat.label) for stat in STATS]
        row["stat"] = parse_choice(trait, str(raw).strip().lower(), stats, label="Stat")
    elif action == ["specialty"]:
        catalog = SKILL_BY_SLUG.get(row["skill"])
        if catalog is None or not catalog.takes_specialty:
            raise InvalidEdit(trait, f"{row['name']} takes no [specialty].")
        specialty = parse_text(trait, raw, label="The specialty", limit=SKILL_NAME_LENGTH)
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
            raise InvalidEdit(trait, f"{row['name']} is a starting language and stays.")
        if any(a["target"] == row["id"] for a in sheet["abilities"]):
            raise InvalidEdit(
                trait, f"An ability still adds dice to {row['name']}; remove it first."
            )
        sheet["skills"].remove(row)
    else:
        raise _unknown(trait)


def _add_skill(sheet: dict, trait: str, raw: str) -> None:
    """Add "Blaster", "Lore [Jedi lore]" or a custom "Name|stat" (L662)."""
    if len(sheet["skills"]) >= SKILL_ROWS:
        raise InvalidEdit(trait, f"The sheet keeps at most {SKILL_ROWS} skills.")
    name_part, _bar, stat_part = str(raw).partition("|")
    name = parse_text(trait, name_part, label="The skill's name", limit=SKILL_NAME_LENGTH)
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
                f"“{name}” is not in the skill list; a skill of your own needs its stat "
                f"(Name|stat, e.g. {name}|brains).",
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
    while row["id"] in RESERVED_SKILL_IDS or skill_row(sheet, row["id"]) is not None:
        row["id"], number = f"{base_id}_{number}", number + 1
    sheet["skills"].append(row)


def _edit_willpower(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest not in (["bought"], ["extra"], ["current"]):
        raise _unknown(trait)
    if is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Willpower.")
    willpower = sheet["willpower"]
    if rest == ["bought"]:
        willpower["bought"] = parse_whole(
            trait,
            raw,
            label="Willpower points bought",
            minimum=0,
            maximum=WILLPOWER_BOUGHT_MAXIMUM,
        )
    elif rest == ["extra"]:
        willpower["extra"] = parse_whole(
            trait,
            raw,
            label="Extra current Willpower",
            minimum=0,
            maximum=WILLPOWER_BOUGHT_MAXIMUM,
        )
    else:
        current = parse_whole(trait, raw, label="Current Willpower", minimum=0, maximum=MAX_POINTS)
        base = base_willpower(sheet, settings) or 0
        willpower["adjustment"] = current - base - willpower["extra"]


def _edit_dark_side(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if rest not in (["base"], ["current"]):
        raise _unknown(trait)
    if is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Willpower, so no Dark Side Points.")
    sheet["dark_side"][rest[0]] = parse_whole(
        trait, raw, label="Dark Side Points", minimum=0, maximum=MAX_POINTS
    )


# --- the Force ------------------------------------------------------------------------------


def _edit_power(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    if not rest or rest[0] not in POWER_BY_SLUG or len(rest) > 2:
        raise _unknown(trait)
    power = POWER_BY_SLUG[rest[0]]
    row = sheet["powers"][power.slug]
    if rest[1:] == ["approved"]:
        row["approved"] = parse_flag(trait, raw, label=f"{power.label} approved")
        return
    part = {(): "dice", ("hard",): "hard", ("wiggle",): "wiggle"}.get(tuple(rest[1:]))
    if part is None:
        raise _unknown(trait)
    value = _dice(trait, raw, label=power.label, minimum=0)
    if value and is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Force Sense and cannot learn Force powers.")
    if part == "dice" and not is_droid(sheet) and value < power.free_dice:
        raise InvalidEdit(
            trait, f"{power.label} cannot go below {power.free_dice}d: every living being has it."
        )
    others = sum(row[p] for p in ("dice", "hard", "wiggle") if p != part)
    if value + others > POWER_MAXIMUM_DICE:
        raise InvalidEdit(
            trait,
            f"That makes a pool of {value + others} dice for {power.label}; a power holds at "
            f"most {POWER_MAXIMUM_DICE} dice, hard and wiggle dice included.",
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
            f"{stunt.label} is a stunt: stunts take normal dice only, no {action[0]} dice.",
        )
    if action == ["approved"]:
        if stunt.slug not in sheet["stunts"]:
            raise InvalidEdit(trait, f"Buy at least 1d of {stunt.label} first.")
        sheet["stunts"][stunt.slug]["approved"] = parse_flag(
            trait, raw, label=f"{stunt.label} approved"
        )
        return
    if action:
        raise _unknown(trait)
    if str(raw).strip().lower().endswith(("hd", "wd")):
        raise InvalidEdit(trait, f"{stunt.label} is a stunt: stunts take normal dice only.")
    value = _dice(trait, raw, label=stunt.label, minimum=0, maximum=STUNT_MAXIMUM_DICE)
    if value and is_droid(sheet):
        raise InvalidEdit(trait, "Droids have no Force Sense and cannot learn Force stunts.")
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
        if len(rows) >= ABILITY_ROWS:
            raise InvalidEdit(trait, f"The sheet keeps at most {ABILITY_ROWS} abilities.")
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
    index = parse_row_index(trait, rest[0], rows, noun="ability")
    if rest[1] == "remove":
        del rows[index]
    elif rest[1] == "level":
        rows[index]["level"] = parse_whole(
            trait, raw, label="An ability level", minimum=1, maximum=ABILITY_MAXIMUM_LEVEL
        )
    else:
        raise _unknown(trait)


ARMOR_NUMBERS = {
    "ar": ("AR", GEAR_NUMBER_MAXIMUM),
    "move": ("Move", GEAR_NUMBER_MAXIMUM),
    "coordination": ("The Coordination penalty", ARMOR_COORDINATION_MAXIMUM),
}
WEAPON_NUMBERS = {"penetration": "Penetration", "initiative": "Initiative"}


def _edit_armor(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    rows = sheet["armor"]
    if rest == ["add"]:
        if len(rows) >= ARMOR_ROWS:
            raise InvalidEdit(trait, f"The sheet has room for {ARMOR_ROWS} armor rows.")
        rows.append(_armor_from(trait, raw))
        return
    if len(rest) != 2:
        raise _unknown(trait)
    row = rows[parse_row_index(trait, rest[0], rows, noun="armor")]
    field = rest[1]
    if field == "remove":
        rows.remove(row)
    elif field == "name":
        row["name"] = parse_text(trait, raw, label="The armor's name", limit=ROW_TEXT_LENGTH)
    elif field == "special":
        row["special"] = parse_text(trait, raw, label="Special", limit=SPECIAL_TEXT_LENGTH)
    elif field in ARMOR_NUMBERS:
        label, maximum = ARMOR_NUMBERS[field]
        row[field] = parse_whole(trait, raw, label=label, minimum=0, maximum=maximum)
    elif field == "worn":
        row["worn"] = parse_flag(trait, raw, label="Worn")
    elif field == "covers":
        row["covers"] = _locations(trait, raw)
    else:
        raise _unknown(trait)


def _armor_from(trait: str, raw: str) -> dict:
    name = parse_text(trait, raw, label="The armor's name", limit=ROW_TEXT_LENGTH)
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
        raise InvalidEdit(trait, f"Unknown hit location(s): {', '.join(unknown)[:80]}.")
    return [slug for slug in ALL_LOCATIONS if slug in wanted]


def _edit_weapon(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    rows = sheet["weapons"]
    if rest == ["add"]:
        if len(rows) >= WEAPON_ROWS:
            raise InvalidEdit(trait, f"The sheet has room for {WEAPON_ROWS} weapons.")
        rows.append(_weapon_from(trait, raw))
        return
    if len(rest) != 2:
        raise _unknown(trait)
    row = rows[parse_row_index(trait, rest[0], rows, noun="weapon")]
    field = rest[1]
    if field == "remove":
        rows.remove(row)
    elif field in ("name", "damage"):
        label = "The weapon's name" if field == "name" else "Damage"
        row[field] = parse_text(trait, raw, label=label, limit=ROW_TEXT_LENGTH)
    elif field == "special":
        row["special"] = parse_text(trait, raw, label="Special", limit=SPECIAL_TEXT_LENGTH)
    elif field in WEAPON_NUMBERS:
        row[field] = parse_whole(
            trait, raw, label=WEAPON_NUMBERS[field], minimum=0, maximum=GEAR_NUMBER_MAXIMUM
        )
    else:
        raise _unknown(trait)


def _weapon_from(trait: str, raw: str) -> dict:
    """Add a catalog weapon by its name, or one of the player's own as "Name|damage".

    A name the catalog lacks ("Blaster pistol" for its "Blaster") is refused with the
    weapons it may mean: a weapon of one's own is added only once its damage is given,
    so a typo never quietly becomes a weapon with no stats.
    """
    name_part, _bar, damage_part = str(raw).partition("|")
    name = parse_text(trait, name_part, label="The weapon's name", limit=ROW_TEXT_LENGTH)
    damage = parse_text(trait, damage_part, label="Damage", limit=ROW_TEXT_LENGTH)
    if not name:
        raise InvalidEdit(trait, "Name the weapon or pick it from the list.")
    weapon = WEAPON_BY_SLUG.get(name.lower()) or next(
        (w for w in WEAPON_BY_SLUG.values() if w.label.lower() == name.lower()), None
    )
    if weapon is None:
        if not damage:
            raise InvalidEdit(trait, _not_in_catalog(name))
        return {
            "from": "",
            "name": name,
            "damage": damage,
            "penetration": 0,
            "initiative": 0,
            "special": "",
        }
    return {
        "from": weapon.slug,
        "name": weapon.label,
        "damage": damage or weapon.damage,
        "penetration": weapon.penetration,
        "initiative": weapon.initiative,
        "special": weapon.special,
    }


def _not_in_catalog(name: str) -> str:
    near = weapon_matches(name, most=4)
    said = f"“{name[:60]}” is not in the weapon list"
    if near:
        said += ". Did you mean " + ", ".join(w.label for w in near) + "? Pick one from the list"
    return (
        said + ", or give its damage (e.g. width+1) to add it as your own weapon; "
        "its other stats start at 0."
    )


_WORD = re.compile(r"[a-z0-9]+")
# Words this short match too much of the catalog to suggest anything.
_SHORTEST_WORD = 2


def weapon_matches(text: str, *, most: int = 8) -> tuple[Weapon, ...]:
    """Return the catalog weapons a typed name may mean, best first.

    Each typed word is looked for inside the weapon's name and its kind, so "Blaster
    pistol" finds Blaster (a pistol) before Blaster rifle; more words found rank first,
    then shorter names.
    """
    typed = _WORD.findall(str(text)[:ROW_TEXT_LENGTH].lower())[:8]
    words = [word for word in typed if len(word) >= _SHORTEST_WORD]
    if not words:
        return ()
    ranked = []
    for weapon in WEAPONS:
        own = _WORD.findall(f"{weapon.label} {weapon.category}".lower())
        found = sum(1 for word in words if any(word in part for part in own))
        if found:
            ranked.append((-found, len(weapon.label), weapon.label, weapon))
    return tuple(entry[-1] for entry in sorted(ranked)[:most])


def _edit_wound(sheet: dict, trait: str, rest: list[str], raw: str, settings: Mapping) -> None:
    """wound.<location>.<box> cycles or sets one box; wound.<location>.clear empties them."""
    if len(rest) != 2 or rest[0] not in LOCATION_BY_SLUG:
        raise _unknown(trait)
    boxes = sheet["wounds"][rest[0]]
    if rest[1] == "clear":
        boxes[:] = [BOX_EMPTY] * len(boxes)
        return
    label = LOCATION_BY_SLUG[rest[0]].label
    index = parse_row_index(trait, rest[1], boxes, noun=f"{label.lower()} wound box")
    word = str(raw).strip().lower()
    if word in ("", "cycle"):
        boxes[index] = next_box_state(boxes[index])
    elif word in BOX_WORDS:
        boxes[index] = BOX_WORDS[word]
    else:
        raise InvalidEdit(
            trait, "Mark a box as empty, shock (/) or normal damage (X), or cycle it."
        )


_HANDLERS: dict[str, Callable[[dict, str, list[str], str, Mapping], None]] = {
    "info": _edit_info,
    "species": _edit_species,
    "character_points": _edit_points,
    STAGE_TRAIT: _edit_stage,
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
