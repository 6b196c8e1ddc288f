"""A SWd10 file whose creation baseline holds wrong types is refused at import.

Before the sheets had a schema, such a file imported fine and the character it made could
never be opened again: its page, its PDF and every edit failed with a server error. Here
each poisoned variant of a real export is posted to the import page; it must be refused
with a message naming the baseline, and nothing may be created. The untouched export is the
control: it imports and its page and PDF open.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create
from sheets.transfer.datapad import export_character

pytestmark = pytest.mark.django_db


def _baseline(data: dict) -> dict:
    return data["sheet"]["baseline"]


def _set(path: tuple[str, ...], value: object) -> Callable[[dict], None]:
    def poison(data: dict) -> None:
        node = _baseline(data)
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return poison


POISONS: dict[str, Callable[[dict], None]] = {
    "baseline is a list": lambda data: data["sheet"].update(baseline=[1, 2, 3]),
    "baseline is a string": lambda data: data["sheet"].update(baseline="creation"),
    "an attribute is text": _set(("attributes", "strength"), "three"),
    "an attribute is a list": _set(("attributes", "wits"), [2]),
    "an attribute is out of range": _set(("attributes", "dexterity"), 99),
    "an ability is a float": _set(("abilities", "firearms"), 1.5),
    "willpower is null": _set(("willpower",), None),
    "merits is a list": _set(("merits",), ["ambidextrous"]),
    "a merit has text points": _set(("merits",), {"ambidextrous": "one"}),
    "an unknown merit": _set(("merits",), {"no-such-merit": 1}),
    "languages is an object": _set(("languages",), {"basic": True}),
    "attributes are missing": lambda data: _baseline(data).pop("attributes"),
    "an unknown baseline field": _set(("shadow",), 1),
}


@pytest.fixture
def export_in_play(player) -> dict:
    """A real SWd10 export of a legal character whose creation is finished."""
    character = character_create(owner=player, name="Vel Anor", system="swd10")
    demo = get_ruleset("swd10").demo_sheet()
    character.sheet = demo
    character.save()
    assert demo["stage"] == "creation", "the demo sheet starts in creation"
    character = character_apply_edits(
        user=player, character_id=character.pk, edits={"stage": "play"}, expected_version=1
    )
    assert character.sheet["baseline"] is not None
    return export_character(character)


def _post(client, data: dict):
    upload = SimpleUploadedFile(
        "poisoned.datapad.json", json.dumps(data).encode(), "application/json"
    )
    return client.post(reverse("character_import"), {"file": upload})


def test_the_untouched_export_imports_and_opens(client, player, export_in_play):
    client.force_login(player)
    before = Character.objects.count()
    response = _post(client, export_in_play)
    assert response.status_code == 302
    assert Character.objects.count() == before + 1
    imported = Character.objects.latest("pk")
    assert client.get(reverse("character_sheet", args=[imported.pk])).status_code == 200
    assert client.get(reverse("character_pdf", args=[imported.pk])).status_code == 200


@pytest.mark.parametrize("poison", POISONS.values(), ids=POISONS.keys())
def test_a_poisoned_baseline_is_refused_and_nothing_is_created(
    client, player, export_in_play, poison
):
    client.force_login(player)
    data = copy.deepcopy(export_in_play)
    poison(data)
    stored = list(Character.objects.order_by("pk").values_list("pk", "sheet", "version"))
    response = _post(client, data)
    assert response.status_code == 400
    assert "baseline" in response.content.decode()
    assert list(Character.objects.order_by("pk").values_list("pk", "sheet", "version")) == stored
