"""What the vehicle pages draw from a stat block: its fields as rows (label, input kind,
choices), its lists as tables, and what the rules derive (codes after damage, what the
next pip costs). Computed on every draw, never stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulesets.core.diecode import DieCode
from rulesets.ore import vehicles as ore
from rulesets.swd10 import vehicles as swd
from rulesets.weg_d6 import vehicles as weg
from rulesets.weg_d6.data import EDITIONS

LABELS = {
    "craft": "Craft",
    "edition": "Edition",
    "scale": "Scale",
    "crew_skill": "Crew skill",
    "hyperdrive": "Hyperdrive multiplier",
    "hyperdrive_backup": "Backup hyperdrive",
    "nav_computer": "Nav computer",
    "space": "Space",
    "atmosphere_move": "Atmosphere move",
    "atmosphere_kmh": "Atmosphere km/h",
    "value": "Original value (credits)",
    "fire_arc": "Fire arc",
    "fire_control": "Fire control",
    "speed_rating": "Speed (width +)",
    "shield_points": "Shield points",
    "shields_left": "Shield points left",
    "starship_armor": "Starship armor (SAR)",
    "low": "Height from",
    "high": "to",
    "armor": "AR",
    "boxes": "Wound boxes",
    "killing": "Killing",
    "ionization": "Ionization (dice; 4: dead controls)",
    "shield_dice_lost": "Shield dice lost",
    "capital_pips": "Capital ship damage (pips)",
    "state": "State",
    "health_marked": "Health levels marked",
}
HIDDEN = {"schema_version", "improved", "damage"}
LONG_TEXT = {"notes"}


def _choices(system: str) -> dict[str, tuple[tuple[str, str], ...]]:
    if system == "weg_d6":
        return {
            "edition": EDITIONS,
            "scale": weg.SCALES,
            "hyperdrive": weg.HYPERDRIVES,
            "hyperdrive_backup": weg.HYPERDRIVES,
            "weapons.fire_arc": weg.FIRE_ARCS,
            "weapons.state": weg.WEAPON_STATES,
            "sensors.mode": tuple((m, m.capitalize()) for m in weg.SENSOR_MODES),
            "damage.state": weg.DAMAGE_STATES,
        }
    if system == "ore":
        return {"speed": ore.SPEEDS}
    if system == "swd10":
        return {"size": tuple((s.key, s.label) for s in swd.SIZES)}
    return {}


@dataclass
class Field:
    path: str
    label: str
    value: Any
    kind: str  # "text", "number", "flag", "choice", "long"
    choices: tuple[tuple[str, str], ...] = ()
    error: str = ""
    suggestions: str = ""  # the id of a <datalist> offering values (a weapon's range)


@dataclass
class Table:
    name: str
    label: str
    columns: list[str]
    rows: list[list[Field]] = field(default_factory=list)


def _field(system: str, path: str, key: str, value: Any, errors: dict, group: str = "") -> Field:
    choices = _choices(system).get(f"{group}.{key}" if group else key, ())
    if choices:
        kind = "choice"
    elif isinstance(value, bool):
        kind = "flag"
    elif isinstance(value, int):
        kind = "number"
    else:
        kind = "long" if key in LONG_TEXT else "text"
    label = LABELS.get(key, key.replace("_", " ").capitalize())
    offered = RANGES_LIST if system == "weg_d6" and (group, key) == ("weapons", "range") else ""
    return Field(path, label, value, kind, choices, errors.get(path, ""), offered)


# A vehicle weapon's range filled from its category (003:466-487), offered beside the field.
RANGES_LIST = "weg-weapon-ranges"


def range_chart(system: str) -> tuple[weg.WeaponRange, ...]:
    """The 1E chart of ranges for additional weapons, for a WEG vehicle's weapon rows."""
    return weg.WEAPON_RANGES if system == "weg_d6" else ()


def fields(system: str, data: dict, errors: dict) -> list[Field]:
    return [
        _field(system, key, key, value, errors)
        for key, value in data.items()
        if key not in HIDDEN and not isinstance(value, (list, dict))
    ]


def damage_fields(system: str, data: dict, errors: dict) -> list[Field]:
    damage = data.get("damage")
    if not isinstance(damage, dict):
        return []
    return [
        _field(system, f"damage.{key}", key, value, errors, "damage")
        for key, value in damage.items()
    ]


TABLE_LABELS = {"weapons": "Weapons", "sensors": "Sensors", "locations": "Hit locations"}


def tables(system: str, data: dict, errors: dict) -> list[Table]:
    out = []
    for name, label in TABLE_LABELS.items():
        if name not in data:
            continue
        table = Table(name, label, [])
        for index, row in enumerate(data[name]):
            cells = [
                _field(system, f"{name}.{index}.{key}", key, value, errors, name)
                for key, value in row.items()
            ]
            table.rows.append(cells)
            table.columns = [cell.label for cell in cells]
        out.append(table)
    return out


@dataclass(frozen=True)
class Derived:
    codes: list[tuple[str, str, str]]  # (label, code in play, source)
    improvements: list[dict]
    states: list[tuple[str, str]]  # what the damage does, in words, with its source
    extra: list[tuple[str, str]]


def derived(system: str, data: dict) -> Derived:
    if system == "weg_d6":
        codes = [
            (code.label, str(DieCode.from_pips(code.pips)), code.source) for code in weg.codes(data)
        ]
        why = weg.can_act(data)
        states = [
            ("State", weg.DAMAGE_LABELS[data["damage"]["state"]] + " (003:571-579)"),
            ("Codes in play", f"−{weg.penalty_pips(data)} pips but hull (003:541, 003:1268)"),
        ] + ([("Cannot act", why)] if why else [])
        return Derived(codes, weg.improvement_rows(data), states, [])
    if system == "ore":
        states = [
            (row["name"], ore.location_state(row) + " (001:L448)") for row in data["locations"]
        ]
        return Derived([], [], states, [("Difficulty", str(data["difficulty"]))])
    if system == "swd10":
        size = swd.SIZE_BY_KEY[data["size"]]
        extra = [
            ("Operation", f"{size.dice:+d} dice, {size.difficulty:+d} difficulty ({size.source})"),
            ("Shields difficulty", f"{size.shields_difficulty:+d} (000:L1414)"),
            ("Difficulty to damage it", f"{size.damage_difficulty:+d} (000:L1416)"),
            ("Health levels", size.health),
        ]
        return Derived([], [], [], extra)
    return Derived([], [], [], [])
