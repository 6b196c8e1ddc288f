"""The Star O.R.E. sheet laid out as the seed prints it (L1090-L1159), plus the parts the
rules need that the printed sheet lacks (digest §1.1): hit locations, species abilities,
lightsaber forms, GM permission and the Force's Dark/Light Side notes."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import rulesets.ore as ore
from rulesets.core import Cost, Violation
from rulesets.ore.data import (
    ABILITIES,
    ARMOR_ROWS,
    ARMORS,
    HIT_LOCATIONS,
    LIGHTSABER_FORMS,
    POWER_BY_SLUG,
    ROLL_CAP,
    SKILLS,
    SPECIES,
    STATS,
    STUNTS,
    WEAPON_ROWS,
    WEAPONS,
    ForceTechnique,
)
from rulesets.ore.rules import ability_cost, raisables, species_cost
from rulesets.ore.settings import resolved
from sheets.characters.layouts.common import HasTraitId
from sheets.characters.models import Character

# Every part of the sheet an edit response may swap out of band, as `section-<key>`.
SECTIONS = (
    "points",
    "stats",
    "secondary",
    "skills",
    "force",
    "species",
    "gear",
    "wounds",
    "maneuvers",
)
# Which sections an edit of a trait (by its first part) may change. Species, phase and rule
# readings move prices, maximums, Willpower and wound boxes everywhere: they redraw it all.
_SECTIONS_OF = {
    "character_points": {"points"},
    "xp": {"points"},
    "stat": {"stats", "skills", "secondary"},
    "skill": {"skills", "species", "maneuvers"},
    "power": {"force"},
    "stunt": {"force"},
    "willpower": {"secondary"},
    "dsp": {"secondary", "force"},
    "ability": {"stats", "skills", "secondary", "species", "gear", "wounds"},
    "armor": {"gear", "wounds"},
    "weapon": {"gear"},
    "wound": {"wounds"},
    "lightsaber_form": {"maneuvers"},
}
_EVERYTHING = {"species", "phase", "setting"}
# Edits of these row fields change nothing but their own input, so only the input is swapped.
_TEXT_ONLY = {
    ("armor", "name"),
    ("armor", "special"),
    ("weapon", "name"),
    ("weapon", "damage"),
    ("weapon", "special"),
    ("weapon", "penetration"),
    ("weapon", "initiative"),
}


class _Errors:
    """Refusal messages by trait, remembering which ones a row or field has shown."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = dict(errors)
        self.claimed: set[str] = set()

    def under(self, *prefixes: str) -> list[str]:
        """Claim the messages of these traits and of every trait below them."""
        found = []
        for trait, message in self.errors.items():
            if trait in self.claimed:
                continue
            if any(trait == p or trait.startswith(p + ".") for p in prefixes):
                self.claimed.add(trait)
                found.append(message)
        return found

    def left(self) -> list[str]:
        return [m for t, m in self.errors.items() if t not in self.claimed]


@dataclass
class Field(HasTraitId):
    trait: str
    label: str
    value: Any
    kind: str  # "text", "textarea", "number" or "select"
    errors: list[str] = field(default_factory=list)
    choices: list[tuple[str, str]] = field(default_factory=list)
    help: str = ""


@dataclass
class Dot:
    number: int
    filled: bool
    sets: int  # a click sets this; on the top filled dot, one less (takes it away)
    free: bool = False


@dataclass
class Step:
    """A number raised or lowered by one with − and + buttons."""

    trait: str
    label: str
    value: int
    minimum: int
    maximum: int
    suffix: str = ""
    next_cost: Cost | None = None

    @property
    def shown(self) -> str:
        return f"{self.value}{self.suffix}"

    @property
    def dom_id(self) -> str:
        # The row of the trait owns "trait-<key>"; its stepper is a part of that row.
        return "step-" + self.trait.replace(".", "-")

    @property
    def can_lower(self) -> bool:
        return self.value > self.minimum

    @property
    def can_raise(self) -> bool:
        return self.value < self.maximum


@dataclass
class StatRow(HasTraitId):
    trait: str
    label: str
    value: int
    text: str
    maximum: int
    maximum_reason: str
    dots: list[Dot]
    pool: dict
    next_cost: Cost | None
    errors: list[str]
    violations: list[Violation]


@dataclass
class SkillRow(HasTraitId):
    trait: str
    id: str
    name: str
    label: str
    value: int
    text: str
    stat: Field
    specialty: Field | None
    dots: list[Dot]
    pool: dict
    free: int
    removable: bool
    needs_dice_to_try: bool
    source: str
    next_cost: Cost | None
    errors: list[str]
    violations: list[Violation]


@dataclass
class StuntRow(HasTraitId):
    trait: str
    label: str
    step: Step
    pool: dict
    side: str
    side_label: str
    usable_note: str
    approved: bool
    willpower: str
    source: str
    errors: list[str]
    violations: list[Violation]


@dataclass
class PowerRow(HasTraitId):
    trait: str
    label: str
    text: str
    steps: list[Step]
    pool: dict
    needs_permission: bool
    approved: bool
    core: list[dict]
    stunts: list[StuntRow]
    source: str
    errors: list[str]
    violations: list[Violation]


@dataclass
class AbilityRow:
    index: int
    label: str
    target: str
    step: Step
    cost: int
    source: str
    errors: list[str]


@dataclass
class GearRow:
    index: int
    key: str  # "armor.0" or "weapon.3"
    fields: dict[str, Field]
    source: str
    row: dict
    errors: list[str]


@dataclass
class WoundBox:
    trait: str
    number: int
    state: str
    mark: str

    @property
    def next_word(self) -> str:
        return {"": "Shock (/)", "shock": "normal damage (X)", "killing": "empty"}[self.state]

    @property
    def state_word(self) -> str:
        return {"": "empty", "shock": "Shock (/)", "killing": "normal damage (X)"}[self.state]


@dataclass
class Location:
    slug: str
    label: str
    heights: str
    boxes: list[WoundBox]
    status: str
    explanation: str
    ar: int
    source: str
    errors: list[str]


def _dots(value: int, lowest: int, highest: int, free: int = 0) -> list[Dot]:
    top = max(highest, value)
    return [
        Dot(n, n <= value, max(lowest, n - 1 if n == value else n), n <= free)
        for n in range(1, top + 1)
    ]


def _field(trait, label, value, kind, errors: _Errors, submitted, **extra) -> Field:
    return Field(trait, label, submitted.get(trait, value), kind, errors.under(trait), **extra)


def _choices(pairs: Iterable[tuple[Any, str]]) -> list[tuple[str, str]]:
    return [(str(value), label) for value, label in pairs]


def sheet_context(
    character: Character,
    *,
    errors: Mapping[str, str],
    submitted: Mapping[str, str],
    only: Collection[str] | None = None,
) -> dict:
    """Lay out the whole sheet; the engine is fast enough that `only` saves nothing worth
    the risk of a stale row, so every part is always computed."""
    settings = resolved(character.rule_settings)
    sheet = character.sheet
    report = ore.check(sheet, settings)
    derived = ore.derived(sheet, settings)
    costs = ore.next_costs(sheet, settings)
    ranges = raisables(sheet, settings)
    claims = _Errors(errors)
    unit = derived["points"]["unit"]

    def step(trait: str, label: str, value: int | None = None) -> Step:
        found = ranges.get(trait)
        if found is None:  # not buyable now (a droid's Willpower): show it, offer nothing
            return Step(trait, label, value or 0, value or 0, value or 0)
        return Step(
            trait,
            label,
            found.current,
            found.minimum,
            found.maximum,
            found.suffix,
            costs.get(trait),
        )

    info = sheet["info"]
    text_field = {
        key: _field(f"info.{key}", label, info[key], kind, claims, submitted)
        for key, label, kind in (
            ("player", "Player", "text"),
            ("gender", "Gender", "text"),
            ("career", "Career", "text"),
            ("age", "Age", "text"),
            ("height", "Height", "text"),
            ("weight", "Weight", "text"),
            ("eyes", "Eyes", "text"),
            ("hair", "Hair", "text"),
            ("skin", "Skin", "text"),
            ("appearance", "Appearance", "textarea"),
            ("motivations", "Motivations", "textarea"),
        )
    }
    name = _field("character.name", "Name", character.name, "text", claims, submitted)
    species_field = _field(
        "species",
        "Species",
        sheet["species"],
        "select",
        claims,
        submitted,
        choices=[
            (s.slug, f"{s.label} ({species_cost({'species': s.slug}, settings)} CP)")
            for s in SPECIES
        ],
    )
    header_rows = [
        [name, text_field["player"]],
        [species_field, text_field["gender"], text_field["career"]],
        [text_field["age"], text_field["height"], text_field["weight"]],
        [text_field["eyes"], text_field["hair"], text_field["skin"]],
    ]
    points_field = _field(
        "character_points",
        "Character points",
        sheet["character_points"],
        "number",
        claims,
        submitted,
        help="The creation budget: 100-200 for beginners, 400 or more for masters (L772).",
    )
    xp_awards = [
        {"index": n, **award, "remove": f"xp.{n}.remove"}
        for n, award in enumerate(sheet["xp_awards"])
    ]
    xp_errors = claims.under("xp", "phase")

    stats = []
    for row in derived["stats"]:
        trait = row["key"]
        stats.append(
            StatRow(
                trait=trait,
                label=row["label"],
                value=row["dice"],
                text=row["text"],
                maximum=row["maximum"],
                maximum_reason=row["maximum_reason"],
                dots=_dots(row["dice"], 1, ranges[trait].maximum),
                pool=row["pool"],
                next_cost=costs.get(trait),
                errors=claims.under(trait),
                violations=report.for_trait(trait),
            )
        )

    stat_choices = [(s.slug, s.label) for s in STATS]
    skills = []
    for row, stored in zip(derived["skills"], sheet["skills"], strict=True):
        trait = row["key"]
        catalog = next((s for s in SKILLS if s.slug == stored["skill"]), None)
        specialty = None
        if catalog and catalog.takes_specialty:
            specialty = _field(
                f"{trait}.specialty", "Specialty", stored["specialty"], "text", claims, submitted
            )
        skills.append(
            SkillRow(
                trait=trait,
                id=row["id"],
                name=row["name"],
                label=catalog.label if catalog else row["name"],
                value=row["dice"],
                text=row["text"],
                stat=_field(
                    f"{trait}.stat",
                    "Stat",
                    row["stat"],
                    "select",
                    claims,
                    submitted,
                    choices=stat_choices,
                ),
                specialty=specialty,
                dots=_dots(row["dice"], 0, ranges[trait].maximum, row["free"]),
                pool=row["pool"],
                free=row["free"],
                removable=not row["free"],
                needs_dice_to_try=row["needs_dice_to_try"],
                source=row["source"],
                next_cost=costs.get(trait),
                errors=claims.under(trait),
                violations=report.for_trait(trait),
            )
        )
    skill_errors = claims.under("skill")

    droid = derived["species"]["droid"]
    powers = []
    for row in derived["powers"]:
        trait = row["key"]
        stunts = [
            StuntRow(
                trait=s["key"],
                label=s["label"],
                step=step(s["key"], "dice"),
                pool=s["pool"],
                side=s["side"],
                side_label=s["side_label"],
                usable_note=s["usable_note"],
                approved=s["approved"],
                willpower=s["willpower"],
                source=s["source"],
                errors=claims.under(s["key"]),
                violations=report.for_trait(s["key"]),
            )
            for s in row["stunts"]
        ]
        powers.append(
            PowerRow(
                trait=trait,
                label=row["label"],
                text=row["text"],
                steps=[
                    step(trait, "dice", row["dice"]),
                    step(f"{trait}.hard", "hard dice", row["hard"]),
                    step(f"{trait}.wiggle", "wiggle dice", row["wiggle"]),
                ],
                pool=row["pool"],
                needs_permission=row["needs_permission"],
                approved=row["approved"],
                core=row["core"],
                stunts=stunts,
                source=row["source"],
                errors=claims.under(trait),
                violations=report.for_trait(trait),
            )
        )
    owned_stunts = set(sheet["stunts"])
    stunt_choices = [
        (f"stunt.{s.slug}=1", _stunt_choice_label(s, costs.get(f"stunt.{s.slug}")))
        for s in STUNTS
        if s.slug not in owned_stunts
    ]
    force_errors = claims.under("stunt", "power")

    willpower = {
        "applies": derived["willpower"]["applies"],
        "base": derived["willpower"]["base"],
        "current": derived["willpower"]["current"],
        "bought": step("willpower.bought", "bought points"),
        "extra": step("willpower.extra", "extra current"),
        "current_step": Step(
            "willpower.current", "current", derived["willpower"]["current"] or 0, 0, 10**5
        ),
        "errors": claims.under("willpower"),
        "violations": report.for_trait("willpower.bought") + report.for_trait("willpower.current"),
    }
    dark_side = {
        "base": Step("dsp.base", "base", sheet["dark_side"]["base"], 0, 10**5),
        "current": Step("dsp.current", "current", sheet["dark_side"]["current"], 0, 10**5),
        "errors": claims.under("dsp"),
        "violations": report.for_trait("dsp.base") + report.for_trait("dsp.current"),
    }

    abilities = []
    for n, row in enumerate(sheet["abilities"]):
        catalog = next(a for a in ABILITIES if a.slug == row["ability"])
        abilities.append(
            AbilityRow(
                index=n,
                label=catalog.label,
                target=_target_label(row["target"], catalog.target, sheet),
                step=step(f"ability.{n}.level", "level"),
                cost=ability_cost(row, settings),
                source=catalog.source,
                errors=claims.under(f"ability.{n}"),
            )
        )
    ability_choices = _ability_choices(sheet, settings)
    ability_errors = claims.under("ability")

    armor_rows = []
    for n, row in enumerate(derived["armor"]):
        key = f"armor.{n}"
        covers = row["covers"]
        armor_rows.append(
            GearRow(
                n,
                key,
                {
                    name: _field(f"{key}.{name}", label, value, kind, claims, submitted)
                    for name, label, value, kind in (
                        ("name", "Armor", row["name"], "text"),
                        ("ar", "AR", row["ar"], "number"),
                        ("coordination", "Coord. penalty", row["coordination"], "number"),
                        ("move", "Move (m)", row["move"], "number"),
                        ("special", "Special", row["special"], "text"),
                        ("covers", "Covers", _covers_text(covers), "text"),
                    )
                },
                row["source"],
                row,
                claims.under(key),
            )
        )
    weapon_rows = []
    for n, row in enumerate(derived["weapons"]):
        key = f"weapon.{n}"
        weapon_rows.append(
            GearRow(
                n,
                key,
                {
                    name: _field(f"{key}.{name}", label, value, kind, claims, submitted)
                    for name, label, value, kind in (
                        ("name", "Weapon", row["name"], "text"),
                        ("damage", "Damage", row["damage"], "text"),
                        ("penetration", "Pen.", row["penetration"], "number"),
                        ("initiative", "Init.", row["initiative"], "number"),
                        ("special", "Special", row["special"], "text"),
                    )
                },
                row["source"],
                row,
                claims.under(key),
            )
        )
    armor_errors = claims.under("armor")
    weapon_errors = claims.under("weapon")

    locations = []
    for row in derived["hit_locations"]:
        locations.append(
            Location(
                slug=row["slug"],
                label=row["label"],
                heights=row["heights"],
                boxes=[
                    WoundBox(key, n, state, mark)
                    for n, (key, state, mark) in enumerate(
                        zip(row["box_keys"], row["boxes"], row["marks"], strict=True), start=1
                    )
                ],
                status=row["status"],
                explanation=row["explanation"],
                ar=row["ar"],
                source=row["source"],
                errors=claims.under(row["key"]),
            )
        )
    wound_errors = claims.under("wound")

    form_field = _field(
        "lightsaber_form",
        "Lightsaber form specialty",
        sheet["lightsaber_form"],
        "select",
        claims,
        submitted,
        choices=[("", "None chosen (Form I only)")]
        + [
            (f.slug, f"{f.label} ({f.exemplars}) — favored move: {f.favored_move}")
            for f in LIGHTSABER_FORMS
        ],
    )
    maneuvers = [m for m in derived["maneuvers"] if m["on_sheet"]]
    half = (len(maneuvers) + 1) // 2

    setting_errors = {
        trait.removeprefix("setting."): message
        for trait, message in errors.items()
        if trait.startswith("setting.")
    }
    claims.under("setting")
    readings = [
        {
            "setting": setting,
            "value": str(settings[setting.key]),
            "label": setting.label_for(settings[setting.key]),
            "choices": _choices(setting.choices),
            "error": setting_errors.get(setting.key, ""),
        }
        for setting in ore.SETTINGS
    ]

    context = {
        "character": character,
        "sheet": sheet,
        "report": report,
        "derived": derived,
        "errors": errors,
        "unit": unit,
        "roll_cap": ROLL_CAP,
        "header_rows": header_rows,
        "appearance": text_field["appearance"],
        "motivations": text_field["motivations"],
        "points_field": points_field,
        "experience": derived["experience"],
        "xp_awards": xp_awards,
        "xp_errors": xp_errors,
        "stats": stats,
        "skills": skills,
        "skill_errors": skill_errors,
        "skill_catalog": [s.label + (" [ ]" if s.takes_specialty else "") for s in SKILLS],
        "droid": droid,
        "powers": powers,
        "stunt_choices": stunt_choices,
        "force_errors": force_errors,
        "force_lines": _force_lines(powers),
        "willpower": willpower,
        "dark_side": dark_side,
        "species": derived["species"],
        "abilities": abilities,
        "ability_choices": ability_choices,
        "ability_errors": ability_errors,
        "armor_rows": armor_rows,
        "armor_room": len(armor_rows) < ARMOR_ROWS,
        "armor_slots": ARMOR_ROWS,
        "armor_catalog": [a.label for a in ARMORS],
        "armor_errors": armor_errors,
        "weapon_rows": weapon_rows,
        "weapon_room": len(weapon_rows) < WEAPON_ROWS,
        "weapon_slots": WEAPON_ROWS,
        "weapon_catalog": [w.label for w in WEAPONS],
        "weapon_errors": weapon_errors,
        "locations": locations,
        "wound_errors": wound_errors,
        "limb_penalty": derived["limb_penalty"],
        "form_field": form_field,
        "forms": derived["lightsaber_forms"],
        "maneuver_columns": [maneuvers[:half], maneuvers[half:]],
        "extra_maneuvers": [m for m in derived["maneuvers"] if not m["on_sheet"]],
        "pools": [(pool, report.for_trait("character_points")) for pool in report.pools],
        "spent_items": derived["points"]["items"],
        "readings": readings,
        "setting_errors": setting_errors,
        # Refusals no row or field of their own shows (an unknown trait) go above the sheet.
        "stray_errors": claims.left(),
    }
    return context | _print_context(context)


def _stunt_choice_label(stunt: ForceTechnique, first_die: Cost | None) -> str:
    where = POWER_BY_SLUG[stunt.power].label + (f", {stunt.side}" if stunt.side else "")
    price = f" — {first_die.amount} {first_die.unit}" if first_die else ""
    return f"{stunt.label} ({where}){price}"


def _target_label(target: str, kind: str, sheet: Mapping) -> str:
    if kind == "stat":
        return next(s.label for s in STATS if s.slug == target)
    if kind == "skill":
        return next((r["name"] for r in sheet["skills"] if r["id"] == target), target)
    return ""


def _ability_choices(sheet: Mapping, settings: Mapping) -> list[tuple[str, str]]:
    """Every ability the sheet can still buy, each with its target, as "slug|target"."""
    taken = {(row["ability"], row["target"]) for row in sheet["abilities"]}
    choices = []
    for ability in ABILITIES:
        price = ability_cost({"ability": ability.slug, "level": 1}, settings)
        if ability.target == "stat":
            targets = [(s.slug, s.label) for s in STATS]
        elif ability.target == "skill":
            targets = [(r["id"], r["name"]) for r in sheet["skills"]]
        else:
            targets = [("", "")]
        for target, target_label in targets:
            if (ability.slug, target) in taken:
                continue
            label = f"{ability.label}: {target_label}" if target_label else ability.label
            choices.append((f"{ability.slug}|{target}", f"{label} — {price} per level"))
    return choices


def _covers_text(covers: list[str]) -> str:
    if len(covers) == len(HIT_LOCATIONS):
        return "all"
    labels = {location.slug: location.label for location in HIT_LOCATIONS}
    return ", ".join(labels[slug] for slug in covers)


def _force_lines(powers: list[PowerRow]) -> list[dict]:
    """Powers and their stunts as the lines of the printed FORCE POWERS/STUNTS column."""
    lines = []
    for power in powers:
        if power.pool["total"] or power.stunts:
            lines.append({"label": power.label, "text": power.text, "stunt": False, "tag": ""})
        for stunt in power.stunts:
            lines.append(
                {
                    "label": stunt.label,
                    "text": f"{stunt.step.value}d",
                    "stunt": True,
                    "tag": stunt.side,
                }
            )
    return lines


def _padded(rows: list, slots: int) -> list:
    return list(rows) + [None] * (slots - len(rows))


def _print_context(context: dict) -> dict:
    """Arrange rows in the printed sheet's fixed grid: two skill and two Force columns of at
    least ten lines (L1122-L1132), two armor rows, ten weapon rows, maneuvers in pairs."""
    skills, force = context["skills"], context["force_lines"]
    depth = max(10, (len(skills) + 1) // 2, (len(force) + 1) // 2)
    skill_cells, force_cells = _padded(skills, 2 * depth), _padded(force, 2 * depth)
    left, right = context["maneuver_columns"]
    return {
        "print_rows": [
            {
                "skills": (skill_cells[n], skill_cells[depth + n]),
                "force": (force_cells[n], force_cells[depth + n]),
            }
            for n in range(depth)
        ],
        "any_capped": any(row.pool["capped"] for row in skills),
        "unapproved": [
            power.label
            for power in context["powers"]
            if power.needs_permission and power.pool["total"] and not power.approved
        ]
        + [
            stunt.label
            for power in context["powers"]
            for stunt in power.stunts
            if not stunt.approved
        ],
        "armor_print": _padded([row.row for row in context["armor_rows"]], ARMOR_ROWS),
        "weapon_print": _padded([row.row for row in context["weapon_rows"]], WEAPON_ROWS),
        "maneuver_rows": list(zip(left, _padded(right, len(left)), strict=True)),
    }


def _sections_for(trait: str) -> set[str]:
    head = trait.split(".")[0]
    if head in _EVERYTHING:
        return set(SECTIONS) | {"identity", "readings"}
    return set(_SECTIONS_OF.get(head, ()))


def edit_fragments(context: dict, edits: Mapping[str, str]) -> dict:
    """Name the sections and fields an edit response swaps out of band.

    Dice feed pools, maximums, Willpower and wound states elsewhere on the sheet, so an edit
    swaps every section it can change; a plain text field is swapped alone, so a player
    tabbing on to the next field keeps what they type there.
    """
    sections: set[str] = set()
    text_traits: set[str] = set()
    for trait in edits:
        parts = trait.split(".")
        plain_text = len(parts) == 3 and (parts[0], parts[2]) in _TEXT_ONLY
        if trait == "character.name" or parts[0] == "info" or plain_text:
            text_traits.add(trait)
        elif len(parts) == 3 and parts[0] == "skill" and parts[2] == "specialty":
            text_traits.add(trait)
            sections.add("species")  # ability targets name the skill
        else:
            sections |= _sections_for(trait)
    fields = []
    if "identity" not in sections:
        header = [f for row in context["header_rows"] for f in row]
        header += [context["appearance"], context["motivations"]]
        fields += [f for f in header if f.trait in text_traits]
    if "gear" not in sections:
        for row in context["armor_rows"] + context["weapon_rows"]:
            fields += [f for f in row.fields.values() if f.trait in text_traits]
    if "skills" not in sections:
        fields += [
            row.specialty
            for row in context["skills"]
            if row.specialty and row.specialty.trait in text_traits
        ]
    return {"edited_sections": sections, "edited_fields": fields}
