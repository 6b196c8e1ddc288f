"""Map each system's stable key to its module, and say which systems are ready to use."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import cast

from rulesets.core.ruleset import Ruleset


@dataclass(frozen=True)
class SystemInfo:
    key: str
    name: str
    summary: str
    module: str
    # A system is offered for new characters once its engine, sheet page and print
    # layout all exist; until then the create page lists it as coming.
    ready: bool


SYSTEMS: dict[str, SystemInfo] = {
    info.key: info
    for info in (
        SystemInfo(
            "swd10",
            "Star Wars Storytelling (d10)",
            "White Wolf style dots: attributes 6/4/3, abilities 11/7/4, merits, flaws "
            "and the Force.",
            "rulesets.swd10",
            ready=True,
        ),
        SystemInfo(
            "ore",
            "Star O.R.E.",
            "One-Roll Engine: stats and skills in dice, hard and wiggle dice, point-buy "
            "and hit locations.",
            "rulesets.ore",
            ready=True,
        ),
        SystemInfo(
            "weg_d6",
            "West End Games d6",
            "Die codes like 4D+2: 18D of attributes, skills, droids and Character Points, "
            "1st edition and R&E.",
            "rulesets.weg_d6",
            ready=True,
        ),
        SystemInfo(
            "o3d10",
            "1o3d10",
            "A homebrew: the middle die of 3d10, health states from HP and Strength.",
            "rulesets.o3d10",
            ready=True,
        ),
    )
}


class UnknownSystem(KeyError):
    pass


def system_info(key: str) -> SystemInfo:
    try:
        return SYSTEMS[key]
    except KeyError:
        raise UnknownSystem(key) from None


def get_ruleset(key: str) -> Ruleset:
    """Import and return the module of a system (a module satisfies the Ruleset protocol)."""
    return cast(Ruleset, importlib.import_module(system_info(key).module))


def advancement_of(key: str) -> ModuleType:
    """The system's pure advancement rules (rulesets/<key>/advancement.py)."""
    return importlib.import_module(f"{system_info(key).module}.advancement")


# What a system's package answers when it rolls its own traits (the dice contract).
DICE_FUNCTIONS = ("rollables", "roll_options", "odds", "roll", "DICE_READINGS")


def dice_ready(key: str) -> bool:
    """Whether the system's package answers the dice contract."""
    ruleset = get_ruleset(key)
    return all(hasattr(ruleset, name) for name in DICE_FUNCTIONS)


def ready_systems() -> list[SystemInfo]:
    return [info for info in SYSTEMS.values() if info.ready]
