"""The result of checking a sheet: every pool and every rule broken, all at once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from rulesets.core.budget import Pool


class Severity(StrEnum):
    # An error makes the sheet illegal; a warning is something the player should look at
    # (dots still to place, a prerequisite lost after purchase).
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Violation:
    """One broken rule: a stable code, the trait it concerns (or None), a plain message."""

    code: str
    trait: str | None
    message: str
    severity: Severity = Severity.ERROR
    source: str = ""


@dataclass
class Report:
    """Every pool and every violation a check found, in the order the rules were checked."""

    pools: list[Pool] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)

    def add_pool(self, pool: Pool) -> None:
        self.pools.append(pool)

    def error(self, code: str, trait: str | None, message: str, source: str = "") -> None:
        self.violations.append(Violation(code, trait, message, Severity.ERROR, source))

    def warn(self, code: str, trait: str | None, message: str, source: str = "") -> None:
        self.violations.append(Violation(code, trait, message, Severity.WARNING, source))

    def extend(self, violations: Iterable[Violation]) -> None:
        self.violations.extend(violations)

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity is Severity.WARNING]

    @property
    def ok(self) -> bool:
        return not self.errors

    def codes(self) -> set[str]:
        return {v.code for v in self.violations}

    def for_trait(self, trait: str) -> list[Violation]:
        return [v for v in self.violations if v.trait == trait]

    def by_trait(self) -> dict[str, list[Violation]]:
        grouped: dict[str, list[Violation]] = {}
        for violation in self.violations:
            if violation.trait is not None:
                grouped.setdefault(violation.trait, []).append(violation)
        return grouped

    def pool(self, key: str) -> Pool:
        for pool in self.pools:
            if pool.key == key:
                return pool
        raise KeyError(key)
