"""SWd10 vehicles: their size and what it does to a character's roll (000:L1386-1536).

Only what touches a character's roll is kept (the issue leaves the ship rules out): the size
table's operation modifier (dice and difficulty, 000:L1388-1412), the shields difficulty and
the difficulty to damage it (L1414-1416), and its health levels (L1388-1408). The pilot rolls
Dexterity + Pilot with the size's modifiers (L1433).

The table lists each row's dice or difficulty change, "cumulative" (L1412): a size takes the
nearest dice change and the nearest difficulty change at or inside its row toward Medium, so
Colossal rolls −2 dice at +1 difficulty and Fine +3 dice at −1 difficulty, as L1412 says.
Blank shields and damage cells (Huge, Medium, Small) are read as no change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesets.core.edits import InvalidSheet
from rulesets.core.rolls import Rollable
from rulesets.core.schema import SheetModel, one_of, text, validate_with, whole
from rulesets.swd10.data import HERO_HEALTH, HealthLevel
from rulesets.swd10.dice import DEFAULT_DIFFICULTY, HIGHEST_DIFFICULTY, LOWEST_DIFFICULTY


@dataclass(frozen=True)
class Size:
    key: str
    label: str
    dice: int  # operation dice, cumulative as read above
    difficulty: int  # operation difficulty
    shields_difficulty: int
    damage_difficulty: int
    health: str
    source: str


_FULL = "full scale"
SIZES: tuple[Size, ...] = (
    Size("colossal_death_star", "Colossal (Death Star)", -8, 2, -3, 4, _FULL, "000:L1389"),
    Size("colossal_battle_station", "Colossal (battle station)", -7, 2, -3, 3, _FULL, "000:L1391"),
    Size("colossal_cruiser", "Colossal (cruiser)", -4, 2, -2, 3, _FULL, "000:L1393"),
    Size("colossal_frigate", "Colossal (frigate)", -3, 2, -2, 2, _FULL, "000:L1395"),
    Size("colossal_transport", "Colossal (space transport)", -3, 1, -1, 2, _FULL, "000:L1397"),
    Size("colossal", "Colossal", -2, 1, -1, 1, _FULL, "000:L1399"),
    Size("gargantuan", "Gargantuan", -1, 1, 0, 1, "injured, mauled, incapacitated", "000:L1400"),
    Size("huge", "Huge", -1, 1, 0, 0, "injured, mauled, incapacitated", "000:L1401"),
    Size("large", "Large", -1, 0, 0, 0, "mauled, incapacitated", "000:L1403"),
    Size("medium", "Medium", 0, 0, 0, 0, "mauled, incapacitated", "000:L1404"),
    Size("small", "Small", 1, 0, 0, 0, "incapacitated", "000:L1405"),
    Size("tiny", "Tiny", 1, -1, 1, -1, "incapacitated", "000:L1406"),
    Size("diminutive", "Diminutive", 2, -1, 2, -2, "incapacitated", "000:L1407"),
    Size("fine", "Fine", 3, -1, 3, -3, "incapacitated", "000:L1408"),
)
SIZE_BY_KEY = {size.key: size for size in SIZES}
# Options a vehicle roll offers (no Willpower or Destiny spent from a vehicle's panel).
ROLL_OPTIONS = ("difficulty", "needed", "dice", "attribute")


class Vehicle(SheetModel):
    schema_version: whole(1, 1) = 1
    craft: text(120) = ""
    size: one_of(SIZE_BY_KEY) = "gargantuan"
    crew: whole(0, 100_000) = 1
    passengers: whole(0, 100_000) = 0
    shields: whole(0, 50) = 0  # L1418: SR / 50
    armor: whole(0, 10) = 0  # L1419
    notes: text(2000, lines=True) = ""
    # Health levels marked, from the top of its size's track (L1388-1408); the scene tracker
    # marks them as a hit's after soak.
    health_marked: whole(0, 7) = 0


def blank() -> dict:
    return validate_vehicle({})


def health_levels(vehicle: dict) -> tuple[HealthLevel, ...]:
    """The levels its size gives (L1388-1408): "full scale" a hero's seven (a reading), else
    the named ones, each with a hero's penalty for that name."""
    size = SIZE_BY_KEY[vehicle["size"]]
    if size.health == _FULL:
        return HERO_HEALTH
    by_name = {level.name.lower(): level for level in HERO_HEALTH}
    return tuple(by_name[name.strip()] for name in size.health.split(","))


def validate_vehicle(data: Any) -> dict:
    vehicle = validate_with(Vehicle, data)
    most = len(health_levels(vehicle))
    if vehicle["health_marked"] > most:
        raise InvalidSheet(f"health_marked: its size has {most} health levels.")
    return vehicle


def crew_rollable(vehicle: dict, crew: Rollable) -> Rollable:
    """The pilot's pool with the size's operation dice and difficulty (L1412, L1433): a roll
    to operate or evade in this vehicle. The difficulty shown first is the crew roll's own
    plus the size's; the roller may still set another."""
    size = SIZE_BY_KEY[vehicle["size"]]
    facts = dict(crew.facts)
    base = facts.get("default_difficulty", DEFAULT_DIFFICULTY)
    facts["default_difficulty"] = min(
        max(base + size.difficulty, LOWEST_DIFFICULTY), HIGHEST_DIFFICULTY
    )
    return Rollable(
        key=f"vehicle.{crew.key}",
        label=f"{crew.label} + {size.label} ({size.dice:+d} dice, {size.difficulty:+d} difficulty)",
        dice=crew.dice + size.dice,
        facts=tuple(sorted(facts.items())),
        group="Vehicle",
        source=f"{size.source}, 000:L1412, 000:L1433",
    )
