"""SWd10 aiming tables (seed 000, L246-286): where an attack is aimed changes its difficulty
to hit and its damage dice; what a hit there does depends on the damage it deals.

Extra successes on an attack add no damage dice (L195): aiming is how an attack deals more.
Two tables, one for ranged attacks and Force abilities with the "Aiming" descriptor
(L248-259), one for brawl and melee (L261-270). The effects are summaries in Datapad's own
words, each with the damage it needs and its seed line; where several apply, the one that
needs the most damage is the one that happens (L272).
"""

from __future__ import annotations

from dataclasses import dataclass

RANGED = "ranged"
MELEE = "melee"
TABLES: tuple[tuple[str, str, str], ...] = (
    (RANGED, "ranged attacks and aimed Force abilities", "L248-259"),
    (MELEE, "brawl and melee attacks", "L261-270"),
)
NOT_AIMED = "none"


@dataclass(frozen=True)
class Location:
    key: str
    name: str
    difficulty: int  # added to the difficulty to hit
    damage_dice: int  # added to (or taken from) the damage pool
    source: str


# Difficulty to hit / damage dice, as printed.
AIMING: dict[str, tuple[Location, ...]] = {
    RANGED: (
        Location("head", "Head / neck", 3, 4, "L251"),
        Location("arms", "Arms / hands", 3, -1, "L252"),
        Location("chest", "Chest / spine", 0, 0, "L253"),
        Location("vitals", "Vital organs", 2, 3, "L254"),
        Location("legs", "Legs / feet", 2, 0, "L255"),
        Location("eyes", "Eyes", 4, 3, "L256"),
        Location("weapon", "Weapon", 3, 0, "L257"),
    ),
    MELEE: (
        Location("head", "Head / neck", 3, 4, "L264"),
        Location("arms", "Arms / hands", 0, -1, "L265"),
        Location("chest", "Chest / spine", 2, 1, "L266"),
        Location("vitals", "Vital organs", 3, 3, "L267"),
        Location("legs", "Legs / feet", 1, 0, "L268"),
        Location("eyes", "Eyes", 4, 3, "L269"),
        Location("weapon", "Weapon", 3, 0, "L270"),
    ),
}


@dataclass(frozen=True)
class Effect:
    least_damage: int  # the damage (health levels) it needs, at least
    text: str
    source: str


# What a hit at each location does by the damage it deals (L274-286), least damage first.
EFFECTS: dict[str, tuple[Effect, ...]] = {
    "head": (
        Effect(3, "cannot speak until healed", "L274"),
        Effect(
            4, "falls unconscious unless a Stamina roll at 8 succeeds or Willpower is spent", "L274"
        ),
        Effect(5, "broken neck or grave head wound: paralysed until healed", "L274"),
        Effect(6, "dead; a hero lies dying until healed, and one more hit kills", "L274"),
    ),
    "arms": (
        Effect(1, "drops what the hand holds unless a Stamina roll at 7 gets a success", "L276"),
        Effect(4, "the limb is broken and useless; everything held falls", "L276"),
        Effect(6, "the arm or hand is severed or must be amputated", "L276"),
    ),
    "chest": (
        Effect(
            5,
            "broken ribs: Stamina at 8 each round to keep acting, a level more for "
            "each physical roll, two more for a further chest hit in close combat",
            "L278",
        ),
        Effect(7, "struck from behind: the spine may break and paralyse (Storyteller)", "L278"),
    ),
    "vitals": (
        Effect(
            4,
            "Stamina at 8 each round to keep acting, a level more for each physical "
            "roll, two more for a further hit there in close combat",
            "L280",
        ),
        Effect(5, "cannot act until helped away or healed", "L280"),
    ),
    "legs": (
        Effect(4, "the leg is broken or useless: fewer dice to walk or run", "L282"),
        Effect(6, "the leg is severed or must be amputated", "L282"),
    ),
    "eyes": (
        Effect(2, "blind for the next round", "L284"),
        Effect(3, "blind for the next two rounds", "L284"),
        Effect(4, "blind for good", "L284"),
    ),
    "weapon": (
        Effect(
            1,
            "the attacker may break the weapon (the Storyteller sets its health and Stamina)",
            "L286",
        ),
    ),
}
# L280: aiming at vital organs needs knowing where they lie, a Storyteller's check.
VITALS_NOTE = "aiming at vital organs needs knowing where they lie"


class UnknownAim(ValueError):
    """An aim option that names no table or location."""


def location(table: str, key: str) -> Location:
    """The row of `table` for `key`, or UnknownAim with what the tables offer."""
    for entry in AIMING.get(table, ()):
        if entry.key == key:
            return entry
    names = ", ".join(entry.name for entry in AIMING[RANGED])
    raise UnknownAim(f"Aim: choose one of {names}, or not aimed.")


def effect(key: str, damage: int) -> Effect | None:
    """What `damage` levels at location `key` do: the effect needing the most damage that
    this much reaches (L272), or None when it reaches none."""
    reached = [entry for entry in EFFECTS.get(key, ()) if damage >= entry.least_damage]
    return reached[-1] if reached else None


def choices(table: str) -> tuple[tuple[str, str], ...]:
    """The aim choices of one table for a roll option: (key, "Head / neck: +3 to hit...")."""
    rows = (
        (entry.key, f"{entry.name}: {entry.difficulty:+d} difficulty, {entry.damage_dice:+d} dice")
        for entry in AIMING[table]
    )
    return ((NOT_AIMED, "not aimed"), *rows)


def damage_choices() -> tuple[tuple[str, str], ...]:
    """Aim choices for a damage roll, both tables: "ranged.head", "melee.chest"..."""
    found = [(NOT_AIMED, "not aimed")]
    for table, _label, _source in TABLES:
        for entry in AIMING[table]:
            found.append(
                (f"{table}.{entry.key}", f"{table}: {entry.name} ({entry.damage_dice:+d} dice)")
            )
    return tuple(found)
