"""What every system says of a non-player character: its budget report, and the wound
track each member of a group of minions keeps. Pure Python; each system's `npcs.py` fills
these types in from its own seed.

A minion's wounds are a small dict (what the system's track needs, nothing derived), so a
later scene tracker can mark any participant the same way: `hit` returns the new dict,
`condition` reads it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from rulesets.core.budget import Pool
from rulesets.core.report import Report, Severity, Violation
from rulesets.registry import SYSTEMS

# Bounds of a group of minions: one member at least (a group of none is no group), and
# no more than a GM can follow on one page (a table's "six stormtroopers" to a platoon).
MIN_MEMBERS = 1
MAX_MEMBERS = 50


@dataclass(frozen=True)
class Note:
    """One thing the NPC rules say of this sheet, with the seed line or setting behind it."""

    text: str
    source: str = ""


@dataclass
class NpcReport:
    """The budget an NPC is held to, in place of the player's creation budget.

    The seeds' NPC norms are guidelines (published NPCs break them: WEG's Dedelin has 18D,
    003:2487), so a budget here only warns; the rules every sheet keeps (an attribute
    above its maximum) stay errors.
    """

    quick: bool = False
    pools: list[Pool] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity is Severity.WARNING]

    def codes(self) -> set[str]:
        return {v.code for v in self.violations}


QUICK_NOTE = Note("A quick NPC: only the traits that matter, held to no budget.")


def quick_report(notes: Iterable[Note] = ()) -> NpcReport:
    return NpcReport(quick=True, notes=[QUICK_NOTE, *notes])


def kept_rules(report: Report, replaced: Iterable[str]) -> list[Violation]:
    """The player's check without its budget: every violation but those whose code starts
    with one of `replaced` (the PC budget rules the NPC budget stands in for)."""
    prefixes = tuple(replaced)
    return [v for v in report.violations if not v.code.startswith(prefixes)]


def warn_pool(report: NpcReport, pool: Pool, who: str) -> None:
    """Warn (never refuse) when an NPC's pool is not spent as the norm says."""
    if pool.spent == pool.allowed:
        return
    word = "over" if pool.over else "under"
    report.violations.append(
        Violation(
            f"npc_{pool.key.replace('.', '_')}_{word}",
            None,
            f"{pool.label}: {pool.spent} {pool.unit} of the {pool.allowed} {who}; "
            f"{abs(pool.left)} {word} the norm.",
            Severity.WARNING,
            pool.source,
        )
    )


# Minions ---------------------------------------------------------------------------------


class InvalidHit(ValueError):
    """A hit the track cannot take: the form field it concerns and a plain message."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class HitField:
    """One input of the "hit" form: a choice, or a whole number within its bounds."""

    name: str
    label: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int = 1
    maximum: int = 1
    default: str = ""
    source: str = ""


@dataclass(frozen=True)
class Condition:
    """Where a member stands on its wound track: what the table reads, and whether it is out."""

    label: str
    penalty: str
    down: bool
    marks: int
    of: int
    source: str = ""


def whole_number(raw: Mapping[str, Any], spec: HitField) -> int:
    """Read one whole-number field of a hit, within its bounds, or raise InvalidHit."""
    text = str(raw.get(spec.name, "") or spec.default).strip()
    if not text.lstrip("-").isdigit() or not text.isascii():
        raise InvalidHit(spec.name, f"{spec.label}: “{text[:20]}” is not a whole number.")
    value = int(text)
    if not spec.minimum <= value <= spec.maximum:
        raise InvalidHit(spec.name, f"{spec.label}: between {spec.minimum} and {spec.maximum}.")
    return value


def choice(raw: Mapping[str, Any], spec: HitField) -> str:
    """Read one choice field of a hit, or raise InvalidHit naming the choices."""
    value = str(raw.get(spec.name, "") or spec.default).strip()
    if value not in {key for key, _label in spec.choices}:
        names = ", ".join(label for _key, label in spec.choices)
        raise InvalidHit(spec.name, f"{spec.label}: choose one of {names}.")
    return value


def members_refusal(count: Any) -> str:
    """Why `count` members is no group; empty when it is one."""
    text = str(count).strip()
    if not text.isascii() or not text.isdigit():
        return f"“{text[:20]}” is not a whole number of members."
    value = int(text)
    if not MIN_MEMBERS <= value <= MAX_MEMBERS:
        return f"A group has {MIN_MEMBERS} to {MAX_MEMBERS} members; {value} is not that."
    return ""


# Quick NPCs ------------------------------------------------------------------------------

# One trait a line: its name as the sheet labels it (or its key), then its value, with a
# colon, an equals sign or only spaces between ("Blaster 5D", "Dexterity: 3").
QUICK_LINE_LIMIT = 40


def quick_edits(rows: Iterable[Any], text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """Read a quick NPC's extra trait lines against the sheet's rows: the (key, raw value)
    edits they make, and a plain message for each line that names no trait."""
    by_name: dict[str, str] = {}
    for row in rows:
        by_name.setdefault(row.key.lower(), row.key)
        by_name.setdefault(" ".join(str(row.label).lower().split()), row.key)
    edits: list[tuple[str, str]] = []
    problems: list[str] = []
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    if len(lines) > QUICK_LINE_LIMIT:
        return [], [f"At most {QUICK_LINE_LIMIT} trait lines; this has {len(lines)}."]
    for number, line in enumerate(lines, start=1):
        found = _split_line(line, by_name)
        if found is None:
            problems.append(f"Line {number}: “{line[:60]}” names no trait of this sheet.")
        else:
            edits.append(found)
    return edits, problems


def _split_line(line: str, by_name: Mapping[str, str]) -> tuple[str, str] | None:
    for separator in (":", "="):
        name, found, value = line.partition(separator)
        if found:
            key = by_name.get(" ".join(name.lower().split()))
            return (key, value.strip()) if key else None
    # Only spaces: the longest leading run of words that names a trait.
    words = line.split()
    for cut in range(len(words) - 1, 0, -1):
        key = by_name.get(" ".join(words[:cut]).lower())
        if key:
            return key, " ".join(words[cut:])
    return None


def npc_rules(system: str) -> ModuleType:
    """The `npcs` module of a system's package (rulesets/<key>/npcs.py)."""
    return importlib.import_module(f"{SYSTEMS[system].module}.npcs")
