"""Star O.R.E. vehicles (001:L446-628): speed scale and rating, a Difficulty, crew, shields,
weapons and hit locations with armor and wound boxes, and the seed's three sample vehicles.

A vehicle's hit location full of Shock is inoperable, full of Killing damage destroyed
(L448, L530). Piloting rolls Coordination + Pilot (L458) against the vehicle's Difficulty
(L472-L478): the roll's lowest height that succeeds. Starship damage is worth 5 of standard
(L536-L538). A vehicle's weapon does damage by width like any weapon (L526); the gunner's own
attack pool rolls, so the weapon adds nothing to it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import Field

from rulesets.core.edits import InvalidSheet
from rulesets.core.rolls import Rollable
from rulesets.core.schema import SheetModel, flag, one_of, rows, text, validate_with, whole

SPEEDS = (("ground", "Ground"), ("air", "Air"), ("sublight", "Sublight"))  # L464-L466
# Base Difficulty by size (L472-L478).
SIZES = (("small", "Small", 1), ("medium", "Medium", 3), ("large", "Large", 5))
STARSHIP_DAMAGE_FACTOR = 5  # L538
MAX_DIFFICULTY = 10


class Weapon(SheetModel):
    name: text(80)
    damage: text(40)  # "width+5", as the seed writes it
    spray: whole(0, 10) = 0
    penetration: whole(0, 10) = 0
    area: whole(0, 10) = 0
    starship: flag() = False  # starship damage (L536-L538)
    ammo: whole(0, 99) = 0


class Location(SheetModel):
    low: whole(1, 10)
    high: whole(1, 10)
    name: text(60)
    armor: whole(0, 10) = 0
    boxes: whole(1, 40)
    shock: whole(0, 40) = 0
    killing: whole(0, 40) = 0


class Vehicle(SheetModel):
    schema_version: whole(1, 1) = 1
    craft: text(120) = ""
    speed: one_of(key for key, _ in SPEEDS) = "ground"
    speed_rating: whole(0, 10) = 0  # width+N (L486)
    difficulty: whole(0, MAX_DIFFICULTY) = 3
    crew: text(40) = "1"
    passengers: whole(0, 100_000) = 0
    shield_points: whole(0, 100) = 0
    shields_left: whole(0, 100) = 0
    starship_armor: flag() = False  # the X-wing's "SAR" (L625)
    weapons: rows(Weapon, most=20) = Field(default_factory=list)
    locations: rows(Location, most=10) = Field(default_factory=list)
    notes: text(2000, lines=True) = ""


def validate_vehicle(data: Any) -> dict:
    vehicle = validate_with(Vehicle, data)
    for index, row in enumerate(vehicle["locations"]):
        if row["low"] > row["high"]:
            raise InvalidSheet(f"locations.{index}.low: at most its high ({row['high']}).")
        if row["shock"] + row["killing"] > row["boxes"]:
            raise InvalidSheet(
                f"locations.{index}.killing: Shock and Killing fill at most {row['boxes']} boxes."
            )
    if vehicle["shields_left"] > vehicle["shield_points"]:
        raise InvalidSheet(f"shields_left: at most {vehicle['shield_points']} shield points.")
    return vehicle


def blank() -> dict:
    return validate_vehicle({})


def location_state(row: dict) -> str:
    """L448: full of Killing damage, destroyed; full (Shock counting too), inoperable."""
    if row["killing"] >= row["boxes"]:
        return "destroyed"
    if row["shock"] + row["killing"] >= row["boxes"]:
        return "inoperable"
    return "damaged" if row["shock"] or row["killing"] else "working"


def _loc(low: int, high: int, name: str, armor: int, boxes: int) -> dict:
    return {"low": low, "high": high, "name": name, "armor": armor, "boxes": boxes}


# The seed's sample vehicles (L590-L628), built in. Difficulty by size (L474-L478): the
# seed gives the samples none, so each takes its size row's (a reading).
SAMPLES: dict[str, dict] = {
    "at_st": {
        "craft": "Kuat All-Terrain Scout Transport (AT-ST)",  # L594
        "speed": "ground",
        "speed_rating": 1,
        "difficulty": 3,
        "crew": "2",
        "weapons": [
            {"name": "Blaster cannons (front)", "damage": "width+5", "spray": 1, "penetration": 3},
            {
                "name": "Light blaster cannons (side turrets)",
                "damage": "width+4",
                "spray": 1,
                "penetration": 3,
            },
            {"name": "Concussive grenade launcher", "damage": "width+3", "area": 6},
        ],
        "locations": [
            _loc(1, 3, "Left leg", 5, 10),
            _loc(4, 6, "Right leg", 5, 10),
            _loc(7, 8, "Engine", 5, 20),
            _loc(9, 10, "Cockpit", 3, 10),
        ],
    },
    "t47": {
        "craft": "Incom T-47 Airspeeder",  # L600
        "speed": "air",
        "speed_rating": 4,
        "difficulty": 1,
        "crew": "1",
        "passengers": 1,
        "locations": [
            _loc(1, 2, "Engine", 5, 10),
            _loc(3, 5, "Left wing", 5, 6),
            _loc(6, 8, "Right wing", 5, 6),
            _loc(9, 10, "Cockpit", 3, 5),
        ],
    },
    "x_wing": {
        "craft": "X-Wing Starfighter",  # L612
        "speed": "sublight",
        "speed_rating": 4,
        "difficulty": 1,
        "crew": "1 + 1 droid",
        "shield_points": 10,
        "shields_left": 10,
        "starship_armor": True,
        "weapons": [
            {"name": "Laser cannons", "damage": "width+4", "spray": 3, "starship": True},
            {"name": "Proton torpedoes", "damage": "width+8", "starship": True, "ammo": 6},
        ],
        "locations": [
            _loc(1, 2, "Engine", 4, 6),
            _loc(3, 3, "Astromech droid", 0, 1),
            _loc(4, 5, "Left wings", 2, 5),
            _loc(6, 7, "Right wings", 2, 5),
            _loc(8, 9, "Nose", 3, 4),
            _loc(10, 10, "Cockpit", 1, 1),
        ],
    },
}
SAMPLE_LABELS = {key: data["craft"] for key, data in SAMPLES.items()}


def sample(key: str) -> dict:
    return validate_vehicle(SAMPLES[key])


def crew_rollable(vehicle: dict, crew: Rollable) -> Rollable:
    """The pilot's pool against the vehicle's Difficulty (L472, L458): the harder of the
    two when the roll already had one."""
    difficulty = max(crew.fact("difficulty", 0) or 0, vehicle["difficulty"])
    facts = dict(crew.facts) | {"difficulty": difficulty}
    return replace(
        crew,
        key=f"vehicle.{crew.key}",
        label=f"{crew.label}, {vehicle['craft'] or 'vehicle'} (Difficulty {difficulty})",
        facts=tuple(sorted(facts.items())),
        group="Vehicle",
        source="L458, L472-L478",
    )


# What a vehicle roll lets the roller set (an attack's own circumstances stay on the sheet).
ROLL_OPTIONS = ("difficulty", "question", "height", "width", "bonus", "penalty")
