"""Reading the official JSON-Schema-Test-Suite and judging an implementation group by group."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import toolreg
from toolreg._pointer import split
from toolreg._schema import ROOT_URI, resolve
from toolreg._vocabulary import ANNOTATIONS, DIALECTS, VOCABULARY, keywords, subschemas

__all__ = [
    "Group",
    "Outcome",
    "DIALECT_FOLDERS",
    "default_suite_dir",
    "load_groups",
    "keywords_used",
    "keywords_along",
    "judge",
    "supported",
    "EXCEPTIONS",
]

# Any implementation under test: f(schema, instance) returns its errors, none when valid.
Implementation = Callable[[Any, Any], Iterable[Any]]

# The suite's folder for each dialect, and the "$schema" that declares it.
DIALECT_FOLDERS = {
    "draft2020-12": ("2020-12", "https://json-schema.org/draft/2020-12/schema"),
    "draft2019-09": ("2019-09", "https://json-schema.org/draft/2019-09/schema"),
    "draft7": ("draft-07", "http://json-schema.org/draft-07/schema#"),
}

# Keywords whose value is one subschema, an array of them, or an object of them, as the vocabulary
# says; and those toolreg refuses, whose subschemas the suite's schemas still hold.
ONE_SCHEMA = frozenset(row.name for row in VOCABULARY if row.holds in ("schema", "schema-or-list")) | {
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
}  # fmt: skip
SCHEMA_ARRAY = frozenset(row.name for row in VOCABULARY if row.holds in ("list", "schema-or-list"))
SCHEMA_OBJECT = frozenset(row.name for row in VOCABULARY if row.holds == "map")


# Optional groups toolreg answers differently on purpose, each with the specification's reason.
EXCEPTIONS = {
    "draft7/optional/content.json": (
        "draft-07 leaves contentEncoding and contentMediaType checks to the implementation; toolreg "
        "treats them as annotations, as 2019-09 and 2020-12 require"
    ),
}


def supported(dialect: str) -> frozenset[str]:
    """The keywords toolreg validates in ``dialect``, and the annotations it accepts."""
    return frozenset(keywords(dialect)) | frozenset(ANNOTATIONS)


def default_suite_dir() -> Path:
    """``TOOLREG_SUITE`` if set, else the shared copy beside the repository: the suite's root, which
    holds ``tests/`` and ``remotes/``."""
    configured = os.environ.get("TOOLREG_SUITE")
    if configured:
        return Path(configured)
    repository = Path(__file__).resolve().parent.parent
    return repository.parent / "shared" / "official-suite"


@dataclass(frozen=True)
class Group:
    """One schema of the suite with its test cases, named ``folder/file :: description``."""

    file: str
    description: str
    schema: Any
    cases: tuple[dict[str, Any], ...]
    dialect: str = "2020-12"
    # The suite's remote documents by URI, for the $refs that name them.
    documents: Any = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        return f"{self.file} :: {self.description}"

    @property
    def declared(self) -> Any:
        """The schema with its dialect's ``$schema`` at the root, as the suite's runners assume it."""
        if not isinstance(self.schema, dict) or "$schema" in self.schema:
            return self.schema
        uri = next(uri for dialect, uri in DIALECT_FOLDERS.values() if dialect == self.dialect)
        return {"$schema": uri, **self.schema}


def load_remotes(suite: Path) -> dict[str, Any]:
    """The documents of the suite's ``remotes/`` by the URI its tests give them (a local server's)."""
    remotes = suite / "remotes"
    return {
        f"http://localhost:1234/{path.relative_to(remotes).as_posix()}": json.loads(
            path.read_text(encoding="utf-8")
        )
        for path in sorted(remotes.rglob("*.json"))
    }


def load_groups(suite: Path, folder: str = "draft2020-12", *, optional: bool = False) -> list[Group]:
    """Every group of one dialect's required files (or, with ``optional``, of its optional files
    other than ``optional/format``), in file then document order."""
    directory = suite / "tests" / folder
    dialect = DIALECT_FOLDERS[folder][0]
    paths = sorted(directory.glob("optional/*.json" if optional else "*.json"))
    documents = load_remotes(suite)
    groups = []
    for path in paths:
        relative = f"{folder}/{path.relative_to(directory).as_posix()}"
        for group in json.loads(path.read_text(encoding="utf-8")):
            cases = tuple(group["tests"])
            groups.append(Group(relative, group["description"], group["schema"], cases, dialect, documents))
    return groups


def keywords_used(schema: Any, dialect: str = "2020-12") -> set[str]:
    """Every keyword that appears in a schema position anywhere in ``schema``, found statically."""
    found: set[str] = set()
    for subschema in _subschemas(schema, dialect):
        found.update(subschema)
    return found


def in_toolreg_vocabulary(schema: Any, dialect: str = "2020-12", documents: Any = None) -> bool:
    """Only supported keywords, one dialect, and no ``$ref`` to a meta-schema (toolreg bundles none),
    in the schema and in every document of ``documents`` its ``$ref``s reach."""
    pending, seen = [(schema, ROOT_URI)], set[str]()
    while pending:
        current, base = pending.pop()
        every = list(_subschemas(current, dialect))
        declared = {subschema["$schema"] for subschema in every if "$schema" in subschema}
        if not all(isinstance(uri, str) and DIALECTS.get(uri) == dialect for uri in declared):
            return False
        if not keywords_used(current, dialect) <= supported(dialect):
            return False
        for ref in _references(current, base, dialect):
            if ref.startswith(("https://json-schema.org/", "http://json-schema.org/")):
                return False
            if ref in (documents or {}) and ref not in seen:
                seen.add(ref)
                pending.append((documents[ref], ref))
    return True


def _references(schema: Any, base: str, dialect: str) -> Iterator[str]:
    """The absolute URI, without fragment, of every ``$ref`` in ``schema``."""
    stack = [(schema, base)]
    while stack:
        current, base = stack.pop()
        if not isinstance(current, dict):
            continue
        if isinstance(current.get("$id"), str) and not current["$id"].startswith("#"):
            base = resolve(base, current["$id"])
        if isinstance(current.get("$ref"), str):
            yield resolve(base, current["$ref"]).partition("#")[0]
        stack.extend((child, base) for _, child in subschemas(current, dialect))


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
        if keyword in SCHEMA_ARRAY | SCHEMA_OBJECT and tokens and isinstance(schema, (list, dict)):
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


def _subschemas(schema: Any, dialect: str = "2020-12") -> Iterator[dict[str, Any]]:
    """Every object schema in ``schema``, by the vocabulary's own walker."""
    if not isinstance(schema, dict):
        return
    yield schema
    for _, child in subschemas(schema, dialect):
        yield from _subschemas(child, dialect)


@dataclass(frozen=True)
class Outcome:
    """How one group fared: supported or not, refused or not, and the cases it got wrong."""

    group: Group
    in_vocabulary: bool
    refused: str | None
    wrong: tuple[str, ...]
    passed: int

    @property
    def exception(self) -> str | None:
        """Why toolreg answers this group otherwise on purpose, for the few written down."""
        return EXCEPTIONS.get(self.group.file) if self.wrong else None

    @property
    def ok(self) -> bool:
        """In the vocabulary: accepted and every case right. Outside it: refused, never misjudged."""
        if self.exception is not None:
            return True
        if self.in_vocabulary:
            return self.refused is None and not self.wrong
        return self.refused is not None


def _toolreg_is_valid(group: Group) -> Callable[[Any], bool]:
    return toolreg.compile(group.declared, documents=group.documents).is_valid


def judge(group: Group, implementation: Implementation | None = None) -> Outcome:
    """Check each case's verdict; a SchemaError anywhere means the group was refused.

    toolreg compiles the schema once; another implementation is asked ``f(schema, instance)``
    for each case, and its verdict is "no errors".
    """
    in_vocabulary = in_toolreg_vocabulary(group.schema, group.dialect, group.documents)
    if implementation is None:
        try:
            is_valid = _toolreg_is_valid(group)
        except toolreg.SchemaError as error:
            return Outcome(group, in_vocabulary, str(error), (), 0)
    else:
        ask = implementation

        def is_valid(instance: Any) -> bool:
            return not list(ask(group.declared, instance))

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
