"""Dice rolling with an injected random.Random, so every roll is reproducible in tests."""

from __future__ import annotations

import random


def roll(count: int, sides: int, rng: random.Random) -> list[int]:
    """Roll `count` dice of `sides` faces with the caller's generator."""
    if count < 0:
        raise ValueError("cannot roll a negative number of dice")
    if sides < 2:
        raise ValueError("a die needs at least two faces")
    return [rng.randint(1, sides) for _ in range(count)]
