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

from rulesets.core.rolls import InvalidRoll
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
    destiny_spent: str = ""  # a key of DESTINY_SPENDS or ELSEWHERE_SPENDS, "" for none
    # Current Power paid at the round's start (L104-105): every roll of the round has it.
    power_damage: int = 0
    power_actions: int = 0
    power_paid: bool = False


def destiny_help(state: RoundState | None) -> str:
    """What the roll panel says of the once-a-round limit (L81) beside a Destiny spend."""
    if state is None:
        return "One a round (L81): outside a scene the table keeps that count."
    if state.destiny_spent:
        spent = destiny_label(state.destiny_spent)
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
    """The use of a Destiny point spent among logged rolls' and spends' facts ("" for
    none): a roll's (L83-85) and one spent between rolls (L86-89) count alike (L81)."""
    for recorded in facts:
        use = recorded.get("destiny", "")
        if use in DESTINY_SPENDS or use in ELSEWHERE_SPENDS:
            return use
    return ""


def destiny_label(use: str) -> str:
    """What a once-a-round Destiny use is called, on a roll or between rolls."""
    if use in DESTINY_SPENDS:
        return DESTINY_SPENDS[use].label
    return ELSEWHERE_SPENDS[use].label


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


# --- between rolls (issue 27) ---------------------------------------------------------------
# What a player spends on the roll page outside any roll: a Destiny point once a scene (L91-94)
# or on a once-a-round use no roll carries (L86, L88, L89), current Power at a round's start
# (L104-105), and a full rest (L100, L176). Each is written on the sheet and logged as a line
# of its own; the web layer finds the scene and round and counts what was spent in them.

BETWEEN_WILLPOWER = "destiny_willpower"
BETWEEN_OUTSTANDING = "destiny_outstanding"
BETWEEN_INTERCEPT = "destiny_intercept"
BETWEEN_FLAW = "destiny_flaw"
BETWEEN_DEATH = "destiny_death"
BETWEEN_POWER = "power_round"
BETWEEN_REST = "full_rest"
NOTE_LIMIT = 200  # a note's characters, as the log keeps them

PER_SCENE = "scene"
PER_ROUND = "round"


@dataclass(frozen=True)
class ElsewhereSpend:
    """A Destiny point's use no roll carries, as the roll page offers it."""

    key: str
    label: str
    per: str  # PER_SCENE or PER_ROUND: how often a Destiny point may buy it
    source: str
    note: str  # what the player names in a note ("" for no note)
    effect: str  # what Datapad writes for it, said in the log and beside the form


ELSEWHERE_SPENDS: dict[str, ElsewhereSpend] = {
    BETWEEN_INTERCEPT: ElsewhereSpend(
        BETWEEN_INTERCEPT,
        "intercept damage for an ally",
        PER_ROUND,
        "L86",
        "The ally, and the attack",
        "Nothing is written on either sheet by itself: the GM marks the intercepted damage "
        "on this character (hit page or scene tracker). No action spent (L86).",
    ),
    BETWEEN_FLAW: ElsewhereSpend(
        BETWEEN_FLAW,
        "ignore a flaw for a round",
        PER_ROUND,
        "L88",
        "The flaw",
        "The flaw's effect is set aside for this round; the sheet keeps the flaw.",
    ),
    BETWEEN_DEATH: ElsewhereSpend(
        BETWEEN_DEATH,
        "not die from damage taken while Incapacitated",
        PER_ROUND,
        "L89",
        "",
        "The character stays Incapacitated instead of dying: mark no health level past it.",
    ),
}
SCENE_SPENDS: dict[str, ElsewhereSpend] = {
    BETWEEN_WILLPOWER: ElsewhereSpend(
        BETWEEN_WILLPOWER,
        "restore all current Willpower",
        PER_SCENE,
        "L93, L176",
        "",
        "Current Willpower is set to permanent Willpower.",
    ),
    BETWEEN_OUTSTANDING: ElsewhereSpend(
        BETWEEN_OUTSTANDING,
        "an outstanding action",
        PER_SCENE,
        "L94",
        "The action, as the Storyteller approved it",
        "Only the Destiny point is written; no battle action, and the Storyteller approves.",
    ),
}


@dataclass(frozen=True)
class SceneState:
    """The scene a character is in, and the once-a-scene Destiny use spent in it, if any."""

    scene: str
    destiny_spent: str = ""  # a key of SCENE_SPENDS, "" for none


@dataclass(frozen=True)
class Pools:
    """What a between-rolls spend reads from the sheet."""

    destiny_points: int
    willpower: int
    willpower_current: int
    power: int
    power_current: int
    incapacitated: bool


@dataclass(frozen=True)
class Spent:
    """A between-rolls spend as it is written: sheet edits (trait to raw), the log's line and
    what it says, and the facts a later count reads."""

    edits: dict[str, str]
    label: str
    line: str
    details: tuple[str, ...]
    facts: dict[str, Any]


def scene_destiny_spent_in(facts: Iterable[Mapping[str, Any]]) -> str:
    """The once-a-scene Destiny use among a scene's logged facts ("" for none, L91)."""
    for recorded in facts:
        use = recorded.get("destiny_scene", "")
        if use in SCENE_SPENDS:
            return use
    return ""


def power_paid_in(facts: Iterable[Mapping[str, Any]]) -> tuple[int, int, bool]:
    """Current Power paid at a round's start among the round's logged facts: damage dice,
    multiple-action dice, and whether it was paid (L104-105)."""
    for recorded in facts:
        if "power_round_damage" in recorded:
            damage = _whole(recorded.get("power_round_damage"))
            actions = _whole(recorded.get("power_round_actions"))
            return damage, actions, True
    return 0, 0, False


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def scene_help(state: SceneState | None) -> str:
    """What the roll page says of the once-a-scene limit (L91)."""
    if state is None:
        return "One a scene (L91): outside a scene the table keeps that count."
    if state.destiny_spent:
        spent = SCENE_SPENDS[state.destiny_spent].label
        return f"Already spent in {state.scene} ({spent}): one a scene (L91)."
    return f"One a scene (L91): {state.scene}."


def power_round_help(state: RoundState | None) -> str:
    """What the roll page says beside current Power spent at a round's start (L104-105)."""
    if state is None:
        return (
            "Outside a scene Datapad does not know the round: spend current Power on each "
            "roll instead (damage or actions); the table keeps the round."
        )
    if state.power_paid:
        return (
            f"Paid in round {state.round} of {state.scene}: +{state.power_damage} damage, "
            f"{state.power_actions} multiple-action penalty dice off, on every roll of it."
        )
    return (
        f"Round {state.round} of {state.scene}: paid once, it counts on every roll of the "
        "round (damage rolls, multiple actions)."
    )


def _destiny_left(field: str, pools: Pools) -> int:
    if pools.destiny_points < 1:
        raise InvalidRoll(field, "No Destiny point left to spend.")
    return pools.destiny_points - 1


def _note(field: str, raw: Mapping[str, Any], label: str) -> str:
    text = " ".join(str(raw.get("note", "") or "").split())
    if not text:
        raise InvalidRoll(field, f"{label}: say it in the note; the log keeps it.")
    if len(text) > NOTE_LIMIT:
        raise InvalidRoll(field, f"{label}: at most {NOTE_LIMIT} characters.")
    if any(not c.isprintable() for c in text):
        raise InvalidRoll(field, f"{label}: plain text only.")
    return text


def _points(field: str, raw: Mapping[str, Any], key: str, label: str) -> int:
    text = str(raw.get(key, "") or "0").strip() or "0"
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise InvalidRoll(field, f"{label}: a whole number, 0 or more.")
    return int(text)


def between(
    action: str,
    pools: Pools,
    round_state: RoundState | None,
    scene_state: SceneState | None,
    raw: Mapping[str, Any],
) -> Spent:
    """One spend between rolls, checked against the sheet and the scene's counts: a Spent,
    or InvalidRoll with the action's key as its field. Writes nothing."""
    if action in SCENE_SPENDS:
        return _scene_destiny(action, pools, scene_state, raw)
    if action in ELSEWHERE_SPENDS:
        return _round_destiny(action, pools, round_state, raw)
    if action == BETWEEN_POWER:
        return _power_round(pools, round_state, raw)
    if action == BETWEEN_REST:
        return _full_rest(pools)
    raise InvalidRoll("between", "Nothing of that name to spend here.")


def _scene_destiny(action, pools: Pools, state: SceneState | None, raw) -> Spent:
    use = SCENE_SPENDS[action]
    if state is not None and state.destiny_spent:
        spent = SCENE_SPENDS[state.destiny_spent].label
        raise InvalidRoll(
            action,
            f"A Destiny point was already spent in {state.scene} ({spent}): one a scene (L91).",
        )
    left = _destiny_left(action, pools)
    details = [use.effect]
    if action == BETWEEN_WILLPOWER:
        if pools.willpower_current >= pools.willpower:
            raise InvalidRoll(action, "Current Willpower is already full.")
        # The sheet's own edit (edits.py, L93): the point and the refill in one.
        edits = {"destiny.refill": "yes"}
        line = (
            f"current Willpower {pools.willpower_current} → {pools.willpower} "
            f"for a Destiny point ({pools.destiny_points} → {left})"
        )
    else:
        if str(raw.get("approved", "") or "").strip().lower() not in {"yes", "on", "true", "1"}:
            raise InvalidRoll(action, "The Storyteller approves an outstanding action (L94).")
        note = _note(action, raw, use.note)
        edits = {"info.destiny_points": str(left)}
        line = f"an outstanding action for a Destiny point ({pools.destiny_points} → {left})"
        details = [f"the action: {note}", "approved by the Storyteller", *details]
    if state is None:
        details.append("outside a scene: the table keeps the once-a-scene count")
    return Spent(
        edits, f"Destiny point: {use.label}", line, tuple(details), {"destiny_scene": action}
    )


def _round_destiny(action, pools: Pools, state: RoundState | None, raw) -> Spent:
    use = ELSEWHERE_SPENDS[action]
    if state is not None and state.destiny_spent:
        raise InvalidRoll(action, destiny_refusal(state))
    if action == BETWEEN_DEATH and not pools.incapacitated:
        raise InvalidRoll(action, "Only while Incapacitated (L89): the health track is not.")
    left = _destiny_left(action, pools)
    details = []
    if use.note:
        details.append(f"{use.note.lower()}: {_note(action, raw, use.note)}")
    details.append(use.effect)
    if state is None:
        details.append("outside a scene: the table keeps the once-a-round count")
    line = f"{use.label} for a Destiny point ({pools.destiny_points} → {left})"
    return Spent(
        {"info.destiny_points": str(left)},
        f"Destiny point: {use.label}",
        line,
        tuple(details),
        {"destiny": action},
    )


def _power_round(pools: Pools, state: RoundState | None, raw) -> Spent:
    field = BETWEEN_POWER
    if state is None:
        raise InvalidRoll(field, power_round_help(None))
    if state.power_paid:
        raise InvalidRoll(
            field,
            f"Current Power was already spent at the start of round {state.round} of "
            f"{state.scene}. The next round opens when the scene's tracker moves on.",
        )
    damage = _points(field, raw, "power_damage", "Damage points")
    actions = _points(field, raw, "power_actions", "Multiple-action points")
    total = damage * POWER_DAMAGE_PER_POINT + actions * POWER_ACTIONS_PER_POINT
    if total < 1:
        raise InvalidRoll(field, "Spend at least 1 point, on damage or on actions.")
    if total > pools.power_current:
        raise InvalidRoll(field, f"Only {pools.power_current} current Power left to spend.")
    after = pools.power_current - total
    line = (
        f"current Power {pools.power_current} → {after} at the start of round {state.round}: "
        f"+{damage} damage (L104), {actions} multiple-action penalty dice off (L105)"
    )
    return Spent(
        {"power_current": str(after)},
        "Current Power for the round",
        line,
        ("every roll of the round has it without paying again",),
        {"power_round_damage": damage, "power_round_actions": actions},
    )


def _full_rest(pools: Pools) -> Spent:
    willpower = min(pools.willpower_current + REST_WILLPOWER, pools.willpower)
    line = (
        f"a full rest: current Power {pools.power_current} → 0 (L100), current Willpower "
        f"{pools.willpower_current} → {willpower} (L176)"
    )
    edits = {"power_current": "0", "willpower_current": str(willpower)}
    return Spent(edits, "Full rest", line, ("8 hours of sleep or meditation",), {"rest": True})


REST_WILLPOWER = 1  # L176: one current Willpower back after a full rest
