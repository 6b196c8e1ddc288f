"""Generated entries, through each kind's form: each is refused with a message beside a
field of that form and nothing is stored, or saved, exported and imported into another
book identical."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from rulesets.core.compendium import FormField, entry_from_form, entry_to_form, form_fields
from rulesets.core.diecode import DieCode
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.compendium.models import Book, CompendiumEntry

KINDS = [(key, kind) for key in sorted(SYSTEMS) for kind in get_ruleset(key).COMPENDIUM_KINDS]
JUNK = st.sampled_from(["", " ", "x", "-1", "1.5", "4D+9", "\x00", "9" * 30])
WORDS = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)


def _typed(field: FormField) -> st.SearchStrategy[str]:
    """What a person means to send in this field: within its limits as the form shows them."""
    blank = st.just("") if not field.required else st.nothing()
    if field.widget == "number":
        return st.integers(field.minimum or 0, field.maximum or 10).map(str) | blank
    if field.widget == "die_code":
        pips = st.integers(field.minimum or 0, field.maximum or 90)
        return pips.map(lambda n: DieCode.from_pips(n).format()) | blank
    if field.widget == "choice":
        return st.sampled_from([value for value, _label in field.choices])
    if field.widget == "checkbox":
        return st.sampled_from(["", "on"])
    if field.widget == "lines":
        # Lines every grammar reads ("item7 1D+1", "item3 x2") beside any short text.
        readable = st.builds(
            lambda number, tail: f"item{number} {tail}",
            st.integers(1, 99),
            st.sampled_from(["1D+1", "2D", "x2", "x1"]),
        )
        return st.lists(readable | WORDS, max_size=4).map("\n".join)
    limit = min(field.max_length or 40, 40)
    rest = st.text(
        st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=limit - 1
    )
    return st.builds(lambda first, more: first + more, st.sampled_from("AKLZ"), rest) | blank


def _mistyped(field: FormField) -> st.SearchStrategy[str]:
    """What a slip of the hand or a hostile client sends instead."""
    if field.widget == "number":
        low, high = field.minimum or 0, field.maximum or 10
        return st.sampled_from([str(low - 1), str(high + 1)]) | JUNK
    if field.widget in ("text", "textarea"):
        over = (field.max_length or 40) + 1
        return st.just("a" * over) | JUNK
    return JUNK


def _value(field: FormField) -> st.SearchStrategy[str]:
    # One field in twenty is mistyped, so about half the forms are whole and half refused.
    return st.integers(0, 19).flatmap(lambda n: _mistyped(field) if n == 0 else _typed(field))


@st.composite
def forms(draw):
    system, kind = draw(st.sampled_from(KINDS))
    form = {field.name: draw(_value(field)) for field in form_fields(kind)}
    return system, kind, form


class GeneratedEntries(TestCase):
    def setUp(self):
        users = get_user_model().objects
        self.author = users.create_user("author", password="gen-pass-12345")
        self.reader = users.create_user("reader", password="gen-pass-12345")
        self.client = Client()

    def _add(self, system, kind, form):
        self.client.force_login(self.author)
        url = reverse("compendium_entry_new", args=[f"mine-{system}"])
        return self.client.post(url, form | {"_kind": kind.key})

    def _refused_beside_a_field(self, kind, form, response) -> None:
        page = response.content.decode()
        names = {field.name for field in form_fields(kind)}
        faulty = [name for name in names if f'id="field-{name.replace(".", "-")}-error"' in page]
        # The same faults the form reader finds, each drawn beside its own field.
        try:
            entry_from_form(kind, form)
        except Exception as refused:
            assert set(refused.errors) & names, refused.errors
            assert set(faulty) == set(refused.errors) & names
        else:
            # A form the reader accepts is refused whole (its size): said on the page.
            assert 'role="alert"' in page
        assert not CompendiumEntry.objects.exists()

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(drawn=forms())
    def test_a_generated_entry_is_refused_beside_a_field_or_travels_whole(self, drawn):
        system, kind, form = drawn
        response = self._add(system, kind, form)
        event(f"{system} {kind.key}: {'refused' if response.status_code == 400 else 'saved'}")
        if response.status_code == 400:
            self._refused_beside_a_field(kind, form, response)
            return
        assert response.status_code == 302, response.content[:500]
        entry = CompendiumEntry.objects.get()
        # The form shows the stored entry back as it reads it.
        assert entry_from_form(kind, entry_to_form(kind, entry.data)) == entry.data

        exported = self.client.get(reverse("compendium_export", args=[f"mine-{system}"]))
        self.client.force_login(self.reader)
        url = reverse("compendium_import", args=[f"mine-{system}"])
        upload = SimpleUploadedFile("book.json", exported.content, "application/json")
        preview = self.client.post(url, {"file": upload})
        assert preview.status_code == 200
        confirm = {"payload": preview.context["payload"], "digest": preview.context["digest"]}
        assert self.client.post(url, confirm).status_code == 302

        theirs = Book(system=system, owner=self.reader).entries().get()
        assert (theirs.kind, theirs.name, theirs.data, theirs.hidden) == (
            entry.kind,
            entry.name,
            entry.data,
            entry.hidden,
        )
