"""Generated character files: a file the schema accepts opens, edits and prints; any other
is refused at import with a message naming the field, and nothing is created."""

from __future__ import annotations

import copy
import json

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from rulesets.core import resolve_settings
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.characters.models import Character

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*prefix, index))


@st.composite
def character_files(draw, key: str):
    """A real sheet of `key` with one part replaced by any JSON value (or left whole)."""
    ruleset = get_ruleset(key)
    sheets = [ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, {})), ruleset.demo_sheet()]
    sheet = copy.deepcopy(draw(st.sampled_from(sheets)))
    # Half the files keep their sheet whole, so accepted files are drawn as often as refused.
    path = draw(st.just(()) | st.sampled_from([p for p in _paths(sheet) if p]))
    if path:
        target = sheet
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = draw(JSON_VALUES)
    return {
        "format": "datapad-character",
        "schema_version": 1,
        "system": key,
        "name": "Generated",
        "sheet": sheet,
    }


class GeneratedFiles(TestCase):
    def setUp(self):
        from django.contrib.auth import get_user_model

        self.user = get_user_model().objects.create_user("gen", password="gen-pass-12345")
        self.client = Client()
        self.client.force_login(self.user)

    def _import(self, data: dict):
        upload = SimpleUploadedFile("c.datapad.json", json.dumps(data).encode())
        return self.client.post(reverse("character_import"), {"file": upload})

    def _check(self, data: dict) -> None:
        count = Character.objects.count()
        response = self._import(data)
        if response.status_code == 400:
            assert Character.objects.count() == count
            assert "sheet" in response.content.decode()
            return
        assert response.status_code == 302, response.content[:300]
        character = Character.objects.latest("pk")
        assert self.client.get(reverse("character_sheet", args=[character.pk])).status_code == 200
        pdf = self.client.get(reverse("character_pdf", args=[character.pk]))
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        edited = self.client.post(
            reverse("character_edit", args=[character.pk]),
            {"version": character.version, "only": "character.name", "character.name": "Again"},
            HTTP_HX_REQUEST="true",
        )
        assert edited.status_code == 200

    @settings(max_examples=16, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.sampled_from(sorted(SYSTEMS)).flatmap(character_files))
    def test_a_generated_file_is_refused_or_opens_edits_and_prints(self, data):
        self._check(data)
