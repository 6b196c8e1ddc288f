"""What the GM's dashboard shows of each sheet (its status: stage, legal, errors, warnings,
unspent), kept in Django's cache by what it is computed from, so a page of 50 sheets checks
only the sheets that changed since it was last drawn.

A cache, never the truth: the status is the rule engine's answer for the sheet's version,
its ledger's sums and the table's house rules, and the key holds all of them (with digests
of the sheet's content and of the rule engine's own code), so an edit, an award or a
changed house rule makes a new key and the old answer is never asked for again. Nothing
invalidates; anything kept may be dropped (a restart, an eviction, `statuses_not_kept`)
and is computed again.

Why a cache and not a table written after each commit: the key already names everything
the answer depends on, so no write path has to remember to keep it (the characters' write
service, the ledger's, a compendium update, a restore, a house-rule change all write
versions or settings), and no migration holds derived values. On the default per-process
cache each worker computes a status once per version; with REDIS_URL set every worker and
app server shares one cache (sheets/settings.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from django.core.cache import cache as django_cache

import rulesets
from rulesets.core import Status
from rulesets.core.ruleset import Ruleset
from sheets.advancement.figures import KEPT_FIGURES, engine_sheet, figures
from sheets.characters.models import Character
from sheets.characters.state import content_key

# A week: long enough that a quiet table's page is drawn from the cache, short enough that a
# shared cache does not fill with the versions of sheets long since edited.
KEPT_FOR = 7 * 24 * 3600
# Raised when the kept shape changes (Status's fields), so no worker reads an older one.
FORMAT = 1

_keeping = [True]


@cache
def _engine_digest(system: str) -> str:
    """A digest of the rule engine's code (the system's package and the core): a deployment
    that changes how a sheet is judged never reads a status judged by the old code from a
    shared cache. Read once per process."""
    root = Path(rulesets.__file__).parent
    digest = hashlib.sha256()
    for folder in (root / "core", root / system):
        for source in sorted(folder.rglob("*.py")):
            digest.update(source.relative_to(root).as_posix().encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def settings_digest(in_force: Mapping[str, Any]) -> str:
    """A digest of the resolved house rules: any changed reading changes it."""
    return hashlib.sha256(_as_bytes(content_key(dict(in_force)))).hexdigest()[:16]


def _key(character: Character, settings: str) -> str:
    # The ledger's sums are part of what the engine judges (the unspent XP): a write to the
    # ledger that kept the version (a GM's acceptance of points) still changes the key.
    sums = ".".join(str(getattr(character, name, 0) or 0) for name in KEPT_FIGURES)
    engine = _engine_digest(character.system)
    # And the sheet's content (some 30 us a sheet against a check's 700): a key (id,
    # version) that comes again for another sheet (a database restored or reset beside a
    # shared cache, a test's rolled-back rows) never reads the other sheet's status.
    sheet = hashlib.sha256(_as_bytes(content_key(character.sheet))).hexdigest()[:16]
    return f"status:{FORMAT}:{engine}:{character.pk}:{character.version}:{settings}:{sums}:{sheet}"


def _as_bytes(content: bytes | str) -> bytes:
    return content if isinstance(content, bytes) else content.encode()


def statuses(
    ruleset: Ruleset, characters: Iterable[Character], in_force: Mapping[str, Any]
) -> dict[int, Status]:
    """Each character's status under the table's readings `in_force`, by primary key: read
    from the cache in one call, the missing ones computed and kept.

    The characters carry their ledger sums (`with_figures`), which the key and the engine
    both read."""
    characters = list(characters)
    settings = settings_digest(in_force)
    keys = {character.pk: _key(character, settings) for character in characters}
    found = django_cache.get_many(list(keys.values())) if _keeping[0] else {}
    answers: dict[int, Status] = {}
    computed: dict[str, Status] = {}
    for character in characters:
        status = found.get(keys[character.pk])
        if not isinstance(status, Status):
            status = ruleset.status(engine_sheet(character, figures(character)), in_force)
            computed[keys[character.pk]] = status
        answers[character.pk] = status
    if computed and _keeping[0]:
        django_cache.set_many(computed, timeout=KEPT_FOR)
    return answers


@contextmanager
def statuses_not_kept() -> Iterator[None]:
    """Compute every status afresh, as before the cache (`make bench` compares the two)."""
    _keeping[0] = False
    try:
        yield
    finally:
        _keeping[0] = True
