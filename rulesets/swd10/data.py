"""SWd10 rules as data: the sheet's traits in print order, the creation and health
tables, and the catalogs of merits and flaws, Force knowledges and abilities, and weapon
techniques.

Every entry carries the seed line it comes from (`source`, or a comment), cited as L<n> of
seeds/000_0413f1179ca9c507.txt; the digest is rules/swd10.md.

Slugs are stable: attributes and abilities use the sheet's names in snake_case; the seed's
"Computers" is the sheet's `computer`, "Pilot" is `pilot`, and the "Heightened Sense" merit
that Weak Sense names (L420) is `acute_senses` (see SEED_NAME_ALIASES).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


@dataclass(frozen=True)
class Trait:
    slug: str
    label: str
    group: str
    source: str
    # The seed prints a free first dot on attributes (•0000) and none on abilities.
    minimum: int = 0
    maximum: int = 5


ATTRIBUTE_GROUPS: tuple[tuple[str, str], ...] = (
    ("physical", "Physical"),  # L9
    ("social", "Social"),  # L9
    ("mental", "Mental"),  # L9
)

ATTRIBUTES: tuple[Trait, ...] = (
    Trait("strength", "Strength", "physical", "L10", minimum=1),
    Trait("dexterity", "Dexterity", "physical", "L11", minimum=1),
    Trait("stamina", "Stamina", "physical", "L12", minimum=1),
    Trait("charisma", "Charisma", "social", "L10", minimum=1),
    Trait("manipulation", "Manipulation", "social", "L11", minimum=1),
    Trait("appearance", "Appearance", "social", "L12", minimum=1),
    Trait("perception", "Perception", "mental", "L10", minimum=1),
    Trait("intelligence", "Intelligence", "mental", "L11", minimum=1),
    Trait("wits", "Wits", "mental", "L12", minimum=1),
)

ABILITY_GROUPS: tuple[tuple[str, str], ...] = (
    ("talents", "Talents"),  # L16
    ("skills", "Skills"),  # L16 (both "Skills" columns)
    ("knowledges", "Knowledges"),  # L29
)

_TALENTS = (  # L17-27, first column
    ("alertness", "Alertness"),
    ("athletics", "Athletics"),
    ("acrobatics", "Acrobatics"),
    ("brawl", "Brawl"),
    ("dodge", "Dodge"),
    ("empathy", "Empathy"),
    ("expression", "Expression"),
    ("intimidation", "Intimidation"),
    ("leadership", "Leadership"),
    ("persuasion", "Persuasion"),
    ("subterfuge", "Subterfuge"),
)
_SKILLS = (  # L17-27, second and third columns
    ("animal_ken", "Animal ken"),
    ("appraise", "Appraise"),
    ("astrogate", "Astrogate"),
    ("crafts", "Crafts"),
    ("computer", "Computer"),
    ("demolition", "Demolition"),
    ("diplomacy", "Diplomacy"),
    ("disguise", "Disguise"),
    ("enigmas", "Enigmas"),
    ("firearms", "Firearms"),
    ("gamble", "Gamble"),
    ("investigation", "Investigation"),
    ("medicine", "Medicine"),
    ("meditation", "Meditation"),
    ("melee", "Melee"),
    ("performance", "Performance"),
    ("pilot", "Pilot (ships/speeders)"),
    ("repair", "Repair"),
    ("ride", "Ride (bikes/animals)"),
    ("security", "Security"),
    ("stealth", "Stealth"),
    ("survival", "Survival"),
)
# L30-37. Business, Science, Streetwise and Tactics print four circles; the digest reads
# that as a layout loss (digest §1.3, ambiguity 12), so every ability runs 0-5.
_KNOWLEDGES = (
    ("business", "Business"),
    ("engineering", "Engineering"),
    ("history", "History"),
    ("politics", "Politics"),
    ("science", "Science"),
    ("streetwise", "Streetwise"),
    ("tactics", "Tactics"),
    ("technology", "Technology"),
    ("lore_jedi", "Lore: Jedi"),
    ("lore_planets", "Lore: Planets"),
    ("lore_sith", "Lore: Sith"),
    ("lore_species", "Lore: Species"),
    ("lore_wilderness", "Lore: Wilderness"),
    # Three blank "Lore: ____" rows for lores the player names (L35-37).
    ("custom_lore_1", "Lore: (your own)"),
    ("custom_lore_2", "Lore: (your own)"),
    ("custom_lore_3", "Lore: (your own)"),
)
CUSTOM_LORES = ("custom_lore_1", "custom_lore_2", "custom_lore_3")

ABILITIES: tuple[Trait, ...] = (
    *(Trait(slug, label, "talents", "L17-27") for slug, label in _TALENTS),
    *(Trait(slug, label, "skills", "L17-27") for slug, label in _SKILLS),
    *(Trait(slug, label, "knowledges", "L30-37") for slug, label in _KNOWLEDGES),
)

# Header fields, three columns of three (L3-5).
TEXT_FIELDS: tuple[tuple[str, str], ...] = (
    ("player", "Player"),
    ("chronicle", "Chronicle"),
    ("nature", "Nature"),
    ("demeanor", "Demeanor"),
    ("species", "Species"),
    ("destiny", "Destiny"),
    ("passion", "Passion"),  # L59-61, L170
    ("virtue", "Virtue"),  # L59-61, L172
)
NUMBER_FIELDS: tuple[tuple[str, str], ...] = (
    ("destiny_points", "Destiny points"),
    ("experience", "Experience"),
)

ATTRIBUTE_PRIORITIES = (6, 4, 3)  # L290
ABILITY_PRIORITIES = (11, 7, 4)  # L292
CREATION_ABILITY_CAP = 3  # L292
RANK_LABELS = ("Primary", "Secondary", "Tertiary")

ATTRIBUTE_BY_SLUG = {t.slug: t for t in ATTRIBUTES}
ABILITY_BY_SLUG = {t.slug: t for t in ABILITIES}


@dataclass(frozen=True)
class HealthLevel:
    name: str
    # None where the character cannot act at all (Incapacitated).
    penalty: int | None
    note: str = ""


# The hero's health track with the penalty printed beside each level (sheet L47-54).
HERO_HEALTH: tuple[HealthLevel, ...] = (
    HealthLevel("Bruised", 0),
    HealthLevel("Hurt", -1),
    HealthLevel("Injured", -1),
    HealthLevel("Wounded", -2, "can't run"),  # also L214
    HealthLevel("Mauled", -2),
    HealthLevel("Crippled", -5, "only 1 m / round"),  # also L214
    HealthLevel("Incapacitated", None),
)
# A commoner (Power 0) has four levels (L98); whether "full health" is a box is unclear,
# so the count is a setting (digest §4.2, ambiguity 6).
COMMONER_HEALTH: tuple[HealthLevel, ...] = (
    HealthLevel("Full health", 0),
    HealthLevel("Injured", -1),
    HealthLevel("Mauled", -2),
    HealthLevel("Incapacitated", None),
)
GIANT_LEVEL = HealthLevel("Bruised (Giant)", 0)  # L346

# Printed sheet columns (L1-69) and what the rules need beyond them (digest §1.6-1.7).
MAX_POWER = 10  # ten circles (L48); Fearless needs Power 7 (L553)
MAX_WILLPOWER = 10  # digest §1.6 proposal: five circles cannot show Wits 5 + 1 (L296)
MAX_SIDE = 10  # both Path tables run 1-10 (L134-168)
MERIT_POINTS = 3  # L298
MAX_FLAW_POINTS = 6  # L302
CREATION_POWER = 1  # L294
MAX_LANGUAGES = 12
MAX_WEAPONS = 10
DEFAULT_WEAPON_DIFFICULTY = 6  # digest §1.6 [INTERP]: "Diff" is never defined
# Limits the seed leaves to the sheet's space; edits and the schema share them.
MAX_MERITS = 40  # rows of merits and flaws, grants excluded
MAX_TECHNIQUES = 24  # Firearms and Melee techniques (L238, L240), special kinds included
MAX_SWSE_LEVEL = 20  # SWSE levels run 1-20 (L1320 prices each at 17 XP)
NUMBER_LIMITS = {"destiny_points": (0, 99), "experience": (0, 100_000)}
WEAPON_DIFFICULTY_RANGE = (2, 10)
WEAPON_DAMAGE_RANGE = (0, 20)
WEAPON_NAME_LIMIT = 60
RATE_LIMIT = 20
LANGUAGE_NAME_LIMIT = 60
LORE_NAME_LIMIT = 40
MERIT_CHOICE_LIMIT = 60
TECHNIQUE_KIND_LIMIT = 60
# The sheet prints 5 Willpower circles (L52) but Wits 5 gives 6 at creation (L296); the
# digest proposes the Storyteller norm of 10 (digest §1.6), which the print follows.
WILLPOWER_CIRCLES = MAX_WILLPOWER
HEALTH_LEVELS: tuple[tuple[str, str], ...] = tuple(
    (
        f"{level.name} ({level.note})" if level.note else level.name,
        "" if level.penalty is None else f"{level.penalty:+d}".replace("+0", "-0"),
    )
    for level in HERO_HEALTH
)


# ---------------------------------------------------------------------------------------
# Requirements


class Need(StrEnum):
    """What kind of trait a requirement looks at."""

    ATTRIBUTE = "attribute"
    ABILITY = "ability"
    POWER = "power"
    WILLPOWER = "willpower"
    MERIT = "merit"
    FORCE_SENSITIVITY = "force_sensitivity"
    DROID = "droid"
    NOT_DROID = "not_droid"
    SPECIES = "species"


@dataclass(frozen=True)
class Requirement:
    """One prerequisite of a merit or flaw.

    `key` is the attribute/ability/merit slug or the species name; `minimum` the value
    needed. `interpreted` marks requirements the seed implies without printing them beside
    the entry (digest [INTERP]), so the sheet can say they are a reading.
    """

    need: Need
    source: str
    key: str = ""
    minimum: int = 0
    interpreted: bool = False


def _attribute(slug: str, minimum: int, source: str) -> Requirement:
    return Requirement(Need.ATTRIBUTE, source, slug, minimum)


def _ability(slug: str, minimum: int, source: str) -> Requirement:
    return Requirement(Need.ABILITY, source, slug, minimum)


def _power(minimum: int, source: str) -> Requirement:
    return Requirement(Need.POWER, source, minimum=minimum)


def _merit(slug: str, source: str) -> Requirement:
    return Requirement(Need.MERIT, source, slug)


# L571 makes Force Sensitivity the key to every other Force merit; L659 bars droids from all
# Force merits. Only Force Perception prints the first one (L565), hence `interpreted`.
_FORCE_SENSITIVE = Requirement(Need.FORCE_SENSITIVITY, "L571", interpreted=True)
_NOT_DROID = Requirement(Need.NOT_DROID, "L659")
_DROID = Requirement(Need.DROID, "L659")


class ChoiceKind(StrEnum):
    """What a parameterised merit is taken for."""

    ABILITY = "ability"
    FORCE_KNOWLEDGE = "force_knowledge"
    FORCE_ABILITY = "force_ability"
    SENSE = "sense"
    ARMOR_CLASS = "armor_class"


@dataclass(frozen=True)
class Choice:
    """The parameter a merit needs ("which ability?") and what the chosen trait must have.

    `must_have` means: at least 1 dot in the chosen ability or Force knowledge, or the chosen
    Force ability owned.
    """

    kind: ChoiceKind
    source: str
    must_have: bool = False
    interpreted: bool = False


SENSES: tuple[str, ...] = ("sight", "hearing", "smell", "taste", "touch")  # L330
ARMOR_CLASSES: tuple[str, ...] = ("light", "medium", "heavy")  # L739, L741

# ---------------------------------------------------------------------------------------
# Merits and flaws


class Kind(StrEnum):
    MERIT = "merit"
    FLAW = "flaw"


class Category(StrEnum):
    PHYSICAL = "Physical"  # L326
    MENTAL = "Mental"  # L422
    SOCIAL = "Social"  # L491
    FORCE = "Force"  # L519
    RACE = "Race"  # L641
    DROID = "Droid"  # L655
    APTITUDES = "Aptitudes"  # L719


@dataclass(frozen=True)
class Merit:
    """A merit or a flaw: its point values, prerequisites and what it grants.

    `values` are the point values the seed prints; `variant_bonus` adds points for a named
    variant (Compulsion: +2 when physiological or supernatural, L450). `grants` lists the
    merits a race merit brings (slug, value). `storyteller_checks` are conditions the
    sheet cannot know (equipment, undefined terms) and shows for the Storyteller to judge.
    """

    slug: str
    name: str
    kind: Kind
    category: Category
    values: tuple[int, ...]
    source: str
    requirements: tuple[Requirement, ...] = ()
    choice: Choice | None = None
    grants: tuple[tuple[str, int], ...] = ()
    repeatable: bool = False
    conflicts_with: str = ""
    # Acute Senses at 3 points covers every sense (L330), so it then conflicts whatever
    # sense a Weak Sense names.
    all_choices_at: int | None = None
    variant_bonus: tuple[int, str] | None = None
    storyteller_checks: tuple[str, ...] = ()

    @property
    def allowed_values(self) -> tuple[int, ...]:
        """Every value the merit may be taken at, variants included."""
        if self.variant_bonus is None:
            return self.values
        bonus = self.variant_bonus[0]
        return tuple(sorted(set(self.values) | {v + bonus for v in self.values}))

    @property
    def cost_label(self) -> str:
        """Return the cost as the seed prints it: "1 point", "4 points", "1-3 points"."""
        low, high = self.values[0], self.values[-1]
        text = f"{low}-{high}" if low != high else str(low)
        text += " point" if text == "1" else " points"
        if self.variant_bonus is not None:
            text += f", +{self.variant_bonus[0]} if {self.variant_bonus[1]}"
        return text


def _m(
    slug: str,
    name: str,
    category: Category,
    values: int | tuple[int, ...],
    source: str,
    *requirements: Requirement,
    kind: Kind = Kind.MERIT,
    **extra: Any,
) -> Merit:
    points = (values,) if isinstance(values, int) else values
    return Merit(slug, name, kind, category, points, source, tuple(requirements), **extra)


def _f(
    slug: str,
    name: str,
    category: Category,
    values: int | tuple[int, ...],
    source: str,
    *requirements: Requirement,
    **extra: Any,
) -> Merit:
    return _m(slug, name, category, values, source, *requirements, kind=Kind.FLAW, **extra)


def _range(low: int, high: int) -> tuple[int, ...]:
    return tuple(range(low, high + 1))


_P, _M, _S = Category.PHYSICAL, Category.MENTAL, Category.SOCIAL
_F, _R, _D, _A = Category.FORCE, Category.RACE, Category.DROID, Category.APTITUDES
_FORCE = (_FORCE_SENSITIVE, _NOT_DROID)

# fmt: off
MERITS: tuple[Merit, ...] = (
    # Physical, L326-420
    _m("acute_senses", "Acute Senses", _P, _range(1, 3), "L328",
       choice=Choice(ChoiceKind.SENSE, "L330"), all_choices_at=3,
       storyteller_checks=("The rules do not say what 2 points buy.",)),  # digest §5.1
    _m("ambidextrous", "Ambidextrous", _P, 1, "L332"),
    _m("attentive", "Attentive", _P, 2, "L336"),
    _m("cat_like_balance", "Cat-like balance", _P, 1, "L340"),
    _m("giant", "Giant", _P, 4, "L344"),
    _m("night_vision", "Night vision", _P, 3, "L348"),
    _m("pain_resistance", "Pain Resistance", _P, 5, "L352",
       storyteller_checks=("If drugs are the cause, take the Addiction flaw too.",)),  # L354
    _m("toughness", "Toughness", _P, 1, "L356"),
    _m("twilight_vision", "Twilight vision", _P, 1, "L360"),
    _f("addiction", "Addiction", _P, _range(1, 3), "L364"),
    _f("blind", "Blind", _P, 6, "L368"),
    _f("deaf", "Deaf", _P, 4, "L372"),
    _f("deformity", "Deformity", _P, 3, "L376",
       storyteller_checks=("The Storyteller sets the deformity's effect.",)),  # L378
    _f("disfigured", "Disfigured", _P, 2, "L380"),
    _f("lame", "Lame", _P, 3, "L384"),
    _f("monstrous", "Monstrous", _P, 3, "L388"),
    _f("mute", "Mute", _P, 4, "L392"),
    _f("one_arm", "One Arm", _P, 3, "L396"),
    _f("one_eye_one_ear", "One Eye / One Ear", _P, 2, "L400"),
    _f("paraplegic", "Paraplegic", _P, 6, "L404"),
    _f("short", "Short", _P, 1, "L408"),
    _f("slow_healing", "Slow Healing", _P, 3, "L412"),
    _f("weak_sense", "Weak Sense", _P, 1, "L418",
       choice=Choice(ChoiceKind.SENSE, "L420"), conflicts_with="acute_senses"),
    # Mental, L422-489
    _m("common_sense", "Common Sense", _M, 1, "L424"),
    _m("concentration", "Concentration", _M, 1, "L428"),
    _m("eidetic_memory", "Eidetic Memory", _M, 2, "L432"),
    _m("lightning_calculator", "Lightning Calculator", _M, 1, "L436"),
    _m("time_sense", "Time Sense", _M, 1, "L440"),
    _f("amnesia", "Amnesia", _M, 2, "L444"),
    _f("compulsion", "Compulsion", _M, _range(1, 4), "L448",
       variant_bonus=(2, "physiological or supernatural")),  # L450
    _f("deep_sleeper", "Deep Sleeper", _M, 1, "L463"),
    _f("insanity", "Insanity", _M, 2, "L467"),
    _f("nightmares", "Nightmares", _M, 1, "L471"),
    _f("phobia", "Phobia", _M, 2, "L475"),
    _f("soft_hearted", "Soft-hearted", _M, 1, "L479"),
    _f("speech_defect", "Speech Defect", _M, 1, "L483"),
    _f("quick_tempered", "Quick-tempered", _M, 2, "L487"),
    # Social, L491-517
    _m("debt", "Debt", _S, _range(1, 3), "L493"),
    _m("deceptive", "Deceptive", _S, 2, "L497"),
    _f("dark_mystery", "Dark Mystery", _S, 1, "L501"),
    _f("enemy", "Enemy", _S, _range(1, 5), "L507"),
    _f("mistaken_identity", "Mistaken Identity", _S, 1, "L511"),
    _f("shy", "Shy", _S, 1, "L515"),
    # The Force, L519-639
    _m("adept_negotiator", "Adept Negotiator", _F, 2, "L521", *_FORCE),
    _m("ataru", "Ataru", _F, 3, "L525",
       _attribute("dexterity", 3, "L527"), _ability("acrobatics", 3, "L527"), *_FORCE),
    _m("attuned_to_the_force", "Attuned to the Force", _F, 2, "L531",
       _attribute("charisma", 3, "L533"), _ability("meditation", 3, "L533"), *_FORCE),
    _m("dark_side_resistance", "Dark Side Resistance", _F, 2, "L537", *_FORCE),
    _m("dark_side_sense", "Dark Side Sense", _F, 2, "L541", *_FORCE),
    _m("djem_so", "Djem So", _F, 3, "L545",
       _attribute("strength", 3, "L547"), _ability("melee", 3, "L547"), *_FORCE),
    _m("fearless", "Fearless", _F, 2, "L551", _power(7, "L553"), *_FORCE),
    _m("force_intuition", "Force Intuition", _F, 2, "L557",
       _ability("meditation", 2, "L559"), *_FORCE),
    _m("force_perception", "Force Perception", _F, 2, "L563", _power(4, "L565"),
       Requirement(Need.FORCE_SENSITIVITY, "L565"), _NOT_DROID),
    _m("force_sensitivity", "Force Sensitivity", _F, 1, "L569", _NOT_DROID),
    _m("juyo", "Juyo", _F, 4, "L575", _attribute("strength", 3, "L577"),
       _attribute("dexterity", 4, "L577"), _ability("melee", 4, "L577"), *_FORCE),
    _m("link", "Link", _F, 3, "L581", *_FORCE),
    _m("makashi", "Makashi", _F, 4, "L585",
       _attribute("dexterity", 3, "L587"), _ability("melee", 4, "L587"), *_FORCE),
    _m("master_force_ability", "Master Force Ability", _F, 3, "L591", *_FORCE,
       choice=Choice(ChoiceKind.FORCE_ABILITY, "L593", must_have=True)),
    _m("master_force_knowledge", 'Master "Force Knowledge"', _F, 4, "L595", *_FORCE,
       choice=Choice(ChoiceKind.FORCE_KNOWLEDGE, "L597", must_have=True, interpreted=True)),
    _m("master_negotiator", "Master Negotiator", _F, 2, "L599",
       _merit("adept_negotiator", "L601"), *_FORCE),
    _m("power_recovery", "Power Recovery", _F, 2, "L605", _power(4, "L607"), *_FORCE),
    _m("precision", "Precision", _F, 2, "L611", *_FORCE),
    _m("priority_target", "Priority Target", _F, 2, "L615", *_FORCE),
    _m("serenity", "Serenity", _F, 4, "L621", _attribute("charisma", 3, "L623"),
       _ability("meditation", 4, "L623"), _power(6, "L623"), *_FORCE),
    _m("strong_in_the_force", "Strong in the Force", _F, 3, "L627", *_FORCE),
    _m("vaapad", "Vaapad", _F, 5, "L631", _attribute("strength", 4, "L633"),
       _attribute("dexterity", 4, "L633"), _ability("melee", 5, "L633"),
       _merit("juyo", "L633"), *_FORCE),
    _m("visions", "Visions", _F, 2, "L637", *_FORCE,
       storyteller_checks=("Its effect works through the Farseeing ability.",)),  # L639
    # Race, L641-653: a race merit only fits its own species (digest §5.5 [INTERP]).
    _m("kel_dor", "Kel Dor", _R, 3, "L643",
       Requirement(Need.SPECIES, "L643", "Kel Dor", interpreted=True),
       grants=(("twilight_vision", 1), ("attuned_to_the_force", 2))),  # L645
    _m("twi_lek", "Twi'lek", _R, 3, "L647",
       Requirement(Need.SPECIES, "L647", "Twi'lek", interpreted=True),
       grants=(("twilight_vision", 1), ("deceptive", 2))),  # L649
    _m("zabrak", "Zabrak", _R, 3, "L651",
       Requirement(Need.SPECIES, "L651", "Zabrak", interpreted=True),
       grants=(("attentive", 2), ("toughness", 1))),  # L653
    # Droid, L655-717: the Droid merit unlocks the others (L659).
    _m("droid", "Droid", _D, 1, "L657"),
    _m("humanity", "Humanity", _D, 2, "L661", _power(2, "L663"), _DROID),
    _m("independent_spirit", "Independent Spirit", _D, 2, "L667", _power(3, "L669"), _DROID),
    _m("intellectual_fight", "Intellectual Fight", _D, 3, "L673", _power(5, "L675"),
       _ability("computer", 3, "L675"), _DROID),
    _m("ion_resistance", "Ion Resistance", _D, 2, "L679", _DROID),
    _m("master_of_heuristics", "Master of Heuristics", _D, 3, "L685",
       _ability("computer", 4, "L687"), _DROID),
    _m("personal_shield_mastery", "Personal Shield Mastery", _D, 3, "L691",
       _ability("repair", 2, "L693"), _DROID,
       storyteller_checks=("Needs shields fitted.",)),  # L693
    _m("protection_from_reprogramming", "Protection from Reprogramming", _D, 2, "L697",
       Requirement(Need.WILLPOWER, "L699", minimum=4), _DROID),
    _m("routine_scripts", "Routine Scripts", _D, 3, "L703",
       _ability("computer", 3, "L705"), _DROID),
    _m("self_improvement_specialist", "Self-improvement Specialist", _D, 1, "L713",
       _attribute("intelligence", 3, "L715"), _DROID),
    # Aptitudes, L719-839
    _m("ability_aptitude", "Ability Aptitude", _A, 1, "L721",
       choice=Choice(ChoiceKind.ABILITY, "L723"), repeatable=True,
       storyteller_checks=("Not for Special or Combat abilities, which the rules leave "
                           "undefined.",)),  # L725
    _m("ace", "Ace", _A, 3, "L727", _ability("pilot", 4, "L729")),
    _m("agile_pilot", "Agile Pilot", _A, 1, "L733", _attribute("dexterity", 3, "L735")),
    # One copy per armor class is a reading: the name lists three classes (digest §5.7).
    _m("armor_proficiency", "Armor Proficiency", _A, 1, "L739",
       choice=Choice(ChoiceKind.ARMOR_CLASS, "L739", interpreted=True), repeatable=True),
    _m("armored_protection", "Armored Protection", _A, 2, "L743",
       _merit("armor_master", "L745")),
    _m("armor_master", "Armor Master", _A, 2, "L749", _merit("armor_proficiency", "L751")),
    _m("battle_pilot", "Battle Pilot", _A, 2, "L755"),
    _m("brothers_in_arms", "Brothers-in-arms", _A, 2, "L759", _power(4, "L761")),
    _m("brothers_in_arms_forever", "Brothers-in-arms forever", _A, 3, "L765",
       _power(6, "L767"), _merit("brothers_in_arms", "L767")),
    _m("computer_professional", "Computer Professional", _A, 2, "L771",
       _attribute("wits", 3, "L773")),
    _m("harms_way", "Harm's Way", _A, 2, "L777", _power(4, "L779"),
       _attribute("stamina", 3, "L779")),
    _m("hold_on", "Hold on!", _A, 3, "L783", _power(5, "L785")),
    _m("improved_armored_protection", "Improved Armored Protection", _A, 2, "L789",
       _merit("armored_protection", "L791")),
    _m("master_hacker", "Master Hacker", _A, 2, "L795", _ability("computer", 3, "L797"),
       _attribute("intelligence", 3, "L797")),
    _m("master_of_evasion", "Master of Evasion", _A, 2, "L801",
       _attribute("dexterity", 3, "L803")),
    _m("master_pilot", "Master Pilot", _A, 2, "L807"),
    _m("rifles_professional", "Rifles Professional", _A, 2, "L811",
       _ability("firearms", 3, "L813")),
    _m("sure_shot", "Sure Shot!", _A, 1, "L817"),
    _m("tracking", "Tracking", _A, 2, "L821", _ability("computer", 2, "L823"),
       _attribute("intelligence", 3, "L823")),
    _m("true_astronaut", "True Astronaut", _A, 1, "L827"),
    _m("sniper", "Sniper", _A, 2, "L831", _attribute("perception", 3, "L833"),
       _ability("firearms", 3, "L833")),
    _f("ability_deficit", "Ability Deficit", _A, 1, "L837",
       choice=Choice(ChoiceKind.ABILITY, "L839", must_have=True)),
)
# fmt: on

MERIT_BY_SLUG: dict[str, Merit] = {m.slug: m for m in MERITS}

# Names the seed's prose uses for sheet traits, mapped to the sheet's slugs (digest §1.3).
SEED_NAME_ALIASES: dict[str, str] = {
    "Computers": "computer",  # L675, L687, L705, L775, L797, L823
    "Pilot": "pilot",  # L729
    "Heightened Sense": "acute_senses",  # L420
}

# ---------------------------------------------------------------------------------------
# Force knowledges and abilities


@dataclass(frozen=True)
class ForceKnowledge:
    """A Force knowledge tree and the two attributes whose better one rolls with it (L845)."""

    slug: str
    name: str
    attributes: tuple[str, str]
    source: str
    note: str = ""


FORCE_KNOWLEDGES: tuple[ForceKnowledge, ...] = (
    ForceKnowledge("battle", "Battle", ("strength", "dexterity"), "L866"),
    # L933 prints "and"; the general rule at L845 takes the better of two (digest §4.7).
    ForceKnowledge(
        "mind",
        "Mind",
        ("charisma", "manipulation"),
        "L933",
        note="printed as Charisma and Manipulation; read as the better of the two (L845)",
    ),
    ForceKnowledge("nature", "Nature", ("charisma", "intelligence"), "L1017"),
    ForceKnowledge("telekinetic", "Telekinetic", ("strength", "wits"), "L1085"),
    ForceKnowledge("transform", "Transform", ("manipulation", "intelligence"), "L1174"),
    ForceKnowledge("swordplay", "Swordplay", ("dexterity", "wits"), "L1246"),
)

FORCE_KNOWLEDGE_BY_SLUG: dict[str, ForceKnowledge] = {k.slug: k for k in FORCE_KNOWLEDGES}


class Side(StrEnum):
    LIGHT = "light"
    DARK = "dark"


class Tag(StrEnum):
    """Force ability descriptors (L855-863, L849)."""

    DARK = "D"
    LIGHT = "L"
    MIND_AFFECTING = "A"
    UNTIL_FIRST_ACTION = "UFA"
    UNTIL_END_OF_SCENE = "UES"
    AIMING = "Aiming"


@dataclass(frozen=True)
class ForceAbility:
    """One Force ability and what buying it needs (L843).

    `min_pool` is the "Roll N+" line; None where the scan shows no Roll line, which
    `ocr_uncertain` flags (digest §5.8). `side` and `side_minimum` are the LS/DS grade.
    `requires` names abilities that must already be owned. `not_dark_with_merit` names the
    merit that stops a D ability counting as Dark (L1300, L1307).
    """

    slug: str
    name: str
    tree: str
    min_pool: int | None
    source: str
    requirement_source: str = ""
    side: Side | None = None
    side_minimum: int = 0
    tags: frozenset[Tag] = frozenset()
    requires: tuple[str, ...] = ()
    ocr_uncertain: bool = False
    once_per_scene: bool = False
    not_dark_with_merit: str = ""

    @property
    def is_dark(self) -> bool:
        return Tag.DARK in self.tags

    @property
    def is_light(self) -> bool:
        return Tag.LIGHT in self.tags


def _fa(
    slug: str,
    name: str,
    tree: str,
    pool: int | None,
    source: str,
    roll_line: str = "",
    side: str = "",
    tags: str = "",
    *,
    requires: tuple[str, ...] = (),
    once_per_scene: bool = False,
    not_dark_with_merit: str = "",
) -> ForceAbility:
    side_required, side_minimum = None, 0
    if side:
        grade, value = side.split()
        side_required = Side.LIGHT if grade == "LS" else Side.DARK
        side_minimum = int(value)
    tag_set = frozenset(Tag(t) for t in tags.split())
    return ForceAbility(
        slug,
        name,
        tree,
        pool,
        source,
        roll_line,
        side_required,
        side_minimum,
        tag_set,
        requires,
        ocr_uncertain=pool is None,
        once_per_scene=once_per_scene or Tag.UNTIL_END_OF_SCENE in tag_set,
        not_dark_with_merit=not_dark_with_merit,
    )


# fmt: off
FORCE_ABILITIES: tuple[ForceAbility, ...] = (
    # Battle, L865-931
    _fa("battle_strike", "Battle strike", "battle", 5, "L867-870", "L868", tags="UFA"),
    _fa("corruption", "Corruption", "battle", 7, "L871-880", "L872", "DS 6", "D"),
    _fa("crucitorn", "Crucitorn", "battle", 5, "L881-884", "L882", tags="UFA"),
    _fa("dark_rage", "Dark rage", "battle", 7, "L885-888", "L886", "DS 6", "D UFA"),
    _fa("inertia", "Inertia", "battle", 5, "L889-896", "L890", tags="UFA", requires=("surge",)),
    _fa("prescience", "Prescience", "battle", 3, "L897-903", "L898", tags="UFA"),
    # A pool of 3 beside DS 6 is odd but printed so (L905).
    _fa("rend", "Rend", "battle", 3, "L904-908", "L905", "DS 6", "D"),
    _fa("resist_force", "Resist force", "battle", None, "L909-913", tags="UFA"),
    _fa("shatterpoint", "Shatterpoint", "battle", 7, "L914-920", "L915", tags="UES"),
    _fa("surge", "Surge", "battle", None, "L921-925", tags="UFA"),
    _fa("wound", "Wound", "battle", 5, "L926-931", "L927", "DS 4", "D Aiming"),
    # Mind, L932-1015
    _fa("battle_meditation", "Battle meditation", "mind", 7, "L934-939", "L936", tags="A UFA"),
    _fa("enlighten", "Enlighten", "mind", 5, "L940-944", "L941", "LS 4", "L A UFA"),
    _fa("farseeing", "Farseeing", "mind", 3, "L945-952", "L946"),
    _fa("fear", "Fear", "mind", 7, "L953-957", "L956", "DS 6", "D A UFA"),
    _fa("force_stun", "Force stun", "mind", 5, "L959-963", "L960", tags="A UFA"),
    _fa("force_track", "Force track", "mind", None, "L964-971"),
    _fa("inspire", "Inspire", "mind", 7, "L972-977", "L973", "LS 6", "L UFA"),
    _fa("memory_walk", "Memory walk", "mind", 9, "L978-984", "L979", "DS 8", "D A UFA"),
    _fa("mind_shard", "Mind shard", "mind", 5, "L985-989", "L986", tags="A"),
    _fa("mind_trick", "Mind trick", "mind", None, "L990-999", tags="A"),
    _fa("obscure", "Obscure", "mind", 3, "L1000-1007", "L1001", tags="A"),
    _fa("valor", "Valor", "mind", 9, "L1008-1015", "L1010", "LS 8", "L UFA"),
    # Nature, L1016-1083
    _fa("combustion", "Combustion", "nature", 5, "L1018-1025", "L1019"),
    _fa("convection", "Convection", "nature", 5, "L1026-1034", "L1027", tags="UFA"),
    _fa("cryokinesis", "Cryokinesis", "nature", 3, "L1035-1041", "L1036"),
    _fa("force_scream", "Force scream", "nature", 5, "L1042-1047", "L1043", "DS 4", "D"),
    # No UES tag, but the text allows one activation per scene (L1053).
    _fa("force_storm", "Force storm", "nature", 9, "L1048-1055", "L1049", "DS 8", "D",
        once_per_scene=True),
    _fa("force_tempest", "Force tempest", "nature", 7, "L1056-1060", "L1057", "DS 6", "D"),
    _fa("ionize", "Ionize", "nature", None, "L1061-1068", tags="Aiming"),
    _fa("plant_surge", "Plant surge", "nature", 7, "L1069-1074", "L1070", tags="UFA"),
    _fa("vital_transfer", "Vital transfer", "nature", 5, "L1075-1083", "L1076", "LS 4", "L"),
    # Telekinetic, L1084-1171
    _fa("ballistakinesis", "Ballistakinesis", "telekinetic", 7, "L1086-1090", "L1087",
        tags="UFA"),
    _fa("detonate", "Detonate", "telekinetic", None, "L1091-1095"),
    _fa("force_blast", "Force blast", "telekinetic", 4, "L1096-1099", "L1097"),
    _fa("force_disarm", "Force disarm", "telekinetic", None, "L1100-1106"),
    # Not tagged D in the seed, however it reads (L1106).
    _fa("force_grip", "Force grip", "telekinetic", 6, "L1106-1110", "L1107", tags="Aiming"),
    _fa("force_shield", "Force shield", "telekinetic", 5, "L1111-1116", "L1112", tags="UFA"),
    _fa("force_slam", "Force slam", "telekinetic", 3, "L1117-1120", "L1118"),
    _fa("force_thrust", "Force thrust", "telekinetic", None, "L1121-1128"),
    _fa("force_whirlwind", "Force whirlwind", "telekinetic", 4, "L1129-1136", "L1130",
        tags="UFA"),
    _fa("intercept", "Intercept", "telekinetic", 4, "L1137-1141", "L1138"),
    _fa("levitate", "Levitate", "telekinetic", 7, "L1142-1148", "L1143"),
    _fa("move_object", "Move object", "telekinetic", None, "L1149-1157"),
    _fa("repulse", "Repulse", "telekinetic", 6, "L1158-1164", "L1159"),
    _fa("slow", "Slow", "telekinetic", 4, "L1165-1171", "L1166", tags="UFA"),
    # Transform, L1172-1244
    _fa("blind", "Blind", "transform", 7, "L1175-1178", "L1176", tags="UFA"),
    _fa("breach_force", "Breach force", "transform", 6, "L1179-1186", "L1180", "LS 5",
        "L UES"),
    _fa("cloak", "Cloak", "transform", 5, "L1187-1191", "L1188", tags="UFA"),
    _fa("drain_energy", "Drain energy", "transform", 5, "L1192-1197", "L1193"),
    _fa("energy_resistance", "Energy resistance", "transform", 3, "L1198-1202", "L1199",
        tags="UFA"),
    _fa("force_light", "Force light", "transform", 9, "L1202-1207", "L1203", "LS 8", "L UES"),
    _fa("force_lightning", "Force lightning", "transform", 9, "L1207-1212", "L1208", "DS 8",
        "D"),
    _fa("hatred", "Hatred", "transform", 7, "L1212-1216", "L1213", "DS 6", "D"),
    _fa("lightning_burst", "Lightning burst", "transform", 8, "L1217-1219", "L1218", "DS 7",
        "D"),
    _fa("malacia", "Malacia", "transform", 7, "L1220-1226", "L1221", "LS 6", "L"),
    _fa("morichro", "Morichro", "transform", 6, "L1227-1232", "L1228"),
    _fa("negate_energy", "Negate energy", "transform", 4, "L1232-1233", "L1232"),
    _fa("rebuke", "Rebuke", "transform", 5, "L1234-1237", "L1235"),
    _fa("sever_force", "Sever force", "transform", 9, "L1238-1240", "L1239", "LS 8", "L"),
    _fa("technometry", "Technometry", "transform", 4, "L1241-1244", "L1242"),
    # Swordplay, L1245-1310
    _fa("barrier_of_blades", "Barrier of blades", "swordplay", 5, "L1246-1250", "L1247",
        tags="UFA"),
    _fa("circle_of_shelter", "Circle of shelter", "swordplay", 5, "L1251-1255", "L1252",
        tags="UFA"),
    _fa("deflect", "Deflect", "swordplay", None, "L1256-1260"),
    _fa("disarming_slash", "Disarming slash", "swordplay", 4, "L1261-1265", "L1262",
        tags="UFA"),
    _fa("draw_closer", "Draw closer (force pull)", "swordplay", 6, "L1266-1270", "L1266"),
    _fa("kinetic_combat", "Kinetic combat", "swordplay", 8, "L1271-1277", "L1272", tags="UFA"),
    _fa("lightsaber_throw", "Lightsaber throw", "swordplay", 4, "L1278-1281", "L1279"),
    _fa("pass_the_blade", "Pass the blade", "swordplay", 6, "L1282-1287", "L1283", tags="UFA"),
    _fa("redirect_shot", "Redirect shot", "swordplay", 4, "L1288-1295", "L1289",
        requires=("deflect",)),
    # Tagged D with no DS grade printed (digest ambiguity 11).
    _fa("tempered_aggression", "Tempered aggression", "swordplay", 7, "L1296-1302", "L1298",
        tags="D UFA", not_dark_with_merit="vaapad"),  # L1300
    _fa("vornskrs_ferocity", "Vornskr's ferocity", "swordplay", 7, "L1303-1310", "L1305",
        tags="D UFA", not_dark_with_merit="juyo"),  # L1307
)
# fmt: on

FORCE_ABILITY_BY_SLUG: dict[str, ForceAbility] = {a.slug: a for a in FORCE_ABILITIES}
FORCE_ABILITIES_BY_TREE: dict[str, tuple[ForceAbility, ...]] = {
    k.slug: tuple(a for a in FORCE_ABILITIES if a.tree == k.slug) for k in FORCE_KNOWLEDGES
}

# ---------------------------------------------------------------------------------------
# Weapon techniques: each Firearms or Melee dot grants one; more cost 2 XP (L238, L240, L316)


@dataclass(frozen=True)
class WeaponTechnique:
    """A weapon family one Firearms or Melee dot (or 2 XP) makes a character skilled with.

    `one_per_kind` marks "special weapons", where each kind is its own technique;
    `storyteller_grants` marks lightsabers, which the Storyteller must allow (L240).
    """

    slug: str
    name: str
    skill: str
    source: str
    examples: tuple[str, ...] = ()
    one_per_kind: bool = False
    storyteller_grants: bool = False


# fmt: off
FIREARMS_TECHNIQUES: tuple[WeaponTechnique, ...] = (
    WeaponTechnique("blaster_pistols", "Blaster pistols", "firearms", "L238"),
    WeaponTechnique("blaster_rifles", "Blaster rifles", "firearms", "L238"),
    WeaponTechnique("heavy_weapons", "Heavy weapons", "firearms", "L238"),
    WeaponTechnique("archaic_weapons", "Archaic weapons", "firearms", "L238", ("bullet weapons",)),
    WeaponTechnique("gunnery", "Gunnery", "firearms", "L238"),
    WeaponTechnique("special_weapons", "Special weapons", "firearms", "L238",
                    ("flamethrower", "disruptor"), one_per_kind=True),
)
# fmt: on

# fmt: off
MELEE_TECHNIQUES: tuple[WeaponTechnique, ...] = (
    WeaponTechnique("simple_weapons", "Simple weapons", "melee", "L240",
                    ("club", "knife", "dagger")),
    WeaponTechnique("vibroblades", "Vibroblades", "melee", "L240", ("vibrorapier", "vibrosword")),
    WeaponTechnique("swords", "Swords", "melee", "L240",
                    ("long sword", "two-handed sword", "Sith sword")),
    WeaponTechnique("pole_arms", "Pole-arms", "melee", "L240", ("pike", "lance", "poleaxe")),
    WeaponTechnique("axes", "Axes", "melee", "L240", ("axe", "moil")),
    WeaponTechnique("missile_weapons", "Missile weapons", "melee", "L240", ("atlatl", "cesta")),
    WeaponTechnique("special_weapons", "Special weapons", "melee", "L240", one_per_kind=True),
    WeaponTechnique("lightsabers", "Lightsabers", "melee", "L240", storyteller_grants=True),
)
# fmt: on

WEAPON_TECHNIQUES_BY_SKILL: dict[str, dict[str, WeaponTechnique]] = {
    "firearms": {t.slug: t for t in FIREARMS_TECHNIQUES},
    "melee": {t.slug: t for t in MELEE_TECHNIQUES},
}
