"""The generated source of a few small schemas, in both modes and both layouts, against the source
checked in: the layout of an interpreter whose frame stack can thrash (CPython 3.11 and 3.12: each
entry written twice, see toolreg/_jsonschema/room.py), and that of one whose stack cannot (one walk),
whichever interpreter runs the test.

A change to what the generator writes shows here as a diff to read. To accept one, write the
files again and read the diff before committing it::

    .venv/bin/python -m tests.jsonschema.fast.test_golden --update
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from toolreg._jsonschema.fast.codegen import write
from toolreg._jsonschema.limits import DEFAULT_LIMITS
from toolreg._jsonschema.schema import compile_schema

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden"

SCHEMAS: dict[str, Any] = {
    "integer_minimum": {"type": "integer", "minimum": 1},
    "closed_object": {
        "type": "object",
        "properties": {"name": {"type": "string", "minLength": 1}, "tags": {"type": "array", "items": {}}},
        "required": ["name"],
        "additionalProperties": False,
    },
    "ref_to_defs": {
        "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
        "type": "array",
        "items": {"$ref": "#/$defs/point"},
    },
    "any_of": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]},
}
# The code that collects every error; the yes/no answer with validate's front written after it.
MODES = ("collecting", "yes_no")
# Whether the frame stack can thrash, by the suffix of the layout's files.
LAYOUTS = {"": True, ".one_walk": False}


def generated(name: str, mode: str, chunked: bool) -> str:
    compiled = compile_schema(SCHEMAS[name], DEFAULT_LIMITS, None, False)
    if mode == "collecting":
        return write(compiled, chunked=chunked).text
    return write(compiled, yes_no=True, front=True, chunked=chunked).text


def golden_file(name: str, mode: str, layout: str) -> Path:
    return GOLDEN / f"{name}.{mode}{layout}.txt"


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_generated_source_is_the_one_checked_in(name: str, mode: str, layout: str) -> None:
    expected = golden_file(name, mode, layout).read_text(encoding="utf-8")
    found = generated(name, mode, LAYOUTS[layout])
    assert found == expected, f"{name}, {mode}: if the change is meant, run {__doc__.split('::')[1].strip()}"
    # The same schema compiled again writes the same text: nothing in it depends on an address.
    assert generated(name, mode, LAYOUTS[layout]) == found


def test_the_yes_no_goldens_hold_a_front_and_the_answers_are_spelled_apart() -> None:
    for name in SCHEMAS:
        for layout in LAYOUTS:
            text = golden_file(name, "yes_no", layout).read_text(encoding="utf-8")
            is_valid, _, front = text.partition("def validate(instance):")
            assert front, name
            assert "return OK" not in is_valid and "otherwise" not in is_valid, name
            assert "return True" not in front and "return False" not in front, name


def test_only_the_first_of_two_walks_counts_items() -> None:
    # The walk with room has none to stay within (see room.py), and one walk alone never stops short.
    counted = set()
    for name in SCHEMAS:
        for mode in MODES:
            definitions = golden_file(name, mode, "").read_text(encoding="utf-8").split("\ndef ")
            rooms = [text for text in definitions if text.split("(", 1)[0].endswith("_with_room")]
            assert len(rooms) == (2 if mode == "yes_no" else 1), (name, mode)  # is_valid's and the front's
            assert not any("allow[0] -=" in text for text in rooms), (name, mode)
            counted |= {name for text in definitions if "allow[0] -=" in text}
            assert "allow[0] -=" not in golden_file(name, mode, ".one_walk").read_text(encoding="utf-8")
    assert counted == {"closed_object", "ref_to_defs"}  # the first walk counts the items of each array


def update() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in SCHEMAS:
        for mode in MODES:
            for layout, chunked in LAYOUTS.items():
                golden_file(name, mode, layout).write_text(generated(name, mode, chunked), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(f"usage: python -m {__spec__.name if __spec__ else 'test_golden'} --update")
    update()
