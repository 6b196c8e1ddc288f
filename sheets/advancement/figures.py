"""What a character's ledger adds up to, read without writing: the sums of its entries
(the balance is stored nowhere else), the sheet as its engine judges it with those sums,
and which traits the ledger keeps. Below the write services: the edit service, the
layouts and the lists all read these."""

from __future__ import annotations

from fnmatch import fnmatchcase
from types import ModuleType

from django.db import connection
from django.db.models import IntegerField, OuterRef, Q, QuerySet, Subquery, Sum

from rulesets.core import Stage
from rulesets.core.ledger import CARRIED_TRAIT, LedgerFigures
from rulesets.registry import advancement_of
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.permissions import CharacterAccess

Kind = LedgerEntry.Kind

INCOME = (Kind.AWARD, Kind.CORRECTION)


SPENDING = (Kind.PURCHASE, Kind.REFUND)


def advancement_for(system: str) -> ModuleType:
    """The system's pure advancement rules (rulesets/<key>/advancement.py)."""
    return advancement_of(system)


def _sum_of(condition: Q) -> Subquery:
    # A subquery per figure, not a join: the list's other annotations and its GROUP BY
    # stay as they were.
    rows = (
        LedgerEntry.objects.filter(condition, character=OuterRef("pk"))
        .order_by()
        .values("character")
        .annotate(total=Sum("amount"))
        .values("total")[:1]
    )
    return Subquery(rows, output_field=IntegerField())


def with_figures(characters: QuerySet[Character]) -> QuerySet[Character]:
    """Annotate each character with its ledger sums, so a list costs one query."""
    return characters.annotate(
        ledger_earned=_sum_of(Q(kind__in=INCOME)),
        ledger_spent=_sum_of(Q(kind__in=SPENDING)),
        ledger_carried=_sum_of(Q(kind__in=INCOME, trait=CARRIED_TRAIT)),
        ledger_held=_sum_of(Q(kind__in=SPENDING, pending=True)),
    )


def _figures_sql() -> str:
    income = ", ".join(["%s"] * len(INCOME))
    spending = ", ".join(["%s"] * len(SPENDING))
    return (
        f"SELECT SUM(CASE WHEN kind IN ({income}) THEN amount END),"
        f" SUM(CASE WHEN kind IN ({spending}) THEN amount END),"
        f" SUM(CASE WHEN kind IN ({income}) AND trait = %s THEN amount END),"
        f" SUM(CASE WHEN kind IN ({spending}) AND pending = %s THEN amount END)"
        f" FROM {LedgerEntry._meta.db_table} WHERE character_id = %s"
    )


_FIGURES_SQL = _figures_sql()


def figures(character: Character) -> LedgerFigures:
    """The character's ledger sums: from annotations when the list made them.

    Otherwise one fixed statement: every edit asks, and building the same four filtered
    sums through the ORM cost more than running them (a sixth of an edit's time)."""
    if hasattr(character, "ledger_earned"):
        earned, spent, carried, held = (
            character.ledger_earned,
            character.ledger_spent,
            character.ledger_carried,
            character.ledger_held,
        )
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                _FIGURES_SQL,
                [*INCOME, *SPENDING, *INCOME, CARRIED_TRAIT, *SPENDING, True, character.pk],
            )
            earned, spent, carried, held = cursor.fetchone()
    # Purchases are stored negative; "spent" and "held" read positive.
    return LedgerFigures(
        earned=earned or 0, spent=-(spent or 0), carried=carried or 0, held=-(held or 0)
    )


# The sums `with_figures` annotates, and `keep_figures` keeps, on a character instance.
KEPT_FIGURES = ("ledger_earned", "ledger_spent", "ledger_carried", "ledger_held")


def keep_figures(character: Character) -> Character:
    """Sum the character's ledger once and keep the sums on it, as `with_figures` would: the
    snapshot, the edit service, the sheet and its roll links then all read them from the
    instance. Sums already kept stay; writing an entry (`_entry_for`) drops them."""
    if "ledger_earned" not in character.__dict__:
        known = figures(character)
        # The annotations' own signs: purchases are stored (and summed) negative.
        character.ledger_earned = known.earned
        character.ledger_spent = -known.spent
        character.ledger_carried = known.carried
        character.ledger_held = -known.held
    return character


def engine_sheet(character: Character, known: LedgerFigures | None = None) -> dict:
    """The sheet as its engine judges it: the stored sheet with the ledger's figures."""
    advancement = advancement_for(character.system)
    return advancement.with_ledger(character.sheet, known or figures(character))


def unit_of(character: Character) -> str:
    return advancement_for(character.system).unit(character.sheet)


def may_award(access: CharacterAccess, character: Character) -> bool:
    """At a table only its GM awards and corrects; outside one the owner does."""
    return access.gm if character.campaign_id is not None else access.owner


def paid_trait(system: str, stage: str | None, trait: str) -> bool:
    """Whether a sheet edit of `trait` is the engine's own paid raise (WEG's "Advance to"
    buttons and the power add row in play): the edit service hands it to `pay_edit`."""
    if stage != Stage.PLAY:
        return False
    return any(fnmatchcase(trait, p) for p in advancement_for(system).PAID_EDITS)


def carried_over(entry: LedgerEntry) -> bool:
    """Whether the entry only carries over what the sheet held before the ledger: the
    raises bought before it, the XP the sheet came with, or what creation left over.
    Undoing one would rewrite the past."""
    return entry.carried


def ledger_trait(system: str, trait: str, stage: str) -> bool:
    """Whether a plain edit of `trait` is the ledger's business (awards, paid raises)."""
    advancement = advancement_for(system)
    patterns = advancement.LEDGER_TRAITS + (
        advancement.PLAY_LEDGER_TRAITS if stage == Stage.PLAY else ()
    )
    return any(fnmatchcase(trait, pattern) for pattern in patterns)
