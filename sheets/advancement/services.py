"""The advancement ledger: awards, purchases, refunds and corrections, one model for every
system. Every write here is one transaction under the character's row lock, checks the
version the writer saw, adds entries (never deletes one) and leaves a revision.

The balance is the sum of a character's entries and is stored nowhere else; a system's
`advancement` module lays the ledger's figures over a copy of the sheet whenever its
engine checks, prices or pays (see rulesets/core/ledger.py).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet

from rulesets.core import DieCode, InvalidEdit, RowKind, Stage, TraitRow, resolve_settings
from rulesets.core.cost import Cost
from rulesets.core.ledger import CARRIED_TRAIT, LedgerFigures
from rulesets.core.parsing import YES, clean_text, parse_whole
from rulesets.core.rolls import dice_readings, percent_text
from rulesets.ore import awards as ore_awards
from rulesets.ore import rules as ore_rules
from rulesets.registry import get_ruleset
from rulesets.weg_d6 import darkside as weg_darkside
from rulesets.weg_d6 import gear as weg_gear
from rulesets.weg_d6.training import DAY, length_words
from sheets.advancement.figures import (
    INCOME,
    KEPT_FIGURES,
    SPENDING,
    advancement_for,
    carried_over,
    engine_sheet,
    figures,
    ledger_trait,
    may_award,
    unit_of,
)
from sheets.advancement.models import LedgerEntry, Training
from sheets.characters.models import Character, Review
from sheets.history.revisions import record_revision, revision_state
from sheets.live.bus import roll_logged
from sheets.npcs.handover import NpcRefused, pass_to_gm
from sheets.permissions import CharacterAccess, Need, campaign_for, character_for
from sheets.rolls.dice import dice_random
from sheets.rolls.models import RollEntry

Kind = LedgerEntry.Kind
REASON_MAX = 500
TEACHER_MAX = 100
# Far above any award a table hands out, low enough that a typo is caught.
AWARD_MAX = 10_000
RAISABLE_KINDS = (RowKind.DOTS, RowKind.NUMBER, RowKind.CODE, RowKind.DICE, RowKind.FLAG)


class LedgerRefused(Exception):
    """An award, purchase, undo or correction was refused; nothing was written."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@contextmanager
def _refusal_at(field: str = "") -> Iterator[None]:
    """An InvalidEdit inside (an engine's or a parser's) refuses the ledger's write with
    its message, shown beside `field`."""
    try:
        yield
    except InvalidEdit as refused:
        raise LedgerRefused(refused.message, field) from None


# --- figures ------------------------------------------------------------------------------


# --- quotes -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quote:
    """What buying one more step of a trait costs, and what it would leave."""

    trait: str
    label: str
    from_shown: str
    to_value: int
    cost: Cost
    balance: int
    needs_teacher: bool
    # Where the trait sits on the sheet, so the page groups raises the way the sheet does.
    section: str = ""
    group: str = ""
    # The row's kind: a die code's next step prints as a code (a WEG specialization
    # "8D+1 → 8D+2", never its pips).
    kind: RowKind | None = None
    # Why the engine refuses this raise now although the balance pays (WEG's one pip per
    # skill between adventures): no Buy button, this instead.
    refusal: str = ""
    # Why buying it waits for the GM's consent (an O.R.E. Force power or stunt, 001:L774).
    consent: str = ""
    # The training it needs (WEG: days or weeks, with or without a teacher).
    training: str = ""

    @property
    def buyable(self) -> bool:
        return self.affordable and not self.refusal

    @property
    def left(self) -> int:
        return self.balance - self.cost.amount

    @property
    def affordable(self) -> bool:
        return self.left >= 0

    @property
    def short(self) -> int:
        """How much more the balance needs before this raise can be bought."""
        return max(0, -self.left)

    @property
    def to_shown(self) -> str:
        return self._to_shown()

    @property
    def line(self) -> str:
        """ "Intelligence 3 → 4: 16 XP; 20 → 4 left"."""
        return (
            f"{self.label} {self.from_shown} → {self._to_shown()}: {self.cost.amount} "
            f"{self.cost.unit}; {self.balance} → {self.left} left"
        )

    def _to_shown(self) -> str:
        if self.kind is RowKind.CODE:
            return str(DieCode.from_pips(self.to_value))
        # The explanation names the new value the way the sheet prints it.
        head = self.cost.explanation.split(":", 1)[0]
        if "→" in head:
            return head.rsplit("→", 1)[1].strip()
        return str(self.to_value)


def _settings(character: Character) -> dict:
    return resolve_settings(get_ruleset(character.system).SETTINGS, character.readings_in_force)


def _raisable(rows: list[TraitRow]) -> dict[str, TraitRow]:
    return {
        row.key: row
        for row in rows
        if row.next_cost is not None and row.kind in RAISABLE_KINDS and not row.locked
    }


def shown(row: TraitRow) -> str:
    """A row's value as the sheet prints it (an untrained WEG skill prints its code)."""
    if row.shown:
        return row.shown
    if row.kind is RowKind.CODE:
        return str(DieCode.from_pips(int(row.value)))
    return str(row.value)


def _row_value(row: TraitRow) -> int:
    return int(bool(row.value)) if row.kind is RowKind.FLAG else int(row.value)


def quotes(character: Character, known: LedgerFigures | None = None) -> list[Quote]:
    """Every raise the character could buy now, priced, in sheet order (in play only)."""
    if character.sheet.get("stage") != Stage.PLAY:
        return []
    known = known or figures(character)
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    sheet = advancement.with_ledger(character.sheet, known)
    settings = _settings(character)
    waiting = _waiting_raises(character)
    found = []
    for key, row in _raisable(ruleset.trait_rows(sheet, settings)).items():
        new_value = advancement.next_value(sheet, key, _row_value(row))
        quote = Quote(
            key,
            row.label,
            shown(row),
            new_value,
            row.next_cost,
            known.balance,
            advancement.needs_teacher(key),
            row.section,
            row.group,
            row.kind,
            consent=_consent_needed(advancement, sheet, key),
            training=_training_offer(advancement, sheet, key, row.next_cost.amount, settings),
        )
        if key in waiting:
            quote = replace(quote, refusal=_still_training(waiting[key]))
        elif quote.affordable:
            # Ask the engine as the purchase will: a raise it refuses gets no button.
            quote = replace(quote, refusal=_refusal(ruleset, advancement, sheet, quote, settings))
        found.append(quote)
    return found


def _waiting_raises(character: Character) -> dict[str, Training]:
    """The raises paid for but still in training (WEG, the reading `training_counts`),
    by trait."""
    found = Training.objects.filter(
        character=character, holds_raise=True, ended_version__isnull=True, finished=False
    ).select_related("entry")
    return {training.entry.trait: training for training in found}


def _still_training(training: Training) -> str:
    """Why a trait whose raise still trains is not raised again now.

    The next step is priced from the value the sheet will have, and that value is not
    known until the training ends: an attribute's improvement roll may keep the old code
    (002:53). So one raise of a trait trains at a time."""
    entry = training.entry
    left = length_words(training.days_left, DAY)
    return (
        f"{entry.trait_label} {entry.from_value} → {entry.to_value} is still in training "
        f"({left} left): raise it again once that training ends."
    )


def _refuse_while_training(character: Character, trait: str, field: str) -> None:
    """Refused, beside `field`, while a raise of `trait` still trains (`_still_training`)."""
    waiting = _waiting_raises(character)
    if trait in waiting:
        raise LedgerRefused(_still_training(waiting[trait]), field)


def _training_offer(advancement, sheet: dict, trait: str, points: int, settings: dict) -> str:
    # Only WEG times its raises; the other systems' modules have no such rule.
    offer = getattr(advancement, "training_offer", None)
    return offer(sheet, trait, points, settings) if offer is not None else ""


def _refusal(ruleset, advancement, sheet: dict, quote: Quote, settings: dict) -> str:
    """Why the engine would refuse buying `quote` now ("" when it would not)."""
    edit_trait, raw = advancement.purchase_edit(sheet, quote.trait, quote.to_value)
    try:
        ruleset.apply_edit(sheet, edit_trait, raw, settings)
    except InvalidEdit as refused:
        return refused.message
    return ""


# --- writes -------------------------------------------------------------------------------


def _lock(user: AbstractBaseUser, character_id: int, need: Need, version: int | None):
    character, access = character_for(user, character_id, need, for_update=True)
    if version is not None and character.version != version:
        raise LedgerRefused(
            f"This sheet changed since you opened it (you saw version {version}, it is now "
            f"version {character.version}). Nothing was written; look at it again.",
            "version",
        )
    return character, access


def _reason(raw: Any, *, required: bool, field: str = "reason") -> str:
    if len(str(raw or "").strip()) > REASON_MAX:
        raise LedgerRefused(f"A reason is at most {REASON_MAX} characters.", field)
    with _refusal_at(field):
        text = clean_text(field, raw or "", label="The reason", limit=REASON_MAX)
    if required and not text:
        raise LedgerRefused("Say why: the reason is what the table reads in the ledger.", field)
    return text


def _amount(raw: Any, *, signed: bool = False) -> int:
    label = "The correction" if signed else "The award"
    with _refusal_at("amount"):
        amount = parse_whole(
            "amount",
            raw,
            label=label,
            minimum=-AWARD_MAX if signed else 1,
            maximum=AWARD_MAX,
        )
    if signed and amount == 0:
        raise LedgerRefused("A correction of 0 changes nothing.", "amount")
    return amount


def _entry_for(
    character: Character, user: AbstractBaseUser | None, unit: str, **fields: Any
) -> LedgerEntry:
    """Write one ledger entry of this character by `user`, in `unit`, at its version,
    adventure and table unless `fields` say otherwise; and drop the sums kept on the
    instance (`figures`), which no longer hold: the next ask sums the ledger again."""
    for name in KEPT_FIGURES:
        character.__dict__.pop(name, None)
    at = {
        "author": user,
        "campaign_id": character.campaign_id,
        "version": character.version,
        "adventure": character.adventure,
    }
    return LedgerEntry.objects.create(character=character, unit=unit, **(at | fields))


def _new_version(
    character: Character, user: AbstractBaseUser, summary: str, sheet: dict | None = None
) -> None:
    """Bump the version, store `sheet` when given, and log the revision (the caller holds
    the row lock)."""
    before = revision_state(character)
    fields = ["version", "updated_at"]
    if sheet is not None:
        character.sheet = sheet
        fields.append("sheet")
    character.version += 1
    character.save(update_fields=fields)
    record_revision(character, user, summary, before)


def _write(
    character: Character,
    user: AbstractBaseUser,
    summary: str,
    *,
    sheet: dict | None = None,
    **entry: Any,
) -> LedgerEntry:
    """Bump the version, store the sheet if it changed, log a revision and one entry."""
    _new_version(character, user, summary, sheet)
    return _entry_for(character, user, unit_of(character), **entry)


def award(
    *,
    user: AbstractBaseUser,
    character_id: int,
    amount: Any,
    reason: Any,
    expected_version: int | None = None,
) -> LedgerEntry:
    """Award XP (or Character Points) to one character: its GM, or its owner off-table."""
    value, why = _amount(amount), _reason(reason, required=True)
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("At a table, only the GM awards experience.", "amount")
        unit = unit_of(character)
        return _write(
            character,
            user,
            f"Award {value} {unit}: {why}",
            kind=Kind.AWARD,
            amount=value,
            reason=why,
        )


def award_table(
    *, user: AbstractBaseUser, campaign_id: int, amount: Any, reason: Any
) -> list[LedgerEntry]:
    """Award every character of the table the same amount with one reason, at once."""
    value, why = _amount(amount), _reason(reason, required=True)
    with transaction.atomic():
        campaign, _role = campaign_for(user, campaign_id, gm=True)
        characters = list(
            Character.objects.select_for_update().filter(campaign=campaign).order_by("pk")
        )
        if not characters:
            raise LedgerRefused("No character sits at this table yet.", "amount")
        entries = []
        for character in characters:
            unit = unit_of(character)
            entries.append(
                _write(
                    character,
                    user,
                    f"Award {value} {unit} to the table: {why}",
                    kind=Kind.AWARD,
                    amount=value,
                    reason=why,
                )
            )
    return entries


def correct(
    *,
    user: AbstractBaseUser,
    character_id: int,
    amount: Any,
    reason: Any,
    expected_version: int | None = None,
) -> LedgerEntry:
    """A GM's correction of the balance, up or down, with a reason."""
    value, why = _amount(amount, signed=True), _reason(reason, required=True)
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("At a table, only the GM corrects the ledger.", "amount")
        known = figures(character)
        if known.balance + value < 0:
            raise LedgerRefused(
                f"The balance is {known.balance} {unit_of(character)}; a correction of "
                f"{value} would leave it below 0.{_held_note(character, known)}",
                "amount",
            )
        return _write(
            character,
            user,
            f"Correction {value:+d} {unit_of(character)}: {why}",
            kind=Kind.CORRECTION,
            amount=value,
            reason=why,
        )


def purchase(
    *,
    user: AbstractBaseUser,
    character_id: int,
    trait: str,
    expected_version: int,
    teacher: Any = "",
    reason: Any = "",
    rng: random.Random | None = None,
    used: Any = "",
    extra: Any = "",
    teacher_codes: Mapping[str, Any] | None = None,
) -> LedgerEntry:
    """Buy one step of `trait` at the system's price, paid from the ledger's balance.

    A WEG raise records the training it needs (taught when `teacher` names someone, none
    for a skill `used` in the last adventure), shortened by `extra` points where the seed
    allows it; those points are paid with the raise and come back with its undo.

    A WEG attribute makes its improvement roll here, on the server, with `rng` (the
    operating system's dice unless a test passes its own), and the roll goes to the log."""
    with transaction.atomic():
        character, _access = _lock(user, character_id, Need.OWNER, expected_version)
        if character.sheet.get("stage") != Stage.PLAY:
            raise LedgerRefused("Finish creation first: during creation the budgets pay.")
        ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
        why = _reason(reason, required=advancement.REASON_REQUIRED)
        known = figures(character)
        settings = _settings(character)
        sheet = advancement.with_ledger(character.sheet, known)
        name = ""
        trains = hasattr(advancement, "training_of")
        if advancement.needs_teacher(trait) or trains:
            name = _reason(teacher, required=False, field="teacher")[:TEACHER_MAX]
        if advancement.needs_teacher(trait):
            # Taught or not decides the price (doubled alone), and in 1E whether a 0D Force
            # skill may be learned at all: the sheet's own flag is kept.
            sheet["teacher"] = dict(sheet["teacher"], present=bool(name))
        if name and hasattr(advancement, "taught_by"):
            sheet, name = _checked_teacher(advancement, sheet, trait, name, teacher_codes, settings)
        rows = ruleset.trait_rows(sheet, settings)
        row = next((r for r in rows if r.key == trait), None)
        if row is None:
            raise LedgerRefused(f"“{str(trait)[:60]}” is not a trait of this sheet.", "trait")
        raisable = _raisable(rows)
        if trait not in raisable:
            why_not = row.locked or f"{row.label} is at its highest and cannot be raised."
            raise LedgerRefused(why_not, "trait")
        _refuse_while_training(character, trait, "trait")
        old_value = _row_value(row)
        new_value = advancement.next_value(sheet, trait, old_value)
        with _refusal_at("trait"):
            cost = ruleset.advance_cost(sheet, trait, new_value, settings)
        trained = None
        if trains:
            trained = _training(
                advancement,
                sheet,
                trait,
                cost.amount,
                settings,
                taught=bool(name),
                used=used,
                extra=extra,
            )
        shortening = trained.extra if trained is not None else 0
        if cost.amount + shortening > known.balance:
            also = f" and {shortening} {cost.unit} to shorten the training" if shortening else ""
            raise LedgerRefused(
                f"{cost.explanation}{also}, but only {known.balance} {cost.unit} are left."
                f"{_held_note(character, known)}",
                "trait",
            )
        edit_trait, raw = advancement.purchase_edit(sheet, trait, new_value)
        with _refusal_at("trait"):
            bought = ruleset.apply_edit(sheet, edit_trait, raw, settings)
        if name:
            # The teacher named here priced this raise; the sheet keeps its own.
            bought["teacher"] = copy.deepcopy(character.sheet["teacher"])
        after = {r.key: r for r in ruleset.trait_rows(bought, settings)}
        from_shown = shown(row)
        to_shown = shown(after[trait]) if trait in after else str(new_value)
        line = {
            "kind": Kind.PURCHASE,
            "amount": -(cost.amount + shortening),
            "trait_label": row.label,
            "from_value": from_shown,
            "to_value": to_shown,
            "reason": why or cost.explanation[:REASON_MAX],
            "teacher": name,
        }
        if _consent_needed(advancement, sheet, trait):
            if character.campaign_id is not None:
                return _hold(character, user, line, f"{edit_trait}={raw}", cost)
            # Off-table the owner is their own GM: buying it gives the permission too.
            bought = _granted(ruleset, advancement, bought, trait, settings)
        return _book_purchase(
            character,
            user,
            advancement,
            sheet,
            bought,
            trait,
            line,
            paid=f"{cost.amount + shortening} {cost.unit}",
            price=cost.amount,
            trained=trained,
            new_value=new_value,
            settings=settings,
            rng=rng,
        )


def _book_purchase(
    character: Character,
    user: AbstractBaseUser,
    advancement,
    sheet: dict,
    bought: dict,
    trait: str,
    line: dict,
    *,
    paid: str,
    price: int,
    trained,
    new_value: int,
    settings: dict,
    rng: random.Random | None,
) -> LedgerEntry:
    """Write a raise its caller priced and checked (the ledger's Buy, the sheet's Advance
    button): `sheet` as priced, `bought` with the raise, `line` the purchase entry and
    `paid` what it cost in words. A raise that waits for its training is paid now and
    comes at the training's end; a WEG attribute rolls here (`price` decides the roll's
    refund); a failed roll keeps the sheet as it was."""
    label, from_value, to_value = line["trait_label"], line["from_value"], line["to_value"]
    summary = f"Bought {label} {from_value} → {to_value} for {paid}"
    if _holds(advancement, trained, settings):
        # Paid now; the value (and an attribute's roll) waits for the training's end.
        entry = _write(
            character,
            user,
            f"{summary}: in training for {trained.length}, {from_value} until it ends",
            # The sheet as stored, not as priced: its own teacher stays.
            sheet=advancement.without_earned(advancement.while_training(character.sheet, bought)),
            trait=trait,
            **line,
        )
        _start_training(entry, trained, new_value=new_value)
        return entry
    rolled = _improvement_roll(advancement, sheet, trait, new_value, price, settings, rng)
    if rolled is not None:
        bought, line = _rolled(character, user, advancement, sheet, bought, trait, line, rolled)
        if line["unchanged"]:
            # The value stays: there is nothing to train for.
            return _write(
                character,
                user,
                f"Tried {label} {from_value} → {to_value}: "
                f"{_words(advancement, sheet, trait, rolled)}",
                trait=trait,
                **line,
            )
    entry = _write(
        character,
        user,
        summary,
        sheet=advancement.without_earned(bought),
        trait=trait,
        **line,
    )
    _start_training(entry, trained)
    return entry


def _checked_teacher(advancement, sheet, trait, name, given, settings) -> tuple[dict, str]:
    """The raise taught by `name`, whose codes the seed may require (WEG 1E Force skills,
    003:1756-1774): the sheet to price it with and the name as the ledger keeps it, or a
    refusal beside the teacher's codes."""
    with _refusal_at("teacher_code"):
        return advancement.taught_by(sheet, trait, name, given or {}, settings)


def _consent_needed(advancement, sheet: dict, trait: str) -> str:
    """Why a raise of `trait` waits for the GM's consent (O.R.E. Force powers and stunts,
    001:L774), "" when the system asks none for it."""
    # Only the systems with such a rule answer; the others buy every raise at once.
    ask = getattr(advancement, "consent_needed", None)
    return ask(sheet, trait) if ask is not None else ""


def _granted(ruleset, advancement, sheet: dict, trait: str, settings: dict) -> dict:
    """The sheet with the permission a consented raise carries written on it."""
    for key, raw in advancement.consent_grants(trait):
        with _refusal_at("trait"):
            sheet = ruleset.apply_edit(sheet, key, raw, settings)
    return sheet


def _hold(character: Character, user: AbstractBaseUser, line: dict, edit: str, cost: Cost):
    """At a table, a raise that needs the GM's consent waits, holding its price, as an
    SWd10 merit asked for in play does (`ask`)."""
    if _waiting_for(character, line["trait_label"]):
        raise LedgerRefused(
            f"{line['trait_label']} already waits for the GM's consent: undo that request "
            "on the ledger first, or wait for the GM.",
            "trait",
        )
    return _write(
        character,
        user,
        f"Asked the GM's consent for {line['trait_label']} {line['from_value']} → "
        f"{line['to_value']}: {cost.amount} {cost.unit} held until the GM decides",
        pending=True,
        trait=edit,
        **line,
    )


def pay_edit(
    *,
    character: Character,
    access: CharacterAccess,
    user: AbstractBaseUser,
    trait: str,
    raw: str,
    rng: random.Random | None = None,
) -> LedgerEntry:
    """Run the engine's paid raise on the ledger: the engine prices and applies it against
    the ledger's balance, and what it spent becomes a purchase entry.

    The caller (the edit service) holds the character's row lock and checked the version.
    """
    if not access.owner:
        raise LedgerRefused("Only the character's player buys its raises.", trait)
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    known = figures(character)
    settings = _settings(character)
    sheet = advancement.with_ledger(character.sheet, known)
    with _refusal_at(trait):
        bought = ruleset.apply_edit(sheet, trait, raw, settings)
    target, amount = advancement.paid(sheet, bought)
    label = ruleset.trait_label(target)
    from_value = _shown_of(ruleset, advancement, sheet, target, settings)
    to_value = _shown_of(ruleset, advancement, bought, target, settings)
    line = {
        "kind": Kind.PURCHASE,
        "amount": -amount,
        "trait_label": label,
        "from_value": from_value,
        "to_value": to_value,
        "reason": f"{label} {from_value} → {to_value}"[:REASON_MAX],
    }
    new_value = _row_value_of(ruleset, bought, target, settings)
    _refuse_while_training(character, target, trait)
    trained = None
    if hasattr(advancement, "training_of"):
        # The sheet's buttons name no teacher: the sheet's own teacher flag says.
        taught = bool(sheet.get("teacher", {}).get("present"))
        trained = _training(advancement, sheet, target, amount, settings, taught=taught)
    return _book_purchase(
        character,
        user,
        advancement,
        sheet,
        bought,
        target,
        line,
        paid=f"{amount} {unit_of(character)}",
        price=amount,
        trained=trained,
        new_value=new_value,
        settings=settings,
        rng=rng,
    )


def _row_value_of(ruleset, sheet: dict, trait: str, settings: dict) -> int:
    row = next((r for r in ruleset.trait_rows(sheet, settings) if r.key == trait), None)
    return _row_value(row) if row is not None else 0


# --- training (WEG: 002:43-59, 002:798, 003:1762, 003:1798) ----------------------------------

EXTRA_MAX = 1000


def _training(advancement, sheet, trait, points, settings, *, taught, used="", extra=""):
    """The training a purchase needs, or a refusal beside the field at fault."""
    text = str(extra or "").strip()
    with _refusal_at("extra"):
        count = (
            0 if not text else parse_whole("extra", text, label="Extra points", maximum=EXTRA_MAX)
        )
    was_used = str(used or "").strip().lower() in YES
    with _refusal_at("extra"):
        return advancement.training_of(
            sheet,
            trait,
            points,
            settings,
            taught=taught,
            used_last_adventure=was_used,
            extra=count,
        )


def _holds(advancement, trained, settings: dict) -> bool:
    """Whether this purchase's raise waits for its training's end (WEG's reading
    `training_counts`): only a raise that trains at all does."""
    waits = getattr(advancement, "raise_waits", None)
    return trained is not None and waits is not None and waits(settings)


def _start_training(entry: LedgerEntry, trained, *, new_value: int | None = None) -> None:
    """Record the training a purchase needs; with `new_value`, its raise waits for the end."""
    if trained is None:
        return
    Training.objects.create(
        holds_raise=new_value is not None,
        new_value=new_value or 0,
        entry=entry,
        character_id=entry.character_id,
        trait_label=entry.trait_label,
        days=trained.days,
        full_days=trained.full_days,
        minimum_days=trained.minimum_days,
        extra=trained.extra,
        unit=trained.unit,
        taught=trained.taught,
        explanation=trained.explanation[:500],
        source=trained.source[:40],
    )


def in_training(character: Character) -> QuerySet[Training]:
    """What the character is training for now, oldest first."""
    return (
        Training.objects.filter(character=character, finished=False)
        .select_related("entry")
        .order_by("pk")
    )


TRAINING_DAYS_MAX = 3650


def train(
    *,
    user: AbstractBaseUser,
    character_id: int,
    action: Any,
    expected_version: int,
    training_id: Any = "",
    days: Any = "",
    reason: Any = "",
    rng: random.Random | None = None,
) -> list[Training]:
    """The GM's in-game decisions on training (the owner's, off-table): `days` in-game days
    pass for every training under way ("pass"), one training is marked done ("done"), or
    one is cut short to `days` days, never below its minimum ("cut"). Returns the
    trainings it changed.

    A training that ends here brings the raise it holds onto the sheet in the same write,
    and an attribute makes its improvement roll then (002:53), with `rng` (the table's
    dice unless a test passes its own)."""
    why = _reason(reason, required=False)
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("At a table, only the GM decides how training goes.", "training")
        chosen = str(action or "")
        if chosen == "pass":
            count = _days(days, minimum=1)
            changed = list(in_training(character))
            if not changed:
                raise LedgerRefused("Nothing is in training.", "training")
            _let_pass(changed, count, why)
            summary = f"{count} in-game day{'s' if count != 1 else ''} of training passed"
        elif chosen in ("done", "cut"):
            text = str(training_id or "").strip()
            number = int(text) if text.isascii() and text.isdigit() and len(text) < 12 else 0
            found = in_training(character).filter(pk=number).first()
            if found is None:
                raise LedgerRefused("No training under way under that number.", "training")
            if chosen == "done":
                found.finished = True
                summary = f"GM marked the training for {found.trait_label} done"
            else:
                new = _days(days, minimum=0)
                cut = advancement_for(character.system).cut_training
                with _refusal_at("days"):
                    found.days = cut(found.days, found.minimum_days, found.unit, found.source, new)
                found.finished = found.days_done >= found.days
                summary = f"GM cut the training for {found.trait_label} to {new} days"
            found.note = why or found.note
            changed = [found]
        else:
            raise LedgerRefused("Let days pass, mark a training done or cut it short.", "training")
        _record_training(character, user, changed, summary, why, rng)
        return changed


def train_table(
    *,
    user: AbstractBaseUser,
    campaign_id: int,
    days: Any,
    reason: Any = "",
    rng: random.Random | None = None,
) -> list[Training]:
    """The table's GM lets `days` in-game days of training pass for every character of the
    table at once: one transaction; each character with a training under way gets its own
    revision, and a training that ends brings its raise as `train` does. Returns the
    trainings it changed."""
    why = _reason(reason, required=False)
    count = _days(days, minimum=1)
    with transaction.atomic():
        campaign, _role = campaign_for(user, campaign_id, gm=True)
        characters = list(
            Character.objects.select_for_update().filter(campaign=campaign).order_by("pk")
        )
        summary = f"{count} in-game day{'s' if count != 1 else ''} of training passed at the table"
        changed_all: list[Training] = []
        for character in characters:
            changed = list(in_training(character))
            if not changed:
                continue
            _let_pass(changed, count, why)
            _record_training(character, user, changed, summary, why, rng)
            changed_all += changed
        if not changed_all:
            raise LedgerRefused("Nothing is in training at this table.", "days")
    return changed_all


def _let_pass(changed: list[Training], count: int, why: str) -> None:
    for found in changed:
        found.days_done = min(found.days, found.days_done + count)
        found.finished = found.days_done >= found.days
        if why:
            found.note = why


def _record_training(
    character: Character,
    user: AbstractBaseUser,
    changed: list[Training],
    summary: str,
    why: str,
    rng: random.Random | None,
) -> None:
    """Write what the GM decided: the raises of the trainings that ended, the sheet and
    one revision, then the trainings themselves (the caller holds the row lock)."""
    ended = [found for found in changed if found.finished and found.waiting]
    sheet, outcomes = _end_trainings(character, user, ended, rng) if ended else (None, [])
    told = "; ".join([summary, *(outcome.words for outcome in outcomes)])
    _new_version(character, user, f"{told}: {why}" if why else told, sheet)
    for outcome in outcomes:
        _book_end(character, user, outcome)
    Training.objects.bulk_update(
        changed, ["days", "days_done", "finished", "note", "ended_version", "refunded"]
    )


@dataclass
class _Ended:
    """What the end of one training did: its raise written (`roll` the improvement roll
    made, `refund` what a lost roll gave back), or `dropped` with the reason it no longer
    fits the sheet."""

    training: Training
    words: str
    roll: RollEntry | None = None
    refund: int = 0
    dropped: str = ""


def _end_trainings(character: Character, user: AbstractBaseUser, ended: list[Training], rng):
    """The sheet once the raises these trainings held are written, oldest first, and what
    each end did. A raise that no longer fits the sheet (the GM corrected the value
    meanwhile) is not written: its purchase is undone, every point back."""
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    settings = _settings(character)
    sheet = advancement.with_ledger(character.sheet, figures(character))
    outcomes = []
    for found in ended:
        entry = found.entry
        change = f"{entry.trait_label} {entry.from_value} → {entry.to_value}"
        try:
            raised = advancement.trained(sheet, entry.trait, found.new_value, settings)
        except InvalidEdit as refused:
            sheet = _forgotten(ruleset, advancement, sheet, entry.trait, settings)
            words = f"{change} not written ({refused.message}): {-entry.amount} {entry.unit} back"
            outcomes.append(_Ended(found, words, dropped=refused.message))
            continue
        price = -entry.amount - found.extra
        rolled = _improvement_roll(
            advancement, sheet, entry.trait, found.new_value, price, settings, rng
        )
        if rolled is None:
            sheet = raised
            outcomes.append(_Ended(found, f"{change} trained"))
            continue
        line = {
            "trait_label": entry.trait_label,
            "from_value": entry.from_value,
            "to_value": entry.to_value,
            "reason": entry.reason,
            "amount": entry.amount,
        }
        sheet, line = _rolled(
            character, user, advancement, sheet, raised, entry.trait, line, rolled
        )
        refund = 0
        if line["unchanged"]:
            # The roll kept the old code: the raise leaves the window as if never bought.
            sheet = _forgotten(ruleset, advancement, sheet, entry.trait, settings)
            refund = rolled.refund
        words = f"{change} trained, {_words(advancement, sheet, entry.trait, rolled)}"
        outcomes.append(_Ended(found, words, roll=line["roll"], refund=refund))
    return advancement.without_earned(sheet), outcomes


def _forgotten(
    ruleset, advancement, sheet: dict, trait: str, settings: dict, *, field: str = "training"
) -> dict:
    """The sheet with the raise of `trait` out of the adventure's window, as if never
    bought; a refusal names `field`."""
    with _refusal_at(field):
        for key, raw in advancement.forget_edits(trait):
            sheet = ruleset.apply_edit(sheet, key, raw, settings)
    return sheet


def _book_end(character: Character, user: AbstractBaseUser, outcome: _Ended) -> None:
    """The ledger's lines of one training's end, at the version that wrote it."""
    found, entry = outcome.training, outcome.training.entry
    unit, common = unit_of(character), _reversed(entry)
    if outcome.dropped:
        now = _value_now(character, entry.trait)
        common |= {"from_value": now, "to_value": now}
        found.note = f"Not written: {outcome.dropped}"[:500]
        _entry_for(
            character,
            user,
            unit,
            kind=Kind.REFUND,
            amount=-entry.amount,
            reason=f"Training ended, the raise no longer fits: {outcome.dropped}"[:REASON_MAX],
            undoes=entry,
            **common,
        )
        return
    found.ended_version = character.version
    if outcome.roll is None:
        return
    entry.roll = outcome.roll
    entry.unchanged = outcome.refund > 0
    entry.save(update_fields=["roll", "unchanged"])
    if outcome.refund:
        # Half the price back (002:53), as its own line: the purchase stays as paid, so its
        # undo gives back only what is left of it.
        found.refunded = outcome.refund
        _entry_for(
            character,
            user,
            unit,
            kind=Kind.REFUND,
            amount=outcome.refund,
            reason=f"Training ended, {outcome.roll.summary}"[:REASON_MAX],
            roll=outcome.roll,
            **common,
        )


def _days(raw: Any, *, minimum: int) -> int:
    with _refusal_at("days"):
        return parse_whole(
            "days", raw, label="In-game days", minimum=minimum, maximum=TRAINING_DAYS_MAX
        )


# --- the WEG attribute improvement roll (002:53) ----------------------------------------------


def _improvement_roll(advancement, sheet, trait, new_value, cost, settings, rng):
    # Only WEG rolls for a purchase; the other systems' modules have no such rule.
    make = getattr(advancement, "improvement_roll", None)
    if make is None:
        return None
    return make(sheet, trait, new_value, cost, settings, rng or dice_random())


def _words(advancement, sheet: dict, trait: str, rolled) -> str:
    return advancement.improvement_words(sheet, trait, rolled)


def _rolled(character, user, advancement, sheet, bought, trait, line, rolled):
    """Log the improvement roll where the table reads its rolls, and say what it did to
    the purchase: improved, the raise stands; failed, the sheet stays as it was and half
    the price comes back (002:53), kept on the one entry so that its undo returns the
    balance to where it was."""
    words = _words(advancement, sheet, trait, rolled)
    label = line["trait_label"]
    chance = rolled.chance
    roll_logged(character.campaign_id, character.pk)  # to the log's open pages, on commit
    log = RollEntry.objects.create(
        campaign_id=character.campaign_id,
        character=character,
        author=user,
        system=character.system,
        rollable_key=f"{trait}.improvement"[:120],
        rollable_label=f"{label} improvement"[:200],
        pool=f"{line['to_value']} against the species maximum"[:120],
        options={},
        dice=[*rolled.character_dice, *rolled.gm_dice],
        kept=f"{rolled.character_total} against {rolled.gm_total}"[:200],
        outcome="improved" if rolled.improved else "no increase",
        summary=f"{label} {line['from_value']} → {line['to_value']}: {words}"[:300],
        details=list(rolled.details),
        total=rolled.character_total,
        success=rolled.improved,
        # The exact chance the new code had of rolling no more than the maximum.
        odds=f"{chance.numerator}/{chance.denominator}" if chance is not None else "",
        odds_percent=percent_text(chance) if chance is not None else "",
        question=f"{line['to_value']} at most the species maximum's roll"[:200],
        facts={"character_total": rolled.character_total, "gm_total": rolled.gm_total},
    )
    line = line | {"roll": log, "reason": f"{line['reason']}; {words}"[:REASON_MAX]}
    if rolled.improved:
        return bought, line | {"unchanged": False}
    kept = line["amount"] + rolled.refund
    return sheet, line | {"amount": kept, "to_value": line["from_value"], "unchanged": True}


def _shown_of(ruleset, advancement, sheet: dict, trait: str, settings: dict) -> str:
    row = next((r for r in ruleset.trait_rows(sheet, settings) if r.key == trait), None)
    return shown(row) if row is not None else advancement.shown_without_row(sheet, trait)


def spend_in_play(
    character: Character, user: AbstractBaseUser, *, amount: int, trait: str, label: str
) -> LedgerEntry:
    """Points spent in play on something that does not stay on the sheet (WEG Character
    Points spent on a roll, 002:480-489): one entry taking them off the balance.

    The caller (the roll service) holds the character's row lock in its transaction. A
    correction, not a purchase: it buys no raise, and only the GM may undo it (a player
    may not take back points after seeing the dice).
    """
    known = figures(character)
    unit = unit_of(character)
    if amount < 1:
        raise LedgerRefused("Spend at least 1.", "amount")
    if amount > known.balance:
        raise LedgerRefused(
            f"only {known.balance} {unit} left to spend, not {amount}."
            f"{_held_note(character, known)}",
            "character_points",
        )
    return _write(
        character,
        user,
        f"Spent {amount} {unit}: {label}",
        kind=Kind.CORRECTION,
        amount=-amount,
        trait=trait,
        trait_label=label,
        reason=f"Spent in play: {label}"[:REASON_MAX],
    )


def correct_trait(
    *,
    user: AbstractBaseUser,
    character_id: int,
    trait: Any,
    value: Any,
    reason: Any,
    expected_version: int,
    amount: Any = "",
) -> LedgerEntry:
    """A GM's correction of a trait in play ("Dexterity 4 → 5: wrongly noted"), logged with
    its reason. It costs the balance only the amount the GM states (0 when none).

    Where the engine prices the sheet by its values (SWd10, O.R.E., 1o3d10), the change is
    worth some XP to it: that worth is booked as a purchase of the trait and given back by
    the correction entry, so balance and sheet still agree and nothing is charged unasked.
    """
    why = _reason(reason, required=True)
    stated = 0 if str(amount or "").strip() in ("", "0") else _amount(amount, signed=True)
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("At a table, only the GM corrects a value.", "trait")
        if character.sheet.get("stage") != Stage.PLAY:
            raise LedgerRefused("During creation the sheet is edited directly.", "trait")
        ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
        known = figures(character)
        settings = _settings(character)
        sheet = advancement.with_ledger(character.sheet, known)
        key = str(trait or "")[:200]
        rows = {r.key: r for r in ruleset.trait_rows(sheet, settings)}
        if key not in rows or rows[key].kind not in RAISABLE_KINDS:
            raise LedgerRefused(f"“{key[:60]}” is not a value of this sheet to correct.", "trait")
        if ledger_trait(character.system, key, Stage.PLAY):
            raise LedgerRefused("Experience itself is corrected with an amount.", "trait")
        with _refusal_at("value"):
            corrected = ruleset.apply_edit(sheet, key, str(value or "").strip(), settings)
        after = {r.key: r for r in ruleset.trait_rows(corrected, settings)}
        from_value = shown(rows[key])
        to_value = shown(after[key]) if key in after else str(value)
        if from_value == to_value:
            raise LedgerRefused(f"{rows[key].label} is {from_value} already.", "value")
        worth = (ruleset.status(sheet, settings).unspent or 0) - (
            ruleset.status(corrected, settings).unspent or 0
        )
        if known.balance + stated < 0:
            raise LedgerRefused(
                f"The balance is {known.balance} {unit_of(character)}; charging "
                f"{-stated} would leave it below 0.{_held_note(character, known)}",
                "amount",
            )
        label, unit = rows[key].label, unit_of(character)
        line = {"trait": key, "trait_label": label, "from_value": from_value, "to_value": to_value}
        entry = _write(
            character,
            user,
            f"GM corrected {label} {from_value} → {to_value}: {why}",
            sheet=advancement.without_earned(corrected),
            kind=Kind.CORRECTION,
            amount=stated + worth,
            reason=why,
            **line,
        )
        if worth:
            # Booked at the same version: one write, two lines.
            _entry_for(
                character,
                user,
                unit,
                kind=Kind.PURCHASE if worth > 0 else Kind.REFUND,
                amount=-worth,
                reason=f"What the correction is worth: {worth} {unit}",
                **line,
            )
        return entry


# --- restores, priced on the ledger ---------------------------------------------------------

# A restore whose values the engine prices differently from now, with no row of its own to
# name (an SWd10 language or technique): its ledger lines carry this trait.
WORTH_TRAIT = "restore.worth"
# Parts of a sheet in play that only the ledger writes: a restore keeps them as they are
# now. WEG's one-pip window lists the raises bought this adventure; an older window would
# let a skill rise twice in one adventure, or forbid a raise whose purchase was undone.
KEPT_BY_THE_LEDGER = {"weg_d6": ("interval",)}


@dataclass(frozen=True)
class PricedChange:
    """One value the ledger prices that a restore would move, as the sheet shows it."""

    trait: str
    label: str
    from_value: str
    to_value: str


@dataclass(frozen=True)
class LedgerCheck:
    """What a sheet written in place of the current one would do to what the ledger pays
    for: the priced values it moves, the entries that moved them since the version it
    comes from, and what its values are worth to the engine beyond today's (0 for WEG,
    whose engine takes its prices from the points when it pays)."""

    changes: tuple[PricedChange, ...] = ()
    entries: tuple[LedgerEntry, ...] = ()
    worth: int = 0

    def __bool__(self) -> bool:
        return bool(self.changes)


def keep_ledger_parts(character: Character, sheet: dict) -> dict:
    """The sheet with the parts only the ledger writes taken from the current sheet."""
    if character.sheet.get("stage") != Stage.PLAY or sheet.get("stage") != Stage.PLAY:
        return sheet
    kept = {
        key: copy.deepcopy(character.sheet[key])
        for key in KEPT_BY_THE_LEDGER.get(character.system, ())
        if key in character.sheet
    }
    return sheet | kept


def _shown_at(rows: dict[str, TraitRow], advancement, sheet: dict, key: str) -> str:
    row = rows.get(key)
    if row is None:
        return advancement.shown_without_row(sheet, key) if key != WORTH_TRAIT else ""
    if row.kind is RowKind.CODE and not row.shown:
        # An untrained WEG skill shows its attribute's code: it moves with the attribute,
        # and nothing was bought for it.
        return "untrained"
    return shown(row)


def ledger_check(character: Character, sheet: dict, since: int) -> LedgerCheck:
    """Whether writing `sheet` over the character's (a restore of version `since`) keeps
    every value the ledger prices as the ledger paid for it.

    In play only the ledger moves those values (purchases, refunds, a GM's corrections),
    so any of them that differs goes round the ledger: a raise whose purchase was undone
    comes back free, a GM's correction is undone. A value is priced when the engine quotes
    a raise of it (on either sheet) or an entry of the ledger names it; and whatever the
    rows say, the engine's own price of the whole sheet must not move either."""
    if character.sheet.get("stage") != Stage.PLAY or sheet.get("stage") != Stage.PLAY:
        return LedgerCheck()
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    known = figures(character)
    settings = _settings(character)
    now = advancement.with_ledger(character.sheet, known)
    then = advancement.with_ledger(sheet, known)
    rows_now = {r.key: r for r in ruleset.trait_rows(now, settings)}
    rows_then = {r.key: r for r in ruleset.trait_rows(then, settings)}
    named = list(
        character.ledger.filter(pending=False, carried=False)
        .exclude(trait="")
        .exclude(trait=CARRIED_TRAIT)
        .order_by("version", "pk")
    )
    labels = {entry.trait: entry.trait_label for entry in named}
    keys = [
        key
        for key, row in (rows_now | rows_then).items()
        if row.kind in RAISABLE_KINDS and row.next_cost is not None
    ]
    keys += [key for key in labels if key not in keys]
    changes = []
    for key in keys:
        before = _shown_at(rows_now, advancement, now, key)
        after = _shown_at(rows_then, advancement, then, key)
        if before != after:
            row = rows_now.get(key) or rows_then.get(key)
            label = row.label if row is not None else labels.get(key, key)
            changes.append(PricedChange(key, label, before, after))
    unspent_now = ruleset.status(now, settings).unspent or 0
    unspent_then = ruleset.status(then, settings).unspent or 0
    worth = unspent_now - unspent_then
    if worth and not changes:
        unit = unit_of(character)
        spent_now, spent_then = known.earned - unspent_now, known.earned - unspent_then
        changes.append(
            PricedChange(
                WORTH_TRAIT,
                "What the sheet's purchases cost",
                f"{spent_now} {unit}",
                f"{spent_then} {unit}",
            )
        )
    moved = {change.trait for change in changes}
    # A purchase whose training ended after that version wrote its raise then (WEG).
    trained_since = set(
        Training.objects.filter(character=character, ended_version__gt=since).values_list(
            "entry_id", flat=True
        )
    )
    in_the_way = tuple(
        entry
        for entry in named
        if (entry.version > since or entry.pk in trained_since)
        and (entry.trait in moved or WORTH_TRAIT in moved)
    )
    return LedgerCheck(tuple(changes), in_the_way, worth)


def book_restore(
    character: Character,
    user: AbstractBaseUser,
    check: LedgerCheck,
    *,
    charge: bool,
    reason: str,
) -> list[LedgerEntry]:
    """Write the lines that price a restore the GM (the owner, off-table) decided on, at
    the version the restore wrote: each value moved, before and after, as a correction;
    what the moved values are worth to the engine booked as a purchase (a refund when
    they are worth less), and either charged to the balance or given by the correction,
    as a value's correction does (`correct_trait`).

    The caller (the restore) holds the row lock, bumped the version and wrote the sheet;
    a refusal here rolls the whole restore back."""
    if not check.changes:
        return []
    known = figures(character)
    unit = unit_of(character)
    if charge and known.balance - check.worth < 0:
        raise LedgerRefused(
            f"The restored values cost {check.worth} {unit} and the balance is "
            f"{known.balance} {unit}: restore it free, or award the difference first."
            f"{_held_note(character, known)}",
            "pricing",
        )
    written = []
    for index, change in enumerate(check.changes):
        given = check.worth if index == 0 and not charge else 0
        written.append(
            _entry_for(
                character,
                user,
                unit,
                kind=Kind.CORRECTION,
                amount=given,
                trait=change.trait,
                trait_label=change.label,
                from_value=change.from_value,
                to_value=change.to_value,
                reason=reason,
            )
        )
    if check.worth:
        first = check.changes[0]
        written.append(
            _entry_for(
                character,
                user,
                unit,
                kind=Kind.PURCHASE if check.worth > 0 else Kind.REFUND,
                amount=-check.worth,
                trait=first.trait,
                trait_label=first.label,
                from_value=first.from_value,
                to_value=first.to_value,
                reason=f"What the restored values cost: {check.worth} {unit}",
            )
        )
    return written


def restore_reason(raw: Any) -> str:
    """The reason a priced restore carries on the ledger (required)."""
    return _reason(raw, required=True)


# --- purchases that wait for the GM's consent (SWd10 merits in play) ----------------------


def _held_note(
    character: Character, known: LedgerFigures, *, besides: LedgerEntry | None = None
) -> str:
    """Name what waits for the GM's approval and holds part of the balance, for a refusal
    that would otherwise puzzle the player ("but I have 20 XP"). Asked only when refusing,
    and only when something is held, so no edit pays a query for it."""
    held = known.held - (-besides.amount if besides is not None else 0)
    if held <= 0:
        return ""
    waiting = LedgerEntry.objects.filter(
        character=character, pending=True, kind__in=SPENDING, amount__lt=0
    ).order_by("pk")
    if besides is not None:
        waiting = waiting.exclude(pk=besides.pk)
    rows = list(waiting)
    unit = unit_of(character)
    if len(rows) == 1:
        named = f"{rows[0].trait_label}, which waits"
    else:
        parts = [f"{row.trait_label} ({-row.amount} {unit})" for row in rows]
        named = f"{', '.join(parts[:-1])} and {parts[-1]}, which wait"
    return (
        f" {held} {unit} are held for {named} for the GM's approval; they are free again "
        "if refused or withdrawn."
    )


def _priced(
    character: Character,
    trait: str,
    raw: str,
    field: str,
    *,
    waiting: LedgerEntry | None = None,
) -> tuple[dict, int]:
    """The sheet with the edit made, and what it costs: the drop in what the engine
    counts as unspent. Refused when it is not a purchase or the balance cannot pay.

    `waiting` is the request being approved: what it holds pays for it first."""
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    known = figures(character)
    settings = _settings(character)
    sheet = advancement.with_ledger(character.sheet, known)
    with _refusal_at(field):
        bought = ruleset.apply_edit(sheet, trait, raw, settings)
    before = ruleset.status(sheet, settings).unspent or 0
    cost = before - (ruleset.status(bought, settings).unspent or 0)
    if cost <= 0:
        raise LedgerRefused("That costs no experience: there is nothing to buy.", field)
    unit = unit_of(character)
    held = -waiting.amount if waiting is not None else 0
    if cost <= known.balance + held:
        return bought, cost
    if waiting is None:
        raise LedgerRefused(
            f"This costs {cost} {unit}, but only {known.balance} {unit} are left."
            f"{_held_note(character, known)}",
            field,
        )
    # Only a request priced higher now than when it was asked (or one stored before
    # requests held their price) gets here: it is not charged more than the balance has.
    raise LedgerRefused(
        f"Approving {waiting.trait_label} now costs {cost} {unit}: {held} {unit} were held "
        f"for it and only {known.balance} {unit} are left besides."
        f"{_held_note(character, known, besides=waiting)} Nothing was charged; it still "
        "waits, to approve when the balance can pay or to refuse.",
        field,
    )


def ask(
    *,
    user: AbstractBaseUser,
    character_id: int,
    choice: Any,
    value: Any,
    detail: Any,
    expected_version: int,
    reason: Any = "",
) -> LedgerEntry:
    """Buy what needs the Storyteller's consent (an SWd10 merit in play).

    At a table this only asks: the entry waits, holding its price (counted as spent, so it
    cannot be spent twice), until the GM approves (it is bought then, at the price of that
    moment) or refuses, which frees what it held. Outside a campaign the owner is their own
    Storyteller and it is bought at once.
    """
    with transaction.atomic():
        character, _access = _lock(user, character_id, Need.OWNER, expected_version)
        advancement = advancement_for(character.system)
        if not advancement.CONSENT_TRAITS:
            raise LedgerRefused("Nothing on this sheet is bought with the GM's consent.", "ask")
        if character.sheet.get("stage") != Stage.PLAY:
            raise LedgerRefused("During creation the creation budgets pay: add it on the sheet.")
        why = _reason(reason, required=False)
        trait, raw = advancement.consent_edit(choice, value, detail)
        bought, cost = _priced(character, trait, raw, "ask")
        key, label, to_value = advancement.consent_entry(bought)
        if character.campaign_id is not None and _waiting_for(character, label):
            # Asked twice, it would hold its price twice, and approving the second would
            # be refused as a merit the sheet already has.
            raise LedgerRefused(
                f"{label} already waits for the GM's approval. To ask at another value, "
                "undo that request on the ledger first.",
                "ask",
            )
        unit = unit_of(character)
        entry = {
            "kind": Kind.PURCHASE,
            "trait": key,
            "trait_label": label,
            "from_value": "—",
            "to_value": to_value,
            "reason": why or f"{label}: {cost} {unit}",
        }
        if character.campaign_id is None:
            return _write(
                character,
                user,
                f"Bought {label} for {cost} {unit}",
                sheet=advancement.without_earned(bought),
                amount=-cost,
                **entry,
            )
        return _write(
            character,
            user,
            f"Asked the GM's consent for {label}: {cost} {unit} held until the GM decides",
            amount=-cost,
            pending=True,
            **entry,
        )


def _waiting_for(character: Character, label: str) -> bool:
    """Whether a request for this merit (its name and choice, at any value) waits."""
    return LedgerEntry.objects.filter(
        character=character, pending=True, kind__in=SPENDING, trait_label=label
    ).exists()


def consent(
    *,
    user: AbstractBaseUser,
    character_id: int,
    entry_id: Any,
    approve: bool,
    expected_version: int,
    reason: Any = "",
) -> LedgerEntry:
    """The GM approves a purchase that waits (it is bought and charged now) or refuses it
    (a zero entry closes it, with the reason, and frees what it held).

    Approval charges the price of that moment, paid first from what the request holds. It
    finds the held price unless the price rose since the player asked: then the balance
    pays the difference, and when it cannot, approval is refused, nothing changes and the
    request keeps waiting."""
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("Only the GM consents to a purchase at their table.", "consent")
        entry = _pending(character, entry_id)
        if not approve:
            why = _reason(reason, required=True)
            return _close(character, user, entry, f"Refused: {why}")
        why = _reason(reason, required=False)
        trait, raw = entry.trait.split("=", 1)
        bought, cost = _priced(character, trait, raw, "consent", waiting=entry)
        advancement = advancement_for(character.system)
        if hasattr(advancement, "consent_grants"):
            # An O.R.E. raise held for the GM's permission: approving it gives the
            # permission, and the entry becomes a plain purchase of its row, undone as one.
            ruleset = get_ruleset(character.system)
            bought = _granted(ruleset, advancement, bought, trait, _settings(character))
            entry.trait = trait
        unit = unit_of(character)
        held = -entry.amount
        summary = f"GM approved {entry.trait_label}: {cost} {unit}"
        if held != cost:
            summary += f" ({held} {unit} were held for it)"
        _new_version(character, user, summary, advancement.without_earned(bought))
        # The request becomes the purchase (still the player's, to undo as any other).
        entry.pending = False
        entry.amount = -cost
        entry.version = character.version
        entry.adventure = character.adventure
        if why:
            entry.reason = f"{entry.reason} · GM: {why}"[:REASON_MAX]
        entry.save(update_fields=["pending", "amount", "version", "adventure", "reason", "trait"])
        return entry


def _pending(character: Character, entry_id: Any) -> LedgerEntry:
    entry = LedgerEntry.objects.filter(
        character=character, pk=_entry_pk(entry_id), pending=True
    ).first()
    if entry is None:
        raise LedgerRefused("No purchase of this character waits for consent under that number.")
    return entry


def _close(character: Character, user: AbstractBaseUser, entry: LedgerEntry, why: str):
    """End a purchase that waits without buying it: it holds nothing any more (it never
    cost anything), and a zero entry undoes it."""
    entry.pending = False
    entry.amount = 0
    entry.save(update_fields=["pending", "amount"])
    return _write(
        character,
        user,
        f"{entry.trait_label} not bought: {why}",
        kind=Kind.CORRECTION,
        amount=0,
        trait=entry.trait,
        trait_label=entry.trait_label,
        reason=why[:REASON_MAX],
        undoes=entry,
    )


def _approved_since(character: Character, entry: LedgerEntry) -> bool:
    return Review.objects.filter(
        character=character, kind=Review.Kind.APPROVED, version__gte=entry.version
    ).exists()


def undo(
    *,
    user: AbstractBaseUser,
    character_id: int,
    entry_id: Any,
    expected_version: int,
    reason: Any = "",
) -> LedgerEntry:
    """Undo one entry with a new one: a refund for a purchase, a correction otherwise.

    The player undoes their own purchase until the GM approves the sheet or the adventure
    ends; the GM (the owner off-table) undoes any entry, saying why.
    """
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        entry = (
            LedgerEntry.objects.filter(character=character, pk=_entry_pk(entry_id))
            .select_related("undone_by")
            .first()
        )
        if entry is None:
            raise LedgerRefused("No such entry in this character's ledger.")
        if hasattr(entry, "undone_by"):
            raise LedgerRefused("This entry was already undone.")
        if entry.kind == Kind.REFUND or entry.undoes_id is not None:
            raise LedgerRefused("An undo is not undone; buy or award again instead.")
        if entry.needs_acceptance and character.campaign_id is not None:
            # It does not count here yet: an undo would take the points off twice.
            raise LedgerRefused(
                "These points wait for the GM's acceptance: the GM accepts or refuses them."
            )
        if carried_over(entry):
            raise LedgerRefused(
                "This entry carries over what the sheet held before the ledger: it is not "
                "undone. Correct the balance instead, with a reason."
            )
        if _part_of_correction(entry):
            raise LedgerRefused("A GM's correction of a value is not undone: correct it again.")
        as_gm = may_award(access, character)
        own_purchase = entry.kind == Kind.PURCHASE and entry.author_id == user.pk
        if own_purchase and entry.adventure != character.adventure and not access.gm:
            raise LedgerRefused("That adventure has ended: ask the GM to undo this purchase.")
        if own_purchase and not access.gm and _approved_since(character, entry):
            raise LedgerRefused("The GM approved the sheet since: ask the GM to undo this.")
        if not own_purchase and not as_gm:
            raise LedgerRefused("Only the GM undoes someone else's entry or an award.")
        why = _reason(reason, required=not own_purchase)
        if entry.pending:
            # A purchase that waits for consent was never charged: withdrawing it (or the
            # GM refusing it here) only closes it.
            return _close(character, user, entry, why or "Withdrawn")
        if entry.kind == Kind.PURCHASE:
            return _refund(character, user, entry, why)
        known = figures(character)
        if known.balance - entry.amount < 0:
            raise LedgerRefused(
                f"Undoing this would leave {known.balance - entry.amount} {entry.unit}: undo "
                f"the purchases it paid for first.{_held_note(character, known)}"
            )
        return _write(
            character,
            user,
            f"Undid {entry.get_kind_display().lower()} of {entry.amount} {entry.unit}: {why}",
            kind=Kind.CORRECTION,
            amount=-entry.amount,
            reason=why,
            undoes=entry,
        )


def _part_of_correction(entry: LedgerEntry) -> bool:
    """Whether the entry is one of the two lines of a GM's correction of a value."""
    if not entry.trait or entry.trait == CARRIED_TRAIT or entry.pending:
        return False
    if entry.kind == Kind.CORRECTION:
        return True
    return LedgerEntry.objects.filter(
        character_id=entry.character_id,
        version=entry.version,
        kind=Kind.CORRECTION,
        trait=entry.trait,
    ).exists()


def undoable(entries: list[LedgerEntry], *, at_table: bool = False) -> set[int]:
    """The entries an Undo button is offered for (who may press it is the page's and the
    service's business): not undone, not an undo, not part of a value's correction, and
    at a table not points that wait for the GM's acceptance (accepted or refused instead)."""
    twins = {
        (e.version, e.trait)
        for e in entries
        if e.kind == Kind.CORRECTION and e.trait and e.trait != CARRIED_TRAIT and not e.undoes_id
    }
    return {
        e.pk
        for e in entries
        if not hasattr(e, "undone_by")
        and e.undoes_id is None
        and e.kind != Kind.REFUND
        and not carried_over(e)
        and not (at_table and e.needs_acceptance)
        and (e.pending or (e.version, e.trait) not in twins)
    }


def correctable(character: Character) -> list[tuple[str, str]]:
    """The values a GM may correct in play, as (trait, "Label (now)") in sheet order."""
    if character.sheet.get("stage") != Stage.PLAY:
        return []
    ruleset = get_ruleset(character.system)
    rows = ruleset.trait_rows(engine_sheet(character), _settings(character))
    return [
        (row.key, f"{row.label} ({shown(row)})")
        for row in rows
        if row.kind in RAISABLE_KINDS
        and row.kind is not RowKind.FLAG
        and not ledger_trait(character.system, row.key, Stage.PLAY)
    ]


def _entry_pk(raw: Any) -> int:
    try:
        return parse_whole("entry", raw, label="The entry", minimum=1, maximum=2**62)
    except InvalidEdit:
        raise LedgerRefused("No such entry in this character's ledger.") from None


def _refund(character: Character, user: AbstractBaseUser, entry: LedgerEntry, why: str):
    if entry.trait.startswith(GEAR_TRAIT):
        return _gear_refund(character, user, entry, why)
    trained = Training.objects.filter(entry=entry).first()
    # A raise undone is no longer trained for.
    Training.objects.filter(entry=entry, finished=False).update(
        finished=True, note="Its purchase was undone"
    )
    if trained is not None and trained.waiting:
        return _refund_in_training(character, user, entry, why)
    if entry.unchanged:
        # A failed improvement roll changed no value: only what it kept comes back (the
        # rest came back when its training ended and the roll was made).
        kept = -entry.amount - (trained.refunded if trained is not None else 0)
        return _write_refund(
            character,
            user,
            entry,
            f"Undid {entry.trait_label} {entry.from_value} (the roll failed): "
            f"{kept} {entry.unit} back",
            amount=kept,
            reason=why or "Undone",
        )
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    settings = _settings(character)
    sheet = advancement.with_ledger(character.sheet, figures(character))
    rows = {r.key: r for r in ruleset.trait_rows(sheet, settings)}
    row = rows.get(entry.trait)
    # A purchase without a row of its own (a WEG Force power) says how it shows.
    now = shown(row) if row is not None else advancement.shown_without_row(sheet, entry.trait)
    if not now or now != entry.to_value:
        raise LedgerRefused(
            f"{entry.trait_label} is {now or 'gone'} now, not {entry.to_value}: undo the "
            "later purchases first."
        )
    old = 0
    if row is not None:
        old = _value_before(ruleset, advancement, sheet, entry, _row_value(row), settings)
    with _refusal_at():
        for trait, raw in advancement.undo_edits(sheet, entry.trait, old):
            sheet = ruleset.apply_edit(sheet, trait, raw, settings)
    sheet = advancement.forget_purchase(sheet, entry.trait)
    return _write_refund(
        character,
        user,
        entry,
        f"Undid {entry.trait_label} {entry.from_value} → {entry.to_value}: "
        f"{-entry.amount} {entry.unit} back",
        sheet=advancement.without_earned(sheet),
        reason=why or "Undone",
    )


def _refund_in_training(
    character: Character, user: AbstractBaseUser, entry: LedgerEntry, why: str
) -> LedgerEntry:
    """Undo a purchase whose raise still trains: every point back, the training gone, and
    the sheet's values as they are (the raise never reached them); it only leaves the
    adventure's window, so the trait may be bought again."""
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    settings = _settings(character)
    sheet = advancement.with_ledger(character.sheet, figures(character))
    now = _value_now(character, entry.trait)
    sheet = _forgotten(ruleset, advancement, sheet, entry.trait, settings, field="")
    return _write_refund(
        character,
        user,
        entry,
        f"Undid {entry.trait_label} {entry.from_value} → {entry.to_value} while in training: "
        f"{-entry.amount} {entry.unit} back, {now} as it is",
        sheet=advancement.without_earned(sheet),
        reason=why or "Undone while in training",
        from_value=now,
        to_value=now,
    )


def _value_now(character: Character, trait: str) -> str:
    """`trait` as the sheet shows it now. An undone raise still in training leaves the
    value there, the purchase's starting value or what a GM's correction made it meanwhile
    (the raise it overtook never reaches the sheet): its line says so, from and to."""
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    sheet = advancement.with_ledger(character.sheet, figures(character))
    row = next((r for r in ruleset.trait_rows(sheet, _settings(character)) if r.key == trait), None)
    return shown(row) if row is not None else advancement.shown_without_row(sheet, trait)


def _write_refund(
    character: Character, user: AbstractBaseUser, entry: LedgerEntry, summary: str, **line: Any
) -> LedgerEntry:
    """The line that undoes the purchase `entry`: all it paid back unless `line` names
    another amount, its trait from what it bought to what it was."""
    undone = {"kind": Kind.REFUND, "amount": -entry.amount, "undoes": entry} | _reversed(entry)
    return _write(character, user, summary, **(undone | line))


def _reversed(entry: LedgerEntry) -> dict:
    """A line that takes back `entry`'s raise: its trait, from the value it bought to the
    value it was."""
    return {
        "trait": entry.trait,
        "trait_label": entry.trait_label,
        "from_value": entry.to_value,
        "to_value": entry.from_value,
    }


def _value_before(ruleset, advancement, sheet, entry, now: int, settings) -> int:
    """The stored value the purchase started from: the step below now that shows as
    `from_value` (a WEG Force skill goes 1D → 0D, everything else one step)."""
    for candidate in range(now - 1, max(-1, now - 4), -1):
        try:
            trial = sheet
            for trait, raw in advancement.undo_edits(sheet, entry.trait, candidate):
                trial = ruleset.apply_edit(trial, trait, raw, settings)
        except InvalidEdit:
            continue
        rows = {r.key: r for r in ruleset.trait_rows(trial, settings)}
        row = rows.get(entry.trait)
        if row is not None and shown(row) == entry.from_value:
            return candidate
    return now - 1


# --- points from elsewhere, accepted by the table's GM (issue 25, item 3) ------------------


def _from_elsewhere(character: Character, campaign_id: int) -> QuerySet[LedgerEntry]:
    """The entries that gave points the table `campaign_id` never saw given: income not
    written at that table (awarded off-table or at another table, carried over when
    creation ended elsewhere, read from an imported file) and not accepted by its GM
    before. An award undone since, and its undo, cancel out: nothing to ask about."""
    return (
        LedgerEntry.objects.filter(
            character=character,
            kind__in=INCOME,
            amount__gt=0,
            undoes__isnull=True,
            undone_by__isnull=True,
        )
        .exclude(campaign_id=campaign_id)
        .exclude(accepted_in_id=campaign_id)
    )


def mark_origins(character: Character) -> int:
    """When a sheet joins (or rejoins) a table, mark what waits for its GM's acceptance:
    the points from elsewhere (`_from_elsewhere`), which count there only once accepted.
    Returns how many points wait.

    Called by `character_bring` inside its transaction, holding the character's row lock,
    with the character's campaign already set. The marks of an earlier table are redone:
    another table's GM accepted for their own table only."""
    for name in KEPT_FIGURES:
        character.__dict__.pop(name, None)
    waiting = _from_elsewhere(character, character.campaign_id)
    LedgerEntry.objects.filter(character=character, needs_acceptance=True).exclude(
        pk__in=waiting.values("pk")
    ).update(needs_acceptance=False)
    waiting.update(needs_acceptance=True)
    return sum(waiting.values_list("amount", flat=True))


def waiting_entries(character: Character) -> QuerySet[LedgerEntry]:
    """What waits for the GM of the character's table, oldest first (none off-table)."""
    if character.campaign_id is None:
        return LedgerEntry.objects.none()
    return LedgerEntry.objects.filter(
        character=character, needs_acceptance=True, kind__in=INCOME
    ).order_by("created_at", "pk")


def origin_of(entry: LedgerEntry) -> str:
    """Where the points of an entry from elsewhere came from, in the GM's words."""
    if entry.imported:
        return "from an imported file"
    if entry.campaign_id is not None:
        return "from another table"
    if entry.trait == CARRIED_TRAIT or entry.carried:
        return "carried over off-table"
    return "awarded off-table"


def _waiting_picked(character: Character, entry_id: Any) -> list[LedgerEntry]:
    """The waiting entries a GM's decision names: one by its number, or every one ("all",
    maybe none)."""
    waiting = waiting_entries(character)
    if str(entry_id or "").strip() == "all":
        return list(waiting)
    picked = list(waiting.filter(pk=_entry_pk(entry_id)))
    if not picked:
        raise LedgerRefused(
            "No points of this character wait for your acceptance under that number: "
            "look at the ledger again.",
            "origin",
        )
    return picked


def accept_origins(
    *,
    user: AbstractBaseUser,
    character_id: int,
    expected_version: int,
    entry_id: Any = "all",
    reason: Any = "",
) -> list[LedgerEntry]:
    """The table's GM accepts points from elsewhere (one entry, or `"all"`): from now on
    they count at this table, and bringing the sheet back here asks no more.

    Only a GM of the character's table (`Need.GM`); off-table nothing waits."""
    why = _reason(reason, required=False)
    with transaction.atomic():
        character, _access = _lock(user, character_id, Need.GM, expected_version)
        picked = _waiting_picked(character, entry_id)
        if not picked:
            # Everything that waited is accepted already: nothing to write.
            return []
        unit = unit_of(character)
        total = sum(entry.amount for entry in picked)
        summary = f"GM accepted {total} {unit} from elsewhere"
        _new_version(character, user, f"{summary}: {why}" if why else summary)
        for entry in picked:
            entry.needs_acceptance = False
            entry.accepted_in_id = character.campaign_id
        LedgerEntry.objects.bulk_update(picked, ["needs_acceptance", "accepted_in"])
        for name in KEPT_FIGURES:
            character.__dict__.pop(name, None)
        return picked


def refuse_origin(
    *,
    user: AbstractBaseUser,
    character_id: int,
    entry_id: Any,
    expected_version: int,
    reason: Any,
) -> LedgerEntry:
    """The table's GM refuses points from elsewhere, saying why: a correction undoes the
    entry, so they are gone for good, here and wherever the sheet goes next (taking it off
    the table does not bring them back). At this table the balance does not move: they
    never counted here."""
    why = _reason(reason, required=True)
    with transaction.atomic():
        character, _access = _lock(user, character_id, Need.GM, expected_version)
        if str(entry_id or "").strip() == "all":
            raise LedgerRefused("Refuse one entry at a time, each with its reason.", "origin")
        (entry,) = _waiting_picked(character, entry_id)
        entry.needs_acceptance = False
        entry.save(update_fields=["needs_acceptance"])
        return _write(
            character,
            user,
            f"GM refused {entry.amount} {entry.unit} {origin_of(entry)}: {why}",
            kind=Kind.CORRECTION,
            amount=-entry.amount,
            trait=entry.trait if entry.trait == CARRIED_TRAIT else "",
            trait_label=entry.trait_label,
            reason=f"Refused at this table: {why}"[:REASON_MAX],
            undoes=entry,
        )


# --- stage and adventures -----------------------------------------------------------------


def creation_left_over(character: Character, finished: dict, user: AbstractBaseUser) -> dict:
    """When creation ends, write what it leaves to the ledger and clear it from the sheet.

    Called by the edit service inside its transaction, after the version bump. A sheet
    finished a second time only adds the difference to what was carried before.
    """
    advancement = advancement_for(character.system)
    carried = advancement.carried_at_finish(finished, _settings(character))
    delta = carried - figures(character).carried
    if delta:
        _entry_for(
            character,
            user,
            advancement.unit(finished),
            kind=Kind.AWARD if delta > 0 else Kind.CORRECTION,
            amount=delta,
            trait=CARRIED_TRAIT,
            trait_label="Creation",
            reason="Left over when creation ended",
            carried=True,
        )
    return advancement.without_earned(finished)


def adopt_sheet_figures(character: Character, user: AbstractBaseUser | None) -> None:
    """A sheet that arrives whole (a demo, an import, a copy) may carry XP of its own:
    write it to the ledger as entries and clear it from the sheet, as the data migration
    did for sheets stored before the ledger."""
    advancement = advancement_for(character.system)
    sheet = character.sheet
    in_play = sheet.get("stage") == Stage.PLAY
    if character.system == "weg_d6" and not in_play:
        return  # starting points reach the ledger when creation ends
    earned = advancement.stored_earned(sheet)
    # One award per award the sheet kept: O.R.E. rows keep their notes as reasons.
    found: list[dict] = [
        {"kind": Kind.AWARD, "amount": amount, "reason": note or "Came with the sheet"}
        for amount, note in advancement.stored_awards(sheet)
    ]
    if in_play and character.system != "weg_d6":
        settings = _settings(character)
        carried = advancement.carried_at_finish(sheet, settings)
        if carried > 0:
            found.append(
                {
                    "kind": Kind.AWARD,
                    "amount": carried,
                    "trait": CARRIED_TRAIT,
                    "trait_label": "Creation",
                    "reason": "Left over when creation ended",
                }
            )
        unspent = get_ruleset(character.system).status(sheet, settings).unspent
        spent = min(earned + carried - (unspent or 0), earned + carried)
        if unspent is not None and spent > 0:
            found.append(
                {"kind": Kind.PURCHASE, "amount": -spent, "reason": "Raises bought before"}
            )
    for entry in found:
        _entry_for(
            character,
            user,
            advancement.unit(sheet),
            carried=True,
            **entry,
        )
    cleared = advancement.without_earned(sheet)
    if cleared != sheet:
        character.sheet = cleared
        character.save(update_fields=["sheet"])


def end_adventure(*, user: AbstractBaseUser, campaign_id: int) -> int:
    """The GM marks the end of an adventure for the whole table: undo closes and, in WEG,
    each skill may rise a pip again. Returns how many characters moved on."""
    with transaction.atomic():
        campaign, _role = campaign_for(user, campaign_id, gm=True, for_update=True)
        characters = list(
            Character.objects.select_for_update().filter(campaign=campaign).order_by("pk")
        )
        for character in characters:
            _next_adventure(character, user)
    return len(characters)


def end_adventure_alone(*, user: AbstractBaseUser, character_id: int, expected_version: int):
    """Outside a campaign the owner marks the end of an adventure."""
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("At a table, the GM marks the end of an adventure.")
        _next_adventure(character, user)
    return character


def _next_adventure(character: Character, user: AbstractBaseUser) -> None:
    ruleset, advancement = get_ruleset(character.system), advancement_for(character.system)
    before = revision_state(character)
    sheet = character.sheet
    for trait, raw in advancement.adventure_end_edits(sheet):
        sheet = ruleset.apply_edit(sheet, trait, raw, _settings(character))
    character.sheet = sheet
    character.adventure += 1
    character.version += 1
    character.save(update_fields=["sheet", "adventure", "version", "updated_at"])
    record_revision(character, user, f"Adventure {character.adventure - 1} ended", before)


def entries(character: Character) -> QuerySet[LedgerEntry]:
    return (
        LedgerEntry.objects.filter(character=character)
        .select_related("author", "undone_by", "training")
        .order_by("-created_at", "-pk")
    )


# --- O.R.E. Willpower awards (001:L836-L842) ---------------------------------------------------

# What the award form gives: the ledger's unit, or (O.R.E. only) current Willpower.
EXPERIENCE = "xp"
WILLPOWER = "willpower"
WILLPOWER_SYSTEMS = frozenset({"ore"})


def gives_willpower(character: Character) -> bool:
    """Whether the award form offers current Willpower for this sheet: O.R.E., and not a
    droid (droids have none, L764)."""
    if character.system not in WILLPOWER_SYSTEMS:
        return False
    return ore_rules.current_willpower(character.sheet, _settings(character)) is not None


def willpower_choices() -> tuple[tuple[str, str, str], ...]:
    """The Willpower awards the form offers: key, label, seed line."""
    return tuple((a.key, a.label, a.source) for a in ore_awards.WILLPOWER_AWARDS)


def award_willpower(
    *,
    user: AbstractBaseUser,
    character_id: int,
    award: Any,
    cool: Any,
    command: Any,
    reason: Any,
    expected_version: int | None = None,
) -> Character:
    """Give current Willpower for a critical action (L840: an important goal; L842: a life
    saved or a major enemy defeated, the subject's Cool and Command dice), which may carry it
    above base (L838): the GM, or the owner off-table.

    An award of Willpower is no experience: it is an edit of the sheet with the reason in
    the revision, and no ledger entry, whose sums have one unit per character (XP). Like a
    GM's correction of a value it is the GM's to make, so the player-owned Willpower row
    does not stop it. LedgerRefused names the field at fault; nothing is written then.
    """
    why = _reason(reason, required=True)
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("At a table, only the GM awards Willpower.", "award")
        if character.system not in WILLPOWER_SYSTEMS:
            raise LedgerRefused("Only Star O.R.E. sheets have Willpower awards.", "what")
        settings = _settings(character)
        ruleset = get_ruleset(character.system)
        kind = str(award or "")[:40]
        try:
            points = ore_awards.willpower_award(kind, cool=cool, command=command)
            sheet = character.sheet
            for trait, raw in ore_awards.award_edits(sheet, settings, points).items():
                sheet = ruleset.apply_edit(sheet, trait, raw, settings)
        except InvalidEdit as refused:
            raise LedgerRefused(refused.message, refused.trait) from None
        label = ore_awards.AWARD_BY_KEY[kind].label
        _new_version(character, user, f"Willpower award +{points} ({label}): {why}", sheet)
        return character


# --- WEG Dark Side: the GM's calls (003:1708-1730, 002:823-827) ---------------------------------

DARK_SIDE_ACTIONS = {
    "gain": "A Dark Side Point for an evil act",
    "atone": "Atonement: a Force Point spent for a Dark Side Point",
    "redeem": "Redemption: back to the light",
}


def dark_side_actions(character: Character) -> list[tuple[str, str, str]]:
    """The Dark Side actions the GM panel offers this sheet: key, label, seed lines."""
    if character.system != "weg_d6" or character.sheet.get("kind") == "droid":
        return []
    offered = [("gain", DARK_SIDE_ACTIONS["gain"], "003:1708-1722")]
    offered.append(("atone", DARK_SIDE_ACTIONS["atone"], weg_darkside.ATONE_SOURCE))
    if character.sheet.get("edition") == "2e_re":
        offered.append(("redeem", DARK_SIDE_ACTIONS["redeem"], weg_darkside.REDEEM_SOURCE))
    return offered


def dark_side(
    *,
    user: AbstractBaseUser,
    character_id: int,
    action: Any,
    reason: Any,
    expected_version: int | None = None,
    rng: random.Random | None = None,
) -> Character:
    """The GM's Dark Side decisions on a WEG sheet, with a reason in the revision:

    - gain: a Dark Side Point for an evil act (003:1714, 003:1722), then the GM's 1D against
      the points held (003:1708), rolled on the server and written in the table's roll log;
    - atone: a Force Point spent for a Dark Side Point, once an adventure, the Force Point
      back at its end (003:1724-1730); the GM judges whether the character truly atones;
    - redeem (R&E): every Force Point and Character Point lost, the Dark Side Points down to
      five (002:827; fewer kept under the default reading); the Character Points leave the
      ledger as one entry.
    """
    why = _reason(reason, required=True)
    key = str(action or "")[:20]
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not may_award(access, character):
            raise LedgerRefused("At a table, only the GM decides this.", "dark_side")
        if key not in {k for k, _label, _source in dark_side_actions(character)}:
            raise LedgerRefused("Choose a Dark Side action this sheet has.", "dark_side")
        ruleset, settings = get_ruleset(character.system), _settings(character)
        with _refusal_at("dark_side"):
            sheet = ruleset.apply_edit(character.sheet, f"darkside.{key}", "", settings)
        label = DARK_SIDE_ACTIONS[key]
        if key == "redeem":
            balance = figures(character).balance
            if balance > 0:
                # 002:827: the Character Points go too; the ledger holds them in play.
                _entry_for(
                    character,
                    user,
                    unit_of(character),
                    # The version the Dark Side's call is about to write.
                    version=character.version + 1,
                    kind=Kind.CORRECTION,
                    amount=-balance,
                    reason=f"Redemption (002:827): {why}"[:REASON_MAX],
                )
        _new_version(character, user, f"{label}: {why}"[:200], sheet)
        if key == "gain":
            rolled = _consumption_roll(character, user, sheet, rng or dice_random())
            if rolled.facts["consumed"] and character.campaign_id is not None:
                _consumed(character, user, rolled, why)
        return character


def _consumed(character: Character, user, rolled: RollEntry, why: str) -> None:
    """003:1708-1710: the character goes to the GM as an NPC (sheets/npcs)."""
    try:
        pass_to_gm(character=character, gm=user, why=why, rolled=rolled)
    except NpcRefused as refused:
        raise LedgerRefused(" ".join(refused.errors.values()), "dark_side") from None


def _consumption_roll(character: Character, user, sheet: dict, rng: random.Random) -> RollEntry:
    """The GM's 1D on a Dark Side Point gained (003:1708), in the table's roll log."""
    held = sheet["points"]["dark_side"]
    die = rng.randint(1, 6)
    lost = weg_darkside.consumed(die, held)
    chance = 1 - weg_darkside.consumption_chance(held)
    verdict = "consumed by the Dark Side" if lost else "not consumed"
    roll_logged(character.campaign_id, character.pk)  # to the log's open pages, on commit
    return RollEntry.objects.create(
        campaign_id=character.campaign_id,
        character=character,
        author=user,
        system=character.system,
        rollable_key="darkside.consumed",
        rollable_label="The Dark Side's pull",
        pool=f"1D against {held} Dark Side Points",
        options={},
        dice=[die],
        kept=f"{die} against {held}",
        outcome=verdict,
        summary=f"The Dark Side's pull: {die} against {held} ({verdict})"[:300],
        details=["1D at most the Dark Side Points held consumes the character (003:1708)"],
        total=die,
        success=not lost,
        odds=f"{chance.numerator}/{chance.denominator}",
        odds_percent=percent_text(chance),
        question=f"1D above {held}: not consumed"[:200],
        facts={"consumed": lost, "dark_side_points": held},
    )


# --- WEG gear: a weapon's damage or an armor code, a pip at a time (003:1006-1070, 002:259-414) --

# The ledger's traits of gear purchases: "gear.weapon.<row>", "gear.armor.<line>.<part>[.dex]".
GEAR_TRAIT = ("gear.weapon.", "gear.armor.")


def _gear_bought(character: Character) -> dict[str, int]:
    """Pips bought and kept on each piece of armor, by its trait after "gear." (counted from
    the ledger: an armor line keeps no stock code of its own, 003:1064)."""
    counts: dict[str, int] = {}
    for trait in (
        entries(character)
        .filter(kind=Kind.PURCHASE, trait__startswith=GEAR_TRAIT[1], unchanged=False)
        .exclude(undone_by__isnull=False)
        .values_list("trait", flat=True)
    ):
        key = trait.removeprefix("gear.")
        counts[key] = counts.get(key, 0) + 1
    return counts


def gear_steps(character: Character) -> list:
    """What the owner may improve now: each weapon's next damage pip, each armor code's."""
    if character.system != "weg_d6" or character.sheet.get("stage") != Stage.PLAY:
        return []
    sheet, settings = character.sheet, _settings(character)
    steps = weg_gear.weapon_steps(sheet) + weg_gear.armor_steps(
        sheet, _gear_bought(character), settings
    )
    return [replace(step, waiting=_rolled_this_month(character, step, settings)) for step in steps]


def _gear_step(character: Character, chosen: str, value: Any, worker: Any, settings: dict):
    """The step the form names: a weapon row's number, or an armor step's key."""
    sheet = character.sheet
    if chosen.startswith("armor."):
        parts = chosen.split(".")
        if len(parts) not in (3, 4) or not parts[1].isdigit() or len(parts[1]) > 3:
            raise InvalidEdit("weapon", "Choose one of the sheet's armor codes.")
        keep = len(parts) == 4 and parts[3] == "dex"
        if len(parts) == 4 and not keep:
            raise InvalidEdit("weapon", "Choose one of the sheet's armor codes.")
        line, part = int(parts[1]), parts[2]
        bought = _gear_bought(character)
        done = bought.get(f"armor.{line}.{part}", 0)
        back = bought.get(f"armor.{line}.{part}.dex", 0)
        worth = 0
        if sheet["edition"] != "1e":
            worth = parse_whole("value", value, label="The armor's value", minimum=1, maximum=10**7)
        return weg_gear.armor_step(
            sheet, line, part, already=done + back, bought_back=back, keep_dexterity=keep,
            value=worth, worker=str(worker or "self")[:20], settings=settings,
        )  # fmt: skip
    index = int(chosen) if chosen.isascii() and chosen.isdigit() and len(chosen) < 4 else -1
    if sheet["edition"] == "1e":
        return weg_gear.weapon_step(sheet, index)
    # R&E: a share of the weapon's original value (002:262-266).
    worth = parse_whole("value", value, label="The weapon's value", minimum=1, maximum=10**7)
    return weg_gear.modification_step(sheet, index, worth, str(worker or "self")[:20])


def _rolled_this_month(character: Character, step, settings: dict) -> bool:
    """R&E: whether this item already had its modification roll this month (002:266). Datapad
    keeps no game calendar: under the default reading a month has passed once the GM ends
    the adventure, so one roll per item per adventure; an undone purchase never counted."""
    if character.sheet["edition"] == "1e" or settings[weg_gear.MONTH_READING] == "off":
        return False
    if step.kind == "armor":
        same = {"trait__startswith": f"gear.armor.{step.index}."}
    else:
        same = {"trait": f"gear.weapon.{step.index}"}
    return (
        entries(character)
        .filter(kind=Kind.PURCHASE, adventure=character.adventure, **same)
        .exclude(undone_by__isnull=False)
        .exists()
    )


def improve_gear(
    *,
    user: AbstractBaseUser,
    character_id: int,
    weapon: Any,
    expected_version: int,
    value: Any = "",
    worker: Any = "self",
    rng: random.Random | None = None,
) -> LedgerEntry:
    """Buy the next pip of a weapon's damage or of an armor code (`weapon`: the weapon row's
    number, or an armor step's key "armor.<line>.<part>[.dex]").

    1E: skill points as for a skill of that code (+3 a pip for armor, an additive code, and
    the Dexterity pip bought back with it when asked, 003:1028-1040), 10 credits a point,
    then the owner's technology roll at the pip's difficulty (003:1060-1066). R&E: a share
    of the item's value, one modification roll per item a month (002:259-266; the month is
    a reading). Rolled on the server and logged with its odds. A failed roll wastes the
    points (1E) and the credits the table's reading says, and leaves the item as it was;
    either way the one entry's undo gives all back."""
    with transaction.atomic():
        character, access = _lock(user, character_id, Need.EDIT, expected_version)
        if not access.owner:
            raise LedgerRefused("Only the character's player improves its gear.", "weapon")
        if character.system != "weg_d6" or character.sheet.get("stage") != Stage.PLAY:
            raise LedgerRefused("A WEG sheet in play improves its gear here.", "weapon")
        ruleset, settings = get_ruleset(character.system), _settings(character)
        try:
            step = _gear_step(character, str(weapon or "").strip(), value, worker, settings)
        except InvalidEdit as refused:
            raise LedgerRefused(refused.message, refused.trait) from None
        if _rolled_this_month(character, step, settings):
            raise LedgerRefused(
                f"One modification roll a month for an item (002:266): {step.label} had its "
                "roll this adventure. The GM's end of the adventure marks the month passed.",
                "weapon",
            )
        known, unit = figures(character), unit_of(character)
        if step.skill_points and step.skill_points > known.balance:
            raise LedgerRefused(
                f"It costs {step.skill_points} {unit}; {known.balance} left."
                f"{_held_note(character, known)}",
                "weapon",
            )
        sheet = character.sheet
        roll_of = _technology_roll(ruleset, sheet, settings)
        # The table's Wild Die reading rolls with an R&E modification (002:424).
        options = dice_readings(settings, ruleset.DICE_READINGS) | {"difficulty": step.difficulty}
        odds = ruleset.odds(roll_of, options)
        result = ruleset.roll(roll_of, options, rng or dice_random())
        paid = step.credits
        if not result.success and sheet["edition"] != "1e":
            paid = weg_gear.failed_credits(step.credits, settings)
        with _refusal_at("weapon"):
            if step.kind == "armor":
                new = weg_gear.armor_bought(sheet, step, works=result.success, paid=paid)
            else:
                new = weg_gear.bought(sheet, step, works=result.success, paid=paid)
            sheet = ruleset.validate_sheet(new)
        trait = f"gear.{step.key}"
        roll_name = "technology" if character.sheet["edition"] == "1e" else "modification"
        roll_logged(character.campaign_id, character.pk)  # to the log's open pages, on commit
        log = RollEntry.objects.create(
            campaign_id=character.campaign_id,
            character=character,
            author=user,
            system=character.system,
            rollable_key=f"{trait}.technology"[:120],
            rollable_label=f"{step.label}: {roll_name} roll"[:200],
            pool=f"{roll_of.label} against {step.difficulty} ({step.technology})"[:120],
            options=options,
            dice=list(result.dice),
            kept=result.kept[:200],
            outcome="improved" if result.success else "failed",
            summary=f"{step.label} {step.from_damage} → {step.to_damage}: {result.summary}"[:300],
            details=list(result.details),
            total=result.total,
            success=result.success,
            odds=f"{odds.success.numerator}/{odds.success.denominator}",
            odds_percent=odds.percent,
            question=odds.question[:200],
            facts={"credits": paid, "dexterity": step.dexterity if result.success else 0},
        )
        words = "improved" if result.success else "the roll failed: nothing changes"
        dexterity = ""
        if step.kind == "armor" and sheet["edition"] == "1e" and result.success:
            dexterity = (
                "; Dexterity kept (bought back)" if step.keeps_dexterity else "; Dexterity −1 pip"
            )
        return _write(
            character,
            user,
            f"{step.label} {step.from_damage} → {step.to_damage}: {step.skill_points} {unit} "
            f"and {paid} credits, {words}{dexterity}"[:200],
            sheet=sheet,
            kind=Kind.PURCHASE,
            amount=-step.skill_points,
            trait=trait,
            trait_label=step.label[:200],
            from_value=step.from_damage,
            to_value=step.to_damage if result.success else step.from_damage,
            unchanged=not result.success,
            roll=log,
            reason=f"{paid} credits, {step.time}; roll {step.technology}: {words}{dexterity}"[
                :REASON_MAX
            ],
        )


def _technology_roll(ruleset, sheet: dict, settings: dict):
    """1E: technology, a Knowledge skill (003:1060), else Knowledge; R&E: a repair skill the
    sheet holds for blasters, else Technical (the seed names no skill for it)."""
    rollables = {r.key: r for r in ruleset.rollables(sheet, settings)}
    if sheet["edition"] == "1e":
        return rollables.get(f"skill.{weg_gear.TECHNOLOGY_SKILL}") or rollables["attr.knowledge"]
    return rollables.get("skill.blaster_repair") or rollables["attr.technical"]


def _gear_refund(character: Character, user, entry: LedgerEntry, why: str) -> LedgerEntry:
    """Undo a pip of gear: the skill points and the credits paid back, the code as before."""
    facts = entry.roll.facts if entry.roll is not None else {}
    paid = facts.get("credits")
    credits = paid if isinstance(paid, int) else -entry.amount * weg_gear.CREDITS_PER_POINT
    with _refusal_at():
        if entry.trait.startswith(GEAR_TRAIT[1]):
            _kind, line, part, *_dex = entry.trait.removeprefix("gear.").split(".")
            dexterity = facts.get("dexterity")
            sheet = weg_gear.armor_unbought(
                character.sheet,
                int(line),
                part,
                from_code=entry.from_value,
                to_code=entry.to_value,
                dexterity=dexterity if isinstance(dexterity, int) else 0,
                credits=credits,
            )
        else:
            sheet = weg_gear.unbought(
                character.sheet,
                int(entry.trait.removeprefix(GEAR_TRAIT[0])),
                from_damage=entry.from_value,
                to_damage=entry.to_value,
                credits=credits,
            )
        sheet = get_ruleset(character.system).validate_sheet(sheet)
    return _write_refund(
        character,
        user,
        entry,
        f"Undid {entry.trait_label} {entry.from_value}: {-entry.amount} {entry.unit} and "
        f"{credits} credits back",
        sheet=sheet,
        reason=why or "Undone",
    )
