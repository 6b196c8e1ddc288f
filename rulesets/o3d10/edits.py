"""1o3d10 edits: one trait of a sheet set from the raw text a form sends.

Trait keys are listed with their labels in rules.trait_label; trait_rows gives the range
each numeric trait accepts. Source: seeds/004_8cbd6e5c00de6f21.txt (cited as L<n>).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.edits import copy_sheet
from rulesets.core.parsing import (
    parse_choice,
    parse_flag,
    parse_notes,
    parse_row_index,
    parse_text,
    parse_whole,
)
from rulesets.core.stage import STAGE_TRAIT, change_stage
from rulesets.o3d10 import data
from rulesets.o3d10.data import SETTINGS
from rulesets.o3d10.rules import (
    STAT_CHOICES,
    WEAPON_KIND_CHOICES,
    base_value,
    bleed,
    check,
    custom_skill,
    force_locked,
    health_state,
    luck_used_today,
    max_hp,
    rank_limits,
    skill_values,
)

_SLUG = re.compile(r"[^a-z0-9]+")
_DAMAGE = re.compile(r"^\s*([0-9]{1,2})\s*[dD]\s*([0-9]{1,3})\s*(?:([+-])\s*([0-9]{1,3}))?\s*$")
# "skill.add" and "skill.remove" are verbs, so no custom skill may take those slugs.
RESERVED_SKILL_SLUGS = frozenset({"add", "remove"})

Handler = Callable[[dict, str, str, Any, Mapping[str, Any]], None]


def slugify(name: str) -> str:
    return _SLUG.sub("_", name.strip().lower()).strip("_")


def normal_damage(text: str) -> str:
    """Read a damage code like 1d8 or 2d6+1 into its normal spelling, or raise ValueError."""
    match = _DAMAGE.match(text or "")
    if match is None:
        raise ValueError(f"“{text}” is not a damage code; write it like 1d8 or 2d6+1.")
    count, sides = int(match[1]), int(match[2])
    if not 1 <= count <= 20 or not 2 <= sides <= 100:
        raise ValueError(f"“{text}” needs 1 to 20 dice of 2 to 100 sides.")
    modifier = int(match[4] or 0) * (-1 if match[3] == "-" else 1)
    suffix = f"{modifier:+d}" if modifier else ""
    return f"{count}d{sides}{suffix}"


def _unknown(trait: str) -> InvalidEdit:
    return InvalidEdit(trait, f"“{trait}” is not a trait of a 1o3d10 sheet.")


def apply_edit(sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any]) -> dict:
    """Return a new sheet with one trait changed, or raise InvalidEdit saying why not."""
    settings = resolve_settings(SETTINGS, settings)
    new = copy_sheet(dict(sheet))
    if trait == STAGE_TRAIT:
        change_stage(
            new,
            raw,
            freeze=lambda frozen: _freeze(frozen, settings),
            reopen=_reopen,
        )
        return new
    group, _, rest = trait.partition(".")
    handler = _EDITS.get(group)
    if handler is None or not rest:
        raise _unknown(trait)
    handler(new, trait, rest, raw, settings)
    return new


def _freeze(sheet: dict, settings: Mapping[str, Any]) -> None:
    """End creation: keep the stats and skills bought, so later raises are priced in XP."""
    errors = check(sheet, settings).errors
    if errors:
        reasons = " ".join(error.message for error in errors[:3])
        raise InvalidEdit(
            STAGE_TRAIT, f"Creation cannot end while the sheet breaks a rule: {reasons}"
        )
    sheet["base"] = {"stats": dict(sheet["stats"]), "skills": skill_values(sheet)}


def _reopen(sheet: dict) -> None:
    # Back in creation every rank is paid from the creation budgets again.
    sheet["base"] = None


def _edit_info(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    for slug, label, limit in data.INFO_FIELDS:
        if rest == slug:
            parse = parse_notes if slug == "notes" else parse_text
            sheet["info"][slug] = parse(trait, raw, label=label, limit=limit)
            return
    raise _unknown(trait)


def _edit_stat(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    stat = data.STAT_BY_SLUG.get(rest)
    if stat is None:
        raise InvalidEdit(
            trait,
            f"“{rest}” is not a stat; the stats are Strength, Dexterity, "
            "Intelligence and Perception.",
        )
    value = parse_whole(trait, raw, label=stat.label)
    _check_range(sheet, trait, "stats", stat.slug, stat.label, value, settings)
    old_max = max_hp(sheet["stats"]["strength"], settings)
    sheet["stats"][stat.slug] = value
    # A character still being built starts play unhurt, so HP follows a Strength change.
    if sheet["stage"] == "creation" and sheet["hp"] == old_max:
        sheet["hp"] = max_hp(sheet["stats"]["strength"], settings)


def _check_range(
    sheet: Mapping[str, Any],
    trait: str,
    group: str,
    slug: str,
    label: str,
    value: int,
    settings: Mapping[str, Any],
) -> None:
    low, high = rank_limits(sheet, group, settings)
    if value > high:
        where = "at creation" if sheet["stage"] == "creation" else "in this campaign"
        raise InvalidEdit(trait, f"{label} cannot be {value}; the highest {where} is {high}.")
    if value < low:
        raise InvalidEdit(trait, f"{label} cannot be {value}; the lowest is {low}.")
    if sheet["stage"] == "play":
        floor = base_value(sheet, group, slug)
        if value < floor:
            raise InvalidEdit(
                trait, f"{label} cannot drop to {value}, below its creation value {floor}."
            )


def _edit_skill(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest == "add":
        _add_custom_skill(sheet, trait, raw)
        return
    if rest == "remove":
        slug = str(raw).strip()
        if custom_skill(sheet, slug) is None:
            raise InvalidEdit(trait, f"“{slug}” is not a custom skill of this character.")
        sheet["custom_skills"] = [row for row in sheet["custom_skills"] if row["slug"] != slug]
        if sheet.get("base"):
            sheet["base"]["skills"].pop(slug, None)
        return
    slug, _, field = rest.partition(".")
    row = custom_skill(sheet, slug)
    if field == "stat" and row is not None:
        row["stat"] = _stat_or_none(trait, raw, row["name"])
        return
    if field:
        raise _unknown(trait)
    skill = data.SKILL_BY_SLUG.get(slug)
    if skill is None and row is None:
        raise InvalidEdit(trait, f"“{slug}” is not a skill of this character.")
    label = skill.label if skill else row["name"]
    value = parse_whole(trait, raw, label=label)
    _check_range(sheet, trait, "skills", slug, label, value, settings)
    if skill is not None:
        if skill.force and value > 0 and force_locked(sheet, settings):
            raise InvalidEdit(
                trait,
                f"{label} is a Force skill; the GM must mark the character Force-sensitive first.",
            )
        sheet["skills"][slug] = value
    else:
        row["rank"] = value


def _stat_or_none(trait: str, raw: Any, name: str) -> str:
    return parse_choice(trait, str(raw).strip().lower(), STAT_CHOICES, label=f"{name}: stat")


def _add_custom_skill(sheet: dict, trait: str, raw: Any) -> None:
    name, _, stat = str(raw).partition("|")
    name = parse_text(trait, name, label="The skill name")
    slug = slugify(name)
    if not slug:
        raise InvalidEdit(trait, "Give the new skill a name, like “Pilot|dexterity”.")
    if slug in data.SKILL_BY_SLUG or slug in RESERVED_SKILL_SLUGS or custom_skill(sheet, slug):
        raise InvalidEdit(trait, f"The character already has a skill called “{name}”.")
    if len(sheet["custom_skills"]) >= data.MAX_CUSTOM_SKILLS:
        raise InvalidEdit(trait, f"A sheet holds at most {data.MAX_CUSTOM_SKILLS} custom skills.")
    sheet["custom_skills"].append(
        {"slug": slug, "name": name, "stat": _stat_or_none(trait, stat, name), "rank": 0}
    )


def _edit_force(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest != "sensitive":
        raise _unknown(trait)
    sheet["force_sensitive"] = parse_flag(trait, raw, label="Force-sensitive")


def _set_hp(sheet: dict, trait: str, value: int) -> None:
    if not data.HARD_HP_MIN <= value <= data.HARD_HP_MAX:
        raise InvalidEdit(
            trait, f"HP {value} is out of range ({data.HARD_HP_MIN} to {data.HARD_HP_MAX})."
        )
    sheet["hp"] = value
    # Stabilising only means something while unconscious; waking up or dying clears it.
    if health_state(value, sheet["stats"]["strength"]) is not data.UNCONSCIOUS:
        sheet["stabilised"] = False


_AMOUNT_VERBS = frozenset({"damage", "heal", "bleed"})


def _edit_hp(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest in _AMOUNT_VERBS and not str(raw).strip():
        # The sheet form sends its empty amount boxes along with every other field when
        # a player saves them all: no amount typed means nothing to apply.
        return
    limit = max_hp(sheet["stats"]["strength"], settings)
    if rest == "current":
        value = parse_whole(trait, raw, label="HP")
        if value > limit:
            raise InvalidEdit(trait, f"HP cannot be {value}; the maximum is {limit}.")
        _set_hp(sheet, trait, value)
    elif rest == "damage":
        amount = parse_whole(trait, raw, label="Damage")
        if amount < 0:
            raise InvalidEdit(trait, "Damage cannot be negative; use healing instead.")
        _set_hp(sheet, trait, sheet["hp"] - amount)
    elif rest == "heal":
        amount = parse_whole(trait, raw, label="Healing")
        if amount < 0:
            raise InvalidEdit(trait, "Healing cannot be negative; use damage instead.")
        _set_hp(sheet, trait, min(limit, sheet["hp"] + amount))
    elif rest == "bleed":
        roll_value = parse_whole(
            trait, raw, label="The bleeding d10", minimum=1, maximum=data.DIE_SIDES
        )
        state = health_state(sheet["hp"], sheet["stats"]["strength"])
        if state is not data.UNCONSCIOUS or sheet["stabilised"]:
            raise InvalidEdit(trait, "Only an unconscious, unstabilised character rolls to bleed.")
        _set_hp(sheet, trait, bleed(sheet["hp"], roll_value))
    elif rest == "stabilised":
        value = parse_flag(trait, raw, label="Stabilised")
        state = health_state(sheet["hp"], sheet["stats"]["strength"])
        if value and state is not data.UNCONSCIOUS:
            raise InvalidEdit(trait, "Only an unconscious character can be stabilised.")
        sheet["stabilised"] = value
    else:
        raise _unknown(trait)


def _edit_defense(
    sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]
) -> None:
    if rest != "bonus":
        raise _unknown(trait)
    sheet["defense_bonus"] = parse_whole(
        trait,
        raw,
        label="The Defense bonus",
        minimum=data.DEFENSE_BONUS_MIN,
        maximum=data.DEFENSE_BONUS_MAX,
    )


def _edit_luck(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    luck = sheet["luck"]
    if rest == "use":
        used = luck_used_today(luck)
        if used >= settings["luck_per_day"]:
            raise InvalidEdit(
                trait,
                f"No Midichlorian Luck left today: it was already used on day {luck['day']}; "
                f"it comes back on day {luck['day'] + 1}.",
            )
        luck["last_used_day"], luck["uses_that_day"] = luck["day"], used + 1
    elif rest == "new_day":
        if luck["day"] >= data.HARD_DAY_MAX:
            raise InvalidEdit(trait, f"The day counter stops at {data.HARD_DAY_MAX}.")
        luck["day"] += 1
    elif rest == "day":
        day = parse_whole(trait, raw, label="The in-game day")
        last = luck["last_used_day"] or 1
        if not last <= day <= data.HARD_DAY_MAX:
            raise InvalidEdit(
                trait,
                f"The in-game day must be between {last} (the last Luck use) and "
                f"{data.HARD_DAY_MAX}.",
            )
        luck["day"] = day
    else:
        raise _unknown(trait)


def _edit_xp(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    if rest != "earned":
        raise _unknown(trait)
    sheet["xp_earned"] = parse_whole(
        trait, raw, label="Experience earned", minimum=0, maximum=data.HARD_XP_MAX
    )


def _edit_weapon(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    rows = sheet["weapons"]
    if rest == "add":
        if len(rows) >= data.MAX_ROWS:
            raise InvalidEdit(trait, f"A sheet holds at most {data.MAX_ROWS} weapons.")
        rows.append(_weapon_from(trait, raw))
        return
    if rest == "remove":
        del rows[parse_row_index(trait, raw, rows, noun="weapon")]
        return
    number, _, field = rest.partition(".")
    row = rows[parse_row_index(trait, number, rows, noun="weapon")]
    if field == "name":
        row["name"] = parse_text(trait, raw, label="The weapon name") or row["name"]
    elif field == "kind":
        row["kind"] = _weapon_kind(trait, raw)
    elif field == "damage":
        row["damage"] = _damage(trait, raw)
    elif field == "notes":
        row["notes"] = parse_text(trait, raw, label="The weapon notes")
    else:
        raise _unknown(trait)


def _weapon_kind(trait: str, raw: Any) -> str:
    return parse_choice(trait, str(raw).strip().lower(), WEAPON_KIND_CHOICES, label="Weapon kind")


def _damage(trait: str, raw: Any) -> str:
    try:
        return normal_damage(str(raw))
    except ValueError as error:
        raise InvalidEdit(trait, str(error)) from None


def _weapon_from(trait: str, raw: Any) -> dict:
    text = str(raw).strip()
    template = data.WEAPON_BY_SLUG.get(text)
    if template is not None:
        return {
            "name": template.label,
            "kind": template.kind,
            "damage": template.damage,
            "notes": "",
        }
    parts = [part.strip() for part in text.split("|")]
    if len(parts) != 3 or not parts[0]:
        known = ", ".join(data.WEAPON_BY_SLUG)
        raise InvalidEdit(
            trait,
            f"Add a weapon as “name|melee or ranged|damage” (like "
            f"“Vibroblade|melee|1d8”) or pick one of: {known}.",
        )
    return {
        "name": parse_text(trait, parts[0], label="The weapon name"),
        "kind": _weapon_kind(trait, parts[1]),
        "damage": _damage(trait, parts[2]),
        "notes": "",
    }


def _edit_armor(sheet: dict, trait: str, rest: str, raw: Any, settings: Mapping[str, Any]) -> None:
    rows = sheet["armor"]
    if rest == "add":
        if len(rows) >= data.MAX_ROWS:
            raise InvalidEdit(trait, f"A sheet holds at most {data.MAX_ROWS} armor pieces.")
        rows.append(_armor_from(trait, raw))
        return
    if rest == "remove":
        del rows[parse_row_index(trait, raw, rows, noun="armor")]
        return
    number, _, field = rest.partition(".")
    row = rows[parse_row_index(trait, number, rows, noun="armor")]
    if field == "name":
        row["name"] = parse_text(trait, raw, label="The armor name") or row["name"]
    elif field == "absorption":
        row["absorption"] = _absorption(trait, raw)
    elif field == "worn":
        row["worn"] = parse_flag(trait, raw, label="Worn")
    else:
        raise _unknown(trait)


def _absorption(trait: str, raw: Any) -> int:
    return parse_whole(trait, raw, label="Absorption", minimum=0, maximum=data.MAX_ABSORPTION)


def _armor_from(trait: str, raw: Any) -> dict:
    text = str(raw).strip()
    template = data.ARMOR_BY_SLUG.get(text)
    if template is not None:
        return {"name": template.label, "absorption": template.absorption, "worn": True}
    name, sep, absorption = (part.strip() for part in text.partition("|"))
    if not sep or not name:
        known = ", ".join(data.ARMOR_BY_SLUG)
        raise InvalidEdit(
            trait, f"Add armor as “name|absorption” (like “Flight suit|1”) or pick one of: {known}."
        )
    return {
        "name": parse_text(trait, name, label="The armor name"),
        "absorption": _absorption(trait, absorption),
        "worn": True,
    }


_EDITS: dict[str, Handler] = {
    "info": _edit_info,
    "stat": _edit_stat,
    "skill": _edit_skill,
    "force": _edit_force,
    "hp": _edit_hp,
    "defense": _edit_defense,
    "luck": _edit_luck,
    "xp": _edit_xp,
    "weapon": _edit_weapon,
    "armor": _edit_armor,
}
