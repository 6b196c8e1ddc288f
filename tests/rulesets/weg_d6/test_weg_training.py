"""Training time for a raise, from the seeds' own numbers: R&E days or weeks per point with
or without a teacher (002:43-55, 002:798), shortened by extra points only where the seed
says so and never below its minimum; 1E learning a Force skill in ten weeks, a week off per
skill point, never under one week (003:1762)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.weg_d6 import advancement, training, traits

SETTINGS = resolve_settings(weg.SETTINGS, {})
RE = training.RE_RULES


@pytest.mark.parametrize(
    ("rule", "points", "taught", "used", "days"),
    [
        # Blaster 4D+2 → 5D, 4 CP (digest case 10): none if used, else 4 days or 8 alone.
        pytest.param(RE[traits.SKILL], 4, True, True, None, id="002:43-used-last-adventure"),
        pytest.param(RE[traits.SKILL], 4, True, False, 4, id="002:43-taught"),
        pytest.param(RE[traits.SKILL], 4, False, False, 8, id="002:43-alone"),
        pytest.param(RE[traits.SPECIALIZATION], 3, False, False, 6, id="002:45-alone"),
        # An advanced skill 3D → 3D+1, 6 CP: 6 weeks or 12, used or not.
        pytest.param(RE[traits.ADVANCED], 6, True, True, 42, id="002:47-taught"),
        pytest.param(RE[traits.ADVANCED], 6, False, False, 84, id="002:47-alone"),
        # Strength 3D → 3D+1, 30 CP (digest case 11): 30 weeks or 60.
        pytest.param(RE[traits.ATTRIBUTE], 30, True, False, 210, id="002:51-taught"),
        pytest.param(RE[traits.ATTRIBUTE], 30, False, False, 420, id="002:51-alone"),
        # Move 10 → 11, 10 CP: 10 weeks or 20.
        pytest.param(RE[traits.MOVE], 10, False, False, 140, id="002:55-alone"),
        # Control 2D → 2D+1: 2 CP taught (2 days), 4 CP alone (8 days).
        pytest.param(RE[traits.FORCE_SKILL], 2, True, False, 2, id="002:798-taught"),
        pytest.param(RE[traits.FORCE_SKILL], 4, False, False, 8, id="002:798-alone"),
        # 1E: ten weeks to learn a Force skill, one week for a power.
        pytest.param(training.LEARN_FORCE_SKILL_1E, 0, True, False, 70, id="003:1762"),
        pytest.param(training.LEARN_POWER_1E, 0, True, False, 7, id="003:1798"),
    ],
)
def test_the_training_a_purchase_needs(rule, points, taught, used, days):
    found = training.training_for(rule, points, taught=taught, used_last_adventure=used)
    assert (found.days if found else None) == days


@pytest.mark.parametrize(
    ("rule", "points", "extra", "days"),
    [
        pytest.param(RE[traits.SKILL], 4, 3, 5, id="002:43-alone-8-days-less-3"),
        pytest.param(RE[traits.SKILL], 4, 7, 1, id="002:43-seven-extra-cp-leave-one-day"),
        pytest.param(RE[traits.FORCE_SKILL], 4, 2, 6, id="002:798-alone-8-days-less-2"),
        # Learn Sense with a master, 4 skill points: 10 - 4 = 6 weeks (003:1762).
        pytest.param(training.LEARN_FORCE_SKILL_1E, 0, 4, 42, id="003:1762-four-sp"),
        pytest.param(training.LEARN_FORCE_SKILL_1E, 0, 9, 7, id="003:1762-nine-sp-one-week"),
    ],
)
def test_extra_points_shorten_where_the_seed_allows(rule, points, extra, days):
    found = training.training_for(rule, points, taught=False, extra=extra)
    assert (found.days, found.extra) == (days, extra)


@pytest.mark.parametrize(
    ("rule", "points", "extra", "message"),
    [
        pytest.param(RE[traits.SKILL], 4, 4, "below its minimum of 1 day", id="002:43-min"),
        pytest.param(training.LEARN_FORCE_SKILL_1E, 0, 10, "minimum of 1 week", id="003:1762-min"),
        pytest.param(RE[traits.ATTRIBUTE], 30, 1, "no way to shorten", id="002:51-no-cut"),
        pytest.param(RE[traits.SKILL], 4, -1, "0 or more", id="negative"),
    ],
)
def test_extra_points_are_refused_below_the_minimum_or_where_the_seed_offers_none(
    rule, points, extra, message
):
    with pytest.raises(InvalidEdit, match=message):
        training.training_for(rule, points, taught=True, extra=extra)


def test_a_skill_used_last_adventure_has_nothing_to_shorten():
    with pytest.raises(InvalidEdit, match="nothing to shorten"):
        training.training_for(RE[traits.SKILL], 4, taught=True, used_last_adventure=True, extra=1)


RULES = st.sampled_from([*RE.values(), training.LEARN_FORCE_SKILL_1E, training.LEARN_POWER_1E])


@settings(max_examples=300)
@given(
    rule=RULES,
    points=st.integers(min_value=1, max_value=60),
    taught=st.booleans(),
    extra=st.integers(min_value=0, max_value=80),
    floor=st.sampled_from(["one_unit", "full"]),
)
def test_a_shortened_training_is_never_shorter_than_the_seeds_minimum(
    rule, points, taught, extra, floor
):
    chosen = {**SETTINGS, "training_floor": floor}
    most = training.most_extra(rule, points, taught=taught, settings=chosen)
    try:
        found = training.training_for(rule, points, taught=taught, extra=extra, settings=chosen)
    except InvalidEdit:
        assert extra > most
        return
    assert extra <= most
    assert found.days >= found.minimum_days >= 1
    if rule.minimum:
        assert found.minimum_days == rule.minimum * training.DAYS_IN[rule.unit]
    assert found.full_days - found.days == extra * rule.cut_per_point * training.DAYS_IN[rule.unit]


@pytest.mark.parametrize(
    ("days", "minimum", "new", "ok"),
    [(8, 1, 3, True), (8, 1, 0, False), (8, 1, 8, False), (70, 7, 6, False), (70, 7, 7, True)],
)
def test_the_gm_cuts_a_training_short_but_never_below_its_minimum(days, minimum, new, ok):
    if ok:
        assert training.cut_short(days, minimum, training.DAY, "002:43", new) == new
    else:
        with pytest.raises(InvalidEdit):
            training.cut_short(days, minimum, training.DAY, "002:43", new)


def _smuggler(edition: str = "2e_re") -> dict:
    sheet = weg.apply_edit(weg.demo_sheet(), "stage", "play", SETTINGS)
    sheet["edition"] = edition
    return sheet


def test_the_price_list_says_what_training_a_raise_needs():
    sheet = _smuggler()
    words = advancement.training_offer(sheet, "skill.blaster", 4, SETTINGS)
    assert words == (
        "Trains 4 days taught, 8 days alone; none if used last adventure; "
        "1 day less per extra point, at least 1 day (002:43)"
    )
    attribute = advancement.training_offer(sheet, "attr.strength", 30, SETTINGS)
    assert attribute == "Trains 30 weeks taught, 60 weeks alone (002:51)"


@pytest.mark.parametrize(("reading", "needs"), [("none", False), ("re", True)])
def test_1e_raises_other_than_the_force_train_only_under_the_reading(reading, needs):
    sheet = _smuggler("1e")
    chosen = {**SETTINGS, "training_1e": reading}
    assert (training.rule_for(sheet, "skill.blaster", chosen) is not None) is needs
