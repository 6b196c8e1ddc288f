"""The shape of a Star O.R.E. sheet: a blank one, and the normal form of an imported one."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

from rulesets.core import InvalidSheet
from rulesets.ore.data import (
    ABILITY_BY_SLUG,
    ABILITY_MAXIMUM_LEVEL,
    ALL_LOCATIONS,
    ARMOR_BY_SLUG,
    ARMOR_ROWS,
    BOX_STATES,
    FORM_BY_SLUG,
    HIT_LOCATIONS,
    INFO_KEYS,
    POWER_BY_SLUG,
    POWER_MAXIMUM_DICE,
    POWERS,
    SKILL_BY_SLUG,
    SPECIES_BY_SLUG,
    STARTING_LANGUAGE_DICE,
    STAT_BY_SLUG,
    STATS,
    STUNT_BY_SLUG,
    STUNT_MAXIMUM_DICE,
    TEXT_MAX_LENGTH,
    WEAPON_BY_SLUG,
    WEAPON_ROWS,
)

PHASES = ("creation", "play")
MAX_DICE_FIELD = 20  # a stored stat can never reasonably exceed this; check() gives the real cap
MAX_POINTS = 100_000
MAX_XP_AWARDS = 1000
Checker = Callable[[Any, str], Any]


def skill_id(name: str) -> str:
    """Turn a skill's written name into its stable key: "Lore [Jedi lore]" -> "lore_jedi_lore"."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def skill_name(label: str, specialty: str) -> str:
    return f"{label} [{specialty}]" if specialty else label


def new_skill(catalog_slug: str, specialty: str = "", dice: int = 0, free: int = 0) -> dict:
    """Build a sheet row for a catalog skill."""
    skill = SKILL_BY_SLUG[catalog_slug]
    name = skill_name(skill.label, specialty)
    return {
        "id": skill_id(name),
        "skill": catalog_slug,
        "name": name,
        "specialty": specialty,
        "stat": skill.stat,
        "dice": dice,
        "free": free,
    }


def wound_box_count(sheet: Mapping[str, Any], location_boxes: int) -> int:
    """Boxes on one location: the table's count, +1 per level of massive (L814, L850)."""
    species = SPECIES_BY_SLUG.get(sheet.get("species", "human"), SPECIES_BY_SLUG["human"])
    massive = sum(row["level"] for row in sheet.get("abilities", ()) if row["ability"] == "massive")
    return location_boxes + species.extra_wound_boxes + massive


def fit_wounds(sheet: dict) -> None:
    """Resize every location's boxes to the species' count, keeping the marks that still fit."""
    wounds = sheet.setdefault("wounds", {})
    for location in HIT_LOCATIONS:
        count = wound_box_count(sheet, location.boxes)
        boxes = list(wounds.get(location.slug, []))[:count]
        wounds[location.slug] = boxes + [""] * (count - len(boxes))


def blank_sheet(budget: int) -> dict:
    """Build a new human with the free starting package (L758-L766)."""
    sheet: dict[str, Any] = {
        "info": dict.fromkeys(INFO_KEYS, ""),
        "species": "human",
        "character_points": budget,
        "phase": "creation",
        "creation_spent": None,
        "xp_awards": [],
        "stats": {stat.slug: 1 for stat in STATS},
        "skills": [
            new_skill("language", "native", STARTING_LANGUAGE_DICE, STARTING_LANGUAGE_DICE),
            new_skill("language", "Basic", STARTING_LANGUAGE_DICE, STARTING_LANGUAGE_DICE),
        ],
        "powers": {
            power.slug: {"dice": power.free_dice, "hard": 0, "wiggle": 0, "approved": False}
            for power in POWERS
        },
        "stunts": {},
        "willpower": {"bought": 0, "extra": 0, "adjustment": 0},
        "dark_side": {"base": 0, "current": 0},
        "abilities": [],
        "armor": [],
        "weapons": [],
        "wounds": {},
        "lightsaber_form": "",
    }
    fit_wounds(sheet)
    return sheet


# --- Import validation ----------------------------------------------------------------------


def _fail(path: str, message: str) -> InvalidSheet:
    return InvalidSheet(f"{path}: {message}")


def _mapping(value: Any, path: str, allowed: tuple[str, ...] | None = None) -> Mapping:
    if not isinstance(value, Mapping):
        raise _fail(path, "expected an object")
    if allowed is not None:
        unknown = sorted(set(value) - set(allowed))
        if unknown:
            raise _fail(path, f"unknown key(s) {', '.join(map(str, unknown))}")
    return value


def _list(value: Any, path: str, longest: int) -> list:
    if not isinstance(value, list):
        raise _fail(path, "expected a list")
    if len(value) > longest:
        raise _fail(path, f"at most {longest} entries, found {len(value)}")
    return value


def _int(value: Any, path: str, lowest: int, highest: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"expected a whole number, found {value!r}")
    if not lowest <= value <= highest:
        raise _fail(path, f"{value} is outside {lowest}..{highest}")
    return value


def _text(value: Any, path: str, longest: int = TEXT_MAX_LENGTH) -> str:
    if not isinstance(value, str):
        raise _fail(path, f"expected text, found {value!r}")
    if len(value) > longest:
        raise _fail(path, f"longer than {longest} characters")
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, f"expected true or false, found {value!r}")
    return value


def _choice(value: Any, path: str, allowed: Mapping | tuple) -> str:
    if value not in allowed:
        raise _fail(path, f"unknown value {value!r}")
    return value


def _ints(lowest: int, highest: int) -> Checker:
    return lambda value, path: _int(value, path, lowest, highest)


def _texts(longest: int) -> Checker:
    return lambda value, path: _text(value, path, longest)


def _slug_or_blank(catalog: Mapping) -> Checker:
    # Rows picked from a catalog remember where they came from; typed-in rows say "".
    return lambda value, path: value if value == "" else _choice(value, path, catalog)


def _row(value: Any, path: str, fields: dict[str, Checker]) -> dict:
    """Check one list row against {field: checker}, filling nothing: every field is required."""
    row = _mapping(value, path, tuple(fields))
    missing = sorted(set(fields) - set(row))
    if missing:
        raise _fail(path, f"missing key(s) {', '.join(missing)}")
    return {key: check(row[key], f"{path}.{key}") for key, check in fields.items()}


def _skill_row(value: Any, path: str) -> dict:
    row = _row(
        value,
        path,
        {
            "id": _texts(200),
            "skill": _slug_or_blank(SKILL_BY_SLUG),
            "name": _texts(200),
            "specialty": _texts(200),
            "stat": lambda v, p: _choice(v, p, STAT_BY_SLUG),
            "dice": _ints(0, MAX_DICE_FIELD),
            "free": _ints(0, STARTING_LANGUAGE_DICE),
        },
    )
    if not row["name"].strip():
        raise _fail(path, "a skill needs a name")
    # The id is fixed when the skill is added; renaming a specialty keeps it (stable keys).
    if not re.fullmatch(r"[a-z0-9_]+", row["id"]):
        raise _fail(f"{path}.id", "use lowercase letters, digits and _ only")
    if row["free"] and row["skill"] != "language":
        raise _fail(path, "only the two starting languages come with free dice")
    return row


def _power_row(value: Any, path: str) -> dict:
    dice = _ints(0, POWER_MAXIMUM_DICE)
    return _row(value, path, {"dice": dice, "hard": dice, "wiggle": dice, "approved": _bool})


def validate_sheet(data: Any) -> dict:
    """Return the normal form of an imported sheet, or raise InvalidSheet saying what is wrong.

    Missing top-level parts are filled from a blank sheet so older exports still load.
    """
    top = _mapping(data, "sheet", tuple(blank_sheet(0)))
    sheet = blank_sheet(0)
    if "info" in top:
        info = _mapping(top["info"], "info", INFO_KEYS)
        sheet["info"].update({k: _text(v, f"info.{k}") for k, v in info.items()})
    if "species" in top:
        sheet["species"] = _choice(top["species"], "species", SPECIES_BY_SLUG)
    if "character_points" in top:
        sheet["character_points"] = _int(top["character_points"], "character_points", 0, MAX_POINTS)
    if "phase" in top:
        sheet["phase"] = _choice(top["phase"], "phase", PHASES)
    if "creation_spent" in top and top["creation_spent"] is not None:
        sheet["creation_spent"] = _int(top["creation_spent"], "creation_spent", 0, MAX_POINTS)
    if (sheet["phase"] == "play") != (sheet["creation_spent"] is not None):
        raise _fail("creation_spent", "is set exactly when the phase is play")
    if "xp_awards" in top:
        sheet["xp_awards"] = [
            _row(
                award,
                f"xp_awards.{n}",
                {
                    "amount": _ints(1, MAX_POINTS),
                    "note": _texts(500),
                },
            )
            for n, award in enumerate(_list(top["xp_awards"], "xp_awards", MAX_XP_AWARDS))
        ]
    if "stats" in top:
        stats = _mapping(top["stats"], "stats", tuple(STAT_BY_SLUG))
        for slug, value in stats.items():
            sheet["stats"][slug] = _int(value, f"stats.{slug}", 0, MAX_DICE_FIELD)
    if "skills" in top:
        skills = [
            _skill_row(row, f"skills.{n}")
            for n, row in enumerate(_list(top["skills"], "skills", 200))
        ]
        ids = [row["id"] for row in skills]
        names = [row["name"].lower() for row in skills]
        if len(set(ids)) != len(ids) or len(set(names)) != len(names):
            raise _fail("skills", "two skills share an id or a name")
        if sum(1 for row in skills if row["free"]) > 2:
            raise _fail("skills", "only two starting languages come with free dice")
        sheet["skills"] = skills
    if "powers" in top:
        powers = _mapping(top["powers"], "powers", tuple(POWER_BY_SLUG))
        for slug, row in powers.items():
            sheet["powers"][slug] = _power_row(row, f"powers.{slug}")
    if "stunts" in top:
        stunts = _mapping(top["stunts"], "stunts", tuple(STUNT_BY_SLUG))
        sheet["stunts"] = {
            slug: _row(
                row,
                f"stunts.{slug}",
                {"dice": _ints(1, STUNT_MAXIMUM_DICE), "approved": _bool},
            )
            for slug, row in stunts.items()
        }
    if "willpower" in top:
        points = _ints(0, MAX_POINTS)
        sheet["willpower"] = _row(
            top["willpower"],
            "willpower",
            {
                "bought": points,
                "extra": points,
                "adjustment": _ints(-MAX_POINTS, MAX_POINTS),
            },
        )
    if "dark_side" in top:
        points = _ints(0, MAX_POINTS)
        sheet["dark_side"] = _row(
            top["dark_side"], "dark_side", {"base": points, "current": points}
        )
    if "abilities" in top:
        sheet["abilities"] = [
            _ability_row(row, f"abilities.{n}", sheet)
            for n, row in enumerate(_list(top["abilities"], "abilities", 50))
        ]
    if "armor" in top:
        sheet["armor"] = [
            _armor_row(row, f"armor.{n}")
            for n, row in enumerate(_list(top["armor"], "armor", ARMOR_ROWS))
        ]
    if "weapons" in top:
        sheet["weapons"] = [
            _weapon_row(row, f"weapons.{n}")
            for n, row in enumerate(_list(top["weapons"], "weapons", WEAPON_ROWS))
        ]
    if "lightsaber_form" in top:
        form = top["lightsaber_form"]
        sheet["lightsaber_form"] = (
            form if form == "" else _choice(form, "lightsaber_form", FORM_BY_SLUG)
        )
    sheet["wounds"] = {}
    if "wounds" in top:
        wounds = _mapping(top["wounds"], "wounds", ALL_LOCATIONS)
        for location in HIT_LOCATIONS:
            boxes = _list(wounds.get(location.slug, []), f"wounds.{location.slug}", 100)
            count = wound_box_count(sheet, location.boxes)
            if len(boxes) != count:
                raise _fail(
                    f"wounds.{location.slug}", f"expected {count} boxes, found {len(boxes)}"
                )
            for n, state in enumerate(boxes):
                _choice(state, f"wounds.{location.slug}.{n}", BOX_STATES)
            sheet["wounds"][location.slug] = list(boxes)
    fit_wounds(sheet)
    return copy.deepcopy(sheet)


def _ability_row(value: Any, path: str, sheet: Mapping[str, Any]) -> dict:
    row = _row(
        value,
        path,
        {
            "ability": lambda v, p: _choice(v, p, ABILITY_BY_SLUG),
            "target": _texts(200),
            "level": _ints(1, ABILITY_MAXIMUM_LEVEL),
        },
    )
    kind = ABILITY_BY_SLUG[row["ability"]].target
    if kind == "stat":
        _choice(row["target"], f"{path}.target", STAT_BY_SLUG)
    elif kind == "skill":
        if row["target"] not in {skill["id"] for skill in sheet["skills"]}:
            raise _fail(f"{path}.target", f"no skill with id {row['target']!r} on the sheet")
    elif row["target"]:
        raise _fail(f"{path}.target", "this ability applies to no stat or skill")
    return row


def _armor_row(value: Any, path: str) -> dict:
    def covers(v: Any, p: str) -> list[str]:
        locations = _list(v, p, len(ALL_LOCATIONS))
        for n, slug in enumerate(locations):
            _choice(slug, f"{p}.{n}", ALL_LOCATIONS)
        return [slug for slug in ALL_LOCATIONS if slug in locations]

    return _row(
        value,
        path,
        {
            "from": _slug_or_blank(ARMOR_BY_SLUG),
            "name": _texts(200),
            "ar": _ints(0, 50),
            "coordination": _ints(0, 10),
            "move": _ints(0, 50),
            "special": _texts(500),
            "covers": covers,
            "worn": _bool,
        },
    )


def _weapon_row(value: Any, path: str) -> dict:
    return _row(
        value,
        path,
        {
            "from": _slug_or_blank(WEAPON_BY_SLUG),
            "name": _texts(200),
            "damage": _texts(200),
            "penetration": _ints(0, 50),
            "initiative": _ints(0, 50),
            "special": _texts(500),
        },
    )
