"""What a character's ledger adds up to, read without writing: the sums of its entries
(the balance is stored nowhere else), the sheet as its engine judges it with those sums,
and which traits the ledger keeps. Below the write services: the edit service, the
layouts and the lists all read these."""

from __future__ import annotations

from fnmatch import fnmatchcase
from types import ModuleType

from django.db import connection
from django.db.models import IntegerField, OuterRef, Q, QuerySet, Subquery, Sum

from rulesets.core import Stage, resolve_settings
from rulesets.core.ledger import CARRIED_TRAIT, LedgerFigures
from rulesets.registry import advancement_of, get_ruleset
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
        ledger_waiting=_sum_of(Q(kind__in=INCOME, needs_acceptance=True)),
        ledger_waiting_carried=_sum_of(
            Q(kind__in=INCOME, needs_acceptance=True, trait=CARRIED_TRAIT)
        ),
    )


def _figures_sql() -> str:
    income = ", ".join(["%s"] * len(INCOME))
    spending = ", ".join(["%s"] * len(SPENDING))
    return (
        f"SELECT SUM(CASE WHEN kind IN ({income}) THEN amount END),"
        f" SUM(CASE WHEN kind IN ({spending}) THEN amount END),"
        f" SUM(CASE WHEN kind IN ({income}) AND trait = %s THEN amount END),"
        f" SUM(CASE WHEN kind IN ({spending}) AND pending = %s THEN amount END),"
        f" SUM(CASE WHEN kind IN ({income}) AND needs_acceptance = %s THEN amount END),"
        f" SUM(CASE WHEN kind IN ({income}) AND needs_acceptance = %s AND trait = %s"
        " THEN amount END)"
        f" FROM {LedgerEntry._meta.db_table} WHERE character_id = %s"
    )


_FIGURES_SQL = _figures_sql()


def _sums(character: Character) -> tuple[int, ...]:
    """The ledger's raw sums, in the order of KEPT_FIGURES (purchases negative)."""
    if hasattr(character, "ledger_earned"):
        # A sum the annotations did not make (a list annotated before origins) is none.
        return tuple(getattr(character, name, 0) or 0 for name in KEPT_FIGURES)
    with connection.cursor() as cursor:
        cursor.execute(
            _FIGURES_SQL,
            [
                *INCOME,
                *SPENDING,
                *INCOME,
                CARRIED_TRAIT,
                *SPENDING,
                True,
                *INCOME,
                True,
                *INCOME,
                True,
                CARRIED_TRAIT,
                character.pk,
            ],
        )
        return tuple(value or 0 for value in cursor.fetchone())


def figures(character: Character) -> LedgerFigures:
    """The character's ledger sums: from annotations when the list made them.

    Otherwise one fixed statement: every edit asks, and building the same filtered sums
    through the ORM cost more than running them (a sixth of an edit's time).

    At a table, points from elsewhere that wait for its GM's acceptance are left out of
    what was earned (and of what creation carried, which is part of it), and counted as
    waiting; off-table every entry counts: the owner is their own GM there."""
    earned, spent, carried, held, waiting, waiting_carried = _sums(character)
    if character.campaign_id is None:
        waiting = waiting_carried = 0
    # Purchases are stored negative; "spent" and "held" read positive.
    return LedgerFigures(
        earned=earned - waiting,
        spent=-spent,
        carried=carried - waiting_carried,
        held=-held,
        waiting=waiting,
    )


# The sums `with_figures` annotates, and `keep_figures` keeps, on a character instance.
KEPT_FIGURES = (
    "ledger_earned",
    "ledger_spent",
    "ledger_carried",
    "ledger_held",
    "ledger_waiting",
    "ledger_waiting_carried",
)


def keep_figures(character: Character) -> Character:
    """Sum the character's ledger once and keep the sums on it, as `with_figures` would: the
    snapshot, the edit service, the sheet and its roll links then all read them from the
    instance. Sums already kept stay; writing an entry (`_entry_for`) drops them."""
    if "ledger_earned" not in character.__dict__:
        for name, value in zip(KEPT_FIGURES, _sums(character), strict=True):
            setattr(character, name, value)
    return character


def engine_sheet(character: Character, known: LedgerFigures | None = None) -> dict:
    """The sheet as its engine judges it: the stored sheet with the ledger's figures."""
    advancement = advancement_for(character.system)
    return advancement.with_ledger(character.sheet, known or figures(character))


def unit_of(character: Character) -> str:
    return advancement_for(character.system).unit(character.sheet)


def on_the_sheet(character: Character) -> int:
    """What the sheet still holds of its own while in creation, in the ledger's unit, that
    reaches the ledger when creation ends (WEG's starting Character Points, which the sheet
    counts as unspent while the ledger's balance is still 0); 0 in play."""
    if character.sheet.get("stage") == Stage.PLAY:
        return 0
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    return advancement_for(character.system).carried_at_finish(character.sheet, settings)


def units_of(system: str, sheets: list[dict], rule_settings: dict) -> str:
    """The unit a table's awards are counted in, as a label: its sheets' own (a WEG table
    may hold sheets of both editions, each counted in its own: "CP or SP"), or with no
    sheet yet that of a new sheet under the table's readings."""
    advancement = advancement_for(system)
    units = sorted({advancement.unit(sheet) for sheet in sheets})
    if not units:
        ruleset = get_ruleset(system)
        blank = ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, rule_settings))
        units = [advancement.unit(blank)]
    return " or ".join(units)


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
