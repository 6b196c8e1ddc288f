"""SWd10 Destiny points and current Power spent on a roll (seed 000, L81-94, L102-106).

A Destiny point buys one thing a round (L81): three successes on a combat roll (L83), five
on initiative (L84), or a round free of wound penalties (L85); its other uses (L86-94) are
no roll's and stay with the Storyteller. Current Power buys, a point at a time, one more
damage die (L104), one die less of the multiple-action penalty (L105), or one level soaked
after Stamina's soak (L106). The roll writes what it spent on the sheet, as Willpower does.
"""

from __future__ import annotations

from dataclasses import dataclass

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
