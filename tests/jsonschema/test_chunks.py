"""No depth an argument can choose makes CPython's frame stack map memory for each item it checks.

On CPython 3.11 and 3.12 a loop whose per-item call crosses the end of a frame chunk maps and unmaps
a chunk per item (see toolreg/_jsonschema/room.py): about 8 us and one page fault each. The test
counts page faults rather than time, in a child process of its own (a fault count is the process's,
and the pytest worker's caller depth must not decide which depths are bad), validating at every depth
the schema allows, on every path: the generated code (validate and is_valid), a registry's first
call (the glance), the reference walk and ``output``; and an array the generated code hands to a
reference check (``uniqueItems``), under objects. Before the room, some depth on each path took
one fault or more for each of the 600 items; with it, a few for the whole validation.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("resource")  # getrusage: Unix only

CHILD = textwrap.dedent(
    """
    import json, resource, sys
    import toolreg
    from toolreg._jsonschema.validator import Validator

    node = {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/n"}},
                      {"type": "object", "additionalProperties": {"$ref": "#/$defs/n"}},
                      {"type": "integer"}]}
    schema = {"$defs": {"n": node}, "type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}
    inners = {"ints": list(range(600)), "lists": [[i] for i in range(300)],
              "members": {str(i): i for i in range(600)}}
    fast = Validator(schema).prepare()
    fast.is_valid({})
    walked = Validator(schema)

    def first(value):
        registry = toolreg.ToolRegistry()
        registry.register("t", schema, lambda **arguments: arguments)
        return registry.validate("t", value)

    paths = {
        "validate": fast.validate,
        "is_valid": lambda value: [] if fast.is_valid(value) else ["invalid"],
        "first call": first,
        "reference walk": walked.validate_reference,
        # The verdict is not asked of output: a valid value's units pass max_output_bytes here.
        "output": lambda value: walked.output(value) and [],
    }

    def faults():
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

    # An array handed to a reference check (uniqueItems) by the generated code, under objects.
    handed = {"$defs": {"n": {"anyOf": [{"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}},
                                        {"type": "array", "uniqueItems": True}]}}, "$ref": "#/$defs/n"}
    handed_fast = Validator(handed).prepare()
    handed_fast.is_valid({})
    handed_paths = {"validate": handed_fast.validate,
                    "is_valid": lambda value: [] if handed_fast.is_valid(value) else ["invalid"]}

    def wrapped(shape, depth):
        if shape == "handed":
            value = [[i] for i in range(600)]
            for _ in range(depth):
                value = {"a": value}
            return value
        value = inners[shape]
        for _ in range(depth):
            value = [value]
        return {"a": value}

    def below(frames, run):
        return run() if frames == 0 else below(frames - 1, run)

    worst = {}
    # The first walk goes 8 levels down at most: there, where the loop sits is the caller's stack's to
    # choose, so the handed array is checked from callers 0 to 199 frames deep (more than a chunk holds
    # of these frames), 1 to 8 levels down.
    for frames in range(200):
        for name, check in handed_paths.items():
            for depth in range(1, 9):
                value = wrapped("handed", depth)
                assert not below(frames, lambda: check(value)), ("handed", name, depth)
                before = faults()
                below(frames, lambda: check(value))
                spent = faults() - before
                if spent > worst.get(("handed below", name), (0, 0))[1]:
                    worst["handed below", name] = (depth, spent)
    for shape in [*inners, "handed"]:
        for name, check in (handed_paths if shape == "handed" else paths).items():
            if name == "output" and shape != "ints":
                continue  # the slowest path, once
            for depth in range(1, 126):
                value = wrapped(shape, depth)
                assert not check(value), (shape, name, depth)  # warm: the first call may allocate
                before = faults()
                check(value)
                spent = faults() - before
                if spent > worst.get((shape, name), (0, 0))[1]:
                    worst[shape, name] = (depth, spent)
    print(json.dumps([[shape, name, depth, spent] for (shape, name), (depth, spent) in worst.items()]))
    """
)


@pytest.mark.slow
def test_no_depth_makes_a_validation_fault_a_page_for_each_item() -> None:
    root = Path(__file__).resolve().parents[2]  # the child imports this checkout's toolreg
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=600, check=True, cwd=root
    )
    worst = json.loads(done.stdout)
    # A walk touches each page of its frames once: a few dozen faults, nowhere near one an item (output
    # also allocates its units, a few hundred faults, where the thrash took ten an item).
    thrashed = [row for row in worst if row[3] > (3000 if row[1] == "output" else 300)]
    assert not thrashed, thrashed
