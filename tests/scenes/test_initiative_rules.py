"""Each system's initiative as the tracker orders it, table-driven from the seed lines.
Pure: the rules import no Django."""

from __future__ import annotations

import random

import pytest

from rulesets.core.initiative import Entry, InvalidInitiative, Score, order
from rulesets.o3d10 import initiative as o3d10
from rulesets.ore import initiative as ore
from rulesets.swd10 import initiative as swd10
from rulesets.weg_d6 import initiative as weg

pytestmark = pytest.mark.no_database


def names(entries):
    return [e.key for e in order(entries)]


# (system, [(name, typed score, tie traits)], expected order, seed line)
CASES = [
    # 002:442-444: Perception totals, highest first; a tie to the higher Perception code.
    (
        weg,
        [("Han", "14", (9, 10)), ("Leia", "17", (10, 9)), ("Trooper", "14", (10, 8))],
        ["Leia", "Trooper", "Han"],
        "002:444",
    ),
    # 000:L202: a tie of successes to the higher side, then Dexterity, then Wits.
    (
        swd10,
        [
            ("Kira", "3", (2, 4, 2)),
            ("Vos", "3", (2, 4, 3)),
            ("Ash", "5", (0, 2, 2)),
            ("Rook", "3", (3, 1, 1)),
        ],
        ["Ash", "Rook", "Vos", "Kira"],
        "000:L202",
    ),
    # 001:L163: width first, height breaks the tie (Luke's 2x5 before the Gamorrean's 2x4);
    # a roll with no set acts after every set.
    (
        ore,
        [
            ("Gamorrean", "2x4", ()),
            ("Luke", "2x5", ()),
            ("Droid", "none", ()),
            ("Vader", "3x1", ()),
        ],
        ["Vader", "Luke", "Gamorrean", "Droid"],
        "001:L163",
    ),
    # 004:L21-23: highest total first; a failed roll acts last, whatever its total.
    (
        o3d10,
        [("Ren", "fail", (9,)), ("Tal", "22", (5,)), ("Ves", "15", (7,))],
        ["Tal", "Ves", "Ren"],
        "004:L23",
    ),
]


@pytest.mark.parametrize(("rules", "rows", "expected", "line"), CASES, ids=[c[3] for c in CASES])
def test_the_order_follows_the_seed(rules, rows, expected, line):
    entries = [
        Entry(name, rules.typed(text), ties, position)
        for position, (name, text, ties) in enumerate(rows)
    ]
    assert names(entries) == expected


def test_a_tie_nothing_breaks_goes_to_the_roll_off_then_the_order_added():
    entries = [
        Entry("first", Score(5, "5", rolloff=3), (), 0),
        Entry("second", Score(5, "5", rolloff=8), (), 1),
        Entry("third", Score(5, "5", rolloff=8), (), 2),
    ]
    assert names(entries) == ["second", "third", "first"]


def test_who_has_not_rolled_comes_after_everyone_who_has():
    entries = [Entry("late", None, (), 0), Entry("low", Score(1, "1"), (), 1)]
    assert names(entries) == ["low", "late"]


@pytest.mark.parametrize(
    ("rules", "text"),
    [(weg, "fast"), (weg, "12.5"), (swd10, "three"), (ore, "3 by 7"), (ore, "1x5"), (o3d10, "")],
)
def test_initiative_typed_as_text_is_refused_with_a_message(rules, text):
    with pytest.raises(InvalidInitiative) as refused:
        rules.typed(text)
    assert refused.value.message


def test_ore_reads_the_widest_set_then_the_tallest():
    assert ore.best_set([3, 3, 9, 9, 9, 1]) == (3, 9)
    assert ore.best_set([4, 4, 7, 7, 2]) == (2, 7)
    assert ore.best_set([1, 2, 3]) is None


def test_1o3d10_actions_come_from_the_total():
    assert [o3d10.typed(t).actions for t in ("19", "20", "29", "31")] == [1, 2, 2, 3]  # L21


def test_swd10_side_successes_add_dice_to_the_pool():
    # Difficulty 4 (L199-200): 4 and up succeed; a 1 cancels one under the default reading.
    assert swd10.successes([4, 10, 3, 1], ones_cancel=True) == 1
    assert swd10.successes([4, 10, 3, 1], ones_cancel=False) == 2


def test_weg_rolls_perception_less_the_wound_penalty():
    sheet = {"attributes": {"perception": 9, "dexterity": 6}, "wound": "wounded"}
    assert weg.perception_pips(sheet) == 6  # 3D less 1D (003:1840)
    score = weg.roll_score(weg.perception_pips(sheet), random.Random(4))
    assert 2 <= score.value <= 12


def test_a_score_survives_being_stored():
    score = ore.typed("3x7")
    assert Score.from_data(score.as_data()) == score


@pytest.mark.parametrize(
    ("rule", "expected"),
    [("seed", ["pc", "npc"]), ("npcs_first", ["npc", "pc"]), ("players_first", ["pc", "npc"])],
)
def test_a_tie_the_system_leaves_goes_by_the_scenes_rule(rule, expected):
    # Equal totals and equal Perception and Dexterity (003:360 names the NPC first).
    from rulesets.core.initiative import side_tie

    entries = [
        Entry("pc", weg.typed("12"), (9, 9, *side_tie(rule, npc=False)), 0),
        Entry("npc", weg.typed("12"), (9, 9, *side_tie(rule, npc=True)), 1),
    ]
    assert names(entries) == expected
