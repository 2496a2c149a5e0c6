"""The official JSON-Schema-Test-Suite: groups in the vocabulary pass, the others are refused."""

import pytest

import toolreg
import toolreg._jsonschema.validator
from conformance._official import DIALECT_FOLDERS, EXCEPTIONS, PARTS, default_suite_dir, judge, load_groups

# The cross-checks and real catalogs: `make test` runs them, `make quick` leaves them out.
pytestmark = pytest.mark.slow

SUITE = default_suite_dir()
FOUND = (SUITE / "tests").is_dir()
GROUPS = [
    group
    for folder in DIALECT_FOLDERS
    for part in PARTS
    for group in (load_groups(SUITE, folder, part) if FOUND else [])
]
absent = pytest.mark.skipif(not FOUND, reason=f"official suite not found at {SUITE}; set TOOLREG_SUITE")


@absent
@pytest.mark.parametrize("group", GROUPS, ids=[group.name for group in GROUPS])
def test_group(group):
    outcome = judge(group)
    written = EXCEPTIONS.get(group.file)
    if written is not None and written.refused:
        # Refused as written down, or passing (a group of the file that needs no unknown keyword).
        assert outcome.refused is not None or outcome.passed == len(group.cases)
    elif written is not None:
        # Judged, and wrong only where the exception says.
        assert outcome.refused is None, outcome.refused
        assert outcome.wrong == ()
        assert outcome.passed + len(outcome.excused) == len(group.cases)
    elif outcome.in_vocabulary:
        assert outcome.refused is None, outcome.refused
        assert outcome.wrong == ()
        assert outcome.passed == len(group.cases)
    else:
        assert outcome.refused is not None, "a schema outside the vocabulary must be refused"


@absent
@pytest.mark.parametrize(
    ("folder", "required"), [("draft2020-12", 1299), ("draft2019-09", 1259), ("draft7", 927)]
)
def test_every_required_case_passes(folder, required):
    outcomes = [judge(group) for group in load_groups(SUITE, folder)]
    assert sum(len(outcome.group.cases) for outcome in outcomes) == required
    assert sum(outcome.passed for outcome in outcomes if outcome.refused is None) == required


@absent
@pytest.mark.parametrize("folder", DIALECT_FOLDERS)
def test_every_optional_case_passes_but_those_written_down(folder):
    for part in ("optional", "format"):
        for group in load_groups(SUITE, folder, part):
            outcome = judge(group)
            if group.file not in EXCEPTIONS:
                assert outcome.refused is None and outcome.passed == len(group.cases), group.name


@pytest.mark.no_cover
@absent
@pytest.mark.parametrize("folder", DIALECT_FOLDERS)
def test_is_valid_answers_as_validate_does_on_every_case(folder, monkeypatch):
    # is_valid stops at the first failure: on the generated code, and on the reference walk that
    # answers a validator's first calls (kept here for every call).
    checked = 0
    for part in PARTS:
        for group in load_groups(SUITE, folder, part):
            options = {"documents": group.documents, "assert_formats": group.assert_formats}
            try:
                fast, walked = (
                    toolreg.compile(group.declared, **options).prepare(),
                    toolreg.compile(group.declared, **options),
                )
            except toolreg.SchemaError:
                continue
            with monkeypatch.context() as patch:
                patch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", 10**9)
                for case in group.cases:
                    expected = not fast.validate(case["data"])
                    assert fast.is_valid(case["data"]) is expected, (group.name, case["description"])
                    assert walked.is_valid(case["data"]) is expected, (group.name, case["description"])
                    checked += 1
    assert checked > 900
