"""1st edition teachers and masters (003:1756-1774): a teacher has higher Force skill codes
than the pupil, a master all three at 7D or better (MASTER_MINIMUM_PIPS, 003:1760), and a
teacher trains a pupil whose code is below theirs (003:1766) or, in the seed's own example,
teaches the raise past their code at double cost (003:1772-1774): the reading decides."""

from __future__ import annotations

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.weg_d6 import advancement, training
from rulesets.weg_d6.data import MASTER_MINIMUM_PIPS

SETTINGS = resolve_settings(weg.SETTINGS, {})
STRICT = {**SETTINGS, "teacher_limit_1e": "below"}


def pupil(*, template: bool = True, control: int = 0, edition: str = "1e") -> dict:
    sheet = weg.apply_edit(weg.demo_sheet(), "stage", "play", SETTINGS)
    sheet["edition"] = edition
    sheet["force"].update(sensitive=template, control=control)
    return sheet


def codes(control: int = 0, sense: int = 0, alter: int = 0) -> dict[str, int]:
    return {"control": control, "sense": sense, "alter": alter}


def test_a_master_is_all_three_force_skills_at_7d():
    assert MASTER_MINIMUM_PIPS == 21  # 7D (003:1760)


@pytest.mark.parametrize(
    ("sheet", "teacher", "reading", "problem"),
    [
        # Without a Force template a Force skill is learned from a master (003:1760).
        pytest.param(pupil(template=False), codes(21, 21, 21), SETTINGS, "", id="master"),
        pytest.param(
            pupil(template=False), codes(23, 21, 20), SETTINGS, "(Alter below", id="not-a-master"
        ),
        pytest.param(pupil(template=False), codes(), SETTINGS, "master", id="no-codes-no-master"),
        # With a template a teacher is enough: any higher code (003:1758).
        pytest.param(pupil(template=True), codes(control=3), SETTINGS, "", id="template-teacher"),
        pytest.param(pupil(control=10), codes(control=11), SETTINGS, "", id="teacher-above"),
        pytest.param(pupil(control=10), codes(control=10), SETTINGS, "", id="equal-example"),
        pytest.param(
            pupil(control=10), codes(control=10), STRICT, "below theirs", id="equal-003:1766"
        ),
        pytest.param(
            pupil(control=10), codes(control=9), SETTINGS, "below theirs", id="teacher-below"
        ),
        pytest.param(
            pupil(control=10), codes(sense=21), SETTINGS, "Give your teacher", id="no-code"
        ),
        # R&E asks nothing of a teacher's codes (002:798).
        pytest.param(pupil(edition="2e_re"), codes(), SETTINGS, "", id="r-and-e"),
    ],
)
def test_who_may_teach_a_force_skill(sheet, teacher, reading, problem):
    found = training.teacher_problem(sheet, "force.control", teacher, reading)
    assert (problem in found) if problem else found == ""


def test_the_seeds_example_a_master_at_7d_plus_1_teaches_7d_plus_2_for_14_points():
    sheet = pupil(control=22)  # 7D+1
    priced, kept = advancement.taught_by(
        sheet,
        "force.control",
        "Master Ood",
        {"control": "7D+1", "sense": "7D", "alter": "7D"},
        SETTINGS,
    )
    assert kept == "Master Ood (Control 7D+1)"
    assert weg.advance_cost(priced, "force.control", 23, SETTINGS).amount == 14  # 003:1774
    with pytest.raises(InvalidEdit, match="below theirs"):
        advancement.taught_by(sheet, "force.control", "Master Ood", {"control": "7D+1"}, STRICT)


@pytest.mark.parametrize("raw", ["seven", "7D+9", "-1D"])
def test_a_teacher_code_that_does_not_read_is_refused(raw):
    with pytest.raises(InvalidEdit) as refused:
        advancement.taught_by(pupil(), "force.control", "Ood", {"control": raw}, SETTINGS)
    assert refused.value.trait == "teacher_code"


def test_a_code_not_given_is_the_sheets_teachers():
    sheet = pupil(control=6)
    sheet["teacher"].update(control=12)
    priced, kept = advancement.taught_by(sheet, "force.control", "Ood", {}, SETTINGS)
    assert priced["teacher"]["control"] == 12 and kept == "Ood (Control 4D)"


def test_other_raises_ask_nothing_of_the_teacher():
    sheet = pupil()
    assert (
        advancement.taught_by(sheet, "skill.blaster", "Tobbo", {"control": "junk"}, SETTINGS)[1]
        == "Tobbo"
    )
