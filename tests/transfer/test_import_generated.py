"""Generated files of every format: each imports or is refused with a message, never a
server error, never a partial write.

Each file is one of the format's fixtures with one part (any depth) replaced by any JSON
value, or left whole; the reader must answer with a sheet its ruleset validates, a
refusal, or (the builder's file) a question; the page must answer the same way, and a
refused or cancelled import leaves no character, revision or kept file behind.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.history.models import Revision
from sheets.transfer import formats
from sheets.transfer.formats import FormatRefused, NeedsMinimums
from sheets.transfer.models import ImportedFile

FIXTURES = Path(__file__).parent.parent / "fixtures" / "formats"
FORMATS = {
    "foundry_od6s": ["od6s_system.json", "od6s_data.json"],
    "swd6_builder": ["builder.swd6.json"],
    "swd6_sheet": ["valthoron.json"],
    "cthunline": ["cthunline.json"],
    "roll20_d6starwars": ["roll20_d6starwars.json"],
    "foundry_wod20": ["wod20_pc.json", "wod20_legacy.json"],
}
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=12)
    | st.sampled_from(["4D+2", "1D+7", "-1D", "3", "", "D", "99D", "<b>x</b>", "\x00"]),
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
def files(draw, key: str) -> bytes:
    name = draw(st.sampled_from(FORMATS[key]))
    data = json.loads((FIXTURES / name).read_text())
    data = copy.deepcopy(data)
    path = draw(st.just(()) | st.sampled_from([p for p in _paths(data) if p]))
    if path:
        target = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = draw(JSON_VALUES)
    return json.dumps(data).encode()


def _read_answers_with_a_sheet_or_a_reason(raw: bytes) -> None:
    try:
        reading = formats.read(raw, {})
    except FormatRefused as refused:
        assert str(refused).strip()
        return
    except NeedsMinimums as asked:
        assert isinstance(asked.species, str)
        return
    assert get_ruleset(reading.system).validate_sheet(reading.sheet) == reading.sheet
    assert reading.name.strip()


@pytest.mark.parametrize("key", sorted(FORMATS))
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_generated_file_reads_into_a_valid_sheet_or_is_refused(key, data):
    _read_answers_with_a_sheet_or_a_reason(data.draw(files(key)))


class GeneratedUploads(TestCase):
    def setUp(self):
        from django.contrib.auth import get_user_model

        self.user = get_user_model().objects.create_user("gen", password="gen-pass-12345")
        self.client = Client()
        self.client.force_login(self.user)

    def _stored(self) -> tuple[int, int, int]:
        return Character.objects.count(), Revision.objects.count(), ImportedFile.objects.count()

    def _check(self, raw: bytes) -> None:
        before = self._stored()
        response = self.client.post(
            reverse("character_import"), {"file": SimpleUploadedFile("g.json", raw)}
        )
        if response.status_code == 400:
            assert 'class="error"' in response.content.decode()
            assert self._stored() == before
            return
        assert response.status_code == 302, response.content[:300]
        url = response["Location"]
        shown = self.client.get(url)
        assert shown.status_code in (200, 400)
        confirmed = self.client.post(url, {"action": "confirm"})
        if confirmed.status_code == 400:
            assert 'role="alert"' in confirmed.content.decode()
            assert self._stored() == before
            self.client.post(url, {"action": "cancel"})
            return
        assert confirmed.status_code == 302, confirmed.content[:300]
        character = Character.objects.latest("pk")
        assert self._stored() == (before[0] + 1, before[1] + 1, before[2] + 1)
        assert self.client.get(reverse("character_sheet", args=[character.pk])).status_code == 200

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    @given(raw=st.sampled_from(sorted(FORMATS)).flatmap(files))
    def test_a_generated_upload_imports_or_is_refused_and_writes_all_or_nothing(self, raw):
        self._check(raw)
