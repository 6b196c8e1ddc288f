"""What every system's initiative gives the scene tracker: a score to order by, read from a
roll or typed by the GM, and the order itself. Each system's `initiative.py` fills in how
its seed rolls and breaks ties; this module only sorts. Pure Python.

A score is stored as a small dict (`Score.as_data`), so a scene survives a reload; the
order is computed from the stored scores and the sheets' tie-breaking traits each time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

# A typed value past this is a typo, not an initiative (no seed's roll comes near).
MOST_TYPED = 999


class InvalidInitiative(ValueError):
    """A typed initiative the system cannot read: a plain message for beside the field."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Score:
    """One participant's initiative: higher `value` acts first, then higher `second`
    (O.R.E.'s height); `last` puts it after everyone (1o3d10's failed roll); `rolloff` is
    a d10 kept for a tie nothing else breaks."""

    value: int
    text: str
    second: int = 0
    last: bool = False
    actions: int = 1
    rolloff: int = 0
    typed: bool = False

    def as_data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | None) -> Score | None:
        if not data:
            return None
        fields = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in fields})


def whole(text: str, label: str = "Initiative", low: int = 0, high: int = MOST_TYPED) -> int:
    """A typed whole number within bounds, or InvalidInitiative naming what was typed."""
    clean = str(text).strip()
    if not clean:
        raise InvalidInitiative(f"{label}: type a number, or roll.")
    if not clean.isascii() or not clean.lstrip("-").isdigit() or len(clean) > 6:
        raise InvalidInitiative(f"{label}: “{clean[:20]}” is not a whole number.")
    value = int(clean)
    if not low <= value <= high:
        raise InvalidInitiative(f"{label}: between {low} and {high}.")
    return value


# What settles a tie the system's own traits leave, before the roll-off: the seed's rule
# alone, or a side first. WEG 1E puts the NPC first when a PC and an NPC tie on Dexterity
# (003:360); a table may want its players first instead.
SEED_TIES = "seed"
NPCS_FIRST = "npcs_first"
PLAYERS_FIRST = "players_first"
TIE_RULES: tuple[tuple[str, str], ...] = (
    (SEED_TIES, "As the system says, then a d10 roll-off"),
    (NPCS_FIRST, "NPCs and minions before the players' characters (as WEG 003:360)"),
    (PLAYERS_FIRST, "The players' characters before NPCs and minions"),
)


def side_tie(rule: str, npc: bool) -> tuple[int, ...]:
    """The extra tie trait a tie rule adds (higher first); none under the seed's rule."""
    if rule == NPCS_FIRST:
        return (1 if npc else 0,)
    if rule == PLAYERS_FIRST:
        return (0 if npc else 1,)
    return ()


@dataclass(frozen=True)
class Entry:
    """One participant as the order sees it: its key, its score (None before a roll), the
    system's tie-breaking traits (higher first) and the place it was added in."""

    key: Any
    score: Score | None
    ties: tuple[int, ...] = ()
    position: int = 0


def sort_key(entry: Entry) -> tuple:
    score = entry.score
    if score is None:
        # Not rolled yet: after everyone who has, in the order added.
        return (2, 0, 0, (), 0, entry.position)
    return (
        1 if score.last else 0,
        -score.value,
        -score.second,
        tuple(-t for t in entry.ties),
        -score.rolloff,
        entry.position,
    )


def order(entries: Iterable[Entry]) -> list[Entry]:
    """Who acts first to last: the score, then the system's ties, then a roll-off, then
    the order they were added in (so the order is total and stable across reloads)."""
    return sorted(entries, key=sort_key)


def tied(entries: Sequence[Entry]) -> set[Any]:
    """The keys whose score and ties equal another's: a roll-off or the order added decided."""
    seen: dict[tuple, list[Any]] = {}
    for entry in entries:
        if entry.score is None:
            continue
        s = entry.score
        seen.setdefault((s.last, s.value, s.second, entry.ties), []).append(entry.key)
    return {key for keys in seen.values() if len(keys) > 1 for key in keys}
