"""The dice contract: what a sheet can roll, the modifiers a roll takes, its exact odds, a roll.

Every system answers the same four questions (its `dice.py`, exported by its package):

- `rollables(sheet, settings) -> tuple[Rollable, ...]`: every trait or pool of the sheet
  that can be rolled, with whatever the sheet itself adds to it (wounds, a wound state)
  already folded into `facts`;
- `roll_options(rollable, settings) -> tuple[RollOption, ...]`: the modifiers a player sets
  before rolling (difficulty, penalty dice, Willpower spent, what the roll is for where a
  rule depends on it...), each with its range and source;
- `odds(rollable, options) -> Odds`: the exact chance of success, as Fractions, computed by
  enumeration or convolution, never by simulation, with any other chance a player weighs
  beside it (`Odds.beside`: a complication, a target hit);
- `roll(rollable, options, rng) -> RollResult`: one roll with an injected random.Random
  (random.SystemRandom in production, a seeded Random in tests).

`options` is the mapping `parse_roll_options` returns (every option's key, its value parsed
and in range) joined with the dice readings in force (`dice_readings(settings, keys)`).
Everything passed in is hashable-friendly so `odds` can be cached on
(rollable, frozen options).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesets.core.parsing import WHOLE_NUMBER


class InvalidRoll(ValueError):
    """A roll the player asked for that cannot be made, with the option at fault."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option
        self.message = message


@dataclass(frozen=True)
class Rollable:
    """One thing on a sheet that can be rolled: a trait, a pool, an attack."""

    key: str  # the trait key or a pool key ("attr.wits", "pool.attack.blaster")
    label: str  # what the player reads ("Wits", "Blaster (Dexterity + Firearms)")
    # The dice, in the system's own terms and hashable: a count, a DieCode, a tuple.
    dice: Any
    # What the sheet adds and the player does not choose: (name, value) pairs, hashable
    # ("wounded", True), ("wound_penalty_dice", 1).
    facts: tuple[tuple[str, Any], ...] = ()
    group: str = ""  # a heading for the roll menu ("Attributes", "Weapons")
    source: str = ""

    def fact(self, name: str, default: Any = None) -> Any:
        return dict(self.facts).get(name, default)


@dataclass(frozen=True)
class RollOption:
    """One modifier a player sets before a roll."""

    key: str
    label: str
    kind: str  # "number", "flag" or "choice"
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    source: str = ""
    help: str = ""


@dataclass(frozen=True)
class Bar:
    """One bar of the distribution chart: a result (or a set) and its exact chance."""

    label: str
    chance: Fraction
    success: bool = False
    # Where the difficulty sits: the chart draws its line at the first bar marked.
    threshold: bool = False


def percent_text(chance: Fraction) -> str:
    """A chance as a page prints it: one decimal, never 0% or 100% for what can happen."""
    value = float(chance) * 100
    if 0 < value < 0.1:
        return "<0.1%"
    if 99.9 < value < 100:
        return ">99.9%"
    return f"{value:.1f}%"


@dataclass(frozen=True)
class Beside:
    """Another exact chance a player weighs beside success: a complication on the Wild Die,
    a target hit by suppressing fire, a bleeding roll that kills."""

    label: str
    chance: Fraction
    source: str = ""

    @property
    def percent(self) -> str:
        return percent_text(self.chance)


@dataclass(frozen=True)
class Odds:
    success: Fraction
    bars: tuple[Bar, ...]
    # The question these odds answer, in a player's words.
    question: str
    # False only where an answer had to be cut off; every system here stays exact.
    exact: bool = True
    # Anything a player should know: a published table corrected, a reading in force.
    note: str = ""
    # Other exact chances the page shows beside success, each with its source.
    beside: tuple[Beside, ...] = ()

    @property
    def percent(self) -> str:
        return percent_text(self.success)


@dataclass(frozen=True)
class RollResult:
    dice: tuple[int, ...]  # every die rolled, in the order rolled
    kept: str  # the kept die, the sets, the total: as the table reads it ("2x10, 3x4")
    outcome: str  # "success", "failure", "botch", "critical", "critical fail"...
    success: bool
    summary: str  # one line for the log
    total: int | None = None
    details: tuple[str, ...] = ()
    # Sheet edits the roll calls for, (trait key, raw value), written by the web layer
    # through the edit service: a Midichlorian Luck point spent ("luck.use", "").
    edits: tuple[tuple[str, str], ...] = ()
    # Values a next step reads without parsing text: the chosen set's ("width", 3),
    # ("height", 7) for an O.R.E. hit; the attack's ("damage", 6) and ("location", 4).
    facts: tuple[tuple[str, Any], ...] = ()


def parse_roll_options(definitions: Iterable[RollOption], raw: Mapping[str, str]) -> dict[str, Any]:
    """Read a form's values for `definitions`: defaults for what is missing, InvalidRoll for
    anything out of range or unreadable."""
    parsed: dict[str, Any] = {}
    for option in definitions:
        text = raw.get(option.key)
        if text is None or (isinstance(text, str) and text.strip() == ""):
            if option.kind == "flag" and text is not None:
                parsed[option.key] = False
            else:
                parsed[option.key] = option.default
            continue
        text = str(text).strip()
        if option.kind == "flag":
            if text.lower() not in {"yes", "no", "on", "off", "true", "false", "1", "0"}:
                raise InvalidRoll(option.key, f"{option.label}: expected yes or no.")
            parsed[option.key] = text.lower() in {"yes", "on", "true", "1"}
        elif option.kind == "choice":
            allowed = {value for value, _ in option.choices}
            if text not in allowed:
                names = ", ".join(label for _, label in option.choices)
                raise InvalidRoll(option.key, f"{option.label}: choose one of {names}.")
            parsed[option.key] = text
        else:
            # Signed: penalty dice are negative, and "-1" as a difficulty deserves
            # "at least 0, not -1" rather than "not a number".
            number = int(text) if WHOLE_NUMBER.fullmatch(text) else None
            if number is None:
                raise InvalidRoll(option.key, f"{option.label}: expected a whole number.")
            if option.minimum is not None and number < option.minimum:
                raise InvalidRoll(
                    option.key, f"{option.label}: at least {option.minimum}, not {number}."
                )
            if option.maximum is not None and number > option.maximum:
                raise InvalidRoll(
                    option.key, f"{option.label}: at most {option.maximum}, not {number}."
                )
            parsed[option.key] = number
    return parsed


def dice_readings(settings: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The readings a system's dice depend on, picked from the resolved settings."""
    return {key: settings[key] for key in keys}


def frozen(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable key for caching odds on (rollable, options)."""
    return tuple(sorted(options.items()))
