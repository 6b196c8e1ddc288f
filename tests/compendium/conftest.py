"""A SWd10 table's book (tests/conftest.py's `table`, run by `gm`) and entries to put in it."""

from __future__ import annotations

import pytest

from sheets.compendium.models import Book


@pytest.fixture
def book(table) -> Book:
    return Book(system=table.system, campaign=table)


@pytest.fixture
def personal_book(player) -> Book:
    return Book(system="swd10", owner=player)


def weapon(name: str = "Heavy repeater", **fields) -> dict:
    """A SWd10 weapon as its form's fields would make it."""
    return {"name": name, "difficulty": 6, "damage": 4, "rate": "2", "clip": 30} | fields


@pytest.fixture
def repeater(gm, book):
    from sheets.compendium.services import entry_create

    return entry_create(user=gm, book=book, kind="weapon", data=weapon())
