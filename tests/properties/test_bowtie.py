"""The Bowtie harness: its answers to each command, and official cases run through it as Bowtie would."""

import io
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import toolreg
from conformance._official import DIALECT_FOLDERS, default_suite_dir, load_groups, load_remotes
from conformance.bowtie import DIALECTS_SPOKEN, Harness, ProtocolError, implementation, serve
from tests.paths import ROOT

SUITE = default_suite_dir()
# Every SAMPLE-th group of each dialect's required files, and every group of the files that need the
# suite's remote documents.
SAMPLE = 6
REMOTE_FILES = {"refRemote.json", "dynamicRef.json", "vocabulary.json"}


def started() -> Harness:
    harness = Harness()
    harness.answer({"cmd": "start", "version": 1})
    return harness


def test_start_describes_toolreg_with_true_values():
    response = Harness().answer({"cmd": "start", "version": 1})
    assert response is not None and response["version"] == 1
    described = response["implementation"]
    assert {"name", "language", "dialects", "homepage", "issues", "source"} <= described.keys()
    assert described["name"] == "toolreg" and described["language"] == "python"
    assert described["dialects"] == [uri for _, uri in DIALECT_FOLDERS.values()]
    for field in ("homepage", "issues", "source"):
        url = urlsplit(described[field])
        assert url.scheme and url.path, described[field]
        if url.scheme == "file":  # no public home yet: where the source and documents are
            assert Path(url.path).exists()
    assert implementation()["version"] == described["version"]


def test_dialect_says_whether_toolreg_reads_a_schema_without_schema_in_it():
    harness = started()
    assert [harness.answer({"cmd": "dialect", "dialect": uri}) for uri in DIALECTS_SPOKEN] == [
        {"ok": True},
        {"ok": False},
        {"ok": False},
    ]


def test_a_refused_schema_is_a_skipped_case_with_toolreg_s_reason():
    schema = {"minLenght": 2}
    case = {"description": "d", "schema": schema, "tests": [{"description": "t", "instance": "a"}]}
    response = started().answer({"cmd": "run", "seq": 7, "case": case})
    with pytest.raises(toolreg.SchemaError) as refusal:
        toolreg.compile(schema)
    assert "minLenght" in str(refusal.value)
    assert response == {"seq": 7, "skipped": True, "message": f"toolreg refuses this schema: {refusal.value}"}


def test_run_answers_each_instance_and_reads_the_registry():
    schema = {"items": {"$ref": "http://localhost:1234/int.json"}}
    case = {
        "description": "d",
        "schema": schema,
        "registry": {"http://localhost:1234/int.json": {"type": "integer"}},
        "tests": [{"description": str(n), "instance": instance} for n, instance in enumerate([[1.0], ["1"]])],
    }
    response = started().answer({"cmd": "run", "seq": "s", "case": case, "output": "flag"})
    assert response == {"seq": "s", "results": [{"valid": True}, {"valid": False}]}
    annotations = started().answer({"cmd": "run", "seq": 1, "case": case, "output": "annotations"})
    assert annotations is not None
    assert (
        annotations["results"]
        == [
            {
                "skipped": True,
                "message": "this harness does not yet write Bowtie's annotation list "
                "(Validator.output writes the standard formats)",
            }
        ]
        * 2
    )


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"cmd": "dialect", "dialect": DIALECTS_SPOKEN[0]}, "'dialect' before 'start'"),
        ({"cmd": "start", "version": 2}, "version 1 of the protocol, not 2"),
        ({"cmd": "start"}, "'start' request without 'version'"),
        (["start"], "must be a JSON object"),
    ],
)
def test_a_request_outside_the_protocol_is_named(request_, words):
    with pytest.raises(ProtocolError, match=words):
        Harness().answer(request_)


def test_an_unknown_command_or_a_line_that_is_not_json_is_named():
    with pytest.raises(ProtocolError, match="unknown command 'walk'"):
        started().answer({"cmd": "walk"})
    with pytest.raises(ProtocolError, match="not JSON"):
        serve(io.StringIO("{nope\n"), io.StringIO())


def _cases(folder: str) -> list[tuple[str, dict]]:
    """(file, case) for the sample of one dialect, each case as Bowtie sends it."""
    sampled = []
    for number, group in enumerate(load_groups(SUITE, folder, "required")):
        needs_remotes = Path(group.file).name in REMOTE_FILES
        if number % SAMPLE and not needs_remotes:
            continue
        # toolreg reads a schema without "$schema" as 2020-12 and says so to the dialect command
        # (ok: false); a draft-07 schema is sent here declaring its dialect, as a user would write it.
        schema = group.declared if folder == "draft7" else group.schema
        case = {
            "description": group.description,
            "schema": schema,
            "tests": [{"description": case["description"], "instance": case["data"]} for case in group.cases],
            "expected": [case["valid"] for case in group.cases],
        }
        if needs_remotes:
            case["registry"] = load_remotes(SUITE)
        sampled.append((group.file, case))
    return sampled


@pytest.mark.skipif(not SUITE.is_dir(), reason=f"official suite not found at {SUITE} (set TOOLREG_SUITE)")
def test_official_cases_through_the_harness_get_the_suite_s_verdicts():
    harness = subprocess.Popen(
        [sys.executable, "-m", "conformance.bowtie"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert harness.stdin is not None and harness.stdout is not None

    def ask(request: dict) -> dict:
        harness.stdin.write(json.dumps(request) + "\n")
        harness.stdin.flush()
        return json.loads(harness.stdout.readline())

    try:
        assert ask({"cmd": "start", "version": 1})["implementation"]["name"] == "toolreg"
        wrong, judged, seq = [], 0, 0
        for folder, (_, uri) in DIALECT_FOLDERS.items():
            ask({"cmd": "dialect", "dialect": uri})
            for file, case in _cases(folder):
                seq += 1
                expected = case.pop("expected")
                response = ask({"cmd": "run", "seq": seq, "case": case})
                assert response.keys() == {"seq", "results"} and response["seq"] == seq, (file, response)
                verdicts = [result["valid"] for result in response["results"]]
                judged += len(verdicts)
                if verdicts != expected:
                    wrong.append(f"{file} :: {case['description']}: {verdicts} != {expected}")
        # Refused on purpose: skipped with the reason, for every test of the case.
        optional = load_groups(SUITE, "draft2020-12", "optional")
        refused = next(group for group in optional if group.file.endswith("/unknownKeyword.json"))
        tests = [{"description": case["description"], "instance": case["data"]} for case in refused.cases]
        case = {"description": refused.description, "schema": refused.schema, "tests": tests}
        skipped = ask({"cmd": "run", "seq": seq + 1, "case": case})
        assert skipped["skipped"] is True and "unknown keyword" in skipped["message"], skipped
        harness.stdin.write(json.dumps({"cmd": "stop"}) + "\n")
        harness.stdin.close()
        assert harness.wait(timeout=30) == 0
    finally:
        harness.kill()
        harness.wait()
        harness.stdin.close()
        harness.stdout.close()
    assert judged > 500
    assert not wrong, "\n".join(wrong)
