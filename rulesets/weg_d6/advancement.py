"""WEG d6 advancement on the ledger: Character Points (R&E) or skill points (1E).

The sheet's `points.character` is the unspent balance; in play the ledger keeps it, so it
is stored as 0 and the ledger's balance is laid over a copy whenever the engine prices,
pays or checks. A purchase goes through the engine's own paid raise (`advance.<trait>`),
which applies the one-pip rule between adventures (002:39), the doubled price of a Force
skill without a teacher and the attribute rule of the edition in force.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from rulesets.core import InvalidEdit, Stage, resolve_settings
from rulesets.core import ledger as plain
from rulesets.core.ledger import LedgerFigures
from rulesets.core.parsing import parse_code
from rulesets.weg_d6 import costs, force, training, traits
from rulesets.weg_d6.data import CURRENCY, EDITION_RE, FORCE_SKILL_LABELS, MAX_CODE_PIPS
from rulesets.weg_d6.edits import apply_edit
from rulesets.weg_d6.settings import SETTINGS

# The plain answers, shared with the other systems (rulesets/core/ledger.py).
consent_choices = plain.consent_choices


LEDGER_TRAITS: tuple[str, ...] = ()
# What a plain edit may no longer set in play: the ledger pays for raises.
PLAY_LEDGER_TRAITS = ("points.character", "advance.*", "interval.*", "power.add", "power.undo")
# The engine's own paid raises (the sheet's "Advance to" buttons, a power learned in
# play): the edit service runs them on the ledger, which pays what the engine charges.
PAID_EDITS = ("advance.*",)
CONSENT_TRAITS: tuple[str, ...] = ()
# Whether a purchase must say why in the story.
REASON_REQUIRED = False


def unit(sheet: Mapping[str, Any]) -> str:
    return CURRENCY[sheet["edition"]][0]


def stored_earned(sheet: Mapping[str, Any]) -> int:
    """The points a sheet written before the ledger kept unspent."""
    return int(sheet.get("points", {}).get("character", 0) or 0)


def stored_awards(sheet: Mapping[str, Any]) -> list[tuple[int, str]]:
    """What the sheet kept as earned, as awards with their notes (it keeps no notes)."""
    earned = stored_earned(sheet)
    return [(earned, "")] if earned > 0 else []


def without_earned(sheet: Mapping[str, Any]) -> dict:
    new = copy.deepcopy(dict(sheet))
    if "points" in new:
        new["points"]["character"] = 0
    return new


def with_ledger(sheet: Mapping[str, Any], figures: LedgerFigures) -> dict:
    """In play, a copy holding the ledger's balance as the points left to spend; during
    creation the sheet's own starting points are still the player's to set."""
    if sheet.get("stage") != "play":
        return dict(sheet)
    # Only the part that changes is copied: engines never change the sheet they are given.
    return dict(sheet) | {"points": dict(sheet["points"], character=figures.balance)}


def carried_at_finish(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    """The starting Character Points, which the character keeps into play (002)."""
    return stored_earned(sheet)


def next_value(sheet: Mapping[str, Any], trait: str, current: int) -> int:
    return costs.next_step_value(sheet, trait)


def purchase_edit(sheet: Mapping[str, Any], trait: str, new_value: int) -> tuple[str, str]:
    """The engine's paid raise: it checks the one-pip rule and pays from the points."""
    if trait == "force.sensitive":
        return "advance.force.sensitive", "yes"
    if trait == "move":
        return "advance.move", str(new_value)
    return f"advance.{trait}", traits.code_text(new_value)


def paid(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, int]:
    """What a paid edit bought and what it cost: the engine records each paid raise in
    the adventure's window (`interval`) and takes its price from the points."""
    step = after["interval"][-1]
    return step["trait"], before["points"]["character"] - after["points"]["character"]


def shown_without_row(sheet: Mapping[str, Any], trait: str) -> str:
    """A Force power has no row of its own: it is learned or not."""
    kind, _, slug = trait.partition(".")
    if kind != "power":
        return ""
    return "learned" if slug in sheet["force"]["powers"] else "not learned"


def undo_edits(sheet: Mapping[str, Any], trait: str, old_value: int) -> list[tuple[str, str]]:
    """The edits that take a purchase back; InvalidEdit when it cannot be taken back yet.

    The purchase leaves the one-pip window first: a power learned this adventure is
    dropped on the sheet only once it is no longer held as such (edits.py). Forgetting a
    power gives back the picks it used, and lowering a Force skill takes back the unused
    pick its raise brought. A raise whose pick already taught a power waits for that power
    to be undone first, as any later purchase does: the power would otherwise stay, owed
    by a raise that no longer exists (force.py).
    """
    leave_window = ("interval.forget", trait)
    if trait.startswith("power."):
        return [leave_window, ("power.undo", trait.partition(".")[2])]
    if trait in costs.FORCE_SKILL_TRAITS:
        _refuse_while_a_power_holds_the_pick(sheet, trait)
    if trait == "force.sensitive":
        _refuse_while_the_force_is_used(sheet)
        return [leave_window, ("force.sensitive", "no")]
    if trait == "move":
        return [leave_window, ("move", str(old_value))]
    return [leave_window, (trait, traits.code_text(old_value))]


def _refuse_while_the_force_is_used(sheet: Mapping[str, Any]) -> None:
    """Force skills and powers rest on the sensitivity (002:796): undone first, as any later
    purchase is, or they would stay on a sheet that can no longer have them."""
    learned = [label for skill, label in FORCE_SKILL_LABELS.items() if sheet["force"][skill]]
    if sheet["force"]["powers"]:
        learned.append("the powers")
    if learned:
        raise InvalidEdit(
            "force.sensitive",
            f"Undo {', '.join(learned)} first: they rest on being Force-sensitive.",
        )


def _refuse_while_a_power_holds_the_pick(sheet: Mapping[str, Any], trait: str) -> None:
    skill = trait.partition(".")[2]
    if skill in sheet["force"]["power_picks"]:
        return  # an unused pick of this skill goes back with the raise
    names = [traits.power_label(sheet, slug) for slug in force.powers_holding_a_pick(sheet, skill)]
    if not names:
        return
    if len(names) == 1:
        taught, first = names[0], names[0]
    else:
        taught, first = f"one of {', '.join(names[:-1])} and {names[-1]}", "one of them"
    raise InvalidEdit(
        trait,
        f"This {FORCE_SKILL_LABELS[skill]} raise taught {taught} free (002:800): "
        f"undo {first} first.",
    )


# The undo edits already took the refunded purchase out of the one-pip window.
forget_purchase = plain.forget_purchase


def plain_play_refusals(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, str]:
    """What a plain sheet edit in play may not do besides raising (the edit service asks,
    for the player's edits only: the GM corrects on the ledger), keyed by the trait.

    An R&E Force skill does not go down: every pip bought owes a power (002:800), so a pip
    lowered and bought again would teach a second one for the price of a pip, and a pip
    whose pick taught a power would leave that power owed by nothing. Its purchase is
    undone on the ledger (the points come back) or the GM corrects it (force.py).
    """
    if before.get("stage") != Stage.PLAY or after.get("stage") != Stage.PLAY:
        return {}
    if before["edition"] != after["edition"]:
        # Everything bought so far was priced by the edition's rules: switched in play, a
        # player could learn 1E powers free with a teacher and switch back.
        return {
            "info.edition": "In play the edition stays as the sheet was made: the GM sends "
            "the sheet back to creation to change it."
        }
    if EDITION_RE not in (before["edition"], after["edition"]):
        return {}
    return {
        f"force.{skill}": (
            f"In play, {label} goes down only by undoing its purchase on the Advancement "
            "page or by the GM's correction: each pip bought owes a power (002:800)."
        )
        for skill, label in FORCE_SKILL_LABELS.items()
        if after["force"][skill] < before["force"][skill]
    }


def adventure_end_edits(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A new adventure opens a new window for the one-pip rule (002:39), sets the Dark Side's
    difficulty back to 6 (003:1702) and returns the Force Point spent atoning (003:1730)."""
    ends = [("interval.close", "")]
    if sheet.get("dark_side"):
        ends.append(("darkside.adventure_end", ""))
    return ends


def needs_teacher(trait: str) -> bool:
    """Force skills cost double without a teacher; the teacher's name is recorded."""
    return trait in costs.FORCE_SKILL_TRAITS


def improvement_roll(
    sheet: Mapping[str, Any],
    trait: str,
    new_value: int,
    cost: int,
    settings: Mapping[str, Any],
    rng: random.Random,
) -> costs.AttributeRoll | None:
    """The roll an attribute purchase makes (002:53): the new code against the GM's roll of
    the species maximum, with the table's Wild Die in R&E; None when the purchase rolls
    nothing (not an attribute, or 1E under the reading without the roll)."""
    if not costs.attribute_roll_applies(sheet, trait, settings):
        return None
    species_max = traits.species_of(sheet).maximum[trait.partition(".")[2]]
    readings = resolve_settings(SETTINGS, settings) if sheet["edition"] == EDITION_RE else None
    return costs.roll_attribute_improvement(new_value, species_max, cost, rng, readings)


def improvement_words(sheet: Mapping[str, Any], trait: str, rolled: costs.AttributeRoll) -> str:
    """The roll in the ledger's words: "rolled 14 against the GM's 11 (species maximum 4D):
    no increase, 15 CP back"."""
    species_max = traits.species_of(sheet).maximum[trait.partition(".")[2]]
    head = (
        f"rolled {rolled.character_total} against the GM's {rolled.gm_total} (species "
        f"maximum {traits.code_text(species_max)})"
    )
    if rolled.improved:
        return f"{head}: improved"
    return f"{head}: no increase, {rolled.refund} {unit(sheet)} back"


def training_of(
    sheet: Mapping[str, Any],
    trait: str,
    points: int,
    settings: Mapping[str, Any],
    *,
    taught: bool,
    used_last_adventure: bool = False,
    extra: int = 0,
) -> training.Training | None:
    """The training a purchase of `trait` for `points` needs (None when it needs none);
    InvalidEdit when the extra points asked to shorten it are refused."""
    rule = training.rule_for(sheet, trait, settings)
    return training.training_for(
        rule,
        points,
        taught=taught,
        used_last_adventure=used_last_adventure,
        extra=extra,
        settings=settings,
    )


# The GM's cut of a training under way (the ledger keeps its length and minimum).
cut_training = training.cut_short
# Whether a raise that trains waits for its training's end (the reading `training_counts`).
raise_waits = training.raise_waits


def while_training(before: Mapping[str, Any], bought: Mapping[str, Any]) -> dict:
    """The sheet a purchase leaves while its raise trains: the values as they were, with
    the raise in the adventure's window (`interval`), so the one-pip rule (002:39) counts it
    from the day it is paid. The raise itself comes with the training's end (`trained`)."""
    held = copy.deepcopy(dict(before))
    held["interval"] = copy.deepcopy(bought["interval"])
    return held


def trained(
    sheet: Mapping[str, Any], trait: str, new_value: int, settings: Mapping[str, Any]
) -> dict:
    """The sheet once the training of a paid raise of `trait` to `new_value` ends: the
    engine's own paid raise, so whatever comes with it comes now (an R&E Force skill's
    power pick, 002:800; a 1E skill's first powers, 003:1778).

    What the purchase checked and paid is not asked again: its place in the window, its
    price and its teacher. The window and the points stay as they are. InvalidEdit when the
    raise no longer fits the sheet (a GM's correction moved the value meanwhile)."""
    trial = copy.deepcopy(dict(sheet))
    window = trial["interval"]
    forgotten = [dict(step) for step in window]
    for index in range(len(forgotten) - 1, -1, -1):
        if forgotten[index]["trait"] == trait:
            del forgotten[index]
            break
    trial["interval"] = forgotten
    # Enough to pay any raise: the ledger paid it already.
    trial["points"] = dict(trial["points"], character=10**6)
    trial["teacher"] = dict(
        trial["teacher"], present=True, **{skill: MAX_CODE_PIPS for skill in FORCE_SKILL_LABELS}
    )
    edit, raw = purchase_edit(trial, trait, new_value)
    raised = apply_edit(trial, edit, raw, settings)
    raised["interval"] = window
    raised["points"] = copy.deepcopy(sheet["points"])
    raised["teacher"] = copy.deepcopy(sheet["teacher"])
    return raised


def forget_edits(trait: str) -> list[tuple[str, str]]:
    """The edits that take back a raise still in training, or one its improvement roll
    refused: it only leaves the window, since it never reached the sheet's values."""
    return [("interval.forget", trait)]


def training_offer(
    sheet: Mapping[str, Any], trait: str, points: int, settings: Mapping[str, Any]
) -> str:
    """What a raise's training would be, for the price list: "Trains 4 days taught, 8 alone;
    1 day less per extra point, at least 1 day (002:43)" ("" when it needs none)."""
    rule = training.rule_for(sheet, trait, settings)
    if rule is None:
        return ""
    taught = training.training_for(rule, points, taught=True, settings=settings)
    alone = training.training_for(rule, points, taught=False, settings=settings)
    if taught is None or alone is None:
        return ""
    # Short: it stands under the price of every row of the price list.
    both = f"{taught.length} taught, {alone.length} alone"
    words = taught.length if rule.fixed else both
    if rule.waived_if_used:
        words += "; none if used last adventure"
    if rule.shortened_by_points:
        step = training.length_words(rule.cut_per_point * training.DAYS_IN[rule.unit], rule.unit)
        least = training.length_words(taught.minimum_days, taught.unit)
        words += f"; {step} less per extra point, at least {least}"
    return f"Trains {words} ({rule.source})"


def taught_by(
    sheet: Mapping[str, Any],
    trait: str,
    name: str,
    given: Mapping[str, Any],
    settings: Mapping[str, Any],
) -> tuple[dict, str]:
    """A raise taught by `name`: in 1E a Force skill's teacher must have the codes the seed
    asks (003:1756-1774), given with the purchase or kept on the sheet. Returns the sheet
    to price the raise with (the teacher's codes decide a doubled price, 003:1772) and the
    teacher as the ledger keeps them, with the code that taught; InvalidEdit (trait
    "teacher_code") when the teacher cannot teach it."""
    skill = trait.partition(".")[2]
    if sheet["edition"] == EDITION_RE or trait not in costs.FORCE_SKILL_TRAITS:
        return dict(sheet), name
    codes = teacher_codes(sheet, given)
    problem = training.teacher_problem(sheet, trait, codes, settings)
    if problem:
        raise InvalidEdit("teacher_code", problem)
    priced = dict(sheet) | {"teacher": dict(sheet["teacher"], present=True, **codes)}
    label = FORCE_SKILL_LABELS[skill]
    return priced, f"{name} ({label} {traits.code_text(codes[skill])})"[:100]


def teacher_codes(sheet: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, int]:
    """The teacher's Force skill codes a purchase names ("7D+1" each), in pips; a code not
    given is the one the sheet keeps for its teacher (0D when none). InvalidEdit (trait
    "teacher_code") names a code that does not read."""
    codes = {}
    for skill, label in FORCE_SKILL_LABELS.items():
        raw = str(given.get(skill, "") or "").strip()
        if not raw:
            codes[skill] = int(sheet["teacher"][skill])
            continue
        try:
            codes[skill] = parse_code(
                "teacher_code", raw, label=f"Your teacher's {label}", maximum=MAX_CODE_PIPS
            )
        except InvalidEdit as refused:
            raise InvalidEdit("teacher_code", refused.message) from None
    return codes


def teacher_fields(sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The teacher's codes a purchase form asks for: a 1E sheet's three Force skills,
    since a 1E teacher's codes decide who may teach and the price (003:1758-1772)."""
    if sheet.get("edition") == EDITION_RE or sheet.get("kind") == "droid":
        return []
    return list(FORCE_SKILL_LABELS.items())
