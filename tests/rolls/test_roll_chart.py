"""The distribution chart's layout: one bar per result, heights in proportion, the
difficulty line at the first bar it reaches, and labels that never overlap."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from rulesets.core.rolls import Bar, Odds
from sheets.rolls.charts import (
    BASELINE,
    CHARACTER_WIDTH,
    TOP,
    chart_for,
    percent_text,
    short_labels,
)


@st.composite
def odds(draw) -> Odds:
    weights = draw(st.lists(st.integers(0, 50), min_size=1, max_size=60))
    total = sum(weights) or 1
    marked = draw(st.none() | st.integers(0, len(weights) - 1))
    word = draw(st.sampled_from(["Height", "", "successes"]))
    bars = tuple(
        Bar(
            label=f"{word} {index}".strip() if word != "successes" else f"{index} {word}",
            chance=Fraction(weight, total),
            success=marked is not None and index >= marked,
            threshold=index == marked,
        )
        for index, weight in enumerate(weights)
    )
    success = sum((bar.chance for bar in bars if bar.success), Fraction(0))
    return Odds(success=success, bars=bars, question="A roll")


@given(odds())
def test_the_chart_draws_every_bar_in_proportion_with_the_line_at_the_difficulty(odds):
    chart = chart_for(odds)
    assert len(chart.bars) == len(odds.bars)
    tallest = max(bar.chance for bar in odds.bars)
    for drawn, bar in zip(chart.bars, odds.bars, strict=True):
        assert TOP - 0.01 <= drawn.y <= BASELINE
        assert abs(drawn.y + drawn.height - BASELINE) < 0.02
        if tallest:
            assert abs(drawn.height - float(bar.chance / tallest) * (BASELINE - TOP)) < 0.02
    marked = [index for index, bar in enumerate(odds.bars) if bar.threshold]
    if marked:
        assert chart.threshold_x is not None
        assert chart.bars[marked[0]].show_label
        assert chart.threshold_x <= chart.bars[marked[0]].x
    else:
        assert chart.threshold_x is None


def _extent(bar) -> tuple[float, float]:
    width = len(bar.short_label) * CHARACTER_WIDTH
    start = {"start": 0, "middle": width / 2, "end": width}[bar.anchor]
    return bar.label_x - start, bar.label_x - start + width


@given(odds())
def test_the_labels_shown_never_overlap(odds):
    chart = chart_for(odds)
    shown = [_extent(bar) for bar in chart.bars if bar.show_label]
    for left, right in itertools.pairwise(shown):
        assert left[1] <= right[0]


def test_labels_sharing_a_word_print_it_once():
    assert short_labels(["No set", "Height 1", "Height 2", "Height 3"]) == (
        ["No set", "1", "2", "3"],
        "Height",
    )
    assert (
        short_labels(["Botch", "0 successes", "1 success", "2 successes", "3 successes"])[1]
        == "successes"
    )
    assert short_labels(["6–7", "8–9"]) == (["6–7", "8–9"], "")


def test_a_chance_prints_never_as_a_bare_zero_or_hundred_it_is_not():
    assert percent_text(Fraction(0)) == "0%"
    assert percent_text(Fraction(1)) == "100%"
    assert percent_text(Fraction(1, 10**6)) == "<0.1%"
    assert percent_text(1 - Fraction(1, 10**6)) == ">99.9%"
    assert percent_text(Fraction(1601, 2000)) == "80.0%"
