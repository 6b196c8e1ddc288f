"""SWd10 sheet: a blank sheet, single-trait edits, creation checks and derived values.

Sheet shape (a JSON-serialisable dict; the character's name lives on the character):

    {
      "info": {"player": str, "chronicle": str, "nature": str, "demeanor": str,
               "species": str, "destiny": str, "destiny_points": int, "experience": int},
      "priorities": {"attributes": ["physical", "social", "mental"],   # primary first
                     "abilities": ["talents", "skills", "knowledges"]},
      "attributes": {"strength": 1..5, ...},
      "abilities": {"alertness": 0..5, ...},
    }

Trait keys for apply_edit: "info.<field>", "attr.<slug>", "abil.<slug>",
"prio.attributes.<group>" and "prio.abilities.<group>" (raw value: the rank 0, 1 or 2;
the group that held that rank takes the old rank of the edited one).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import Cost, InvalidEdit, InvalidSheet, Pool, Report, Setting
from rulesets.swd10.data import (
    ABILITIES,
    ABILITY_BY_SLUG,
    ABILITY_GROUPS,
    ABILITY_PRIORITIES,
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTE_GROUPS,
    ATTRIBUTE_PRIORITIES,
    ATTRIBUTES,
    CREATION_ABILITY_CAP,
    NUMBER_FIELDS,
    RANK_LABELS,
    TEXT_FIELDS,
    Trait,
)

TEXT_MAX_LENGTH = 200
NUMBER_LIMITS = {"destiny_points": (0, 99), "experience": (0, 100_000)}

SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="attribute_free_dot",
        label="Attribute priority dots",
        default=True,
        source="L290 is silent; digest §2.1 proposes extra dots (WoD practice, Willpower "
        "2 on the blank sheet at L52)",
        help="Whether the 6/4/3 dots come on top of the free first dot every attribute "
        "prints (•0000).",
        choices=(
            (True, "on top of the free first dot"),
            (False, "counting the first dot"),
        ),
    ),
)

_ATTR_GROUP_KEYS = tuple(key for key, _ in ATTRIBUTE_GROUPS)
_ABIL_GROUP_KEYS = tuple(key for key, _ in ABILITY_GROUPS)
_GROUP_LABEL = dict(ATTRIBUTE_GROUPS) | dict(ABILITY_GROUPS)


def blank_sheet(settings: Mapping[str, Any] | None = None) -> dict:
    """Return a new sheet: every attribute at its printed free dot, every ability empty."""
    return {
        "info": {key: "" for key, _ in TEXT_FIELDS} | {key: 0 for key, _ in NUMBER_FIELDS},
        "priorities": {
            "attributes": list(_ATTR_GROUP_KEYS),
            "abilities": list(_ABIL_GROUP_KEYS),
        },
        "attributes": {t.slug: t.minimum for t in ATTRIBUTES},
        "abilities": {t.slug: t.minimum for t in ABILITIES},
    }


def trait_label(trait: str) -> str:
    """Name a trait key the way the sheet prints it ("attr.wits" -> "Wits")."""
    section, _, rest = trait.partition(".")
    if section == "attr" and rest in ATTRIBUTE_BY_SLUG:
        return ATTRIBUTE_BY_SLUG[rest].label
    if section == "abil" and rest in ABILITY_BY_SLUG:
        return ABILITY_BY_SLUG[rest].label
    if section == "info":
        return dict(TEXT_FIELDS + NUMBER_FIELDS).get(rest, rest)
    if section == "prio":
        return f"{_GROUP_LABEL.get(rest.partition('.')[2], rest)} priority"
    return trait


def _whole_number(trait: str, raw: str, low: int, high: int, label: str) -> int:
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise InvalidEdit(trait, f"{label}: “{raw}” is not a whole number.") from None
    if not low <= value <= high:
        raise InvalidEdit(trait, f"{label} runs from {low} to {high}; “{value}” is outside it.")
    return value


def _set_dots(sheet: dict, section: str, trait: str, spec: Trait, raw: str) -> None:
    sheet[section][spec.slug] = _whole_number(trait, raw, spec.minimum, spec.maximum, spec.label)


def _set_priority(sheet: dict, trait: str, kind: str, group: str, raw: str) -> None:
    order: list[str] = sheet["priorities"][kind]
    if group not in order:
        raise InvalidEdit(trait, f"There is no {kind} group called “{group}”.")
    rank = _whole_number(trait, raw, 0, 2, f"{_GROUP_LABEL[group]} priority")
    old_rank = order.index(group)
    order[old_rank], order[rank] = order[rank], order[old_rank]


def apply_edit(
    sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any] | None = None
) -> dict:
    """Return a copy of `sheet` with one trait set from the raw submitted text."""
    new = copy.deepcopy(dict(sheet))
    section, _, rest = trait.partition(".")
    if section == "attr" and rest in ATTRIBUTE_BY_SLUG:
        _set_dots(new, "attributes", trait, ATTRIBUTE_BY_SLUG[rest], raw)
    elif section == "abil" and rest in ABILITY_BY_SLUG:
        _set_dots(new, "abilities", trait, ABILITY_BY_SLUG[rest], raw)
    elif section == "info" and rest in dict(TEXT_FIELDS):
        text = str(raw).strip()
        if len(text) > TEXT_MAX_LENGTH:
            raise InvalidEdit(
                trait, f"{trait_label(trait)} is limited to {TEXT_MAX_LENGTH} characters."
            )
        new["info"][rest] = text
    elif section == "info" and rest in NUMBER_LIMITS:
        low, high = NUMBER_LIMITS[rest]
        new["info"][rest] = _whole_number(trait, raw, low, high, trait_label(trait))
    elif section == "prio" and rest.partition(".")[0] in ("attributes", "abilities"):
        kind, _, group = rest.partition(".")
        _set_priority(new, trait, kind, group, raw)
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a SWd10 sheet.")
    return new


def _rank_allowances(order: list[str], priorities: tuple[int, ...]) -> dict[str, int]:
    return {group: priorities[rank] for rank, group in enumerate(order)}


def _check_pools(
    report: Report,
    *,
    kind: str,
    order: list[str],
    priorities: tuple[int, ...],
    spent_by_group: dict[str, int],
    source: str,
) -> None:
    allowances = _rank_allowances(order, priorities)
    for rank, group in enumerate(order):
        label = _GROUP_LABEL[group]
        pool = Pool(
            key=f"{kind}.{group}",
            label=f"{label} ({RANK_LABELS[rank].lower()})",
            allowed=allowances[group],
            spent=spent_by_group[group],
            source=source,
        )
        report.add_pool(pool)
        if pool.over:
            report.error(
                f"{kind}_over_budget",
                f"pool.{pool.key}",
                f"{label} has {pool.spent} dots placed; as the {RANK_LABELS[rank].lower()} "
                f"group it allows {pool.allowed} ({source}). Remove {-pool.left}.",
                source,
            )
        elif pool.left:
            report.warn(
                f"{kind}_left",
                f"pool.{pool.key}",
                f"{label}: {pool.left} of {pool.allowed} dots still to place ({source}).",
                source,
            )


def check(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> Report:
    """Check the creation budgets (L288-304) and report every pool and every broken rule."""
    free_dot = (settings or {}).get("attribute_free_dot", True)
    report = Report()
    attributes = sheet["attributes"]
    abilities = sheet["abilities"]

    attr_spent = dict.fromkeys(_ATTR_GROUP_KEYS, 0)
    for spec in ATTRIBUTES:
        attr_spent[spec.group] += attributes[spec.slug] - (1 if free_dot else 0)
    _check_pools(
        report,
        kind="attributes",
        order=sheet["priorities"]["attributes"],
        priorities=ATTRIBUTE_PRIORITIES,
        spent_by_group=attr_spent,
        source="L290",
    )

    abil_spent = dict.fromkeys(_ABIL_GROUP_KEYS, 0)
    for spec in ABILITIES:
        value = abilities[spec.slug]
        abil_spent[spec.group] += value
        if value > CREATION_ABILITY_CAP:
            report.error(
                "ability_above_creation_cap",
                f"abil.{spec.slug}",
                f"{spec.label} is {value}; no ability may be above {CREATION_ABILITY_CAP} "
                "at creation (L292).",
                "L292",
            )
    _check_pools(
        report,
        kind="abilities",
        order=sheet["priorities"]["abilities"],
        priorities=ABILITY_PRIORITIES,
        spent_by_group=abil_spent,
        source="L292",
    )
    return report


def derived(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> dict:
    """Compute values the sheet shows but never stores."""
    attributes = sheet["attributes"]
    dexterity = attributes["dexterity"]
    walk = (20 + dexterity * 3) / 2  # L212
    return {
        "willpower_at_creation": attributes["wits"] + 1,  # L296
        "walk_metres": walk,
        "run_metres": walk * 2,  # L212
        "initiative_pool": dexterity + attributes["wits"],  # L199-200
    }


def advance_cost(
    sheet: Mapping[str, Any],
    trait: str,
    new_value: int,
    settings: Mapping[str, Any] | None = None,
) -> Cost:
    """Price a raise in XP (L306-322): each step priced on its new value, then summed."""
    section, _, slug = trait.partition(".")
    if section == "attr" and slug in ATTRIBUTE_BY_SLUG:
        spec, current = ATTRIBUTE_BY_SLUG[slug], sheet["attributes"][slug]
        steps = [
            Cost(nv * 4, "XP", f"{spec.label} {nv - 1} → {nv}: new value {nv} × 4 = {nv * 4} XP")
            for nv in range(current + 1, new_value + 1)
        ]
    elif section == "abil" and slug in ABILITY_BY_SLUG:
        spec, current = ABILITY_BY_SLUG[slug], sheet["abilities"][slug]
        steps = [
            Cost(3, "XP", f"{spec.label} 0 → 1: a new ability costs 3 XP")
            if nv == 1
            else Cost(
                nv * 2, "XP", f"{spec.label} {nv - 1} → {nv}: new value {nv} × 2 = {nv * 2} XP"
            )
            for nv in range(current + 1, new_value + 1)
        ]
    else:
        raise InvalidEdit(trait, f"“{trait}” has no XP price.")
    return Cost.total(steps, unit="XP", label=f"{spec.label} {current} → {new_value}")


def validate_sheet(data: Any) -> dict:
    """Return the normal form of an imported sheet, or raise InvalidSheet saying what is wrong."""
    if not isinstance(data, dict):
        raise InvalidSheet("The sheet must be a JSON object.")
    sheet = blank_sheet()
    unknown = set(data) - set(sheet)
    if unknown:
        raise InvalidSheet(f"Unknown sheet sections: {', '.join(sorted(unknown))}.")
    for section in ("info", "attributes", "abilities"):
        part = data.get(section, {})
        if not isinstance(part, dict):
            raise InvalidSheet(f"“{section}” must be a JSON object.")
        unknown = set(part) - set(sheet[section])
        if unknown:
            raise InvalidSheet(f"Unknown keys in “{section}”: {', '.join(sorted(unknown))}.")
    priorities = data.get("priorities", sheet["priorities"])
    if not isinstance(priorities, dict):
        raise InvalidSheet("“priorities” must be a JSON object.")
    for kind, groups in (("attributes", _ATTR_GROUP_KEYS), ("abilities", _ABIL_GROUP_KEYS)):
        order = priorities.get(kind, list(groups))
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(groups):
            raise InvalidSheet(
                f"“priorities.{kind}” must list {', '.join(groups)} once each, primary first."
            )
        sheet["priorities"][kind] = list(order)
    prefix = {"info": "info", "attributes": "attr", "abilities": "abil"}
    for section in ("info", "attributes", "abilities"):
        for key, value in data.get(section, {}).items():
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise InvalidSheet(f"“{section}.{key}” must be a number or text.")
            if section != "info" or key in NUMBER_LIMITS:
                if not isinstance(value, int):
                    raise InvalidSheet(f"“{section}.{key}” must be a whole number.")
            elif not isinstance(value, str):
                raise InvalidSheet(f"“{section}.{key}” must be text.")
            try:
                sheet = apply_edit(sheet, f"{prefix[section]}.{key}", str(value))
            except InvalidEdit as error:
                raise InvalidSheet(f"“{section}.{key}”: {error.message}") from None
    return sheet


def next_costs(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> dict:
    """Give the XP price of one more dot for every attribute and ability below its maximum."""
    costs: dict[str, Cost] = {}
    for section, specs, values in (
        ("attr", ATTRIBUTES, sheet["attributes"]),
        ("abil", ABILITIES, sheet["abilities"]),
    ):
        for spec in specs:
            if values[spec.slug] < spec.maximum:
                trait = f"{section}.{spec.slug}"
                costs[trait] = advance_cost(sheet, trait, values[spec.slug] + 1, settings)
    return costs


def demo_sheet() -> dict:
    """Return a complete, legal creation sheet (the digest's base character B, §8)."""
    sheet = blank_sheet()
    sheet["info"] |= {
        "player": "Demo player",
        "chronicle": "Shadows of the Outer Rim",
        "nature": "Survivor",
        "demeanor": "Loner",
        "species": "Human",
        "destiny": "To find the lost Jedi archive",
    }
    sheet["attributes"] |= {
        "strength": 2,
        "dexterity": 4,
        "stamina": 3,  # physical: 1 + 3 + 2 = 6
        "charisma": 3,
        "manipulation": 2,
        "appearance": 2,  # social: 4
        "perception": 2,
        "intelligence": 2,
        "wits": 2,  # mental: 3
    }
    sheet["abilities"] |= {
        "alertness": 2,
        "athletics": 2,
        "acrobatics": 3,
        "brawl": 1,
        "dodge": 3,  # 11
        "firearms": 2,
        "melee": 2,
        "pilot": 2,
        "meditation": 1,  # 7
        "lore_jedi": 2,
        "technology": 1,
        "history": 1,  # 4
    }
    return sheet
