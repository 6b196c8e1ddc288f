"""The distribution chart of a roll's odds, laid out here and drawn as SVG by a template.

Drawn on the server so it shows without JavaScript and prints; the geometry is plain
numbers in a fixed viewBox, the colours come from classes in static/css/rolls.css (no
inline style, for the coming Content-Security-Policy).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from rulesets.core.rolls import Odds

WIDTH = 360
HEIGHT = 150
TOP = 14  # room for the tallest bar's percentage
BASELINE = 118
LEFT = 4
RIGHT = WIDTH - 4
# A label's width in the viewBox per character (9px DejaVu Sans), to keep labels apart.
CHARACTER_WIDTH = 5.6


def percent_text(chance: Fraction) -> str:
    """A chance as the page prints it: one decimal, never a bare 0% or 100% that is not."""
    value = float(chance) * 100
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


@dataclass(frozen=True)
class ChartBar:
    x: float
    y: float
    width: float
    height: float
    label_x: float
    anchor: str  # "middle", or "start"/"end" at an edge where a wide label would be cut
    label: str
    percent: str
    success: bool
    short_label: str
    show_label: bool


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    baseline: int
    bars: tuple[ChartBar, ...]
    # Where the difficulty line is drawn (the left edge of the first bar it reaches).
    threshold_x: float | None
    threshold_label: str
    # The word the short labels share ("Height" for "Height 1"..."Height 10").
    caption: str
    title: str
    description: str


def _fmt(value: float) -> float:
    return round(value, 2)


def short_labels(labels: list[str]) -> tuple[list[str], str]:
    """Drop the word most labels share ("Height 3" → "3"), to be named once as a caption."""
    shared: Counter[tuple[str, str]] = Counter()
    for label in labels:
        words = label.split(" ")
        if len(words) >= 2:
            shared[("start", words[0])] += 1
            shared[("end", words[-1])] += 1
    if not shared:
        return labels, ""
    (side, word), count = shared.most_common(1)[0]
    if count < 3 or count * 2 < len(labels):
        return labels, ""
    shown = []
    for label in labels:
        if side == "start" and label.startswith(word + " "):
            shown.append(label.removeprefix(word + " "))
        elif side == "end" and label.endswith(" " + word):
            shown.append(label.removesuffix(" " + word))
        else:
            shown.append(label)
    return shown, word


def chart_for(odds: Odds) -> Chart | None:
    """Lay out one bar per result; None when the engine gave no bars."""
    bars = odds.bars
    if not bars:
        return None
    tallest = max(bar.chance for bar in bars) or Fraction(1)
    slot = (RIGHT - LEFT) / len(bars)
    gap = min(slot * 0.2, 4)
    shown, caption = short_labels([bar.label for bar in bars])
    widest = max(len(label) for label in shown) * CHARACTER_WIDTH + 4
    every = max(1, math.ceil(widest / slot))
    marked = next((index for index, bar in enumerate(bars) if bar.threshold), None)
    labelled = {
        index
        for index in range(0, len(bars), every)
        if marked is None or index == marked or abs(index - marked) >= every
    } | ({marked} if marked is not None else set())
    laid: list[ChartBar] = []
    for index, bar in enumerate(bars):
        x = LEFT + index * slot
        height = float(bar.chance / tallest) * (BASELINE - TOP)
        label_x, anchor = x + slot / 2, "middle"
        if len(shown[index]) * CHARACTER_WIDTH > slot:
            if index == 0:
                label_x, anchor = x, "start"
            elif index == len(bars) - 1:
                label_x, anchor = x + slot, "end"
        laid.append(
            ChartBar(
                x=_fmt(x + gap / 2),
                y=_fmt(BASELINE - height),
                width=_fmt(slot - gap),
                height=_fmt(height),
                label_x=_fmt(label_x),
                anchor=anchor,
                label=bar.label,
                short_label=shown[index],
                percent=percent_text(bar.chance),
                success=bar.success,
                show_label=index in labelled,
            )
        )
    threshold_x = _fmt(LEFT + marked * slot) if marked is not None else None
    threshold_label = bars[marked].label if marked is not None else ""
    succeeding = [bar.label for bar in bars if bar.success]
    description = f"{odds.question}: {percent_text(odds.success)} in all."
    if threshold_label:
        description += f" The difficulty line stands at {threshold_label}."
    if succeeding:
        description += f" Successful results: {', '.join(succeeding[:12])}"
        description += "…" if len(succeeding) > 12 else "."
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        baseline=BASELINE,
        bars=tuple(laid),
        threshold_x=threshold_x,
        threshold_label=threshold_label,
        caption=caption,
        title="Chance of each result",
        description=description,
    )
