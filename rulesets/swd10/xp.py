"""SWd10 experience costs as pure functions, each returning a Cost a player can read.

The price list is L306-322: a new ability 3; an attribute new value x 4; abilities and Force
knowledges new value x 2; Willpower the new value; a spoken or a written language 2; an
extra Firearms or Melee technique 2; an extra Force ability 3; a merit its value x 3. The
new value is the current value + 1 (L322), so a raise of several dots is the sum of its
single steps, kept step by step in the Cost (Intelligence 2 → 4: 12 + 16 = 28 XP).

Readings the seed leaves open (digest §3): a first Force knowledge dot costs 3 like a new
ability, or 2 as new value x 2 (the FORCE_KNOWLEDGE_FIRST_DOT setting); raising a merit that
has a range of values costs the difference x 3.
"""

from __future__ import annotations

from collections.abc import Callable

from rulesets.core import Cost, Setting

XP = "XP"
# The multiplication sign players read in cost lines, escaped for ruff (RUF001).
TIMES = "\u00d7"
NEW_ABILITY_XP = 3  # L310
ATTRIBUTE_FACTOR = 4  # L310
ABILITY_FACTOR = 2  # L312, also Force knowledges
LANGUAGE_XP = 2  # L314, spoken and written alike
TECHNIQUE_XP = 2  # L316
FORCE_ABILITY_XP = 3  # L318
MERIT_FACTOR = 3  # L320
SWSE_XP_PER_LEVEL = 17  # L1320

FORCE_KNOWLEDGE_FIRST_DOT = Setting(
    key="force_knowledge_first_dot_xp",
    label="XP for a first Force knowledge dot",
    default=NEW_ABILITY_XP,
    source="L310-312 leave it open; digest §3 proposes 3, as for any new ability",
    help="A Force knowledge at 0 can be priced as a new ability (3 XP) or as new value x 2 (2 XP).",
    choices=(
        (3, "3 XP, like a new ability"),
        (2, "2 XP, new value x 2"),
    ),
)

MERIT_RAISE = Setting(
    key="merit_raise_xp",
    label="XP to raise a merit already owned",
    default="difference",
    source="L320 prices a merit, not a raise; digest §3 [INTERP] and ambiguity 17 propose "
    "the difference x 3",
    help="Raising a merit that comes in several sizes (Debt 1 to 3) can cost the dots "
    "added x 3, or the whole new value x 3.",
    choices=(
        ("difference", "the dots added x 3"),
        ("new_value", "the whole new value x 3"),
    ),
)

FLAW_BUY_OFF = Setting(
    key="flaw_buy_off_xp",
    label="XP to be rid of a flaw",
    default="free",
    source="not given (L306-322 price no buy-off); digest §3 and ambiguity 17 make no "
    "proposal, so the default keeps what the sheet did: no charge",
    help="Losing a flaw after creation can be left to the Storyteller at no XP, or priced "
    "like a merit: the points removed x 3.",
    choices=(
        ("free", "no XP, the Storyteller's call"),
        ("merit_price", "the points removed x 3, like a merit"),
    ),
)


def _check_raise(label: str, current: int, target: int) -> None:
    if current < 0:
        raise ValueError(f"{label} cannot start below 0 (it is {current}).")
    if target < current:
        raise ValueError(
            f"{label} {current} → {target} is a lowering; experience only buys raises."
        )


def _raise(label: str, current: int, target: int, step: Callable[[int], Cost]) -> Cost:
    """Sum the single steps current+1 .. target, each priced by `step(new_value)`."""
    _check_raise(label, current, target)
    steps = [step(new_value) for new_value in range(current + 1, target + 1)]
    return Cost.total(steps, unit=XP, label=f"{label} {current} → {target}")


def attribute_cost(label: str, current: int, target: int) -> Cost:
    """Price an attribute raise: new value x 4 per dot (L310)."""

    def step(new_value: int) -> Cost:
        amount = new_value * ATTRIBUTE_FACTOR
        return Cost(
            amount,
            XP,
            f"{label} {new_value - 1} → {new_value}: "
            f"new value {new_value} {TIMES} {ATTRIBUTE_FACTOR} = {amount} XP",
        )

    return _raise(label, current, target, step)


def ability_cost(label: str, current: int, target: int) -> Cost:
    """Price an ability raise: 3 for the first dot, then new value x 2 per dot (L310-312)."""

    def step(new_value: int) -> Cost:
        if new_value == 1:
            return Cost(NEW_ABILITY_XP, XP, f"{label} 0 → 1: new ability = {NEW_ABILITY_XP} XP")
        amount = new_value * ABILITY_FACTOR
        return Cost(
            amount,
            XP,
            f"{label} {new_value - 1} → {new_value}: "
            f"new value {new_value} {TIMES} {ABILITY_FACTOR} = {amount} XP",
        )

    return _raise(label, current, target, step)


def force_knowledge_cost(
    label: str, current: int, target: int, *, first_dot_xp: int = NEW_ABILITY_XP
) -> Cost:
    """Price a Force knowledge raise: new value x 2 per dot (L312).

    The first dot's price is the FORCE_KNOWLEDGE_FIRST_DOT setting. Each dot also brings
    one Force ability of the tree at no cost (L242), which the explanation says.
    """

    def step(new_value: int) -> Cost:
        gift = f", and one {label} ability comes with the dot"
        amount = new_value * ABILITY_FACTOR
        if new_value == 1 and first_dot_xp != amount:
            return Cost(
                first_dot_xp, XP, f"{label} 0 → 1: new Force knowledge = {first_dot_xp} XP{gift}"
            )
        return Cost(
            amount,
            XP,
            f"{label} {new_value - 1} → {new_value}: "
            f"new value {new_value} {TIMES} {ABILITY_FACTOR} = {amount} XP{gift}",
        )

    return _raise(label, current, target, step)


def willpower_cost(current: int, target: int) -> Cost:
    """Price a Willpower raise: the new value per dot (L314)."""

    def step(new_value: int) -> Cost:
        return Cost(
            new_value,
            XP,
            f"Willpower {new_value - 1} → {new_value}: new value = {new_value} XP",
        )

    return _raise("Willpower", current, target, step)


def language_cost(name: str, *, spoken: bool, written: bool) -> Cost:
    """Price learning a language: 2 XP to speak it, 2 XP to write it (L314)."""
    steps = []
    if spoken:
        steps.append(Cost(LANGUAGE_XP, XP, f"{name} spoken: {LANGUAGE_XP} XP"))
    if written:
        steps.append(Cost(LANGUAGE_XP, XP, f"{name} written: {LANGUAGE_XP} XP"))
    return Cost.total(steps, unit=XP, label=name)


def technique_cost(skill: str, technique: str) -> Cost:
    """Price a Firearms or Melee technique beyond the ones the dots grant (L316)."""
    return Cost(TECHNIQUE_XP, XP, f"Extra {skill} technique ({technique}): {TECHNIQUE_XP} XP")


def force_ability_cost(name: str) -> Cost:
    """Price a Force ability beyond the ones the knowledge dots grant (L318)."""
    return Cost(FORCE_ABILITY_XP, XP, f"Extra Force ability ({name}): {FORCE_ABILITY_XP} XP")


def merit_cost(name: str, current: int, target: int, *, raise_by: str = "difference") -> Cost:
    """Price a merit: value x 3 with the Storyteller's consent (L320).

    Raising a merit already owned (Debt 1 → 3) costs the difference x 3 or the whole new
    value x 3, the MERIT_RAISE setting; `current` is 0 for a merit not yet owned.
    """
    _check_raise(name, current, target)
    difference = target - current
    amount = difference * MERIT_FACTOR
    if current and raise_by == "new_value":
        amount = target * MERIT_FACTOR
        text = (
            f"{name} {current} → {target}: new value {target} {TIMES} {MERIT_FACTOR} = {amount} XP"
        )
    elif current == 0:
        text = f"{name} {target}: value {target} {TIMES} {MERIT_FACTOR} = {amount} XP"
    else:
        text = (
            f"{name} {current} → {target}: "
            f"difference {difference} {TIMES} {MERIT_FACTOR} = {amount} XP"
        )
    return Cost(amount, XP, f"{text}, with the Storyteller's consent")


def swse_transfer_xp(level: int) -> int:
    """Return the XP a character brought over from SWSE spends on top of a new one (L1320)."""
    if level < 0:
        raise ValueError(f"An SWSE level cannot be negative (it is {level}).")
    return level * SWSE_XP_PER_LEVEL


def flaw_buy_off_cost(name: str, before: int, after: int) -> Cost:
    """Price losing flaw points after creation like merit points, under FLAW_BUY_OFF."""
    if after > before:
        raise ValueError(f"{name} {before} → {after} adds flaw points; nothing to buy off.")
    removed = before - after
    amount = removed * MERIT_FACTOR
    return Cost(
        amount,
        XP,
        f"{name} {before} → {after}: flaw points removed {removed} {TIMES} {MERIT_FACTOR} "
        f"= {amount} XP, with the Storyteller's consent",
    )
