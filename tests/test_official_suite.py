"""The official JSON-Schema-Test-Suite: groups in the vocabulary pass, the others are refused."""

import pytest

from conformance._official import DIALECT_FOLDERS, default_suite_dir, judge, load_groups

# The cross-checks and real catalogs: `make test` runs them, `make quick` leaves them out.
pytestmark = pytest.mark.slow

SUITE = default_suite_dir()
FOUND = (SUITE / "tests").is_dir()
GROUPS = [
    group
    for folder in DIALECT_FOLDERS
    for optional in (False, True)
    for group in (load_groups(SUITE, folder, optional=optional) if FOUND else [])
]
absent = pytest.mark.skipif(not FOUND, reason=f"official suite not found at {SUITE}; set TOOLREG_SUITE")


@absent
@pytest.mark.parametrize("group", GROUPS, ids=[group.name for group in GROUPS])
def test_group(group):
    outcome = judge(group)
    if outcome.exception is not None:
        assert outcome.in_vocabulary and outcome.refused is None  # written down, and still judged
    elif outcome.in_vocabulary:
        assert outcome.refused is None, outcome.refused
        assert outcome.wrong == ()
        assert outcome.passed == len(group.cases)
    else:
        assert outcome.refused is not None, "a schema outside the vocabulary must be refused"


@absent
@pytest.mark.parametrize(
    ("folder", "least"), [("draft2020-12", 1290), ("draft2019-09", 1210), ("draft7", 923)]
)
def test_the_vocabulary_is_exercised(folder, least):
    # The required cases toolreg validates, rather than refuses, in each dialect.
    outcomes = [judge(group) for group in load_groups(SUITE, folder)]
    passed = sum(outcome.passed for outcome in outcomes if outcome.refused is None)
    assert passed >= least
