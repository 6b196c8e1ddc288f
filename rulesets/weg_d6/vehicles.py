"""WEG d6 vehicles and starships: the stat block, damage states, improvement and modification.

Sources (seeds 003, 1st edition Rules Companion, and 002, 2nd edition R&E):
- scales and die caps (003:618-647), the starship damage summary (003:571-579), ionization
  (003:539-545), capital ship damage in pips (003:1264-1380);
- improving equipment with skill points, 1E (003:1006-1070);
- modifying vehicles, vessels and weapons as a percentage of value, R&E (002:259-414), and
  repairing them (002:155-254).

Die codes are stored as text ("2D+1") and read through `rulesets.core.diecode`. A vehicle
roll is the crew member's own code plus the vehicle's (003:531: pilot skill and
maneuver; gunnery and fire control), less whole dice of ionization (003:541: every ship code
but hull); the sum is rolled by `rulesets.weg_d6.dice` like any code, Wild Die and all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from rulesets.core.diecode import DieCode, DieCodeError
from rulesets.core.edits import InvalidSheet
from rulesets.core.rolls import Bar, InvalidRoll, Odds, Rollable, RollResult
from rulesets.core.schema import SheetModel, flag, one_of, rows, text, validate_with, whole
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE, EDITIONS

MOST_CODE_DICE = 30  # the largest capital ship codes in the seed stay far below (003:1575-1660)
MOST_WEAPONS = 30
MOST_CREW = 100_000  # a Star Destroyer's crew is tens of thousands
MOST_CREDITS = 10**13  # a Death Star-scale project runs to billions (003:1026)


# --- die codes as stored ---------------------------------------------------------------------


def code_text(*, allow_empty: bool = False) -> Any:
    """A die code written as the books do ("2D+1"), 0D to 30D, at most 2 pips."""

    def check(value: Any) -> Any:
        if type(value) is not str:
            raise PydanticCustomError("die_code", "expected a die code such as 2D+1")
        if allow_empty and value.strip() == "":
            return ""
        try:
            code = DieCode.parse(value)
        except DieCodeError as error:
            raise PydanticCustomError("die_code", "{why}", {"why": str(error)}) from None
        if not 0 <= code.total_pips <= MOST_CODE_DICE * 3:
            raise PydanticCustomError(
                "die_code_range", "expected a code from 0D to {most}D", {"most": MOST_CODE_DICE}
            )
        return code.format()

    return Annotated[str, BeforeValidator(check), WithJsonSchema({"type": "string"})]


def pips_of(code: str) -> int:
    """The whole pips of a stored code; an empty code is 0D."""
    return DieCode.parse(code).total_pips if code else 0


# --- scales (003:620-647) -------------------------------------------------------------------

SCALES: tuple[tuple[str, str], ...] = (
    ("character", "Character and creature"),
    ("speeder", "Speeder (repulsorlift)"),
    ("walker", "Walker"),
    ("starfighter", "Starfighter"),
    ("capital", "Capital ship"),
    ("death_star", "Death Star"),
)
SCALE_LABELS = dict(SCALES)
_ORDER = tuple(key for key, _ in SCALES)

# Die caps: the highest face of one die that still counts, rolled scale (row) against the
# target's scale (column); None where the table has "—" (003:624-634). Columns in _ORDER.
DIE_CAPS: dict[str, dict[str, tuple[int | None, ...]]] = {
    "to_hit": {  # 003:591-601
        "character": (6, 6, 6, 6, 6, 6),
        "speeder": (5, 6, 6, 6, 6, 6),
        "walker": (4, 6, 6, 6, 6, 6),
        "starfighter": (3, 4, 5, 6, 6, 6),
        "capital": (1, 3, 4, 5, 6, 6),
        # Garbled row (003:601): read as "—, —, —, 1, 5, 6".
        "death_star": (None, None, None, 1, 5, 6),
    },
    "maneuver": {  # 003:603-612
        "character": (6, 6, 6, 4, 5, 6),
        "speeder": (6, 6, 6, 4, 5, 6),
        "walker": (5, 5, 6, 3, 4, 6),
        "starfighter": (6, 6, 6, 6, 6, 6),
        "capital": (6, 6, 6, 5, 6, 6),
        "death_star": (3, 3, 4, 1, 2, 6),
    },
    "damage": {  # 003:636-646; blank cells read as "—"
        "character": (6, 3, 2, 2, None, None),
        "speeder": (6, 6, 5, 5, 4, None),
        "walker": (6, 6, 6, 6, 5, None),
        "starfighter": (6, 6, 6, 6, 5, None),
        "capital": (6, 6, 6, 6, 6, 1),
        "death_star": (6, 6, 6, 6, 6, 6),
    },
}


def die_cap(chart: str, rolled: str, target: str) -> int | None:
    """The die cap for a code of scale `rolled` used against a target of scale `target`."""
    return DIE_CAPS[chart][rolled][_ORDER.index(target)]


# --- the stat block ----------------------------------------------------------------------------

HYPERDRIVES: tuple[tuple[str, str], ...] = (
    ("", "none"),
    ("x1/2", "x½"),
    ("x1", "x1"),
    ("x2", "x2"),
    ("x3", "x3"),
    ("x4", "x4"),
    ("x5", "x5"),
    ("x6", "x6"),
    ("x8", "x8"),
    ("x10", "x10"),
    ("x12", "x12"),
    ("x15", "x15"),
    ("x20", "x20"),
)
FIRE_ARCS: tuple[tuple[str, str], ...] = (
    ("front", "Front"),
    ("rear", "Rear"),
    ("left", "Left"),
    ("right", "Right"),
    ("turret", "Turret (any arc)"),
    ("front_rear", "Front and rear"),
    ("left_right", "Left and right"),
)
SENSOR_MODES = ("passive", "scan", "search", "focus")

# Damage states of the starship damage summary (003:571-579) and the ionization it lists.
STATE_INTACT = "intact"
DAMAGE_STATES: tuple[tuple[str, str], ...] = (
    (STATE_INTACT, "Undamaged"),
    ("lightly", "Lightly damaged"),
    ("heavily", "Heavily damaged"),
    ("severely", "Severely damaged"),
    ("destroyed", "Destroyed"),
)
DAMAGE_LABELS = dict(DAMAGE_STATES)
DEAD_CONTROLS = 4  # stored as ionization 4: the ship does nothing this round (003:579)
WEAPON_STATES: tuple[tuple[str, str], ...] = (
    ("", "Working"),
    ("light", "Lightly damaged"),  # the repair chart's words (002:240-254)
    ("heavy", "Heavily damaged"),
    ("severe", "Severely damaged"),
    ("destroyed", "Destroyed"),
)


class Weapon(SheetModel):
    name: text(80)
    count: whole(1, 99) = 1
    fire_arc: one_of(key for key, _ in FIRE_ARCS) = "front"
    crew: whole(0, 100) = 1
    skill: text(60) = "starship gunnery"
    fire_control: code_text()
    damage: code_text()
    range: text(60) = ""
    state: one_of(key for key, _ in WEAPON_STATES) = ""
    value: whole(0, MOST_CREDITS) = 0  # what the weapon cost: repairs are priced on it


class Sensor(SheetModel):
    mode: one_of(SENSOR_MODES)
    range: whole(0, 100_000) = 0
    code: code_text() = "0D"


class Damage(SheetModel):
    state: one_of(key for key, _ in DAMAGE_STATES) = STATE_INTACT
    # Whole dice of ionization on every code but hull, or DEAD_CONTROLS (003:541, 003:579).
    ionization: whole(0, DEAD_CONTROLS) = 0
    shield_dice_lost: whole(0, MOST_CODE_DICE) = 0
    # Capital ships record damage in pips (003:1266-1270): 3 heavily, 6 severely, 9 destroyed.
    capital_pips: whole(0, 9) = 0


class Vehicle(SheetModel):
    schema_version: whole(1, 1) = 1
    edition: one_of(key for key, _ in EDITIONS) = EDITION_RE
    craft: text(120) = ""
    scale: one_of(_ORDER) = "starfighter"
    length: text(40) = ""
    crew: whole(0, MOST_CREW) = 1
    crew_skill: text(200) = ""
    passengers: whole(0, MOST_CREW) = 0
    cargo: text(80) = ""
    consumables: text(80) = ""
    hyperdrive: one_of(key for key, _ in HYPERDRIVES) = ""
    hyperdrive_backup: one_of(key for key, _ in HYPERDRIVES) = ""
    nav_computer: flag() = False
    maneuverability: code_text() = "0D"
    space: whole(0, 30) = 0
    atmosphere_move: whole(0, 2000) = 0
    atmosphere_kmh: whole(0, 10_000) = 0
    hull: code_text() = "1D"
    shields: code_text() = "0D"
    sensors: rows(Sensor, most=4) = Field(default_factory=list)
    weapons: rows(Weapon, most=MOST_WEAPONS) = Field(default_factory=list)
    value: whole(0, MOST_CREDITS) = 0  # the original value modifications are priced on
    damage: Damage = Field(default_factory=Damage)
    # Pips bought above the stock code, per code path ("maneuverability",
    # "weapons.0.damage"): the technology roll's difficulty counts them (003:1060-1064).
    improved: dict[Annotated[str, Field(max_length=40)], whole(0, 60)] = Field(
        default_factory=dict, max_length=70
    )
    notes: text(2000, lines=True) = ""


def blank(edition: str = EDITION_RE) -> dict:
    return validate_vehicle({"edition": edition})


def validate_vehicle(data: Any) -> dict:
    """The vehicle's normal form, or InvalidSheet naming each field at fault."""
    return validate_with(Vehicle, data)


# --- damage -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageResult:
    state: str  # the state this hit alone gives ("" for none)
    ionization: int  # whole dice, DEAD_CONTROLS for dead controls
    shield_die: bool  # one die of shields lost instead of hull damage
    text: str
    source: str


def starship_damage(damage_roll: int, hull_roll: int, *, ion: bool = False) -> DamageResult:
    """The starship damage summary (003:571-579) for one hit; ion cannons only ionize
    (003:547). The row for DR < HR is garbled in the seed; read with 003:539-541 as: a shield
    die lost, or with no shields up, lightly damaged and ionized −1D."""
    if damage_roll < 0 or hull_roll < 0:
        raise ValueError("rolls are never negative")
    source = "003:571-579"
    if 2 * damage_roll < hull_roll:
        return DamageResult("", 0, False, "No effect (no ionization, no shield lost).", "003:452")
    if damage_roll < hull_roll:
        if ion:
            return DamageResult("", 0, True, "A shield generator die lost.", source)
        return DamageResult(
            "lightly", 1, True, "A shield die lost, or lightly damaged (ionized −1D).", source
        )
    if damage_roll < 2 * hull_roll:
        if ion:
            return DamageResult("", 1, False, "Ionized −1D.", source)
        return DamageResult("heavily", 0, False, "Heavily damaged.", source)
    if damage_roll < 3 * hull_roll:
        if ion:
            return DamageResult("", 2, False, "Ionized −2D.", source)
        return DamageResult("severely", 0, False, "Severely damaged.", source)
    if ion:
        return DamageResult(
            "", DEAD_CONTROLS, False, "Dead controls: nothing this round, then −3D.", source
        )
    return DamageResult("destroyed", 0, False, "Destroyed.", source)


def capital_damage_pips(damage_roll: int, hull_roll: int, *, ion: bool = False) -> int:
    """Pips of capital ship damage, or dice of ionization for an ion weapon (003:1365-1378):
    one per whole multiple of the hull roll the damage reaches, at most 9; a miss by less
    than the hull roll (beam or missile) takes a shield pip, returned as 0 here."""
    if hull_roll < 1:
        raise ValueError("a hull roll is at least 1")
    if damage_roll < hull_roll:
        return 0
    return min(9, damage_roll // hull_roll)


def capital_state(pips: int) -> str:
    """Ship damage in pips to a state (003:1268-1379): 3 heavily, 6 severely, 9 destroyed."""
    if pips >= 9:
        return "destroyed"
    if pips >= 6:
        return "severely"
    if pips >= 3:
        return "heavily"
    return "lightly" if pips else STATE_INTACT


def worse(a: str, b: str) -> str:
    order = [key for key, _ in DAMAGE_STATES]
    return a if order.index(a) >= order.index(b) else b


def apply_hit(vehicle: dict, result: DamageResult) -> dict:
    """The vehicle after one hit from the summary: states only get worse, ionization takes
    the larger, a shield die is lost while shields remain."""
    data = dict(vehicle)
    damage = dict(data["damage"])
    shields_left = pips_of(data["shields"]) // 3 - damage["shield_dice_lost"]
    if result.shield_die and shields_left > 0:
        damage["shield_dice_lost"] += 1
    elif result.state:
        damage["state"] = worse(damage["state"], result.state)
        damage["ionization"] = max(damage["ionization"], result.ionization)
    if not result.state and result.ionization:
        damage["ionization"] = max(damage["ionization"], result.ionization)
    data["damage"] = damage
    return validate_vehicle(data)


def penalty_pips(vehicle: dict) -> int:
    """Pips off every ship code but hull: ionization in whole dice (003:541), and for a
    capital ship one pip per pip of ship damage (003:1268)."""
    damage = vehicle["damage"]
    ion = min(damage["ionization"], 3) * 3
    capital = damage["capital_pips"] if vehicle["scale"] in ("capital", "death_star") else 0
    return ion + capital


def can_act(vehicle: dict) -> str:
    """Why the vehicle cannot act this round, or "" when it can."""
    damage = vehicle["damage"]
    if damage["state"] == "destroyed":
        return "The vehicle is destroyed."
    if damage["ionization"] >= DEAD_CONTROLS:
        return "Dead controls: the vehicle does nothing this round (003:579)."
    return ""


def shields_now(vehicle: dict) -> int:
    """Shield pips still up: dice lost to hits come off whole (003:571-579)."""
    return max(0, pips_of(vehicle["shields"]) - vehicle["damage"]["shield_dice_lost"] * 3)


# --- the codes a crew member rolls with ---------------------------------------------------------


@dataclass(frozen=True)
class VehicleCode:
    key: str  # "maneuverability", "weapons.0.fire_control", "weapons.0.damage", "hull"...
    label: str
    pips: int
    crew_trait: str  # what the crew member adds: "pilot", "gunner", "shields" or "" (none)
    source: str


def codes(vehicle: dict) -> tuple[VehicleCode, ...]:
    """Every code a roll from this vehicle can use, ionization already taken off (hull and
    damage codes keep their value: 003:541 names every ship code but hull; a gun's damage
    is the shot's, not the control's)."""
    penalty = penalty_pips(vehicle)
    out = [
        VehicleCode(
            "maneuverability",
            "Maneuverability",
            max(0, pips_of(vehicle["maneuverability"]) - penalty),
            "pilot",
            "003:531",
        ),
        VehicleCode(
            "shields", "Shields", max(0, shields_now(vehicle) - penalty), "shields", "003:533"
        ),
        VehicleCode("hull", "Hull", pips_of(vehicle["hull"]), "", "003:571"),
    ]
    for index, weapon in enumerate(vehicle["weapons"]):
        if weapon["state"] == "destroyed":
            continue
        out.append(
            VehicleCode(
                f"weapons.{index}.fire_control",
                f"{weapon['name']}: fire control",
                max(0, pips_of(weapon["fire_control"]) - penalty),
                "gunner",
                "003:1262",
            )
        )
        out.append(
            VehicleCode(
                f"weapons.{index}.damage",
                f"{weapon['name']}: damage",
                pips_of(weapon["damage"]),
                "",
                "003:1240",
            )
        )
    return tuple(out)


def code_named(vehicle: dict, key: str) -> VehicleCode:
    for code in codes(vehicle):
        if code.key == key:
            return code
    raise InvalidSheet(f"{key}: this vehicle has no such code.")


# --- 1st edition: improvement with skill points (003:1006-1070) -----------------------------------

# Per scale: time per pip, credits per skill point (003:1018-1026), credits to install a bought
# weapon (003:1048-1050; walker and Death Star scale not given).
IMPROVEMENT_SCALE: dict[str, tuple[str, int, int | None]] = {
    "character": ("1 day", 10, 150),
    "speeder": ("3 days", 100, 1_500),
    "walker": ("3 days", 500, None),
    "starfighter": ("1 week", 500, 6_000),
    "capital": ("1 month", 1_000_000, 10_000_000),
    "death_star": ("2 months", 1_000_000_000, None),
}
# Codes added to a character's own (speed, fire control, maneuver, shields, armor) cost three
# more skill points a pip (003:1028). Hull and damage stand alone.
ADDITIVE_SUFFIXES = ("maneuverability", "fire_control", "shields")
ADDITIVE_EXTRA = 3
ADD_WEAPON_SP = 9  # 003:1048, 003:1052
HYPERDRIVE_SP = {
    ("x4", "x3"): 5,
    ("x3", "x2"): 10,
    ("x2", "x1"): 20,
    ("x1", "x1/2"): 40,
}  # 003:1044
TECH_DIFFICULTY = ("Very Easy", "Easy", "Moderate", "Difficult", "Very Difficult")  # 003:1060-1064
NPC_CREDIT_FACTOR = 2  # 003:1070: doubled, but not at capital or Death Star scale


@dataclass(frozen=True)
class Improvement:
    skill_points: int
    credits: int
    time: str
    technology: str  # the technology roll's difficulty
    source: str


def improvement(
    code: str, *, additive: bool, scale: str, already: int = 0, by_npc: bool = False
) -> Improvement:
    """The next pip on one code: skill points as for a skill (the code's dice; 1 a pip from
    0D, 003:1008-1010), +3 for an additive code, credits per point and time by scale, the
    technology roll by how many pips were bought before (003:1060-1064)."""
    if already < 0:
        raise ValueError("pips already bought cannot be negative")
    dice = DieCode.parse(code).normalised().dice
    points = max(dice, 1) + (ADDITIVE_EXTRA if additive else 0)
    time, per_point, _ = IMPROVEMENT_SCALE[scale]
    factor = NPC_CREDIT_FACTOR if by_npc and scale not in ("capital", "death_star") else 1
    return Improvement(
        skill_points=points,
        credits=points * per_point * factor,
        time=time,
        technology=TECH_DIFFICULTY[min(already, len(TECH_DIFFICULTY) - 1)],
        source="003:1008-1070",
    )


def is_additive(key: str) -> bool:
    return key.rsplit(".", 1)[-1] in ADDITIVE_SUFFIXES


def hyperdrive_improvement(old: str, new: str) -> int:
    """Skill points to change the hyperdrive multiplier one step (003:1044)."""
    try:
        return HYPERDRIVE_SP[(old, new)]
    except KeyError:
        raise ValueError(f"no 1st-edition step from {old or 'none'} to {new}") from None


HYPERDRIVE_KEY = "hyperdrive"


def next_hyperdrive(old: str) -> str | None:
    """The multiplier one level better than `old` on the charts (003:1044, 002:268-287), or
    None past x1/2, from a multiplier the charts do not start at, or with no hyperdrive."""
    for before, after in HYPERDRIVE_SP:
        if before == old:
            return after
    return None


def hyperdrive_step(vehicle: dict) -> tuple[str, str]:
    """The next hyperdrive level of this vehicle and its price in words: 1E skill points
    (003:1044) with credits and time by scale (003:1018-1026) and a technology roll whose
    difficulty the GM sets: 003:1060 grades a die code's pips and no hyperdrive level, so
    Datapad names none; R&E the chart's row for the old multiplier, priced on the original
    value (002:268-287)."""
    old = vehicle["hyperdrive"]
    new = next_hyperdrive(old)
    if new is None:
        why = "no hyperdrive" if not old else f"no charted step from {old}"
        raise InvalidSheet(f"{HYPERDRIVE_KEY}: {why} (003:1044, 002:268-287).")
    if vehicle["edition"] == EDITION_1E:
        points = hyperdrive_improvement(old, new)
        time, per_point, _ = IMPROVEMENT_SCALE[vehicle["scale"]]
        return new, (
            f"{points} skill points, {points * per_point:,} credits, {time}, a technology "
            f"roll at the GM's difficulty (003:1044; 003:1060 grades no hyperdrive level)"
        )
    index = list(HYPERDRIVE_SP).index((old, new))
    step = modification(HYPERDRIVE_KEY, index + 1, vehicle["value"])
    return new, (
        f"{step.increase}, {step.difficulty}, {step.percent}% = {float(step.credits):,.0f} "
        f"credits; a failure may damage the hyperdrive for good ({step.source})"
    )


# --- R&E: modifications and repairs priced as a percentage of value (002:155-414) --------------


@dataclass(frozen=True)
class Step:
    increase: str
    difficulty: str
    percent: int


def _steps(source: str, *rows_: tuple[str, str, int]) -> tuple[str, tuple[Step, ...]]:
    return source, tuple(Step(*row) for row in rows_)


_PIPS_STEPS = (
    ("+1", "Easy"),
    ("+2", "Moderate"),
    ("+1D", "Difficult"),
    ("+1D+1", "Very Difficult"),
    ("+1D+2", "Heroic"),
)
MODIFICATIONS: dict[str, tuple[str, tuple[Step, ...]]] = {
    "maneuverability": _steps(
        "002:289-309",
        *(
            (inc, dif, pct)
            for (inc, dif), pct in zip(_PIPS_STEPS, (5, 10, 15, 20, 25), strict=True)
        ),
    ),
    "shields": _steps(
        "002:349-371",
        *(
            (inc, dif, pct)
            for (inc, dif), pct in zip(_PIPS_STEPS, (15, 25, 30, 35, 50), strict=True)
        ),
    ),
    "weapon": _steps(
        "002:372-395",
        *(
            (inc, dif, pct)
            for (inc, dif), pct in zip(_PIPS_STEPS, (15, 25, 30, 35, 50), strict=True)
        ),
    ),
    "move": _steps(
        "002:310-328",
        ("+5", "Moderate", 10),
        ("+10", "Difficult", 15),
        ("+15", "Very Difficult", 20),
        ("+20", "Heroic", 25),
    ),
    "space": _steps(
        "002:329-348",
        ("+1", "Moderate", 10),
        ("+2", "Difficult", 15),
        ("+3", "Very Difficult", 20),
        ("+4", "Heroic", 25),
    ),
    "range": _steps(
        "002:396-414",
        ("+5%", "Easy", 5),
        ("+10%", "Moderate", 10),
        ("+15%", "Difficult", 15),
        ("+20%", "Very Difficult", 20),
        ("+25%", "Heroic", 25),
    ),
    "hyperdrive": _steps(
        "002:268-287",
        ("x4/x3", "Easy", 10),
        ("x3/x2", "Moderate", 15),
        ("x2/x1", "Very Difficult", 25),
        ("x1/x0.5", "Heroic", 35),
    ),
}
MODIFICATION_LABELS = {
    "maneuverability": "Maneuverability",
    "shields": "Shields",
    "weapon": "Weapon fire control or damage",
    "move": "Move (atmosphere)",
    "space": "Space",
    "range": "Weapon range",
    "hyperdrive": "Hyperdrive",
}
WORKER_FACTORS = {"self": 1, "hired": 2, "hired_dear": 3}  # 002:266: double or triple


@dataclass(frozen=True)
class Modification:
    increase: str
    difficulty: str
    percent: int
    credits: Fraction
    source: str


def modification(system: str, level: int, value: int, *, worker: str = "self") -> Modification:
    """The R&E modification to reach `level` steps above stock (1 = the first row), one step
    at a time, priced on the item's original value (002:262-266)."""
    if system not in MODIFICATIONS:
        raise ValueError(f"no modification chart for {system}")
    source, steps = MODIFICATIONS[system]
    if not 1 <= level <= len(steps):
        raise ValueError(
            f"{MODIFICATION_LABELS[system]}: at most {len(steps)} steps above stock (002:264)"
        )
    if value < 0:
        raise ValueError("a value is never negative")
    step = steps[level - 1]
    factor = WORKER_FACTORS[worker]
    return Modification(
        step.increase,
        step.difficulty,
        step.percent,
        Fraction(value * step.percent * factor, 100),
        source,
    )


REPAIRS: dict[str, tuple[str, tuple[Step, ...]]] = {
    "maneuverability": _steps(
        "002:167-186",
        ("-1D", "Easy", 10),
        ("-2D", "Moderate", 15),
        ("-3D or more", "Difficult", 20),
    ),
    "moves": _steps(
        "002:187-213",
        ("1", "Easy", 10),
        ("2", "Moderate", 15),
        ("3", "Difficult", 20),
        ("4", "Very Difficult", 25),
        ("5", "Drive destroyed and must be replaced", 100),
    ),
    "shields": _steps(
        "002:214-236",
        ("-1D", "Easy", 5),
        ("-2D", "Moderate", 5),
        ("-3D", "Difficult", 5),
        ("-4D or more", "Very Difficult", 10),
    ),
    "weapon": _steps(
        "002:237-257",
        ("light", "Easy", 15),
        ("heavy", "Moderate", 25),
        ("severe", "Very Difficult", 35),
    ),
}


def repair(system: str, level: int, value: int, *, worker: str = "self") -> Modification:
    """An R&E repair (002:155-254): `level` dice or moves lost (the chart's last row holds any
    more), priced on the original value (a weapon's own, 002:237)."""
    source, steps = REPAIRS[system]
    if level < 1:
        raise ValueError("nothing to repair")
    step = steps[min(level, len(steps)) - 1]
    return Modification(
        step.increase,
        step.difficulty,
        step.percent,
        Fraction(value * step.percent * WORKER_FACTORS[worker], 100),
        source,
    )


# --- the page's derived rows -------------------------------------------------------------------


def improvement_rows(vehicle: dict) -> list[dict]:
    """Per code, what the next pip costs in this vehicle's edition: skill points, credits and
    the technology roll (1E), or the next modification step and its price (R&E)."""
    out = []
    for code in codes(vehicle):
        raw_path = code.key
        stored = vehicle
        for part in raw_path.split("."):
            stored = stored[int(part)] if part.isdigit() else stored[part]
        already = vehicle["improved"].get(raw_path, 0)
        row: dict[str, Any] = {"key": raw_path, "label": code.label, "code": stored}
        if vehicle["edition"] == EDITION_1E:
            step = improvement(
                stored, additive=is_additive(raw_path), scale=vehicle["scale"], already=already
            )
            row.update(
                sp=step.skill_points,
                credits=step.credits,
                time=step.time,
                technology=step.technology,
            )
        else:
            chart = "weapon" if raw_path.startswith("weapons.") else raw_path
            value = vehicle["value"]
            if chart == "weapon":
                value = vehicle["weapons"][int(raw_path.split(".")[1])]["value"] or value
            if chart in MODIFICATIONS and already < len(MODIFICATIONS[chart][1]):
                step = modification(chart, already + 1, value)
                row.update(
                    increase=step.increase,
                    difficulty=step.difficulty,
                    percent=step.percent,
                    price=step.credits,
                )
            else:
                row.update(
                    increase="",
                    difficulty="no further step (002:264)" if chart in MODIFICATIONS else "",
                )
        out.append(row)
    if next_hyperdrive(vehicle["hyperdrive"]):
        new, cost = hyperdrive_step(vehicle)
        out.append(
            {"key": HYPERDRIVE_KEY, "label": "Hyperdrive", "code": vehicle["hyperdrive"],
             "next": new, "cost": cost}
        )  # fmt: skip
    return out


EDITION_CHOICES = EDITIONS
EDITION_DEFAULT = EDITION_RE


# --- a roll from the vehicle ---------------------------------------------------------------------

# What a vehicle roll lets the roller set: no Force Point or Character Point is spent from the
# vehicle's panel (those are the character's own, spent from their sheet).
ROLL_OPTIONS = ("difficulty", "actions", "dice", "pips")
CREW_WORDS = {"pilot": "piloting", "gunner": "gunnery", "shields": "shields"}


def vehicle_rollable(vehicle: dict, code_key: str, crew: Rollable | None = None) -> Rollable:
    """The code a roll from this vehicle totals: the crew member's skill plus the vehicle's
    code (pilot + maneuverability, 003:531; gunnery + fire control, 003:1262; starship
    shields + shields, 003:533), or the vehicle's code alone (damage, hull: 003:1240).
    The crew member's wounds stay with them (their wound dice come off, 003:1840)."""
    why = can_act(vehicle)
    if why and code_key != "hull":
        raise InvalidRoll("roll", why)
    code = code_named(vehicle, code_key)
    facts: dict[str, Any] = {"edition": vehicle["edition"], "scale": vehicle["scale"]}
    if code.crew_trait:
        if crew is None:
            raise InvalidRoll("crew", f"{code.label} is rolled with a crew member's skill.")
        facts = dict(crew.facts) | facts | {"force_points": 0, "character_points": 0}
        label = f"{crew.label} + {code.label} {DieCode.from_pips(code.pips)}"
        pips = crew.dice + code.pips
    else:
        label = f"{code.label} {DieCode.from_pips(code.pips)}"
        pips = code.pips
    if pips < 3:
        raise InvalidRoll("roll", f"{label}: less than 1D to roll.")
    return Rollable(
        key=f"vehicle.{code_key}",
        label=label[:200],
        dice=pips,
        facts=tuple(sorted(facts.items())),
        group="Vehicle",
        source=code.source,
    )


# --- recording an improvement ----------------------------------------------------------------


def improve(vehicle: dict, key: str) -> tuple[dict, str]:
    """The vehicle with one pip bought on the code `key`, and what it cost in words: 1E in
    skill points, credits, time and the technology roll (003:1008-1066); R&E as the next
    step of its chart, never past +1D+2 above stock (002:262-264). The technology or repair
    roll is the player's; this records a pip that held. The hyperdrive moves one level
    (`hyperdrive_step`)."""
    if key == HYPERDRIVE_KEY:
        data = validate_vehicle(vehicle)
        old = data["hyperdrive"]
        new, cost = hyperdrive_step(data)
        data["hyperdrive"] = new
        data["improved"][key] = data["improved"].get(key, 0) + 1
        return validate_vehicle(data), f"Hyperdrive {old} → {new}: {cost}"
    code = code_named(vehicle, key)  # a destroyed weapon or an unknown code is refused
    parts = [int(p) if p.isdigit() else p for p in key.split(".")]
    data = validate_vehicle(vehicle)
    node: Any = data
    for part in parts[:-1]:
        node = node[part]
    stored = node[parts[-1]]
    already = data["improved"].get(key, 0)
    if data["edition"] == EDITION_1E:
        step = improvement(stored, additive=is_additive(key), scale=data["scale"], already=already)
        cost = (
            f"{step.skill_points} skill points, {step.credits:,} credits, {step.time}, "
            f"{step.technology} technology roll ({step.source})"
        )
    else:
        chart = "weapon" if key.startswith("weapons.") else key
        if chart not in MODIFICATIONS:
            raise InvalidSheet(f"{key}: R&E has no modification chart for {code.label.lower()}.")
        steps = MODIFICATIONS[chart][1]
        if already >= len(steps):
            raise InvalidSheet(f"{key}: at most {steps[-1].increase} above stock (002:264).")
        value = data["value"]
        if chart == "weapon":
            value = data["weapons"][parts[1]]["value"] or value
        step = modification(chart, already + 1, value)
        cost = (
            f"{step.increase} above stock, {step.difficulty}, {step.percent}% = "
            f"{float(step.credits):,.0f} credits ({step.source})"
        )
    if pips_of(stored) + 1 > MOST_CODE_DICE * 3:
        raise InvalidSheet(f"{key}: at most {MOST_CODE_DICE}D.")
    node[parts[-1]] = DieCode.from_pips(pips_of(stored) + 1).format()
    data["improved"][key] = already + 1
    return validate_vehicle(data), f"{code.label} {stored} → {node[parts[-1]]}: {cost}"


# --- ranges for additional weapons (1st edition, 003:466-487) -----------------------------------


@dataclass(frozen=True)
class WeaponRange:
    key: str
    group: str  # speeder-mounted, artillery, starfighter-mounted, capital ship-mounted
    label: str
    short: str  # meters, as the chart prints them
    medium: str
    long: str
    source: str
    note: str = ""

    @property
    def text(self) -> str:
        return range_text(self)


# The chart's columns lost their rows in the seed's text for starfighter weapons: five names
# and short ranges, four medium and four long. Each printed medium and long range starts one
# above the short (or medium) range before it, which places the first four rows; the proton
# torpedoes' 500-15,000 short range leaves their medium and long ranges unprinted, and the
# ion cannon's long 15,001-75,000 could as well be the torpedoes' medium (it starts at
# 15,001 too). Neither is guessed: the torpedoes' are blank, the ion cannon's noted.
_TORPEDO_NOTE = (
    "Medium and long ranges are garbled in the seed (003:485): enter them from your book."
)
_ION_NOTE = "The seed's long range here could be the proton torpedoes' medium (003:485)."
_RANGE_CHART = (
    ("speeder", "Speeder-mounted", "003:481", (
        ("light", "Light (1D-2D+)", "50-300", "301-500", "501-1,000"),
        ("medium", "Medium (3D-4D+)", "50-300", "301-800", "801-1,500"),
        ("heavy", "Heavy (5D+)", "50-400", "401-900", "901-2,000"),
    )),
    ("artillery", "Artillery", "003:483", (
        ("light", "Light (1D-2D+)", "10-500", "501-2,000", "2,001-10,000"),
        ("medium", "Medium (3D-4D+)", "20-600", "601-3,000", "3,001-16,000"),
        ("heavy", "Heavy (5D+)", "50-600", "601-5,000", "5,001-25,000"),
    )),
    ("starfighter", "Starfighter-mounted", "003:485", (
        ("blaster", "Blaster", "200-10,000", "10,001-20,000", "20,001-35,000"),
        ("missiles", "Missiles", "250-4,000", "4,001-17,000", "17,001-30,000"),
        ("laser", "Laser cannon", "200-5,000", "5,001-25,000", "25,001-50,000"),
        ("ion", "Ion cannon", "5-5,000", "5,001-15,000", "15,001-75,000"),
        ("torpedoes", "Proton torpedoes", "500-15,000", "", ""),
    )),
    ("capital", "Capital ship-mounted", "003:487", (
        ("missiles", "Missiles", "3,000-25,000", "25,001-60,500", "60,001-125,000"),
        ("turbolaser", "Turbolaser", "5,000-30,000", "30,001-70,000", "70,001-150,000"),
        ("ion", "Ion cannon", "2,000-20,000", "20,001-50,000", "50,001-100,000"),
        ("tractor", "Tractor beam", "1,000-10,000", "10,001-30,000", "30,001-60,000"),
    )),
)  # fmt: skip
_RANGE_NOTES = {
    "starfighter_torpedoes": _TORPEDO_NOTE,
    "starfighter_ion": _ION_NOTE,
    "capital_missiles": "As printed: medium ends at 60,500, long starts at 60,001 (003:487).",
}
WEAPON_RANGES: tuple[WeaponRange, ...] = tuple(
    WeaponRange(
        f"{group}_{key}",
        group_label,
        label,
        short,
        medium,
        long,
        source,
        _RANGE_NOTES.get(f"{group}_{key}", ""),
    )
    for group, group_label, source, rows_ in _RANGE_CHART
    for key, label, short, medium, long in rows_
)
WEAPON_RANGE_BY_KEY = {r.key: r for r in WEAPON_RANGES}
WEAPON_RANGES_SOURCE = "003:466-487"


def range_text(entry: WeaponRange) -> str:
    """A weapon row's range filled from its category, the way the books write ranges
    (short/medium/long, in meters); an unprinted band stays "?" for the table to fill."""
    return "/".join(band or "?" for band in (entry.short, entry.medium, entry.long))


# --- die caps against another scale (1st edition, 003:618-647) ----------------------------------

# Which scale chart caps which roll (003:622: to hit, damage and maneuver): a pilot's roll the
# maneuver chart, a gunner's the to-hit chart, a damage or hull roll the damage chart (003:632).
CAP_CHART = {
    "maneuverability": "maneuver",
    "fire_control": "to_hit",
    "damage": "damage",
    "hull": "damage",
}
TARGET_SCALE = "target_scale"


def cap_for(vehicle: dict, code_key: str, target: str) -> int | None:
    """The die cap of a roll from this vehicle at a target of scale `target`: 6 (no cap)
    where the chart says so or the code has no chart; None where the chart has "—"."""
    chart = CAP_CHART.get(code_key.rsplit(".", 1)[-1])
    if chart is None:
        return 6
    return die_cap(chart, vehicle["scale"], target)


@lru_cache(maxsize=1024)
def _capped_counts(dice: int, cap: int) -> tuple[int, ...]:
    """Ways (out of 6**dice) for each total of `dice` dice where a face above `cap` adds 0."""
    one = [0] * (cap + 1)
    one[0] = 6 - cap
    for face in range(1, cap + 1):
        one[face] += 1
    ways = [1]
    for _ in range(dice):
        grown = [0] * (len(ways) + cap)
        for total, count in enumerate(ways):
            if count:
                for face, weight in enumerate(one):
                    grown[total + face] += count * weight
        ways = grown
    return tuple(ways)


def capped_chance(dice: int, pips: int, cap: int, difficulty: int) -> Fraction:
    """The exact chance that `dice` dice plus `pips`, each die above `cap` counting 0
    (003:624-626), reach `difficulty`. 1st edition: no Wild Die."""
    ways = _capped_counts(dice, cap)
    need = difficulty - pips
    hits = sum(count for total, count in enumerate(ways) if total >= need)
    return Fraction(hits, 6**dice)


def capped_total(faces: tuple[int, ...], pips: int, cap: int) -> int:
    return sum(face for face in faces if face <= cap) + pips


def capped_odds(dice_count: int, pips: int, cap: int, difficulty: int) -> Odds:
    success = capped_chance(dice_count, pips, cap, difficulty)
    code = DieCode(dice_count, pips).format()
    return Odds(
        success,
        (
            Bar(f"{difficulty - 1} or less", 1 - success),
            Bar(f"{difficulty} or more", success, True, threshold=True),
        ),
        f"{code}, die cap {cap}, against {difficulty}: {difficulty} or more",
        note=f"A die above {cap} adds nothing (003:624-626).",
    )


def capped_roll(
    dice_count: int, pips: int, cap: int, difficulty: int, rng: random.Random
) -> RollResult:
    faces = tuple(rng.randint(1, 6) for _ in range(dice_count))
    total = capped_total(faces, pips, cap)
    success = total >= difficulty
    outcome = "success" if success else "failure"
    code = DieCode(dice_count, pips).format()
    counted = ", ".join(str(f) if f <= cap else f"({f})" for f in faces)
    return RollResult(
        dice=faces,
        kept=f"{counted} → {total}",
        outcome=outcome,
        success=success,
        summary=f"{code}, die cap {cap}: {total} against {difficulty}, {outcome}",
        total=total,
    )
