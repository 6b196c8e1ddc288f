"""Star O.R.E. Willpower awards (L836-L842): bonus current Willpower a GM hands out for a
critical action, which may carry current Willpower above base until it is spent (L838).

Two awards: an important goal achieved gives 1 (L840); a life personally saved or a major
enemy defeated gives the subject's Cool and Command dice, summed (L842). "Dice" counts every
die of the two stats, hard and wiggle dice too. An award is current Willpower, not
experience: it goes on the sheet through the `willpower.current` edit (`award_edits`), so
the ledger's award form, which pays XP, takes it as a second kind of award. Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core import InvalidEdit
from rulesets.core.parsing import parse_whole
from rulesets.ore import rules

GOAL = "goal"
LIFE_OR_ENEMY = "life_or_enemy"
# A subject's two stats, each at most a stat's dice with every bought extra die.
MOST_SUBJECT_DICE = 20


@dataclass(frozen=True)
class WillpowerAward:
    key: str
    label: str
    source: str
    points: int | None  # None: the subject's Cool + Command dice


WILLPOWER_AWARDS: tuple[WillpowerAward, ...] = (
    WillpowerAward(GOAL, "Achieved an important goal", "L840", 1),
    WillpowerAward(
        LIFE_OR_ENEMY, "Personally saved a life or defeated a major enemy", "L842", None
    ),
)
AWARD_BY_KEY = {award.key: award for award in WILLPOWER_AWARDS}
AWARD_CHOICES = tuple((award.key, award.label) for award in WILLPOWER_AWARDS)


def subject_dice(sheet: Mapping[str, Any]) -> tuple[int, int]:
    """A subject sheet's Cool and Command dice, hard and wiggle dice included."""
    found = []
    for stat in ("cool", "command"):
        hard, wiggle = rules.stat_extra_dice(sheet, stat)
        found.append(sheet["stats"][stat] + hard + wiggle)
    return found[0], found[1]


def willpower_award(kind: str, *, cool: Any = None, command: Any = None) -> int:
    """The current Willpower an award gives (L840-L842), or InvalidEdit naming the field:
    `award` for a kind the rule does not know, `cool` or `command` for the subject's dice."""
    award = AWARD_BY_KEY.get(kind) if isinstance(kind, str) else None
    if award is None:
        names = "; ".join(label for _key, label in AWARD_CHOICES)
        raise InvalidEdit("award", f"Willpower award: choose one of {names}.")
    if award.points is not None:
        return award.points
    dice = [
        parse_whole(field, raw, label=f"The subject's {field.capitalize()} dice", minimum=0,
                    maximum=MOST_SUBJECT_DICE)
        for field, raw in (("cool", cool), ("command", command))
    ]  # fmt: skip
    if not sum(dice):
        raise InvalidEdit("cool", "The subject has no Cool or Command dice: the award is 0.")
    return sum(dice)


def award_edits(sheet: Mapping[str, Any], settings: Mapping[str, Any], points: int) -> dict:
    """The sheet edit that gives `points` of current Willpower, above base if it must be
    (L838): {trait key: raw value}, for the edit service. Droids have none (L764)."""
    current = rules.current_willpower(sheet, settings)
    if current is None:
        raise InvalidEdit("award", "Droids have no Willpower to award.")
    return {"willpower.current": str(current + points)}
