"""toolreg.diff on a real history: every change to the input schema of a tool of github/github-mcp-server
(../shared/catalog-history), under both readings. Every verdict is given; every breaking one has a
witness jsonschema verifies; a seeded search finds nothing where a verdict is compatible; the verdicts
agree with jsonschema-rs's containment where it decides, and fewer are unknown than it leaves."""

import json
from collections import Counter

import jsonschema
import jsonschema_rs
import pytest

import toolreg
from tests.paths import ROOT

HISTORY = ROOT.parent / "shared/catalog-history/github-mcp-server-toolsnaps.jsonl"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not HISTORY.is_file(),
        reason=f"the catalog history is not beside the checkout ({HISTORY.name} in ../shared/"
        "catalog-history)",
    ),
]
READINGS = ("declared", "any")
# Instances the search draws from each schema the rules found compatible.
SEARCHED = 2


def schema_of(entry):
    """The input schema as the diff reads it: a null one (the server once wrote that) is absent."""
    return entry.get("inputSchema") or {"type": "object"}


@pytest.fixture(scope="module")
def changes():
    rows = [json.loads(line) for line in HISTORY.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row for row in rows if "inputSchema" in row["changed"]]


def catalogs(rows):
    """The rows as two catalogs, one tool per change, named apart."""
    old = [{**row["old"], "name": f"{index}.{row['tool']}"} for index, row in enumerate(rows)]
    new = [{**row["new"], "name": f"{index}.{row['tool']}"} for index, row in enumerate(rows)]
    return old, new


@pytest.fixture(scope="module")
def reports(changes):
    """Each reading's diff of the whole history."""
    return {reading: toolreg.diff(*catalogs(changes), callers=reading) for reading in READINGS}


def sections(report):
    return [tool.input for tool in report.tools]


@pytest.mark.no_cover
def test_every_input_schema_change_gets_a_verdict_under_both_readings(changes, reports):
    assert len(changes) == 164  # as SOURCE.md counts them
    # One change is from a null schema (which the diff reads as absent) to {"type": "object"}: the same.
    changed = [json.dumps(schema_of(row["old"])) != json.dumps(schema_of(row["new"])) for row in changes]
    assert changed.count(False) == 1
    for reading in READINGS:
        report = reports[reading]
        assert report.reading == reading
        assert [tool.status for tool in report.tools] == ["changed" if c else "unchanged" for c in changed]
        assert [section.changed for section in sections(report)] == changed
        assert all(section.verdict in ("breaking", "compatible", "unknown") for section in sections(report))


def test_no_breaking_verdict_without_a_witness_jsonschema_verifies(changes, reports):
    for reading in READINGS:
        for row, section in zip(changes, sections(reports[reading]), strict=True):
            old, new = schema_of(row["old"]), schema_of(row["new"])
            oracle = jsonschema.validators.validator_for(old, default=jsonschema.Draft202012Validator)
            witnesses = [finding for finding in section.findings if finding.kind == "breaking"]
            assert (section.verdict == "breaking") == bool(witnesses), (reading, row["tool"], row["commit"])
            for finding in witnesses:
                assert oracle(old).is_valid(finding.witness), (reading, row["commit"], finding)
                assert not oracle(new).is_valid(finding.witness), (reading, row["commit"], finding)


@pytest.mark.no_cover
def test_a_seeded_search_finds_no_witness_where_the_verdict_is_compatible(changes, reports):
    for reading in READINGS:
        compatible = [
            row for row, section in zip(changes, sections(reports[reading]), strict=True)
            if section.changed and section.verdict == "compatible"
        ]  # fmt: skip
        searched = toolreg.diff(*catalogs(compatible), callers=reading, search=SEARCHED, seed=0)
        # A witness the search found would have made the verdict breaking, with rule "search".
        assert [tool.input.verdict for tool in searched.tools] == ["compatible"] * len(compatible)
        assert all(tool.input.searched >= 1 for tool in searched.tools), reading


def test_verdicts_agree_with_jsonschema_rs_and_fewer_are_unknown(changes, reports):
    answers = [
        str(
            jsonschema_rs.canonicalize(schema_of(row["new"])).covers(
                jsonschema_rs.canonicalize(schema_of(row["old"]))
            )
        )
        .rsplit(".", 1)[-1]
        .lower()
        for row in changes
    ]
    theirs = Counter(answers)["unknown"]
    assert theirs > 0
    for reading in READINGS:
        ours = Counter(section.verdict for section in sections(reports[reading]))["unknown"]
        assert ours < theirs, (reading, ours, theirs)
    # jsonschema-rs reads callers as sending any JSON: where it decides, the same reading agrees.
    for answer, section in zip(answers, sections(reports["any"]), strict=True):
        if answer == "yes":
            assert section.verdict == "compatible"
        elif answer == "no":
            assert section.verdict == "breaking"
