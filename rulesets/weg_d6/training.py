"""Training time for a raise: how long it takes, what shortens it and how far.

R&E (002) gives every purchase a training time in days or weeks per point spent, with or
without a teacher; some may be shortened by spending extra points, never below a minimum.
1st edition (003) times only the learning of a Force skill (ten weeks, a week off per skill
point, never under one week) and of a Force power (a week each). Lengths are counted in
in-game days (a week is seven), the unit the ledger's training clock counts.

Who may teach a 1E Force skill is here too: a teacher with higher codes than the pupil, a
master with all three Force skills at 7D or better (003:1756-1774).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core import InvalidEdit, resolve_settings
from rulesets.weg_d6 import traits
from rulesets.weg_d6.data import (
    EDITION_1E,
    FORCE_SKILL_LABELS,
    FORCE_SKILL_SLUGS,
    LEARN_FORCE_SKILL_WEEKS,
    MASTER_MINIMUM_PIPS,
)
from rulesets.weg_d6.settings import SETTINGS
from rulesets.weg_d6.traits import code_text

DAY = "day"
WEEK = "week"
DAYS_IN = {DAY: 1, WEEK: 7}


@dataclass(frozen=True)
class TrainingRule:
    """How one kind of raise trains, as its seed line gives it."""

    unit: str  # DAY or WEEK
    # Units per point spent with a teacher and alone; `fixed` instead when the time does
    # not follow the points (1E learning a Force skill: ten weeks).
    taught: int = 0
    alone: int = 0
    fixed: int = 0
    # Units each extra point spent takes off (0: the seed offers no shortening), and the
    # shortest it may then be, in units.
    cut_per_point: int = 0
    minimum: int = 0
    # None at all when the skill was used in the last adventure.
    waived_if_used: bool = False
    source: str = ""

    @property
    def shortened_by_points(self) -> bool:
        return self.cut_per_point > 0


# R&E, keyed by the kinds of traits.py.
RE_RULES: dict[str, TrainingRule] = {
    traits.SKILL: TrainingRule(
        DAY, 1, 2, cut_per_point=1, minimum=1, waived_if_used=True, source="002:43"
    ),
    traits.SPECIALIZATION: TrainingRule(
        DAY, 1, 2, cut_per_point=1, minimum=1, waived_if_used=True, source="002:45"
    ),
    traits.ADVANCED: TrainingRule(WEEK, 1, 2, source="002:47"),
    traits.ATTRIBUTE: TrainingRule(WEEK, 1, 2, source="002:51"),
    traits.MOVE: TrainingRule(WEEK, 1, 2, source="002:55"),
    traits.FORCE_SKILL: TrainingRule(DAY, 1, 2, cut_per_point=1, minimum=1, source="002:798"),
}
# 1E: learning a Force skill (0D → 1D) and a Force power.
LEARN_FORCE_SKILL_1E = TrainingRule(
    WEEK, fixed=LEARN_FORCE_SKILL_WEEKS, cut_per_point=1, minimum=1, source="003:1762"
)
LEARN_POWER_1E = TrainingRule(WEEK, fixed=1, source="003:1798")


@dataclass(frozen=True)
class Training:
    """The training a purchase needs, in in-game days."""

    days: int  # after the extra points
    full_days: int  # before them
    minimum_days: int  # the shortest the seed allows it (or the reading, where it is silent)
    extra: int  # points spent only to shorten it
    taught: bool
    unit: str
    explanation: str
    source: str

    @property
    def length(self) -> str:
        return length_words(self.days, self.unit)


def length_words(days: int, unit: str) -> str:
    """ "3 weeks", "1 day", "10 days": weeks only when they are whole."""
    if unit == WEEK and days % 7 == 0:
        weeks = days // 7
        return f"{weeks} week{'' if weeks == 1 else 's'}"
    return f"{days} day{'' if days == 1 else 's'}"


def raise_waits(settings: Mapping[str, Any] | None) -> bool:
    """Whether a raise that needs training counts only when the training ends (the reading
    `training_counts`, default as 002:43-55 implies), rather than at once."""
    return resolve_settings(SETTINGS, settings or {})["training_counts"] == "when_trained"


def rule_for(
    sheet: Mapping[str, Any], trait: str, settings: Mapping[str, Any]
) -> TrainingRule | None:
    """The rule a raise of `trait` trains under now, or None when it needs no training."""
    settings = resolve_settings(SETTINGS, settings)
    kind = traits.trait_kind(sheet, trait)
    if sheet["edition"] == EDITION_1E:
        if kind == traits.FORCE_SKILL and traits.trait_value(sheet, trait) == 0:
            return LEARN_FORCE_SKILL_1E
        if kind == traits.POWER:
            return LEARN_POWER_1E
        if settings["training_1e"] == "none":
            return None
    return RE_RULES.get(kind)


def training_for(
    rule: TrainingRule | None,
    points: int,
    *,
    taught: bool,
    used_last_adventure: bool = False,
    extra: int = 0,
    settings: Mapping[str, Any] | None = None,
) -> Training | None:
    """The training a purchase of `points` needs under `rule`, shortened by `extra` points.

    InvalidEdit (trait "extra") when the extra points are refused: not a whole number, not
    offered by the seed for this raise, or cutting the time below its minimum."""
    if extra < 0:
        raise InvalidEdit("extra", "Extra points are a whole number, 0 or more.")
    if rule is None or (rule.waived_if_used and used_last_adventure):
        if extra:
            raise InvalidEdit("extra", "This raise needs no training: there is nothing to shorten.")
        return None
    per_point = rule.taught if taught else rule.alone
    full = rule.fixed or per_point * points
    if extra and not rule.shortened_by_points:
        raise InvalidEdit(
            "extra",
            f"The seed ({rule.source}) offers no way to shorten this training with points.",
        )
    floor = _floor(rule, full, settings)
    length = full - extra * rule.cut_per_point
    scale = DAYS_IN[rule.unit]

    def words(units: int) -> str:
        return length_words(units * scale, rule.unit)

    if length < floor:
        most = (full - floor) // rule.cut_per_point if rule.cut_per_point else 0
        raise InvalidEdit(
            "extra",
            f"{extra} extra points would cut {words(full)} of training below its minimum of "
            f"{words(floor)} ({rule.source}): at most {most}.",
        )
    with_whom = "with a teacher" if taught else "alone"
    if rule.fixed:
        head = f"{words(full)} of training"
    else:
        head = f"{words(per_point)} per point {with_whom} × {points} = {words(full)}"
    if extra:
        head += f", {extra} extra point{'' if extra == 1 else 's'} → {words(length)}"
    return Training(
        days=length * scale,
        full_days=full * scale,
        minimum_days=floor * scale,
        extra=extra,
        taught=taught,
        unit=rule.unit,
        explanation=f"{head} ({rule.source})",
        source=rule.source,
    )


def _floor(rule: TrainingRule, full: int, settings: Mapping[str, Any] | None) -> int:
    """The shortest the training may be, in the rule's units: the seed's minimum where it
    gives one; where it gives none, the reading decides (one unit, or the full length)."""
    if rule.minimum:
        return min(rule.minimum, full)
    resolved = resolve_settings(SETTINGS, settings)
    return full if resolved["training_floor"] == "full" else min(1, full)


def cut_short(days: int, minimum_days: int, unit: str, source: str, new_days: int) -> int:
    """The length, in days, the GM cuts a training of `days` to: refused below its minimum,
    or when it would not be shorter."""
    if new_days < minimum_days:
        raise InvalidEdit(
            "days",
            f"This training is never shorter than {length_words(minimum_days, unit)} "
            f"({source}); {length_words(new_days, DAY)} is below that.",
        )
    if new_days >= days:
        raise InvalidEdit(
            "days",
            f"It takes {length_words(days, unit)} already: cutting it short means fewer days.",
        )
    return new_days


def most_extra(rule: TrainingRule | None, points: int, *, taught: bool, settings=None) -> int:
    """The most extra points that still shorten this training (0 when none do)."""
    if rule is None or not rule.shortened_by_points:
        return 0
    full = rule.fixed or (rule.taught if taught else rule.alone) * points
    return max(0, (full - _floor(rule, full, settings)) // rule.cut_per_point)


# --- teachers and masters, 1st edition (003:1756-1774) -------------------------------------


def needs_master(sheet: Mapping[str, Any], trait: str) -> bool:
    """Whether learning `trait` needs a master: a 1E Force skill learned from 0D by a
    character without a Force template (the sheet's Force-sensitive mark, 003:1758-1760)."""
    skill = trait.partition(".")[2]
    return (
        sheet["edition"] == EDITION_1E
        and trait.startswith("force.")
        and skill in FORCE_SKILL_LABELS
        and sheet["force"][skill] == 0
        and not sheet["force"]["sensitive"]
    )


def teacher_problem(
    sheet: Mapping[str, Any],
    trait: str,
    codes: Mapping[str, int],
    settings: Mapping[str, Any],
) -> str:
    """Why the teacher whose Force skill codes are `codes` (pips, 0 when not given) cannot
    teach this 1E Force skill raise, "" when they can or when the rule does not apply.

    A master has all three Force skills at 7D or better (003:1760); a teacher has a higher
    code than the pupil (003:1758), and trains only a pupil whose code is below theirs
    (003:1766), though the seed's own example lets a master at the pupil's code teach the
    raise above it at double cost (003:1772-1774): the reading `teacher_limit_1e` says
    which holds."""
    skill = trait.partition(".")[2]
    if (
        sheet["edition"] != EDITION_1E
        or not trait.startswith("force.")
        or (skill not in FORCE_SKILL_LABELS)
    ):
        return ""
    label = FORCE_SKILL_LABELS[skill]
    if needs_master(sheet, trait):
        short = [
            FORCE_SKILL_LABELS[s]
            for s in FORCE_SKILL_SLUGS
            if codes.get(s, 0) < MASTER_MINIMUM_PIPS
        ]
        if short:
            return (
                f"Without a Force template, {label} is learned only from a master, who has "
                f"all three Force skills at {code_text(MASTER_MINIMUM_PIPS)} or better "
                f"(003:1760): give the master's codes ({', '.join(short)} below that)."
            )
    teacher = codes.get(skill, 0)
    if not teacher:
        return (
            f"Give your teacher's {label} code: a teacher has higher Force skill codes than "
            "the pupil (003:1758)."
        )
    pupil = sheet["force"][skill]
    resolved = resolve_settings(SETTINGS, settings)
    strict = resolved["teacher_limit_1e"] == "below"
    if teacher < pupil or (strict and teacher == pupil):
        return (
            f"A teacher with {label} {code_text(teacher)} trains only a pupil whose code is "
            f"below theirs, and yours is {code_text(pupil)} (003:1766): name a better "
            "teacher, or none to train alone at double cost (003:1772)."
        )
    return ""
