"""The official JSON-Schema-Test-Suite: groups in the vocabulary pass, the others are refused."""

import pytest

from conformance._official import default_suite_dir, judge, load_groups

# The cross-checks and real catalogs: `make test` runs them, `make quick` leaves them out.
pytestmark = pytest.mark.slow

SUITE = default_suite_dir()
GROUPS = load_groups(SUITE) if SUITE.is_dir() else []


@pytest.mark.skipif(not GROUPS, reason=f"official suite not found at {SUITE}; set TOOLREG_SUITE")
@pytest.mark.parametrize("group", GROUPS, ids=[group.name for group in GROUPS])
def test_group(group):
    outcome = judge(group)
    if outcome.in_vocabulary:
        assert outcome.refused is None, outcome.refused
        assert outcome.wrong == ()
        assert outcome.passed == len(group.cases)
    else:
        assert outcome.refused is not None, "a schema outside the vocabulary must be refused"


@pytest.mark.skipif(not GROUPS, reason=f"official suite not found at {SUITE}; set TOOLREG_SUITE")
def test_core_vocabulary_is_exercised():
    in_vocabulary = [group for group in GROUPS if judge(group).in_vocabulary]
    assert sum(len(group.cases) for group in in_vocabulary) >= 684
