"""Star O.R.E. catalogs as data: stats, skills, species, abilities, Force, gear, wounds.

Source: seeds/001_2d19305c3127dd9e.txt (cited as L<n>); digest: rules/ore.md. Entries the
digest proposes rather than the seed prints say so in their `source` ("proposal").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulesets.core import Setting
from rulesets.ore.dice import DICE_SETTINGS

# --- Stats (L29, L640-L652, sheet L1106-L1116) -------------------------------------------


@dataclass(frozen=True)
class Stat:
    slug: str
    label: str
    source: str


STATS: tuple[Stat, ...] = (
    Stat("body", "Body", "L642"),
    Stat("coordination", "Coordination", "L644"),
    Stat("sense", "Sense", "L646"),
    Stat("brains", "Brains", "L648"),
    Stat("command", "Command", "L650"),
    Stat("cool", "Cool", "L652"),
)
STAT_BY_SLUG = {stat.slug: stat for stat in STATS}
STAT_MINIMUM = 1  # L760: everyone starts at 1d; L640: 1d is the floor
HUMAN_STAT_MAXIMUM = 5  # L640

# --- Skills (L664-L736) -------------------------------------------------------------------


@dataclass(frozen=True)
class Skill:
    slug: str
    label: str
    stat: str
    source: str
    # Language, Lore, Pilot and Profession are written "Skill [specialty]" (L696-L716).
    takes_specialty: bool = False
    # Some actions cannot even be attempted without dice in the skill (L660).
    needs_dice_to_try: bool = False


SKILLS: tuple[Skill, ...] = (
    Skill("acrobatics", "Acrobatics", "coordination", "L664"),
    Skill("athletics", "Athletics", "body", "L666"),
    Skill("blaster", "Blaster", "coordination", "L668"),
    Skill("bluff", "Bluff", "cool", "L670"),
    Skill("brawling", "Brawling", "body", "L672"),
    Skill("computer_use", "Computer Use", "brains", "L674"),
    Skill("demolitions", "Demolitions", "brains", "L676"),
    Skill("diplomacy", "Diplomacy", "command", "L678"),
    Skill("dodge", "Dodge", "coordination", "L680"),
    Skill("first_aid", "First Aid", "brains", "L682"),
    Skill("gunnery", "Gunnery", "coordination", "L684"),
    Skill("health", "Health", "body", "L686"),
    Skill("heavy_weapons", "Heavy Weapons", "coordination", "L688"),
    Skill("interrogation", "Interrogation", "command", "L690"),
    Skill("intimidation", "Intimidation", "command", "L692"),
    Skill("investigation", "Investigation", "brains", "L694"),
    Skill("language", "Language", "brains", "L696", takes_specialty=True, needs_dice_to_try=True),
    Skill("leadership", "Leadership", "command", "L698"),
    Skill("lie", "Lie", "cool", "L700"),
    Skill("lightsaber", "Lightsaber", "coordination", "L702", needs_dice_to_try=True),
    Skill("lore", "Lore", "brains", "L704", takes_specialty=True),
    Skill("medicine", "Medicine", "brains", "L706"),
    Skill("meditation", "Meditation", "cool", "L708"),
    Skill("melee_weapons", "Melee Weapons", "body", "L710"),
    Skill("pilot", "Pilot", "coordination", "L712", takes_specialty=True),
    Skill("persuade", "Persuade", "command", "L714"),
    Skill("profession", "Profession", "brains", "L716", takes_specialty=True),
    Skill("running", "Running", "body", "L718"),
    Skill("sight", "Sight", "sense", "L720"),
    Skill("stability", "Stability", "cool", "L722"),
    Skill("stealth", "Stealth", "coordination", "L724"),
    Skill("streetwise", "Streetwise", "cool", "L726"),
    Skill("survival", "Survival", "brains", "L728"),
    Skill("tactics", "Tactics", "brains", "L730"),
    Skill("throw_grenade", "Throw Grenade", "coordination", "L732"),
    Skill("tech", "Tech", "brains", "L734"),
    Skill("two_weapon_fighting", "Two-Weapon Fighting", "coordination", "L736"),
    # Named by rolls elsewhere in the seed but missing from the list (digest §1.3 proposal).
    Skill("resist", "Resist", "cool", "L1044 (proposal)"),
    Skill("endurance", "Endurance", "body", "L444 (proposal)"),
    Skill("drive", "Drive", "coordination", "L468 (proposal)"),
)
SKILL_BY_SLUG = {skill.slug: skill for skill in SKILLS}
SKILL_BY_LABEL = {skill.label.lower(): skill for skill in SKILLS}
SKILL_MINIMUM = 0
SKILL_MAXIMUM = 5  # L25, L62
STARTING_LANGUAGE_DICE = 2  # L762: Language [native] 2d and Language [Basic] 2d are free

# --- Costs (L776-L788) --------------------------------------------------------------------

STAT_DIE_COST = 5  # L778
SKILL_DIE_COST = 2  # L780
WILLPOWER_POINT_COST = 3  # L782
EXTRA_CURRENT_WILLPOWER_COST = 1  # L784
POWER_DIE_COST = 5  # L786
POWER_HARD_DIE_COST = 10  # L786
POWER_WIGGLE_DIE_COST_PRINTED = 5  # L786 as printed (digest §2.3 flags it)
POWER_WIGGLE_DIE_COST_CORRECTED = 20  # digest §2.3: the 1:2:4 ratio used everywhere else
STUNT_DIE_COST = 2  # L788
POWER_MAXIMUM_DICE = 10  # L876
ROLL_CAP = 10  # L70: never roll more than 10 dice

# --- Species (L790-L814) ------------------------------------------------------------------


@dataclass(frozen=True)
class Species:
    slug: str
    label: str
    cost: int
    source: str
    # A stat bonus raises that stat's maximum; the dice are still bought (L792).
    stat_max_bonus: dict[str, int] = field(default_factory=dict)
    # Free skill hard dice the species brings: {skill slug: (specialty, hard dice)}.
    skill_hard_dice: dict[str, tuple[str, int]] = field(default_factory=dict)
    natural_ar: int = 0
    extra_wound_boxes: int = 0
    droid: bool = False
    abilities: tuple[str, ...] = ()


SPECIES: tuple[Species, ...] = (
    Species("human", "Human", 0, "L29 (proposal: humans cost 0)"),
    Species("bothan", "Bothan", 5, "L796", stat_max_bonus={"cool": 1}),
    Species("cerean", "Cerean", 5, "L798", stat_max_bonus={"brains": 1}),
    Species(
        "droid",
        "Droid",
        5,  # printed cost; the droid_species_cost setting offers 15 (digest §2.5)
        "L800",
        natural_ar=1,
        droid=True,
        abilities=("AR 1 (natural armor)", "Low-light vision", "No Willpower, no Force Sense"),
    ),
    Species(
        "ithorian",
        "Ithorian",
        4,
        "L802",
        skill_hard_dice={"lore": ("nature", 1)},
        abilities=("Lore [nature] +1hd",),
    ),
    Species("mon_calamari", "Mon Calamari", 5, "L804", abilities=("Breathe underwater",)),
    Species("rodian", "Rodian", 5, "L806", stat_max_bonus={"sense": 1}),
    Species("sullustan", "Sullustan", 10, "L808", abilities=("Darkvision",)),
    Species("trandoshan", "Trandoshan", 5, "L810", stat_max_bonus={"body": 1}),
    Species("twilek", "Twi'lek", 5, "L812", abilities=("Low-light vision",)),
    Species(
        "wookiee",
        "Wookiee",
        20,
        "L814",
        stat_max_bonus={"body": 2, "command": -1},
        extra_wound_boxes=1,
        abilities=(
            "Speaks only Shyriiwook",
            "Heals twice as fast",
            "Massive: +1 hand-to-hand damage, +1 wound box per location, x2 mass, x2 lifting",
            "Wookiee rage: 1 Willpower per round for +1hd Body and shrug off 1 damage per attack",
        ),
    ),
)
SPECIES_BY_SLUG = {species.slug: species for species in SPECIES}
CUSTOM_SPECIES = "custom"  # the sheet's own species, picked from the compendium (issue 26)
DROID_SPECIES_COST_DERIVED = 15  # digest §2.5: AR 1 (10) + low-light vision (5) from L849-L851

# --- Abilities for droids, aliens and cyborgs (L844-L858) ---------------------------------


@dataclass(frozen=True)
class Ability:
    slug: str
    label: str
    cost_per_level: int
    source: str
    # "stat" or "skill" when the ability applies to one trait; "" when it is general.
    target: str = ""


ABILITIES: tuple[Ability, ...] = (
    Ability("low_light_vision", "Low-light vision", 5, "L849"),
    Ability("darkvision", "Darkvision", 10, "L849"),
    Ability("massive", "Massive (+1 wound box per location per level)", 10, "L850"),
    Ability("armor", "Armor (per AR)", 10, "L851"),
    Ability("breathe_underwater", "Breathe underwater", 5, "L852"),
    Ability("poison_gas_filter", "Poison gas filter", 5, "L852"),
    Ability("stat_hard_die", "Stat hard die", 10, "L855", target="stat"),
    Ability("stat_wiggle_die", "Stat wiggle die", 20, "L855", target="stat"),
    Ability("skill_hard_die", "Skill hard die", 4, "L856", target="skill"),
    Ability("skill_wiggle_die", "Skill wiggle die", 8, "L856", target="skill"),
    Ability("unarmed_normal_damage", "Inflict normal damage unarmed", 10, "L857"),
    Ability("higher_stat_maximum", "Higher maximum stat (per die)", 5, "L858", target="stat"),
)
ABILITY_BY_SLUG = {ability.slug: ability for ability in ABILITIES}
ABILITY_MAXIMUM_LEVEL = 10

# --- Force powers and stunts (L860-L1070) -------------------------------------------------


@dataclass(frozen=True)
class Power:
    slug: str
    label: str
    source: str
    # Everyone sentient has 1d Force Sense for free (L740, L766); it needs no GM permission.
    free_dice: int = 0
    needs_permission: bool = True


POWERS: tuple[Power, ...] = (
    Power("force_sense", "Force Sense", "L868", free_dice=1, needs_permission=False),
    Power("energy_manipulation", "Energy Manipulation", "L872"),
    Power("physical_control", "Physical Control", "L870"),
    Power("mental_influence", "Mental Influence", "L874"),
)
POWER_BY_SLUG = {power.slug: power for power in POWERS}


@dataclass(frozen=True)
class ForceTechnique:
    """A core power (comes with its Force power) or a stunt (bought at 2 per die)."""

    slug: str
    label: str
    power: str
    stunt: bool
    source: str
    side: str = ""  # "DS", "LS" or ""; L926-L928
    willpower: str = ""  # extra Willpower price when it succeeds (L892)
    needs_no_dsp: bool = False  # One With the Force (L958)


FORCE_TECHNIQUES: tuple[ForceTechnique, ...] = (
    # Force Sense (L934-L964)
    ForceTechnique(
        "avoid_harm", "Avoid Harm", "force_sense", False, "L936", willpower="1 per point avoided"
    ),
    ForceTechnique(
        "intuition",
        "Intuition",
        "force_sense",
        False,
        "L938",
        willpower="1 per die, 2 per hard die, 4 per wiggle die",
    ),
    # Called "Lightsaber Defense" once at L950 (digest: typo).
    ForceTechnique("blaster_defense", "Blaster Defense", "force_sense", True, "L948"),
    ForceTechnique("drain_knowledge", "Drain Knowledge", "force_sense", True, "L952", side="DS"),
    ForceTechnique("empathy", "Empathy", "force_sense", True, "L954"),
    ForceTechnique("farseeing", "Farseeing", "force_sense", True, "L956"),
    ForceTechnique(
        "one_with_the_force",
        "One With the Force",
        "force_sense",
        True,
        "L958",
        needs_no_dsp=True,
    ),
    ForceTechnique("psychometry", "Psychometry", "force_sense", True, "L960"),
    ForceTechnique("see_force", "See Force", "force_sense", True, "L962"),
    ForceTechnique("sense_thoughts", "Sense Thoughts", "force_sense", True, "L964"),
    # Energy Manipulation (L970-L1006)
    ForceTechnique(
        "move_object",
        "Move Object",
        "energy_manipulation",
        False,
        "L972",
        willpower="1 per doubling of mass",
    ),
    ForceTechnique("force_push", "Force Push", "energy_manipulation", False, "L974"),
    ForceTechnique("repulsion", "Repulsion", "energy_manipulation", False, "L976"),
    ForceTechnique(
        "dissipate_energy",
        "Dissipate Energy",
        "energy_manipulation",
        True,
        "L980",
        willpower="1 to drain a power cell, 2 for a large cell (sentient droids need DSP)",
    ),
    ForceTechnique("drain_force", "Drain Force", "energy_manipulation", True, "L984", side="DS"),
    ForceTechnique(
        "force_alchemy",
        "Force Alchemy",
        "energy_manipulation",
        True,
        "L986",
        side="DS",
        willpower="permanent Willpower, as the GM decides",
    ),
    ForceTechnique("force_fist", "Force Fist", "energy_manipulation", True, "L988"),
    ForceTechnique("force_grip", "Force Grip", "energy_manipulation", True, "L990", side="DS"),
    ForceTechnique("force_jump", "Force Jump", "energy_manipulation", True, "L992"),
    ForceTechnique(
        "force_light", "Force Light", "energy_manipulation", True, "L994", side="LS", willpower="1"
    ),
    ForceTechnique(
        "force_lightning",
        "Force Lightning",
        "energy_manipulation",
        True,
        "L996",
        side="DS",
        willpower="1",
    ),
    ForceTechnique("hurl_object", "Hurl Object", "energy_manipulation", True, "L998"),
    ForceTechnique("summon_storm", "Summon Storm", "energy_manipulation", True, "L1000"),
    ForceTechnique("throw_lightsaber", "Throw Lightsaber", "energy_manipulation", True, "L1002"),
    ForceTechnique("weaken_object", "Weaken Object", "energy_manipulation", True, "L1004"),
    ForceTechnique(
        "whirlwind", "Whirlwind", "energy_manipulation", True, "L1006", willpower="1 per round"
    ),
    # Physical Control (L1012-L1036)
    ForceTechnique("enhance_strength", "Enhance Strength", "physical_control", False, "L1014"),
    ForceTechnique("enhance_agility", "Enhance Agility", "physical_control", False, "L1016"),
    ForceTechnique(
        "battlemind", "Battlemind", "physical_control", True, "L1020", willpower="1 per round"
    ),
    ForceTechnique("burst_of_speed", "Burst of Speed", "physical_control", True, "L1022"),
    ForceTechnique("create_life", "Create Life", "physical_control", True, "L1024", side="DS"),
    ForceTechnique(
        "extra_actions", "Extra Actions", "physical_control", True, "L1026", willpower="1 per round"
    ),
    ForceTechnique(
        "healing",
        "Healing",
        "physical_control",
        True,
        "L1028",
        side="LS",
        willpower="1 per point healed or converted",  # L1028
    ),
    ForceTechnique("prolong_force", "Prolong Force", "physical_control", True, "L1030"),
    ForceTechnique(
        "prolong_life",
        "Prolong Life",
        "physical_control",
        True,
        "L1032",
        side="DS",
        willpower="1 per round of delay; 1 permanent per year",
    ),
    ForceTechnique(
        "rage", "Rage", "physical_control", True, "L1034", side="DS", willpower="1 per round"
    ),
    ForceTechnique("sickness", "Sickness", "physical_control", True, "L1036", side="DS"),
    # Mental Influence (L1042-L1070)
    ForceTechnique("friendship", "Friendship", "mental_influence", False, "L1044"),
    ForceTechnique("mental_defense", "Mental Defense", "mental_influence", False, "L1046"),
    ForceTechnique("affect_mind", "Affect Mind", "mental_influence", True, "L1050"),
    ForceTechnique(
        "battle_meditation",
        "Battle Meditation",
        "mental_influence",
        True,
        "L1052",
        willpower="1 per round",
    ),
    ForceTechnique("beast_language", "Beast Language", "mental_influence", True, "L1054"),
    ForceTechnique(
        "control_mind",
        "Control Mind",
        "mental_influence",
        True,
        "L1056",
        side="DS",
        willpower="1 per round; each point x10 targets",
    ),
    ForceTechnique("fear", "Fear", "mental_influence", True, "L1058", side="DS"),
    ForceTechnique(
        "illusion", "Illusion", "mental_influence", True, "L1060", willpower="1 per round"
    ),
    ForceTechnique("inspire", "Inspire", "mental_influence", True, "L1062"),
    ForceTechnique("mask_force", "Mask Force", "mental_influence", True, "L1064"),
    ForceTechnique(
        "sith_sorcery",
        "Sith Sorcery",
        "mental_influence",
        True,
        "L1066",
        side="DS",
        willpower="1 per round",
    ),
    ForceTechnique("telepathy", "Telepathy", "mental_influence", True, "L1068"),
)
TECHNIQUE_BY_SLUG = {technique.slug: technique for technique in FORCE_TECHNIQUES}
STUNTS: tuple[ForceTechnique, ...] = tuple(t for t in FORCE_TECHNIQUES if t.stunt)
STUNT_BY_SLUG = {stunt.slug: stunt for stunt in STUNTS}
STUNT_MAXIMUM_DICE = 10  # a stunt's dice join its power's pool, which rolls at most 10 (L70)
SIDE_LABELS = {"DS": "Dark Side", "LS": "Light Side"}

# --- Lightsaber forms (L1072-L1088) -------------------------------------------------------


@dataclass(frozen=True)
class LightsaberForm:
    slug: str
    label: str
    exemplars: str
    favored_move: str
    source: str


LIGHTSABER_FORMS: tuple[LightsaberForm, ...] = (
    LightsaberForm("i", "Form I", "Qui-Gon Jinn", "Block and attack in the same round", "L1076"),
    LightsaberForm("ii", "Form II", "Count Dooku", "Feint", "L1078"),
    LightsaberForm("iii", "Form III", "Obi-Wan Kenobi", "Riposte", "L1080"),
    LightsaberForm("iv", "Form IV", "Darth Maul, Yoda", "Snap shot", "L1082"),
    LightsaberForm("v", "Form V", "Anakin Skywalker", "Power attack", "L1084"),
    LightsaberForm("vi", "Form VI", "Adi Gallia", "Disarm", "L1086"),
    LightsaberForm("vii", "Form VII", "Mace Windu", "Called shot", "L1088"),
)
FORM_BY_SLUG = {form.slug: form for form in LIGHTSABER_FORMS}
BASIC_FORM = "i"  # L1074: every Jedi knows Form I

# --- Hit locations (L221-L228) ------------------------------------------------------------


@dataclass(frozen=True)
class HitLocation:
    slug: str
    label: str
    heights: tuple[int, ...]
    boxes: int
    limb: bool
    source: str


HIT_LOCATIONS: tuple[HitLocation, ...] = (
    HitLocation("right_leg", "Right Leg", (1,), 5, True, "L222"),
    HitLocation("left_leg", "Left Leg", (2,), 5, True, "L223"),
    HitLocation("right_arm", "Right Arm", (3, 4), 5, True, "L224"),
    HitLocation("left_arm", "Left Arm", (5, 6), 5, True, "L225"),
    HitLocation("torso", "Torso", (7, 8), 6, False, "L226"),
    HitLocation("vitals", "Vitals", (9,), 4, False, "L227"),
    HitLocation("head", "Head", (10,), 4, False, "L228"),
)
LOCATION_BY_SLUG = {location.slug: location for location in HIT_LOCATIONS}
LOCATION_BY_HEIGHT = {h: location for location in HIT_LOCATIONS for h in location.heights}
BOX_EMPTY, BOX_SHOCK, BOX_KILLING = "", "shock", "killing"  # "/" is Shock, "X" normal (L207, L213)
BOX_STATES = (BOX_EMPTY, BOX_SHOCK, BOX_KILLING)
BOX_MARKS = {BOX_EMPTY: "", BOX_SHOCK: "/", BOX_KILLING: "X"}

# What a location full of Shock means (L213-L217) and full of normal damage (L207-L211).
DISABLED_EFFECT = {
    "limb": "disabled: the limb cannot be used until a box recovers",
    "torso": "disabled: nothing strenuous, but still conscious",
    "vitals": "disabled: in too much pain to act",
    "head": "knocked out",
}
DESTROYED_EFFECT = {
    "limb": "destroyed: unusable, -1d to all actions, roll Cool+Stability at once",
    "torso": "destroyed: dead or mortally wounded, as the GM decides",
    "vitals": "destroyed: dead or mortally wounded, as the GM decides",
    "head": "destroyed: dead or mortally wounded, as the GM decides",
}
DROID_LIMB_NOTE = "a droid is never incapacitated by a lost limb"  # L820

# --- Personal armor (L386-L399) -----------------------------------------------------------

ALL_LOCATIONS = tuple(location.slug for location in HIT_LOCATIONS)


@dataclass(frozen=True)
class Armor:
    slug: str
    label: str
    ar: int
    coordination_penalty: int  # dice lost from Coordination, never below 1d (L232)
    move: int  # metres per round
    special: str
    source: str
    covers: tuple[str, ...] = ALL_LOCATIONS


ARMORS: tuple[Armor, ...] = (
    Armor("blast_vest", "Blast vest", 3, 1, 10, "", "L389", covers=("torso",)),
    Armor(
        "thick_furs", "Thick furs or leathers", 1, 1, 10, "-1d Sense with hood or helmet", "L390"
    ),
    Armor("combat_jumpsuit", "Combat jumpsuit, helmet", 2, 1, 10, "-1d Sense with helmet", "L391"),
    Armor(
        "armored_flight_suit",
        "Armored flight suit",
        3,
        1,
        8,
        "Cold resistant, -1d Sense with helmet",
        "L392",
    ),
    Armor("light_battle_armor", "Light battle armor", 3, 1, 8, "-1d Sense with helmet", "L393"),
    Armor("medium_battle_armor", "Medium battle armor", 4, 1, 8, "-1d Sense with helmet", "L394"),
    Armor("heavy_battle_armor", "Heavy battle armor", 6, 2, 6, "-1d Sense with helmet", "L395"),
    Armor(
        "armored_spacesuit",
        "Armored spacesuit",
        6,
        2,
        6,
        "Life support systems, cold resistant, -1d Sense with helmet",
        "L396",
    ),
    Armor(
        "stormtrooper_armor",
        "Stormtrooper armor",
        3,
        1,
        8,
        "Low-light vision, +1d Survival, -1d Sense with helmet",
        "L397",
    ),
    Armor(
        "corellian_powersuit",
        "Corellian powersuit",
        3,
        1,
        8,
        "+1hd Body, -1d Sense with helmet",
        "L398",
    ),
    Armor(
        "battleframe",
        "Battleframe",
        2,
        3,
        6,
        "Mounts for 3 weapons, -1d Sense with helmet",
        "L399",
    ),
)
ARMOR_BY_SLUG = {armor.slug: armor for armor in ARMORS}
ARMOR_ROWS = 2  # sheet L1135-L1136

# --- Weapons (L401-L444) ------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    slug: str
    label: str
    category: str
    damage: str
    source: str
    penetration: int = 0
    initiative: int = 0
    special: str = ""


WEAPONS: tuple[Weapon, ...] = (
    Weapon("unarmed", "Unarmed", "melee", "width in Shock", "L404"),
    Weapon("club", "Club", "melee", "width+1 in Shock", "L405"),
    Weapon("quarterstaff", "Quarterstaff", "melee", "width+2 in Shock", "L406", special="Dual"),
    Weapon("stun_baton", "Stun baton", "melee", "width+2 in Shock", "L407", special="Daze"),
    Weapon("knife", "Knife", "melee", "width", "L408"),
    Weapon("vibroknife", "Vibroknife", "melee", "width", "L409", penetration=2),
    Weapon("sword", "Sword", "melee", "width+1", "L410"),
    Weapon("vibrosword", "Vibrosword", "melee", "width+1", "L411", penetration=2),
    Weapon("spear", "Spear", "melee", "width+1", "L412", penetration=1),
    Weapon("force_pike", "Force pike", "melee", "width+2", "L413", penetration=2, special="Stun"),
    Weapon("vibro_ax", "Vibro-ax", "melee", "width+3", "L414", penetration=3),
    Weapon("lightsaber", "Lightsaber", "melee", "width+3", "L415", penetration=5, initiative=1),
    Weapon(
        "double_lightsaber",
        "Double-bladed lightsaber",
        "melee",
        "width+3",
        "L416",
        penetration=5,
        initiative=1,
        special="Dual",
    ),
    Weapon("bow", "Bow", "simple ranged", "width", "L419"),
    Weapon("sling", "Sling", "simple ranged", "width", "L420"),
    Weapon("net", "Net", "simple ranged", "none", "L421", special="-1d Coordination, half move"),
    Weapon(
        "holdout_blaster",
        "Hold-out or decorative blaster",
        "pistol",
        "width",
        "L424",
        penetration=1,
        special="Stun",
    ),
    Weapon("blaster", "Blaster", "pistol", "width+1", "L425", penetration=2, special="Stun"),
    Weapon(
        "heavy_blaster", "Heavy blaster", "pistol", "width+2", "L426", penetration=2, special="Stun"
    ),
    Weapon(
        "blaster_rifle", "Blaster rifle", "rifle", "width+2", "L429", penetration=2, special="Stun"
    ),
    Weapon("bowcaster", "Bowcaster", "rifle", "width+3", "L430", penetration=3),
    Weapon("heavy_bowcaster", "Heavy bowcaster", "rifle", "width+4", "L431", penetration=3),
    Weapon(
        "sporting_blaster_rifle",
        "Sporting blaster rifle",
        "rifle",
        "width+2",
        "L432",
        penetration=2,
        special="Stun, aim an extra round (up to +3d)",
    ),
    Weapon(
        "ion_gun",
        "Ion gun",
        "rifle",
        "width+2",
        "L433",
        penetration=3,
        special="Droids and electronics only, Daze",
    ),
    Weapon("blaster_cannon", "Blaster cannon", "heavy", "width+4", "L436", penetration=4),
    Weapon(
        "light_repeating_blaster",
        "Light repeating blaster",
        "heavy",
        "width+2",
        "L437",
        penetration=2,
        special="Spray 2",
    ),
    Weapon(
        "mounted_repeating_blaster",
        "Mounted repeating blaster",
        "heavy",
        "width+3",
        "L438",
        penetration=3,
        special="Spray 6",
    ),
    Weapon(
        "frag_grenade",
        "Frag grenade",
        "grenade",
        "width+3",
        "L441",
        penetration=3,
        special="Area 4",
    ),
    Weapon(
        "thermal_detonator",
        "Thermal detonator",
        "grenade",
        "width+6",
        "L442",
        penetration=6,
        special="Area 8, Burn",
    ),
    Weapon(
        "stun_grenade",
        "Stun grenade",
        "grenade",
        "width in Shock to each location",
        "L443",
        special="Area 1 (Shock only), Daze",
    ),
    Weapon(
        "gas_grenade",
        "Gas grenade",
        "grenade",
        "width in Shock to torso each round",
        "L444",
        special="Body+Endurance reduces it as a dodge, Daze",
    ),
)
WEAPON_BY_SLUG = {weapon.slug: weapon for weapon in WEAPONS}
WEAPON_ROWS = 10  # sheet L1139-L1148

# --- Combat maneuvers (sheet L1150-L1159, text L300-L384) ---------------------------------


@dataclass(frozen=True)
class Maneuver:
    slug: str
    label: str
    penalty: str
    source: str
    on_sheet: bool = True


MANEUVERS: tuple[Maneuver, ...] = (
    Maneuver("standard_attack", "Standard Attack", "-", "L1151"),
    Maneuver("aim", "Aim", "+1d or +2d", "L1152, L302"),
    Maneuver("dodge_block", "Dodge/Block", "-", "L1153, L308"),
    Maneuver("dive_for_cover", "Dive for Cover", "-", "L1154, L320"),
    Maneuver("suppressing_fire", "Suppressing Fire", "Roll 2d+Spray", "L1155, L344"),
    Maneuver("called_shot", "Called Shot", "-1d, set 1d", "L1156, L362"),
    Maneuver("disarm", "Disarm", "Set 1d", "L1157, L370"),
    Maneuver("wrestle", "Wrestle", "-", "L1158, L384"),
    Maneuver("choke", "Choke", "Call shot", "L1159, L366"),
    Maneuver("defensive_throw", "Defensive Throw", "-1d", "L1151, L368"),
    Maneuver("knockdown", "Knockdown", "-1d", "L1152, L374"),
    Maneuver("power_attack", "Power Attack", "-1d", "L1153, L378"),
    Maneuver("snap_shot", "Snap Shot", "-1d", "L1154, L382"),
    Maneuver("aim_high", "Aim High", "-1d", "L1155, L358"),
    Maneuver("aim_low", "Aim Low", "-1d", "L1156, L360"),
    Maneuver("feint", "Feint", "-1d", "L1157, L372"),  # the feint_penalty setting may drop it
    Maneuver("riposte", "Riposte", "-1d", "L1158, L380"),
    # In the text but not on the printed sheet (digest §1.7).
    Maneuver("charge", "Charge", "-1d", "L364", on_sheet=False),
    Maneuver("off_hand_attack", "Off-hand attack", "-1d (none with TWF)", "L376", on_sheet=False),
)

# --- Sheet text fields (L1092-L1104) ------------------------------------------------------

# The sheet's Name box (L1092) is the character's own name, kept once, outside the sheet.
INFO_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("player", "Player", "L1092"),
    ("gender", "Gender", "L1094"),
    ("career", "Career", "L1094"),
    ("age", "Age", "L1096"),
    ("height", "Height", "L1096"),
    ("weight", "Weight", "L1096"),
    ("eyes", "Eyes", "L1098"),
    ("hair", "Hair", "L1098"),
    ("skin", "Skin", "L1098"),
    ("appearance", "Appearance", "L1100"),
    ("motivations", "Motivations", "L1104"),
)
INFO_KEYS = tuple(key for key, _label, _source in INFO_FIELDS)
# Appearance and Motivations are boxes of several lines on the printed sheet.
INFO_NOTES = ("appearance", "motivations")
TEXT_MAX_LENGTH = 2000

# --- Caps the editor keeps, so that no stored list or number grows without bound ----------

MAX_POINTS = 100_000  # a creation budget, an XP award, Dark Side Points
SKILL_ROWS = 200
ABILITY_ROWS = 50
XP_AWARD_ROWS = 1000
WILLPOWER_BOUGHT_MAXIMUM = 100
GEAR_NUMBER_MAXIMUM = 50  # AR, move, penetration, initiative
ARMOR_COORDINATION_MAXIMUM = 10
SKILL_NAME_LENGTH = 100  # what a player types; "Lore [" + specialty + "]" stays under 200
ROW_TEXT_LENGTH = 200
SPECIAL_TEXT_LENGTH = 500
HOUSE_STAT_CAP_MAXIMUM = 10
# The highest a stat can hold: the highest house cap, the largest species bonus, and one
# "higher maximum" ability row at its top level.
STAT_CEILING = (
    HOUSE_STAT_CAP_MAXIMUM
    + max(bonus for s in SPECIES for bonus in [0, *s.stat_max_bonus.values()])
    + ABILITY_MAXIMUM_LEVEL
)
# The most wound boxes one location can hold: the largest location, the species' extra box
# and one "massive" ability row at its top level.
WOUND_BOX_MOST = (
    max(location.boxes for location in HIT_LOCATIONS)
    + max(s.extra_wound_boxes for s in SPECIES)
    + ABILITY_MAXIMUM_LEVEL
)

# --- Readings a GM may change, each with the seed's (or digest's) default ------------------

# Where an Ithorian's free hard die goes (L802): {reading: (skill, specialty, label)}.
ITHORIAN_SKILL_READINGS = {
    "lore_nature": ("lore", "nature", "Lore, nature"),
    "survival": ("survival", "", "Survival"),
}

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "creation_budget",
        "Character points for a new character",
        150,
        "L772 (100-200 for beginners, 400+ for heroes like Obi-Wan in Episode III)",
        help="The budget a new sheet starts with; each sheet may still set its own.",
        minimum=0,
        maximum=MAX_POINTS,
    ),
    Setting(
        "force_wiggle_cost",
        "Cost of a Force power wiggle die",
        POWER_WIGGLE_DIE_COST_PRINTED,
        "L786 prints 5; digest §2.3 suggests 20 (hard and wiggle dice cost 2x and 4x elsewhere)",
        choices=(
            (POWER_WIGGLE_DIE_COST_PRINTED, "5 CP, as printed"),
            (POWER_WIGGLE_DIE_COST_CORRECTED, "20 CP, the likely intent"),
        ),
    ),
    Setting(
        "droid_species_cost",
        "Cost of the Droid species",
        SPECIES_BY_SLUG["droid"].cost,
        "L800 prints 5; its abilities priced by L849-L851 come to 15 (digest §2.5)",
        choices=(
            (SPECIES_BY_SLUG["droid"].cost, "5 CP, as printed"),
            (DROID_SPECIES_COST_DERIVED, "15 CP, priced from the ability table"),
        ),
    ),
    Setting(
        "species_stat_penalty",
        "A species stat penalty (Wookiee -1d Command)",
        "lower_maximum",
        "L814; digest §2.5 proposal: mirror the bonus rule of L792",
        choices=(
            ("lower_maximum", "Lowers that stat's maximum"),
            ("ignored", "Has no effect on the sheet"),
        ),
    ),
    Setting(
        "willpower_basis",
        "Base Willpower counts Command + Cool",
        "final",
        "L750, L888; digest §2.1 proposal",
        choices=(
            ("final", "as bought (recomputed when they change)"),
            ("starting", "at their starting 1d each"),
        ),
    ),
    Setting(
        "ability_die_price",
        "Price of a stat or skill hard/wiggle die bought as an ability",
        "full",
        "L855-L856; digest §2.5 proposal",
        choices=(
            ("full", "The listed price is the whole die (10/20, 4/8)"),
            ("surcharge", "The listed price comes on top of a normal die (5 or 2)"),
        ),
    ),
    Setting(
        "house_stat_cap",
        "House cap on stats before species bonuses (0 = none)",
        0,
        "L768 (the GM may restrict spending); digest §2.2 proposal",
        minimum=0,
        maximum=HOUSE_STAT_CAP_MAXIMUM,
    ),
    Setting(
        "full_mixed_location",
        "A location full of Shock and normal damage together",
        "disabled",
        "L207-L219 say nothing about a mix; digest §1.4 proposal",
        choices=(
            ("disabled", "is disabled; destroyed only when every box is normal damage"),
            ("destroyed", "is destroyed as soon as one box is normal damage"),
        ),
    ),
    Setting(
        "feint_penalty",
        "Feint penalty",
        "-1d",
        "L1157 prints -1d; the Feint text (L372) names none",
        choices=(("-1d", "-1d, as on the sheet"), ("-", "none, as in the text")),
    ),
    Setting(
        "ithorian_skill_die",
        "The skill an Ithorian's free hard die goes to",
        "lore_nature",
        "L802 names a skill missing from the list (L664-L736); digest §1.3 proposal: Lore "
        "with the nature specialty",
        choices=tuple((key, label) for key, (_s, _sp, label) in ITHORIAN_SKILL_READINGS.items()),
    ),
    Setting(
        "bacta_time",
        "Bacta tank healing time",
        "5_minus_width",
        "L248 prints width - 5 hours; every other timer (L240, L822, L922) is 5 - width",
        choices=(
            ("5_minus_width", "5 - width hours"),
            ("width_minus_5", "width - 5 hours, as printed"),
        ),
    ),
)
# The dice readings (which dice a 10-dice cap drops, bad failures) live with the dice.
SETTINGS += DICE_SETTINGS
