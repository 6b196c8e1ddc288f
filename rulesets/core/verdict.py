"""The budget panel's verdict: what it says of a sheet, counted from what it lists.

The panel lists the pools' messages and the violations no trait or section shows; every
other message stands beside its trait. The verdict counts each place apart, so a number
it says is always the number of messages the player finds there. At creation a budget
with points still to spend is not "legal" yet: it is incomplete.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rulesets.core.budget import Pool
from rulesets.core.report import Severity, Violation
from rulesets.core.rows import Stage, Status


@dataclass(frozen=True)
class Verdict:
    """The badge (a word or two, and its tone: ok, todo or bad) and the sentences below."""

    badge: str
    tone: str
    lines: tuple[str, ...]


def _things(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _where(listed: int, beside: int) -> str:
    if listed and beside:
        return f"{listed} listed above, {beside} beside the traits"
    return "listed above" if listed else "see the messages beside the traits"


def budget_verdict(
    status: Status,
    pools: Iterable[tuple[Pool, Iterable[Violation]]],
    unplaced: Iterable[Violation],
) -> Verdict:
    """Say where a sheet stands from the panel's own lists (`pools`: each pool with its
    messages, as the panel prints them; `unplaced`: the messages no trait shows)."""
    pools = [(pool, tuple(problems)) for pool, problems in pools]
    listed = [v for _pool, problems in pools for v in problems] + list(unplaced)
    listed_errors = sum(v.severity is Severity.ERROR for v in listed)
    listed_warnings = len(listed) - listed_errors
    beside_errors = max(0, status.errors - listed_errors)
    beside_warnings = max(0, status.warnings - listed_warnings)
    left = (
        [pool.label for pool, _ in pools if pool.left > 0 and not pool.cap]
        if status.stage == Stage.CREATION
        else []
    )
    lines: list[str] = []
    if status.errors:
        badge, tone = f"{status.errors} broken", "bad"
        lines.append(
            f"{_things(status.errors, 'rule')} broken: {_where(listed_errors, beside_errors)}."
        )
    elif left:
        badge, tone = "points left", "todo"
        lines.append(f"Incomplete: points left to spend in {', '.join(left)}.")
    elif listed_warnings or beside_warnings:
        badge, tone = "legal", "ok"
        lines.append("Legal so far.")
    else:
        badge, tone = "legal", "ok"
        lines.append("Legal: every budget spent, no rule broken.")
    if listed_warnings:
        lines.append(f"{_things(listed_warnings, 'thing')} to look at above.")
    if beside_warnings:
        lines.append(f"{_things(beside_warnings, 'note')} beside the traits.")
    return Verdict(badge, tone, tuple(lines))
