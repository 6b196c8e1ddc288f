"""SWd10 Destiny points and current Power spent on a roll (seed 000, L81-94, L102-106).

A Destiny point buys one thing a round (L81): three successes on a combat roll (L83), five
on initiative (L84), or a round free of wound penalties (L85); its other uses (L86-94) are
no roll's and stay with the Storyteller. Current Power buys, a point at a time, one more
damage die (L104), one die less of the multiple-action penalty (L105), or one level soaked
after Stamina's soak (L106), that last one a second step once the soak is seen. The roll
writes what it spent on the sheet, as Willpower does, and what a success in battle gains
(L100, L609, L629).

Where Datapad knows the round (the character is in a scene of its table, whose tracker
counts rounds), a second Destiny point in one round is refused (L81); elsewhere the table
keeps that count, and the roll panel says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core.settings import Setting

DESTINY_NONE = "none"
DESTINY_SUCCESSES = "successes"
DESTINY_INITIATIVE = "initiative"
DESTINY_WOUNDS = "wounds"


@dataclass(frozen=True)
class DestinySpend:
    key: str
    label: str
    successes: int  # automatic successes it adds
    ignores_wounds: bool
    source: str


DESTINY_SPENDS: dict[str, DestinySpend] = {
    DESTINY_SUCCESSES: DestinySpend(
        DESTINY_SUCCESSES, "+3 successes on a combat roll", 3, False, "L83"
    ),
    DESTINY_INITIATIVE: DestinySpend(
        DESTINY_INITIATIVE, "+5 successes on initiative", 5, False, "L84"
    ),
    DESTINY_WOUNDS: DestinySpend(
        DESTINY_WOUNDS, "ignore wound penalties this round", 0, True, "L85"
    ),
}


@dataclass(frozen=True)
class RoundState:
    """The round a roll is made in, when the character is in a scene of its table: the
    scene's name and round, and the use of a Destiny point already spent in it, if any."""

    scene: str
    round: int
    destiny_spent: str = ""  # a key of DESTINY_SPENDS, "" for none


def destiny_help(state: RoundState | None) -> str:
    """What the roll panel says of the once-a-round limit (L81) beside a Destiny spend."""
    if state is None:
        return "One a round (L81): outside a scene the table keeps that count."
    if state.destiny_spent:
        spent = DESTINY_SPENDS[state.destiny_spent].label
        return (
            f"Already spent in round {state.round} of {state.scene} ({spent}): one a round (L81)."
        )
    return f"One a round (L81): round {state.round} of {state.scene}."


def destiny_refusal(state: RoundState) -> str:
    """Why a second Destiny point in the same round is refused (L81)."""
    return (
        f"A Destiny point was already spent in round {state.round} of {state.scene}: "
        "one a round (L81). The next round opens when the scene's tracker moves on."
    )


def destiny_spent_in(facts: Iterable[Mapping[str, Any]]) -> str:
    """The use of a Destiny point spent among logged rolls' facts ("" for none)."""
    for recorded in facts:
        use = recorded.get("destiny", "")
        if use in DESTINY_SPENDS:
            return use
    return ""


def destiny_option(use: str) -> str:
    """The roll option that spends a Destiny point on `use` ("destiny_successes")."""
    return f"destiny_{use}"


# Uses of a Destiny point that are no roll's (L86-94): listed so the sheet can say so.
DESTINY_ELSEWHERE: tuple[tuple[str, str], ...] = (
    ("an ally's damage taken", "L86"),
    ("a merit or ability changed", "L87"),
    ("a flaw ignored", "L88"),
    ("death averted", "L89"),
    ("Willpower refilled", "L93"),
    ("a great deed", "L94"),
)

POWER_DAMAGE_PER_POINT = 1  # L104: +1 base damage for the round
POWER_ACTIONS_PER_POINT = 1  # L105: one die less of the multiple-action penalty
POWER_SOAK_PER_POINT = 1  # L106: one level soaked after Stamina
MAX_ACTIONS = 6  # a round's declared actions the roll panel counts
EVASION_PENALTY = 1  # L206: dice off every later action for each evasion activated
MAX_EVASIONS = 6

# What a success in battle adds to current Power (L100), never past Power (L100).
POWER_GAIN = 1  # L100: each successful roll in a battle
STRONG_IN_THE_FORCE_GAIN = 2  # L629: a Force ability activated with a success, instead
POWER_RECOVERY_GAIN = 2  # L609: after the initiative roll at a fight's start
STRONG_IN_THE_FORCE = "strong_in_the_force"
POWER_RECOVERY = "power_recovery"
# Rolls a battle's success fills current Power from: any but a Path roll after a mistake,
# which is a matter of conscience, not of the fight (L120).
NO_POWER_GAIN = frozenset({"path"})


def power_gained(kind: str, success: bool, merits: Iterable[str]) -> int:
    """Current Power a battle roll gains: +1 on a success (L100), +2 for a Force ability
    with Strong in the Force (L629); an initiative roll with Power Recovery +2 whatever its
    dice (L609), besides."""
    owned = set(merits)
    gained = 0
    if success and kind not in NO_POWER_GAIN:
        strong = kind == "force" and STRONG_IN_THE_FORCE in owned
        gained = STRONG_IN_THE_FORCE_GAIN if strong else POWER_GAIN
    if kind == "initiative" and POWER_RECOVERY in owned:
        gained += POWER_RECOVERY_GAIN
    return gained


def power_after(current: int, maximum: int, spent: int, gained: int) -> int:
    """Current Power after a roll: what it spent off, what it gained on, never below 0
    and never past Power (L100)."""
    return min(max(current - spent, 0) + gained, maximum)


def power_soak_most(left: int, current: int) -> int:
    """The most current Power can soak after Stamina's soak (L106): a level a point, no more
    levels than are left, no more points than are in the pool."""
    return max(min(left, current // POWER_SOAK_PER_POINT), 0)


def evasion_penalty(evasions: int) -> int:
    """Dice off an action for the evasions activated before it this round (L206)."""
    return max(evasions, 0) * EVASION_PENALTY


def multiple_action_penalty(declared: int, number: int) -> int:
    """L204: with more than one action declared, the first loses as many dice as there are
    actions, each later one a die more (three actions: 3, 4, 5)."""
    if declared <= 1:
        return 0
    return declared + number - 1


def penalty_after_power(declared: int, number: int, points: int) -> int:
    """The multiple-action penalty less one die per point of current Power (L105), never
    below 0."""
    return max(multiple_action_penalty(declared, number) - points * POWER_ACTIONS_PER_POINT, 0)


# L108: a commoner's attack on a hero meets the hero's current Power roll, its difficulty
# unsaid.
POWER_CONTEST_DIFFICULTY = "power_contest_difficulty"
# Which rolls are "combat rolls" for a Destiny point's three successes (L83) is not said.
DESTINY_COMBAT_ROLLS = "destiny_combat_rolls"
COMBAT_ABILITIES = frozenset(
    {"firearms", "melee", "brawl", "dodge", "athletics", "acrobatics"}  # L216: evasions
)
SETTINGS: tuple[Setting, ...] = (
    Setting(
        key=DESTINY_COMBAT_ROLLS,
        label="A Destiny point's three successes",
        default="attacks_and_evasions",
        source="L83 says any combat roll without naming them; proposal: attacks and "
        "evasions (L216), Force pools and damage",
        help="Which rolls the roll panel offers a Destiny point's +3 successes on.",
        choices=(
            ("attacks_and_evasions", "Firearms, Melee, Brawl, evasions, Force and damage"),
            ("any_action", "any action roll: the player says it is one in combat"),
        ),
    ),
    Setting(
        key=POWER_CONTEST_DIFFICULTY,
        label="Current Power against a commoner's attack",
        default=6,
        source="L108 gives no difficulty; digest §6.1 proposes 6",
        help="The difficulty the hero's current Power is rolled at; its successes come off "
        "the attack's.",
        minimum=2,
        maximum=10,
    ),
)
