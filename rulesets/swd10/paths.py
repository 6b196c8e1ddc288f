"""SWd10 Path grades (seed 000, L112-168): the degrees of the Light and Dark side, the
mistake that tests each, and the roll after a mistake (L120-126).

The tables are summaries in Datapad's own words, one line per grade with its seed line.
After a mistake of grade g the player rolls the Path's value at difficulty value − g + 6
(L120); success keeps the grade (L122), a failure loses one (L124), a botch two (L126).
"""

from __future__ import annotations

from dataclasses import dataclass

LIGHT = "light_side"
DARK = "dark_side"
SIDES: dict[str, str] = {LIGHT: "Light side", DARK: "Dark side"}
LOWEST_DIFFICULTY = 2  # a difficulty below 2 is rolled at 2 (dice.py: a 1 never succeeds)


@dataclass(frozen=True)
class Grade:
    grade: int
    degree: str  # what a character at this grade has come to hold
    mistake: str  # the deed that tests it
    source: str


PATHS: dict[str, tuple[Grade, ...]] = {
    LIGHT: (
        Grade(1, "keeps emotion from clouding judgement", "lets emotion rule on purpose", "L136"),
        Grade(
            2,
            "keeps growing in every way, not only in the strongest",
            "leans on power instead of skill",
            "L137-138",
        ),
        Grade(
            3,
            "fights only when there is no other way, and stops when it no longer serves",
            "chooses destruction when other ways are open",
            "L139-140",
        ),
        Grade(
            4,
            "seeks all there is to know and looks from every side",
            "turns away from knowledge for fear of what follows",
            "L141-142",
        ),
        Grade(
            5,
            "trusts those further along the same Path",
            "rejects their guidance on purpose",
            "L143-144",
        ),
        Grade(
            6,
            "is honest with oneself in everything",
            "deceives oneself or betrays the deepest trust",
            "L145-146",
        ),
        Grade(
            7,
            "walks the whole Path and respects the choices of others",
            "holds one's own way to be the only true one",
            "L147-148",
        ),
        Grade(8, "judges by the Path alone", "judges by morals instead of the Path", "L149-150"),
        Grade(
            9,
            "opens the Path for others instead of changing everything alone",
            "meddles in another's life more than needed",
            "L152-153",
        ),
        Grade(10, "accepts death as part of life", "acts out of fear of death", "L154"),
    ),
    DARK: (
        Grade(
            1,
            "knows the peace of the weak lies in the hands of the strong",
            "treats all people as equals",
            "L158-159",
        ),
        Grade(2, "takes fear as the strongest ally", "accepts defeat", "L160"),
        Grade(3, "pursues only one's own goal", "passes up a chance to grow stronger", "L161"),
        Grade(
            4,
            "uses anger to focus and to frighten",
            "leaves one's own or others' fear and pain unused",
            "L162",
        ),
        Grade(
            5,
            "rules the weak through their fear of one's strength",
            "does not take what one wants",
            "L163",
        ),
        Grade(6, "lets hatred end doubt and conviction bend others", "forgives", "L164"),
        Grade(7, "is free of others' power through one's own", "lets morals hold one back", "L165"),
        Grade(
            8,
            "uses strength or loses it; destroys the idea, not its followers",
            "chooses peace when another way is open",
            "L166",
        ),
        Grade(
            9, "holds power the only true goal", "loses control of anything in one's life", "L167"
        ),
        Grade(
            10, "sees life itself as the true adversary", "fails to prevent one's own death", "L168"
        ),
    ),
}
# What each outcome of the roll costs the Path (L122-126).
GRADES_LOST = {"success": 0, "failure": 1, "botch": 2}


class UnknownGrade(ValueError):
    """A mistake grade outside the tables."""


def grade(side: str, number: int) -> Grade:
    """Row `number` of a side's table (1-10), or UnknownGrade."""
    table = PATHS[side]
    if not 1 <= number <= len(table):
        raise UnknownGrade(f"Grade of the mistake: 1 to {len(table)}, not {number}.")
    return table[number - 1]


def difficulty(value: int, mistake: int) -> int:
    """L120: the Path's value − the mistake's grade + 6, never below 2."""
    return max(value - mistake + 6, LOWEST_DIFFICULTY)


def after(value: int, outcome: str) -> int:
    """The Path's value after the roll (L122-126), never below 0."""
    return max(value - GRADES_LOST[outcome], 0)


def reading(side: str, value: int, outcome: str) -> str:
    """The roll's result read against the table: the grade kept, or the degrees lost."""
    now = after(value, outcome)
    name = SIDES[side]
    if now == value:
        return f"{name} stays {value}"
    lost = [grade(side, n) for n in range(now + 1, value + 1) if n <= len(PATHS[side])]
    held = "; ".join(f"grade {g.grade}: {g.degree}" for g in lost)
    return f"{name} {value} → {now}, losing {held}"


def choices(side: str) -> tuple[tuple[str, str], ...]:
    """The grade-of-mistake choices for the Path roll: ("3", "3: chooses destruction...")."""
    return tuple((str(g.grade), f"{g.grade}: {g.mistake}") for g in PATHS[side])
