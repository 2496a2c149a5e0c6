"""Reading the official JSON-Schema-Test-Suite and judging an implementation group by group."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import toolreg
from toolreg._keywords import KEYWORDS
from toolreg._pointer import split
from toolreg._schema import ANNOTATIONS

__all__ = [
    "Group",
    "Outcome",
    "default_suite_dir",
    "load_groups",
    "keywords_used",
    "keywords_along",
    "judge",
    "SUPPORTED",
]

# Any implementation under test: f(schema, instance) returns its errors, none when valid.
Implementation = Callable[[Any, Any], Iterable[Any]]

SUPPORTED = frozenset(KEYWORDS) | frozenset(ANNOTATIONS)

# Keywords whose value is one subschema, an array of them, or an object of them.
ONE_SCHEMA = frozenset(
    (
        "items", "additionalProperties", "additionalItems", "not", "propertyNames", "contains",
        "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    )
)  # fmt: skip
SCHEMA_ARRAY = frozenset(["allOf", "anyOf", "oneOf", "prefixItems"])
SCHEMA_OBJECT = frozenset(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"])


def default_suite_dir() -> Path:
    """``TOOLREG_SUITE`` if set, else the shared copy beside the repository."""
    configured = os.environ.get("TOOLREG_SUITE")
    if configured:
        return Path(configured)
    repository = Path(__file__).resolve().parent.parent
    return repository.parent / "shared" / "json-schema-test-suite" / "tests" / "draft2020-12"


@dataclass(frozen=True)
class Group:
    """One schema of the suite with its test cases, named ``file :: description``."""

    file: str
    description: str
    schema: Any
    cases: tuple[dict[str, Any], ...]

    @property
    def name(self) -> str:
        return f"{self.file} :: {self.description}"


def load_groups(directory: Path) -> list[Group]:
    """Every group of every ``.json`` file below ``directory``, in file then document order."""
    groups = []
    for path in sorted(directory.rglob("*.json")):
        relative = path.relative_to(directory).as_posix()
        for group in json.loads(path.read_text(encoding="utf-8")):
            groups.append(Group(relative, group["description"], group["schema"], tuple(group["tests"])))
    return groups


def keywords_used(schema: Any) -> set[str]:
    """Every keyword that appears in a schema position anywhere in ``schema``, found statically."""
    found: set[str] = set()
    for subschema in _subschemas(schema):
        found.update(subschema)
    return found


def in_toolreg_vocabulary(schema: Any) -> bool:
    """Only supported keywords, and every ``$ref`` a local pointer (toolreg refuses remote ones)."""
    subschemas = list(_subschemas(schema))
    refs = [subschema["$ref"] for subschema in subschemas if "$ref" in subschema]
    local = all(isinstance(ref, str) and (ref == "#" or ref.startswith("#/")) for ref in refs)
    return local and keywords_used(schema) <= SUPPORTED


def keywords_along(schema: Any, pointer: str) -> set[str]:
    """The keywords a schema pointer passes through: ``/properties/a/type`` gives properties and type.

    jsonschema leaves ``$ref`` out of its schema paths, so where the path goes on from a schema
    that has a ``$ref`` and not the next keyword, the walk follows the reference.
    """
    root, found, tokens = schema, set[str](), split(pointer)
    while tokens and isinstance(schema, dict):
        if tokens[0] not in schema:
            target = schema.get("$ref")
            if not isinstance(target, str) or not target.startswith("#/") or "$ref" in found:
                break
            found.add("$ref")
            tokens = split(target[1:]) + tokens
            schema = root
            continue
        keyword = tokens.pop(0)
        found.add(keyword)
        schema = schema[keyword]
        if keyword in SCHEMA_ARRAY | SCHEMA_OBJECT and tokens:
            member = tokens.pop(0)
            if isinstance(schema, list) and member.isdigit() and int(member) < len(schema):
                schema = schema[int(member)]
            elif isinstance(schema, dict) and member in schema:
                schema = schema[member]
            else:
                break
        elif keyword not in ONE_SCHEMA:
            break
    return found


def _subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(schema, dict):
        return
    yield schema
    for keyword, value in schema.items():
        if keyword in ONE_SCHEMA:
            children = value if isinstance(value, list) else [value]
        elif keyword in SCHEMA_ARRAY and isinstance(value, list):
            children = value
        elif keyword in SCHEMA_OBJECT and isinstance(value, dict):
            children = list(value.values())
        else:
            continue
        for child in children:
            yield from _subschemas(child)


@dataclass(frozen=True)
class Outcome:
    """How one group fared: supported or not, refused or not, and the cases it got wrong."""

    group: Group
    in_vocabulary: bool
    refused: str | None
    wrong: tuple[str, ...]
    passed: int

    @property
    def ok(self) -> bool:
        """In the vocabulary: accepted and every case right. Outside it: refused, never misjudged."""
        if self.in_vocabulary:
            return self.refused is None and not self.wrong
        return self.refused is not None


def _toolreg_is_valid(schema: Any) -> Callable[[Any], bool]:
    return toolreg.compile(schema).is_valid


def judge(group: Group, implementation: Implementation | None = None) -> Outcome:
    """Check each case's verdict; a SchemaError anywhere means the group was refused.

    toolreg compiles the schema once; another implementation is asked ``f(schema, instance)``
    for each case, and its verdict is "no errors".
    """
    in_vocabulary = in_toolreg_vocabulary(group.schema)
    if implementation is None:
        try:
            is_valid = _toolreg_is_valid(group.schema)
        except toolreg.SchemaError as error:
            return Outcome(group, in_vocabulary, str(error), (), 0)
    else:
        ask = implementation

        def is_valid(instance: Any) -> bool:
            return not list(ask(group.schema, instance))

    wrong = []
    for case in group.cases:
        try:
            verdict = is_valid(case["data"])
        except toolreg.SchemaError as error:
            return Outcome(group, in_vocabulary, str(error), (), 0)
        except Exception as error:  # any crash is a wrong answer, reported with its cause
            wrong.append(f"{case['description']} (raised {type(error).__name__}: {error})")
            continue
        if verdict is not case["valid"]:
            wrong.append(case["description"])
    return Outcome(group, in_vocabulary, None, tuple(wrong), len(group.cases) - len(wrong))
