"""What compilation returns: a frozen value, made by a walk that stays private to the schema module."""

import ast
from collections.abc import Mapping
from types import MappingProxyType

import pytest

import toolreg
from tests.paths import ROOT
from toolreg._jsonschema import validator as validator_module
from toolreg._jsonschema.compiled import Compiled
from toolreg._jsonschema.schema import compile_schema, compile_with
from toolreg._jsonschema.settings import Settings

SCHEMA = {
    "$id": "https://example.com/root.json",
    "$defs": {"name": {"type": "string", "pattern": "^[a-z]+$"}},
    "type": "object",
    "properties": {"name": {"$ref": "#/$defs/name"}, "tags": {"type": "array", "items": {"type": "string"}}},
    "anyOf": [{"required": ["name"]}, {"required": ["tags"]}],
}


def allowance(compiled):
    return True


def fields(compiled):
    return [name for kind in type(compiled).__mro__ for name in getattr(kind, "__slots__", ())]


def test_every_field_refuses_to_change():
    compiled = compile_with(SCHEMA, Settings(), allowance=allowance)
    assert isinstance(compiled, Compiled)
    for field in fields(compiled):
        before = getattr(compiled, field)
        with pytest.raises(AttributeError, match="frozen"):
            setattr(compiled, field, None)
        with pytest.raises(AttributeError, match="frozen"):
            delattr(compiled, field)
        assert getattr(compiled, field) is before
    with pytest.raises(AttributeError):
        compiled.extra = 1
    assert not hasattr(compiled, "__dict__")


def test_what_it_holds_is_read_only():
    compiled = compile_schema(SCHEMA)
    for field in fields(compiled):
        value = getattr(compiled, field)
        if field.startswith("_") or field == "root":
            # What its methods alone read, the memos among them (see below); and the schema snapshot,
            # which is private: every check reads it as plain JSON, and Validator.schema hands out copies.
            continue
        if isinstance(value, Mapping):
            assert type(value) is MappingProxyType, field
            with pytest.raises(TypeError):
                value["x"] = None
        assert not isinstance(value, list | set | dict), field
    assert compiled.checks[""] is compiled.checks[""] and set(compiled.used) >= {"$ref", "anyOf", "pattern"}
    assert compiled.ref_targets["/properties/name/$ref"] == ("$defs", "name")
    assert compiled.pattern("^[a-z]+$").search("abc") and compiled.base_of(("$defs",)) == SCHEMA["$id"]


def test_the_memos_change_nothing_it_reads():
    compiled = compile_with(SCHEMA, Settings(), allowance=allowance)
    held = {field: getattr(compiled, field) for field in fields(compiled) if not field.startswith("_")}
    node = compiled.node(("properties", "tags"))
    assert compiled.node(("properties", "tags")) is node and node.keywords["items"] == (
        "properties",
        "tags",
        "items",
    )
    assert compiled.within_allowance() is True and compiled.kept_errors_cost() is False
    assert {field: getattr(compiled, field) for field in held} == held


def test_the_work_bound_is_given_at_construction_only():
    compiled = compile_with(SCHEMA, Settings(), allowance=allowance)
    assert compiled.allowance is allowance and not hasattr(compiled, "bounded")
    # Compiled to be checked only: no bound, and no charge for the errors failing branches keep.
    unbounded = compile_schema(SCHEMA)
    assert unbounded.allowance is None and unbounded.kept_errors_cost() is False


def test_a_validator_and_a_registry_run_a_value_compiled_with_the_work_bound():
    validator = toolreg.compile(SCHEMA)
    registry = toolreg.ToolRegistry()
    registry.register("t", SCHEMA, lambda **arguments: None)
    assert registry.validate("t", {"name": "7"})  # an invalid call compiles the schema
    for compiled in (validator._compiled_schema(), registry.get("t").validator._compiled_schema()):
        assert isinstance(compiled, Compiled) and compiled.allowance is validator_module.work_bound


def test_the_walk_is_named_only_in_the_schema_module():
    for module in (ROOT / "toolreg").rglob("*.py"):
        named = {
            node.id
            for node in ast.walk(ast.parse(module.read_text(encoding="utf-8")))
            if isinstance(node, ast.Name)
        }
        assert "_Compiler" not in named or module.name == "schema.py", module
