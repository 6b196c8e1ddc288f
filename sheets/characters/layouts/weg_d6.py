"""The WEG d6 sheet laid out as the classic character template: six attributes with their
skills beneath, then the Force, points, wounds and (for a droid) its building dice."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import rulesets.weg_d6 as weg
from rulesets.core import Cost, Pool, Violation, resolve_settings
from rulesets.weg_d6 import costs, traits
from rulesets.weg_d6.data import (
    ATTRIBUTES,
    CUSTOM_SPECIES,
    EDITION_1E,
    EDITIONS,
    FORCE_POWERS,
    FORCE_SKILLS,
    LEARNED_FORCE_SKILL_PIPS,
    SKILLS,
    SPECIES,
    WOUND_BY_SLUG,
    WOUND_SLUGS_BY_EDITION,
)
from rulesets.weg_d6.settings import NOT_IN_SEEDS
from sheets.characters.layouts.common import HasTraitId
from sheets.characters.models import Character

code = traits.code_text
FORCE_SKILL_TRAITS = {f"force.{slug}" for slug, _label in FORCE_SKILLS}

# Edits that can change every part of the sheet: they swap the whole sheet.
WHOLE_SHEET_TRAITS = ("info.edition", "info.kind", "info.role", "info.stage", "info.species")
TEXT_TRAITS = ("character.name", "info.player", "info.template", "info.description")
# Tiny forms outside the main form, one per "add" row, so the main form's save=all never
# posts an empty add field and Enter in an add field clicks that row's own button.
ADD_FORMS = ("add-skill", "add-spec", "add-power", "add-custom-power", "add-equipment")


@dataclass
class CodeRow(HasTraitId):
    """One die code on the sheet: typed in, stepped by a pip, advanced for points in play."""

    trait: str
    label: str
    pips: int
    input_value: str
    placeholder: str = ""
    effective: str = ""
    next_cost: Cost | None = None
    advance_to: str = ""
    minus_to: str = ""
    plus_to: str = ""
    violations: list[Violation] = field(default_factory=list)
    error: str = ""
    trained: bool = True
    note: str = ""
    remove: str = ""  # the edit value of this row's remove button, e.g. "spec.remove=slug"
    reset: bool = False  # an untrained-again button for a catalog skill
    specializations: list[CodeRow] = field(default_factory=list)

    @property
    def code(self) -> str:
        return code(self.pips)


@dataclass
class AttributeBlock:
    slug: str
    label: str
    abbreviation: str
    row: CodeRow
    limits: str
    skills: list[CodeRow]

    @property
    def dom_id(self) -> str:
        return f"attr-block-{self.slug}"


@dataclass
class Field(HasTraitId):
    trait: str
    label: str
    value: str | int
    kind: str = "text"  # text, number, textarea, select
    choices: tuple[tuple[str, str], ...] = ()
    error: str = ""
    violations: list[Violation] = field(default_factory=list)
    help: str = ""


@dataclass
class PoolLine:
    pool: Pool
    allowed: str
    spent: str
    left: str
    violations: list[Violation]


def _pool_line(pool: Pool, report) -> PoolLine:
    show = code if pool.unit == "pips" else str
    return PoolLine(
        pool,
        show(pool.allowed),
        show(pool.spent),
        show(pool.left),
        report.for_trait(f"pool.{pool.key}"),
    )


class _Builder:
    """Hold what every row needs (sheet, report, costs, wound) while laying rows out."""

    def __init__(self, character: Character, errors: Mapping[str, str], submitted):
        self.character = character
        self.sheet = character.sheet
        self.settings = resolve_settings(weg.SETTINGS, character.rule_settings)
        self.report = weg.check(self.sheet, self.settings)
        self.derived = weg.derived(self.sheet, self.settings)
        self.next_costs = weg.next_costs(self.sheet, self.settings)
        self.errors = errors
        self.submitted = submitted
        self.play = self.sheet["stage"] == "play"
        self.known: set[str] = set()

    def error_for(self, trait: str) -> str:
        self.known.update((trait, f"advance.{trait}"))
        return self.errors.get(trait) or self.errors.get(f"advance.{trait}", "")

    def effective(self, trait: str, stored: str, fallback: str = "") -> str:
        """The code as rolled under the wound penalty, or "" when it rolls as written."""
        if not self.derived["wound"]["penalty"]:
            return ""
        shown = self.derived["effective"].get(trait, fallback)
        return shown if shown and shown != stored else ""

    def code_row(
        self,
        trait: str,
        label: str,
        pips: int,
        *,
        trained: bool = True,
        floor: int = 0,
        effective_fallback: str = "",
        note: str = "",
        remove: str = "",
        reset: bool = False,
        placeholder: str = "",
    ) -> CodeRow:
        cost = self.next_costs.get(trait)
        step = costs.next_step_value(self.sheet, trait) if cost is not None else None
        typed = self.submitted.get(trait)
        shown = code(pips) if trained else ""
        force_skill = trait in FORCE_SKILL_TRAITS
        if force_skill and pips <= LEARNED_FORCE_SKILL_PIPS:
            # A Force skill is learned at 1D and unlearned back to 0D, never a pip of it.
            minus_to = "0D" if pips else ""
            plus_to = code(pips + 1 if pips else LEARNED_FORCE_SKILL_PIPS)
        else:
            minus_to = code(pips - 1) if trained and pips - 1 >= floor else ""
            plus_to = code(pips + 1)
        return CodeRow(
            trait=trait,
            label=label,
            pips=pips,
            input_value=typed if typed is not None else shown,
            placeholder=placeholder or (code(pips) if not trained else ""),
            effective=self.effective(trait, code(pips), effective_fallback),
            next_cost=cost,
            advance_to=code(step) if step is not None and self.play else "",
            minus_to=minus_to,
            plus_to=plus_to,
            violations=self.report.for_trait(trait),
            error=self.error_for(trait),
            trained=trained,
            note=note,
            remove=remove,
            reset=reset,
        )

    def field(self, trait: str, label: str, value, kind: str = "text", **kwargs) -> Field:
        typed = self.submitted.get(trait)
        return Field(
            trait,
            label,
            typed if typed is not None else value,
            kind,
            error=self.error_for(trait),
            violations=self.report.for_trait(trait),
            **kwargs,
        )


def _attribute_blocks(b: _Builder) -> list[AttributeBlock]:
    sheet = b.sheet
    species = traits.species_of(sheet)
    droid = sheet["kind"] == "droid"
    blocks = []
    for attribute in ATTRIBUTES:
        pips = sheet["attributes"][attribute.slug]
        trait = f"attr.{attribute.slug}"
        row = b.code_row(trait, attribute.label, pips, floor=3)
        attribute_effective = b.derived["effective"][trait]
        skills = []
        catalog = [s.slug for s in SKILLS if s.attribute == attribute.slug]
        custom = [
            slug for slug, c in sheet["custom_skills"].items() if c["attribute"] == attribute.slug
        ]
        for slug in catalog + custom:
            info = traits.skill_info(sheet, slug)
            trained = slug in sheet["skills"]
            if info.advanced and sheet["edition"] == EDITION_1E and not trained:
                continue  # 1st edition has no advanced skills to offer
            notes = []
            if info.advanced:
                prerequisite = traits.skill_info(sheet, info.prerequisite or "")
                needs = b.settings["advanced_prerequisite_dice"]
                notes.append(
                    "advanced: double cost"
                    + (f", needs {prerequisite.label} {needs}D" if prerequisite else "")
                )
            if info.custom:
                notes.append("custom")
            elif any(s.slug == slug and s.outside for s in SKILLS):
                notes.append("core book")
            skill_row = b.code_row(
                f"skill.{slug}",
                info.label,
                traits.skill_code(sheet, slug),
                trained=trained,
                effective_fallback=attribute_effective,
                note="; ".join(notes),
                remove=f"skill.remove={slug}" if info.custom else "",
                reset=trained and not info.custom,
            )
            skill_row.specializations = [
                b.code_row(
                    f"spec.{spec_slug}",
                    spec["name"],
                    spec["pips"],
                    remove=f"spec.remove={spec_slug}",
                )
                for spec_slug, spec in sheet["specializations"].items()
                if spec["skill"] == slug
            ]
            skills.append(skill_row)
        limits = (
            ""
            if droid
            else f"{species.label} {code(species.minimum[attribute.slug])}"
            f"–{code(species.maximum[attribute.slug])}"
        )
        blocks.append(
            AttributeBlock(
                attribute.slug, attribute.label, attribute.abbreviation, row, limits, skills
            )
        )
    return blocks


def _force(b: _Builder) -> dict:
    sheet = b.sheet
    force = sheet["force"]
    rows = [
        b.code_row(
            f"force.{slug}",
            label,
            force[slug],
            trained=bool(force[slug]),
            placeholder="0D",
            note=_power_total_note(b, slug),
        )
        for slug, label in FORCE_SKILLS
    ]
    learned = []
    for slug in force["powers"]:
        needs = traits.power_skills(sheet, slug, b.settings)
        learned.append(
            {
                "slug": slug,
                "label": traits.power_label(sheet, slug),
                "skills": " + ".join(s.capitalize() for s in needs),
                "violations": b.report.for_trait(f"power.{slug}"),
                "custom": slug in force["custom_powers"],
            }
        )
    options = []
    for power in FORCE_POWERS:
        if power.slug in force["powers"]:
            continue
        needs = traits.power_skills(sheet, power.slug, b.settings)
        price = ""
        if b.play:
            price = " — " + _price(costs.power_cost(sheet, power.slug, b.settings))
        flags = " (Companion)" if power.new_in_companion else ""
        flags += " (Dark Side Point on use)" if power.dark_side else ""
        options.append(
            (
                power.slug,
                f"{power.label} — {' + '.join(s.capitalize() for s in needs)}{flags}{price}",
            )
        )
    sensitive_cost = b.next_costs.get("force.sensitive")
    return {
        "sensitive": b.field(
            "force.sensitive",
            "Force-sensitive",
            "yes" if force["sensitive"] else "no",
            "select",
            choices=(("no", "No"), ("yes", "Yes")),
        ),
        "sensitive_cost": sensitive_cost if b.play and sensitive_cost else None,
        "rows": rows,
        "learned": learned,
        "options": options,
        "add_trait": "advance.power" if b.play else "power.add",
        "add_error": b.error_for("power.add") or b.error_for("advance.power"),
        "add_violations": b.report.for_trait("power.add"),
        "teacher": [
            b.field(
                "teacher.present",
                "Training with a teacher or master",
                "yes" if sheet["teacher"]["present"] else "no",
                "select",
                choices=(("no", "No"), ("yes", "Yes")),
            ),
            *[
                b.field(f"teacher.{slug}", f"Teacher's {label}", code(sheet["teacher"][slug]))
                for slug, label in FORCE_SKILLS
            ],
        ],
        "picks": force["power_picks"],
    }


def _power_total_note(b: _Builder, skill: str) -> str:
    totals = b.derived["powers"][skill]
    if totals["total"] is None:
        return f"{totals['used']} power{'s' if totals['used'] != 1 else ''} use it"
    return f"powers {totals['used']} of {totals['total']} (3 per die + 1 per pip, 003:1798)"


def _price(cost: Cost) -> str:
    return f"{cost.amount} {cost.unit}"


def _droid(b: _Builder) -> dict:
    sheet = b.sheet
    items = []
    costs_shown = [item["cost"] for item in b.derived.get("droid", {}).get("items", [])]
    for index, item in enumerate(sheet["droid"]["equipment"]):
        items.append(
            {
                "index": index,
                "name": b.field(f"equipment.{index}.name", "Item", item["name"]),
                "features": b.field(
                    f"equipment.{index}.features", "Extra features", item["features"], "number"
                ),
                "cost": costs_shown[index] if index < len(costs_shown) else "",
            }
        )
    return {
        "rows": [
            b.code_row(
                "droid.speed",
                "Speed code",
                sheet["droid"]["speed"],
                note="3D of building dice per 1D above Dexterity (003:935)",
            ),
            b.code_row(
                "droid.armor",
                "Armor",
                sheet["droid"]["armor"],
                note="3D of building dice per 1D (003:935)",
            ),
        ],
        "items": items,
        "add_error": b.error_for("equipment.add"),
    }


def _species(b: _Builder) -> dict:
    sheet = b.sheet
    custom = sheet["custom_species"]
    fields = []
    if sheet["species"] == CUSTOM_SPECIES:
        fields = [
            b.field("species.name", "Species name", custom["name"]),
            b.field("species.move", "Move", custom["move"], "number"),
            b.field("species.move_max", "Maximum Move", custom["move_max"], "number"),
        ]
    limits = [
        {
            "label": a.label,
            "min": b.field(
                f"species.min.{a.slug}", f"{a.label} minimum", code(custom["minimum"][a.slug])
            ),
            "max": b.field(
                f"species.max.{a.slug}", f"{a.label} maximum", code(custom["maximum"][a.slug])
            ),
        }
        for a in ATTRIBUTES
    ]
    template = sheet["alien_template"]
    return {
        "custom": sheet["species"] == CUSTOM_SPECIES,
        "fields": fields,
        "limits": limits,
        "template": [
            b.field(f"template.{a.slug}", a.label, code(template[a.slug])) for a in ATTRIBUTES
        ]
        if template is not None
        else [],
        "template_error": b.error_for("template.clear"),
    }


def _points(b: _Builder) -> list[Field]:
    sheet = b.sheet
    currency = b.derived["currency"]["name"].capitalize()
    fields = [
        b.field("points.character", currency, sheet["points"]["character"], "number"),
        b.field("points.force", "Force Points", sheet["points"]["force"], "number"),
        b.field("points.dark_side", "Dark Side Points", sheet["points"]["dark_side"], "number"),
    ]
    if sheet["edition"] != EDITION_1E and sheet["kind"] != "droid":
        fields.append(
            b.field(
                "move",
                "Move",
                sheet["move"],
                "number",
                help=f"{b.derived['species']['label']} maximum {b.derived['species']['move_max']}",
            )
        )
    return fields


def sheet_context(
    character: Character,
    *,
    errors: Mapping[str, str],
    submitted: Mapping[str, str],
    only: Collection[str] | None = None,
) -> dict:
    """Lay out the whole sheet (an edit response then picks the parts it swaps)."""
    b = _Builder(character, errors, submitted)
    sheet = b.sheet
    edition = sheet["edition"]
    header = [
        b.field("character.name", "Name", character.name),
        b.field("info.player", "Player", sheet["info"]["player"]),
        b.field("info.template", "Template (character type)", sheet["info"]["template"]),
        b.field(
            "info.species",
            "Species",
            sheet["species"],
            "select",
            choices=(*((s.slug, s.label) for s in SPECIES), (CUSTOM_SPECIES, "Custom (the GM's)")),
        ),
        b.field(
            "info.kind",
            "Kind",
            sheet["kind"],
            "select",
            choices=(("character", "Character"), ("droid", "Droid")),
        ),
        b.field(
            "info.role",
            "Role",
            sheet["role"],
            "select",
            choices=(("pc", "Player character"), ("npc", "Non-player character")),
        ),
        b.field(
            "info.stage",
            "Stage",
            sheet["stage"],
            "select",
            choices=(("creation", "Creation"), ("play", "In play (advance with points)")),
        ),
    ]
    if sheet["kind"] == "droid":
        header = [f for f in header if f.trait != "info.species"]
    description = b.field(
        "info.description", "Background and description", sheet["info"]["description"], "textarea"
    )
    wound_slug = sheet["wound"]
    wounds = [
        {
            "slug": slug,
            "label": WOUND_BY_SLUG[slug].label,
            "penalty": code(WOUND_BY_SLUG[slug].penalty) if WOUND_BY_SLUG[slug].penalty else "",
            "can_act": WOUND_BY_SLUG[slug].can_act,
            "current": slug == wound_slug,
            "source": WOUND_BY_SLUG[slug].source,
        }
        for slug in WOUND_SLUGS_BY_EDITION[edition]
    ]
    edition_field = b.field(
        "info.edition", "Edition of this sheet", edition, "select", choices=EDITIONS
    )
    readings = [
        (
            setting,
            b.settings[setting.key],
            NOT_IN_SEEDS in setting.source,
        )
        for setting in weg.SETTINGS
    ]
    b.known |= {f"setting.{s.key}" for s in weg.SETTINGS}
    context = {
        "character": character,
        "sheet": sheet,
        "settings": b.settings,
        "report": b.report,
        "derived": b.derived,
        "errors": errors,
        "edition_1e": edition == EDITION_1E,
        "is_droid": sheet["kind"] == "droid",
        "play": b.play,
        "currency": b.derived["currency"],
        "header": header,
        "description": description,
        "attribute_blocks": _attribute_blocks(b),
        "skill_add_error": b.error_for("skill.add"),
        "spec_add_error": b.error_for("spec.add"),
        "skill_choices": [
            traits.skill_info(sheet, slug).label
            for slug in [s.slug for s in SKILLS] + list(sheet["custom_skills"])
        ],
        "force": _force(b),
        "points": _points(b),
        "move_cost": b.next_costs.get("move"),
        "move_advance_to": sheet["move"] + 1,
        "wounds": wounds,
        "wound_error": b.error_for("wound"),
        "droid": _droid(b),
        "species": _species(b),
        "interval": [
            {
                **entry,
                "from_code": _interval_code(entry, entry["from"]),
                "to_code": _interval_code(entry, entry["to"]),
            }
            for entry in sheet["interval"]
        ],
        "interval_error": b.error_for("interval.close"),
        "pools": [_pool_line(pool, b.report) for pool in b.report.pools],
        "edition_field": edition_field,
        "readings": readings,
        "setting_errors": {
            k.removeprefix("setting."): v for k, v in errors.items() if k.startswith("setting.")
        },
        "add_forms": ADD_FORMS,
    }
    context["print_rows"] = _print_rows(context["attribute_blocks"])
    context["stray_errors"] = [message for trait, message in errors.items() if trait not in b.known]
    return context


PRINT_MIN_LINES = 6


def _print_rows(blocks: list[AttributeBlock]) -> list[list[dict]]:
    """Pair the attributes two by two, as the template prints them, with blank skill lines
    so both columns of a pair end level."""
    printed = []
    for block in blocks:
        lines = []
        for row in block.skills:
            if row.trained:
                lines.append({"label": row.label, "code": row.code, "nested": False})
            lines += [
                {"label": spec.label, "code": spec.code, "nested": True}
                for spec in row.specializations
            ]
        printed.append({"block": block, "lines": lines})
    pairs = [printed[i : i + 2] for i in range(0, len(printed), 2)]
    for pair in pairs:
        height = max(PRINT_MIN_LINES, *(len(p["lines"]) + 1 for p in pair))
        for column in pair:
            column["blanks"] = range(height - len(column["lines"]))
    return pairs


def _interval_code(entry: Mapping, value: int) -> str:
    trait = entry["trait"]
    if trait == "move":
        return str(value)
    if trait.startswith("power.") or trait == "force.sensitive":
        return "yes" if value else "no"
    return code(value)


def _sections_for(trait: str, sheet: Mapping) -> set[str]:
    """Name the parts of the sheet one edited trait can change."""
    target = trait.removeprefix("advance.")
    paid = {"points", "interval"} if trait.startswith("advance.") else set()
    head, _, rest = target.partition(".")
    if trait in WHOLE_SHEET_TRAITS or head == "setting":
        return {"all"}
    if trait in TEXT_TRAITS:
        return {"field"}
    if head == "attr":
        return {f"attr-{rest}"} | paid
    if head == "skill":
        info = traits.skill_info(sheet, rest)
        if info is None:
            return {"attributes"} | paid
        # An advanced skill resting on this one shows the prerequisite problem in its row.
        resting = {
            f"attr-{other.attribute}"
            for slug in [s.slug for s in SKILLS] + list(sheet["custom_skills"])
            if (other := traits.skill_info(sheet, slug)) and other.prerequisite == rest
        }
        return {f"attr-{info.attribute}"} | resting | paid
    if head == "spec":
        return {"attributes"} | paid
    if head in ("force", "power", "teacher"):
        return {"force"} | paid
    if head == "points":
        return {"points"}
    if head == "move":
        return {"points"} | paid
    if head == "wound":
        return {"wounds", "attributes", "force"}
    if head in ("droid", "equipment"):
        return {"droid"}
    if head in ("species", "template"):
        return {"species", "attributes", "points"}
    if head == "interval":
        return {"interval"}
    return set()


def edit_fragments(context: dict, edits: Mapping[str, str]) -> dict:
    """Pick the fields and sections an edit touched, for out-of-band swaps."""
    sections: set[str] = set()
    for trait in edits:
        sections |= _sections_for(trait, context["sheet"])
    whole = "all" in sections
    if "attributes" in sections:
        sections = {s for s in sections if not s.startswith("attr-")}
    fields = [f for f in context["header"] if f.trait in edits]
    if context["description"].trait in edits:
        fields.append(context["description"])
    return {
        "swap_whole_sheet": whole,
        "edited_sections": sections,
        "edited_fields": fields,
        "edited_blocks": [
            block for block in context["attribute_blocks"] if f"attr-{block.slug}" in sections
        ],
    }
