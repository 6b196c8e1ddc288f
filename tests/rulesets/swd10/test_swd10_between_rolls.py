"""SWd10 spends between rolls, as pure rules (seed 000, issue 27): a Destiny point once a
scene (L91-94) or on a once-a-round use no roll carries (L86-89), current Power at a round's
start (L104-105), a full rest (L100, L176). Numbers from the seed; Hypothesis holds the
pools between 0 and their permanent values whatever is asked."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.core.rolls import InvalidRoll
from rulesets.swd10 import dice, spends

ROUND = spends.RoundState("Ambush", 2)
SCENE = spends.SceneState("Ambush")
HERO = spends.Pools(
    destiny_points=2, willpower=5, willpower_current=1, power=4, power_current=3,
    incapacitated=False,
)  # fmt: skip


def _pools(**changes) -> spends.Pools:
    return spends.Pools(**(HERO.__dict__ | changes))


# (action, raw, edits written, facts logged, source)
WRITES = [
    (
        "destiny_willpower",
        {},
        {"destiny.refill": "yes"},
        {"destiny_scene": "destiny_willpower"},
        "L93",
    ),
    (
        "destiny_outstanding",
        {"note": "Talks the Hutt down", "approved": "yes"},
        {"info.destiny_points": "1"},
        {"destiny_scene": "destiny_outstanding"},
        "L94",
    ),
    (
        "destiny_intercept",
        {"note": "Tam"},
        {"info.destiny_points": "1"},
        {"destiny": "destiny_intercept"},
        "L86",
    ),
    (
        "destiny_flaw",
        {"note": "Greedy"},
        {"info.destiny_points": "1"},
        {"destiny": "destiny_flaw"},
        "L88",
    ),
    (
        "power_round",
        {"power_damage": "2", "power_actions": "1"},
        {"power_current": "0"},
        {"power_round_damage": 2, "power_round_actions": 1},
        "L104-105",
    ),
    (
        "full_rest",
        {},
        {"power_current": "0", "willpower_current": "2"},
        {"rest": True},
        "L100, L176",
    ),
]


@pytest.mark.parametrize(("action", "raw", "edits", "facts", "source"), WRITES)
def test_each_spend_writes_the_seeds_numbers(action, raw, edits, facts, source):
    spent = spends.between(action, HERO, ROUND, SCENE, raw)
    assert spent.edits == edits, source
    assert spent.facts == facts, source
    assert spent.line


def test_the_intercept_says_it_writes_nothing_by_itself():
    spent = spends.between("destiny_intercept", HERO, ROUND, SCENE, {"note": "Tam"})
    assert "Nothing is written on either sheet by itself" in " ".join(spent.details)
    assert set(spent.edits) == {"info.destiny_points"}


# (action, pools, round, scene, raw, message)
REFUSED = [
    (
        "destiny_willpower",
        HERO,
        ROUND,
        spends.SceneState("Ambush", "destiny_outstanding"),
        {},
        "one a scene (L91)",
    ),
    (
        "destiny_outstanding",
        HERO,
        ROUND,
        spends.SceneState("Ambush", "destiny_willpower"),
        {"note": "x", "approved": "yes"},
        "one a scene (L91)",
    ),
    (
        "destiny_flaw",
        HERO,
        spends.RoundState("Ambush", 2, "successes"),
        SCENE,
        {"note": "x"},
        "one a round (L81)",
    ),
    (
        "destiny_intercept",
        HERO,
        spends.RoundState("Ambush", 2, "destiny_flaw"),
        SCENE,
        {"note": "x"},
        "one a round (L81)",
    ),
    ("destiny_death", HERO, ROUND, SCENE, {}, "Only while Incapacitated (L89)"),
    (
        "destiny_flaw",
        _pools(destiny_points=0),
        ROUND,
        SCENE,
        {"note": "x"},
        "No Destiny point left",
    ),
    ("destiny_flaw", HERO, ROUND, SCENE, {"note": "  "}, "say it in the note"),
    ("destiny_flaw", HERO, ROUND, SCENE, {"note": "a\x00b"}, "plain text only"),
    ("destiny_willpower", _pools(willpower_current=5), ROUND, SCENE, {}, "already full"),
    ("power_round", HERO, None, SCENE, {"power_damage": "1"}, "Outside a scene"),
    (
        "power_round",
        HERO,
        spends.RoundState("Ambush", 2, power_damage=1, power_paid=True),
        SCENE,
        {"power_damage": "1"},
        "already spent at the start of round 2",
    ),
    ("power_round", HERO, ROUND, SCENE, {"power_damage": "4"}, "Only 3 current Power left"),
    (
        "power_round",
        HERO,
        ROUND,
        SCENE,
        {"power_damage": "2", "power_actions": "2"},
        "Only 3 current Power left",
    ),
    ("power_round", HERO, ROUND, SCENE, {}, "at least 1 point"),
    ("power_round", HERO, ROUND, SCENE, {"power_actions": "1.5"}, "a whole number"),
    ("power_round", HERO, ROUND, SCENE, {"power_actions": "9" * 400}, "a whole number"),
    ("buy_a_ship", HERO, ROUND, SCENE, {}, "Nothing of that name"),
]


@pytest.mark.parametrize(("action", "pools", "state", "scene", "raw", "message"), REFUSED)
def test_refusals_name_their_reason(action, pools, state, scene, raw, message):
    with pytest.raises(InvalidRoll) as refused:
        spends.between(action, pools, state, scene, raw)
    assert message in refused.value.message


def test_outside_a_scene_the_destiny_uses_say_the_table_keeps_the_count():
    spent = spends.between("destiny_flaw", HERO, None, None, {"note": "Greedy"})
    assert "the table keeps the once-a-round count" in " ".join(spent.details)
    refill = spends.between("destiny_willpower", HERO, None, None, {})
    assert "the table keeps the once-a-scene count" in " ".join(refill.details)


def test_a_between_rolls_destiny_point_counts_for_the_round_as_a_rolls_does():
    logged = [{"destiny": "destiny_intercept", "scene_id": 1, "scene_round": 2}]
    state = dice.round_state("Ambush", 2, logged)
    assert state.destiny_spent == "destiny_intercept"
    assert "intercept damage for an ally" in spends.destiny_help(state)
    paid = dice.round_state("Ambush", 2, [{"power_round_damage": 2, "power_round_actions": 0}])
    assert (paid.power_damage, paid.power_actions, paid.power_paid) == (2, 0, True)
    scene = dice.scene_state("Ambush", [{"destiny_scene": "destiny_willpower"}])
    assert scene.destiny_spent == "destiny_willpower"


ACTIONS = sorted([*spends.SCENE_SPENDS, *spends.ELSEWHERE_SPENDS, "power_round", "full_rest"])


@given(
    action=st.sampled_from(ACTIONS),
    willpower=st.integers(1, 10),
    willpower_current=st.integers(0, 10),
    power=st.integers(0, 10),
    power_current=st.integers(0, 10),
    destiny=st.integers(0, 10),
    incapacitated=st.booleans(),
    damage=st.integers(0, 12),
    actions=st.integers(0, 12),
)
def test_pools_stay_between_nothing_and_their_permanent_values(
    action, willpower, willpower_current, power, power_current, destiny, incapacitated, damage,
    actions,
):  # fmt: skip
    pools = spends.Pools(
        destiny_points=destiny,
        willpower=willpower,
        willpower_current=min(willpower_current, willpower),
        power=power,
        power_current=min(power_current, power),
        incapacitated=incapacitated,
    )
    raw = {
        "note": "Tam",
        "approved": "yes",
        "power_damage": str(damage),
        "power_actions": str(actions),
    }
    try:
        spent = spends.between(action, pools, ROUND, SCENE, raw)
    except InvalidRoll:
        return
    edits = dict(spent.edits)
    if edits.pop("destiny.refill", None):  # the sheet's own edit: Willpower to full (L93)
        edits |= {"willpower_current": str(willpower), "info.destiny_points": str(destiny - 1)}
    after_willpower = int(edits.get("willpower_current", pools.willpower_current))
    after_power = int(edits.get("power_current", pools.power_current))
    after_destiny = int(edits.get("info.destiny_points", destiny))
    assert 0 <= after_willpower <= willpower
    assert 0 <= after_power <= power
    assert 0 <= after_destiny <= destiny
