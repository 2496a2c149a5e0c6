"""Bounds in bytes and in depth: error paths, standard output and ``validate --json`` within their size,
every depth up to ``max_depth`` answered alike on every path, and the small crashes that hostile input
once found (a container changed under ``output``, the Bowtie harness, an error about a huge integer).

The reproducers run at their full size in one child process
(``python -m tests.jsonschema.test_bounds``), whose address space may grow by 200 MB past what it
holds once each case is built; a child that does not answer within its time is killed, and the test
fails. Nothing here times anything.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import resource
import selectors
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
import toolreg._jsonschema.validator
from conformance import bowtie
from conformance.bowtie import MOST_DIGITS, ProtocolError, read, serve
from tests.paths import ROOT
from toolreg._cli import main as cli
from toolreg._jsonschema.errors import ErrorFact, stands_at
from toolreg._jsonschema.output import TooLarge, bounded_json, recording

MEGABYTES = 200
CHILD_SECONDS = 120  # a kill, not a measure: each case takes well under a second

# A map of maps (and of lists) to any depth: each level's names are the instance's own.
RECURSIVE_MAP = {"type": ["object", "array"], "additionalProperties": {"$ref": "#"}, "items": {"$ref": "#"}}
# The same through anyOf: each failing leaf's error nests, with its branches' errors, in every level's.
RECURSIVE_UNION = {
    "anyOf": [
        {"type": "object", "additionalProperties": {"$ref": "#"}},
        {"type": "array", "items": {"$ref": "#"}},
    ]
}
# An array of itself or an integer: one anyOf hop and one $ref a level.
NESTED_UNION = {
    "$defs": {"n": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/n"}}, {"type": "integer"}]}},
    "$ref": "#/$defs/n",
}


def long_names(levels: int, length: int, leaves: list[Any]) -> Any:
    """``leaves`` under ``levels`` objects, each of one name ``length`` characters long."""
    value: Any = leaves
    for level in range(levels):
        value = {chr(ord("a") + level) * length: value}
    return value


def nested(levels: int, bottom: Any = 1) -> Any:
    for _ in range(levels):
        bottom = [bottom]
    return bottom


# -- the reproducers, each answered in a child under a memory cap ------------------------------------


def _long_names_under_a_recursive_map() -> dict[str, Any]:
    """10 names of 30,000 characters, then 3,000 integers: 3,000 errors whose pointers would be 600 MB."""
    instance = long_names(10, 30_000, list(range(3000)))
    schema = {"type": ["object", "array"], "additionalProperties": {"$ref": "#"}, "items": {"type": "string"}}
    walked, fast = toolreg.compile(schema), toolreg.compile(schema).prepare()
    _start_cap()
    answers: dict[str, Any] = {}
    errors = walked.validate(instance)
    answers["reference walk"] = [len(errors), errors[-1].path[-5:]]
    errors = fast.validate(instance)
    # Every error written out, as a logger would, one at a time: each pointer is written when read,
    # and none is kept.
    answers["generated code"] = [len(errors), sum(len(error.to_dict()["path"]) for error in errors)]
    output = walked.output(instance, "basic")
    answers["output"] = [output["valid"], [unit["error"] for unit in output["errors"]]]
    answers["is_valid"] = walked.is_valid(instance)
    answers["--json"] = _command_line(schema, instance)
    return answers


def _long_names_under_a_recursive_union() -> dict[str, Any]:
    """The same through anyOf: every failing leaf's error, nested in each level's, once took 2.4 GB."""
    instance = long_names(7, 30_000, ["x"] * 3000)
    walked, fast = toolreg.compile(RECURSIVE_UNION), toolreg.compile(RECURSIVE_UNION).prepare()
    _start_cap()
    answers: dict[str, Any] = {}
    for path, validator in (("reference walk", walked), ("generated code", fast)):
        [error] = validator.validate(instance)
        answers[path] = [error.keyword, len(error.facts["branches"]), len(error.message) < 1000]
    answers["output"] = walked.output(instance, "list")["details"][0]["errors"]
    answers["format_errors"] = len(toolreg.format_errors(fast.validate(instance)).text) < 10_000
    return answers


def _a_million_numbers_a_hundred_lists_deep_from_a_handler() -> dict[str, Any]:
    """A handler's result of 1,000,000 integers 100 lists deep (7 MB of JSON): the check for integers
    too long to write pushed each value with its whole path, a gigabyte."""
    result = nested(99, list(range(1_000_000)))
    tools = toolreg.ToolRegistry()
    tools.register("numbers", {"type": "object", "additionalProperties": False}, handler=lambda: result)
    _start_cap()
    called = tools.call("numbers", {})
    return {"ok": called.ok, "step": called.step}


CASES = {
    case.__name__.lstrip("_"): case
    for case in (
        _long_names_under_a_recursive_map,
        _long_names_under_a_recursive_union,
        _a_million_numbers_a_hundred_lists_deep_from_a_handler,
    )
}


def _command_line(schema: Any, instance: Any) -> Any:
    """What ``toolreg validate --json`` prints for ``instance`` against ``schema``, read back."""
    with tempfile.TemporaryDirectory() as folder:
        catalog, arguments = Path(folder, "catalog.json"), Path(folder, "arguments.json")
        catalog.write_text(json.dumps([{"name": "t", "inputSchema": {"type": "object", **schema}}]))
        arguments.write_text(json.dumps(instance))
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = cli(["validate", str(catalog), "t", f"@{arguments}", "--json"])
    [error] = json.loads(printed.getvalue())
    return [code, error["keyword"], error["limit"], len(printed.getvalue()) < 1000]


def _start_cap() -> None:
    """Let the address space grow by MEGABYTES from here (the case built, not counted)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    limit = pages * resource.getpagesize() + MEGABYTES * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))


def _lift_cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def _long_names_drawn(request: dict[str, Any]) -> dict[str, Any]:
    """A drawn argument of long names under a drawn recursive schema, answered on every path with every
    pointer and message read, its output written, and its errors as JSON within a drawn bound."""
    leaves: list[Any] = ["x", 1, [], {}, None][: request["kinds"]] * request["leaves"]
    instance = long_names(request["levels"], request["length"], leaves)
    most = request["most_bytes"]
    key = (request["union"], most)
    if key not in _VALIDATORS:
        schema, limits = RECURSIVE_UNION if request["union"] else RECURSIVE_MAP, {"max_output_bytes": most}
        _VALIDATORS[key] = (
            toolreg.compile(schema, limits=limits),
            toolreg.compile(schema, limits=limits).prepare(),
        )
    walked, fast = _VALIDATORS[key]
    _start_cap()
    verdicts = [not walked.validate(instance), walked.is_valid(instance), fast.is_valid(instance)]
    errors = fast.validate(instance)
    verdicts.append(not errors)
    for error in errors:  # every pointer and message read, one at a time, as a logger would
        assert error.path[:1] in ("", "/") and error.message
    written = walked.output(instance, request["format"])
    limited = json.dumps(written).count("(max_output_bytes)") == 1
    if not limited:
        verdicts.append(written["valid"])
    try:
        text = bounded_json(list(map(ErrorFact, fast.validate(instance))), most, indent=2)
        within = len(text) <= most
    except TooLarge:
        within = True
    return {
        "verdicts": verdicts,
        "output": limited or len(json.dumps(written)) <= most,
        "--json": within,
    }


_VALIDATORS: dict[tuple[bool, int], tuple[toolreg.Validator, toolreg.Validator]] = {}


def _serve() -> None:
    """The child: one JSON request a line (a case's name, or a drawn argument), one answer a line."""
    for line in sys.stdin:
        request = json.loads(line)
        _lift_cap()
        try:
            found: Any = CASES[request]() if isinstance(request, str) else _long_names_drawn(request)
        except MemoryError:
            found = "MemoryError"
        except Exception as error:  # the test reports it
            found = f"{type(error).__name__}: {error}"
        print(json.dumps(found), flush=True)


class _Child:
    """``python -m tests.jsonschema.test_bounds``, asked one request at a time; None when it died or
    stalled."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.jsonschema.test_bounds"],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip

    def ask(self, request: Any) -> Any:
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(request).encode() + b"\n")
        process.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(CHILD_SECONDS):
                process.kill()
                pytest.fail(f"{request} had no answer within {CHILD_SECONDS} s")
        line = process.stdout.readline()
        assert line, process.stderr.read().decode()[-3000:] if process.stderr else "the child died"
        return json.loads(line)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


@pytest.fixture(scope="module")
def child():
    if not Path("/proc/self/statm").exists():
        pytest.skip("the memory cap reads /proc/self/statm (Linux)")
    started = _Child()
    yield started
    started.close()


# 3,000 pointers, each ten names of 30,000 characters then the item's index: 900 MB of text in all,
# read one pointer at a time, none kept.
POINTERS_READ = 3000 * 10 * (1 + 30_000) + sum(len(f"/{index}") for index in range(3000))
REPRODUCERS = {
    "long_names_under_a_recursive_map": {
        "reference walk": [3000, "/2999"],
        "generated code": [3000, POINTERS_READ],
        "output": [False, ["would pass 10000000 bytes of JSON text (max_output_bytes)"]],
        "is_valid": False,
        "--json": [1, "limit", 10_000_000, True],
    },
    "long_names_under_a_recursive_union": {
        "reference walk": ["anyOf", 2, True],
        "generated code": ["anyOf", 2, True],
        "output": {"limit": "would pass 10000000 bytes of JSON text (max_output_bytes)"},
        "format_errors": True,
    },
    "a_million_numbers_a_hundred_lists_deep_from_a_handler": {"ok": True, "step": None},
}


@pytest.mark.slow
@pytest.mark.parametrize("name", REPRODUCERS)
def test_each_reproducer_is_answered_within_200_megabytes(child, name):
    assert child.ask(name) == REPRODUCERS[name]


@pytest.mark.slow
@given(
    union=st.booleans(),
    levels=st.integers(1, 5),
    length=st.integers(1, 30_000),
    leaves=st.integers(0, 40),
    kinds=st.integers(1, 5),
    most_bytes=st.sampled_from([200, 5_000, 200_000]),
    format=st.sampled_from(["basic", "detailed", "verbose", "list", "hierarchical"]),
)
def test_long_names_under_recursive_schemas_stay_within_their_bounds(child, **request):
    answer = child.ask(request)
    assert answer != "MemoryError", request
    assert len(set(answer["verdicts"])) == 1, (request, answer)
    assert answer["output"] and answer["--json"], (request, answer)


# -- the bounds, in process ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["basic", "detailed", "verbose", "list", "hierarchical"])
def test_an_output_past_max_output_bytes_is_one_limit_error_and_one_within_it_is_whole(shape):
    bounded = toolreg.compile(RECURSIVE_UNION, limits={"max_output_bytes": 30_000})
    unbounded = toolreg.compile(RECURSIVE_UNION)
    for instance in (long_names(2, 3, ["x", 1, []]), long_names(1, 10, [])):  # 365 to 16,080 bytes
        written = bounded.output(instance, shape)
        assert written == unbounded.output(instance, shape) and len(json.dumps(written)) <= 30_000
    for instance in (long_names(3, 2000, ["x"]), long_names(2, 3, ["x"] * 400), [float("nan")] * 400):
        text = json.dumps(bounded.output(instance, shape))
        assert "would pass 30000 bytes of JSON text (max_output_bytes)" in text and len(text) < 300


def test_the_errors_written_as_json_stop_at_their_bound():
    errors = toolreg.validate(RECURSIVE_MAP, long_names(2, 5000, [1, 2, 3]))
    whole = json.dumps([error.to_dict() for error in errors], indent=2)
    assert bounded_json(list(map(ErrorFact, errors)), len(whole), indent=2) == whole
    with pytest.raises(TooLarge):
        bounded_json(list(map(ErrorFact, errors)), len(whole) - 1, indent=2)
    scalars = {"a": None, "b": True, "c": False, "d": -1.5e300, "e": [], "f": {}, "g": "é\u2028\x00"}
    assert bounded_json(scalars, 1000) == json.dumps(scalars)
    with pytest.raises(TypeError, match="not a JSON value: object"):
        bounded_json([object()], 1000)


def test_an_error_as_a_fact_is_the_error_read_when_asked():
    [error] = toolreg.validate({"properties": {"a/b": {"minimum": 3}}}, {"a/b": 1})
    fact = ErrorFact(error)
    assert (
        dict(fact) == error.to_dict() and len(fact) == len(error.to_dict()) and repr(fact) == repr(dict(fact))
    )
    with pytest.raises(KeyError):
        fact["nothing"]
    with pytest.raises(AttributeError, match="immutable"):
        fact.path = "/"  # type: ignore[attr-defined]
    assert stands_at(error, ((), "a/b")) and not stands_at(error, ())
    written = toolreg.ValidationError("/a~1b", "", "minimum", "m")
    assert stands_at(written, ((), "a/b")) and not stands_at(written, ((), "a"))


# -- depth: every path, whatever the caller's stack --------------------------------------------------

# What a validation of a value max_depth deep through NESTED_UNION may take of Python's stack, on every
# path (docs/limits.md): Python's default limit of 1,000 leaves it to a caller 400 frames deep.
FRAMES = 600
DEPTHS = (1, 90, 122, 128, 129)


def from_a_caller(frames: int, run: Any) -> Any:
    """``run()``, called ``frames`` frames further down the stack."""
    return run() if frames == 0 else from_a_caller(frames - 1, run)


def every_path(instance: Any, written: bool) -> list[bool]:
    """The verdict of each path: the reference walk and the generated code, collecting errors and
    yes or no, and, if ``written``, the standard output (which words anyOf at each level from the
    errors of every level below, so an invalid value 128 deep costs it half a second)."""
    walked, fast = toolreg.compile(NESTED_UNION), toolreg.compile(NESTED_UNION).prepare()
    verdicts = [
        not walked.validate(instance),
        not walked.validate_reference(instance),
        walked.is_valid(instance),
        not fast.validate(instance),
        fast.is_valid(instance),
    ]
    return verdicts + [walked.output(instance, "basic")["valid"]] if written else verdicts


@pytest.mark.parametrize("caller", ["200 frames down", f"{FRAMES} frames left", "50 frames left"])
def test_every_depth_up_to_max_depth_gets_one_verdict_on_every_path(caller, monkeypatch):
    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", 10**9)  # `walked` never generates
    limit = sys.getrecursionlimit()
    down = 200 if caller == "200 frames down" else 0
    if caller == f"{FRAMES} frames left":
        sys.setrecursionlimit(len(inspect.stack(0)) + FRAMES)
    elif caller == "50 frames left":
        # Far less than a value max_depth deep takes, under Python's own limit: a walk that runs out
        # of the caller's stack goes on in a thread of its own, on a stack of its own.
        down = limit - len(inspect.stack(0)) - 50
    try:
        for depth in DEPTHS:
            for bottom in (1, "one"):
                instance, written = nested(depth, bottom), bottom == 1 or depth == 1

                def answered(instance: Any = instance, written: bool = written) -> list[bool]:
                    return every_path(instance, written)

                answers = from_a_caller(down, answered)
                assert answers == [bottom == 1 and depth <= 128] * len(answers), (depth, bottom)
    finally:
        sys.setrecursionlimit(limit)
    [error] = toolreg.compile(NESTED_UNION).validate(nested(129))
    assert (error.keyword, error.path) == ("depth", "/0" * 128)


# -- the small crashes ------------------------------------------------------------------------------


def test_output_answers_when_the_instance_changes_as_it_is_read(monkeypatch):
    # Another thread may shorten a list or drop a name as the traced walk reads it: it judges one copy.
    validator = toolreg.compile({"type": "object", "properties": {"a": {"type": "integer"}}})
    opened, calls = recording.Trace.keyword, []

    def changed_once(trace, schema, name, path):
        if name == "type" and path:  # the type of "a", not the object's
            calls.append(path)
            if len(calls) == 1:
                raise KeyError("a")
        return opened(trace, schema, name, path)

    monkeypatch.setattr(recording.Trace, "keyword", changed_once)
    output = validator.output({"a": "x"}, "basic")
    assert [unit["instanceLocation"] for unit in output["errors"]] == ["/a"] and len(calls) == 2


HUGE = 10**5000  # past the 4,300 digits Python will write


@pytest.mark.parametrize(
    ("schema", "instance"),
    [({"maximum": 1}, HUGE), ({"const": [HUGE]}, 1), ({"anyOf": [{"maximum": 1}, {"type": "string"}]}, HUGE)],
    ids=["maximum", "const", "anyOf"],
)
def test_an_error_about_an_integer_past_4300_digits_writes_as_json(schema, instance):
    walked, fast = toolreg.compile(schema), toolreg.compile(schema).prepare()
    for [error] in (walked.validate_reference(instance), fast.validate(instance)):
        written = json.dumps(error.to_dict())
        assert "an integer of about 5000 digits" in written
        assert bounded_json(ErrorFact(error), 10**6) == written
    output = walked.output(instance, "verbose")
    assert output["valid"] is False and "about 5000 digits" in json.dumps(output)


def test_an_annotation_holding_an_integer_past_4300_digits_writes_as_json():
    output = toolreg.compile({"default": HUGE, "examples": [HUGE]}).output(1, "basic")
    assert [unit["annotation"] for unit in output["annotations"]] == [
        "an integer of about 5000 digits",
        ["an integer of about 5000 digits"],
    ]


def test_the_errors_as_json_are_written_as_json_dumps_writes_them():
    schema = {"properties": {"a": {"anyOf": [{"type": "string"}, {"minimum": 2.5}]}}, "required": ["b"]}
    errors = toolreg.validate(schema, {"a": 1, "é\n": [None]})
    for indent in (None, 2):
        assert bounded_json(list(map(ErrorFact, errors)), 10**6, indent=indent) == json.dumps(
            [error.to_dict() for error in errors], indent=indent
        )
    with pytest.raises(TooLarge):
        bounded_json(list(map(ErrorFact, errors)), 100)


def test_the_bowtie_harness_reads_what_json_loads_cannot_and_refuses_what_is_not_json():
    deep = read('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")["a"]
    levels = 0
    while deep:
        deep, levels = deep[0], levels + 1
    assert levels == 99_999  # the innermost array is empty
    assert read("9" * 5000) == HUGE - 1
    assert read(f"[-{'1' * 4400}]") == [-(10**4400 - 1) // 9]
    for line, words in [
        ('{"cmd": "run", "seq": NaN}', "NaN is not JSON"),
        ("[-Infinity]", "-Infinity is not JSON"),
        ("1" * (MOST_DIGITS + 1), f"reads at most {MOST_DIGITS}"),
        # Where Python's decoder reaches the end (3.13), its words; where its stack ends first, the harness's.
        ("[" * 2000, r"(no JSON value at character|\(char) 2000"),
        ("[1, 2] ]", "Extra data"),
    ]:
        with pytest.raises(ProtocolError, match=words):
            read(line)


def test_the_bowtie_harness_skips_an_instance_past_toolregs_limits_and_writes_only_json(monkeypatch):
    def run(seq, schema, *instances):  # JSON text written by hand: json.dumps cannot write 3,000 levels
        tests = ", ".join(f'{{"description": "", "instance": {text}}}' for text in instances)
        case = f'{{"description": "d", "schema": {schema}, "tests": [{tests}]}}'
        return f'{{"cmd": "run", "seq": {seq}, "case": {case}}}'

    lines = [
        json.dumps({"cmd": "start", "version": 1}),
        run(1, '{"items": {"$ref": "#"}}', "[" * 3000 + "]" * 3000, "[[[]]]"),
        run(2, '{"type": "integer"}', "9" * 5000, '"1"'),
        '{"cmd": "run", "seq": NaN, "case": {"schema": true, "tests": []}}',
    ]
    written = io.StringIO()
    with pytest.raises(ProtocolError, match="NaN is not JSON"):
        serve(io.StringIO("\n".join(lines)), written)
    responses = [json.loads(line) for line in written.getvalue().splitlines()]
    assert responses[1:] == [
        {
            "seq": 1,
            "results": [
                {"skipped": True, "message": "past toolreg's limits: nested deeper than 128 levels"},
                {"valid": True},
            ],
        },
        {"seq": 2, "results": [{"valid": True}, {"valid": False}]},
    ]
    # From the command line: one line saying why, its own exit code, no traceback.
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines[0] + "\n" + lines[3] + "\n"))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert bowtie.main() == 2
    assert sys.stderr.getvalue().count("\n") == 1 and "Traceback" not in sys.stderr.getvalue()


if __name__ == "__main__":
    _serve()
