"""Reading the official JSON-Schema-Test-Suite and judging an implementation group by group."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import toolreg
from toolreg._jsonschema.metaschemas import META_SCHEMAS
from toolreg._jsonschema.pointer import split
from toolreg._jsonschema.references import ROOT_URI, resolve
from toolreg._jsonschema.vocabulary import ANNOTATIONS, DIALECTS, VOCABULARY, keywords, subschemas

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
    "PARTS",
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


@dataclass(frozen=True)
class Departure:
    """An optional file toolreg answers otherwise on purpose: ``refused`` (every group in it), or
    cases judged differently, those ``covers`` says yes to; and the specification's reason."""

    reason: str
    refused: bool = False
    covers: Callable[[Any], bool] = lambda data: True


_UNKNOWN_KEYWORDS = Departure(
    "the specification says an unknown keyword SHOULD be ignored or collected as an annotation; "
    "toolreg refuses it when the schema is registered, so that a misspelled keyword is never silently "
    "ignored",
    refused=True,
)
_IDNA = (
    "format assertion may cover a subset of formats (2020-12 validation 7.2.3); toolreg checks an "
    "A-label's Punycode and RFC 5891's rules, not IDNA2008's code point tables and contextual rules "
    "(RFC 5892), so it does not assert idn-hostname and accepts A-labels those tables refuse"
)


def _holds_a_label(data: Any) -> bool:
    return isinstance(data, str) and "xn--" in data.lower()


# Optional files toolreg answers differently on purpose, each with the specification's reason.
EXCEPTIONS: dict[str, Departure] = {
    "draft7/optional/content.json": Departure(
        "draft-07 leaves contentEncoding and contentMediaType checks to the implementation; toolreg "
        "treats them as annotations, as 2019-09 and 2020-12 require"
    ),
    **{f"{folder}/optional/unknownKeyword.json": _UNKNOWN_KEYWORDS for folder in DIALECT_FOLDERS},
    **{
        f"{folder}/optional/refOfUnknownKeyword.json": _UNKNOWN_KEYWORDS
        for folder in ("draft2020-12", "draft2019-09")
    },
    **{
        f"{folder}/optional/dependencies-compatibility.json": Departure(
            "2019-09 split 'dependencies' into 'dependentRequired' and 'dependentSchemas', and this file "
            "lets an implementation keep the old keyword; toolreg refuses it, naming the two, unless "
            "the schema declares draft-07",
            refused=True,
        )
        for folder in ("draft2020-12", "draft2019-09")
    },
    **{
        f"{folder}/optional/cross-draft.json": Departure(
            "a schema resource may declare a dialect of its own (2020-12 core 8.1.1); toolreg reads a "
            "schema and the documents it references by the dialect of the root, and refuses a '$schema' "
            "naming another inside",
            refused=True,
        )
        for folder in DIALECT_FOLDERS
    },
    **{
        f"{folder}/optional/format/hostname.json": Departure(_IDNA, covers=_holds_a_label)
        for folder in DIALECT_FOLDERS
    },
    **{f"{folder}/optional/format/idn-hostname.json": Departure(_IDNA) for folder in DIALECT_FOLDERS},
    **{
        f"{folder}/optional/format/unknown.json": Departure(
            "the specification makes a format it does not define an annotation; with format assertion "
            "on, toolreg refuses one it does not know, naming the nearest, so that a misspelt format "
            "(date_time) is never silently an annotation",
            refused=True,
        )
        for folder in DIALECT_FOLDERS
    },
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
    # optional/format's groups are judged with format assertion on.
    assert_formats: bool = False

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


# The parts of each dialect's folder: required files, optional ones, and optional/format (judged with
# format assertion on).
PARTS = {"required": "*.json", "optional": "optional/*.json", "format": "optional/format/*.json"}


def load_groups(suite: Path, folder: str = "draft2020-12", part: str = "required") -> list[Group]:
    """Every group of one part (:data:`PARTS`) of one dialect's files, in file then document order."""
    directory = suite / "tests" / folder
    dialect = DIALECT_FOLDERS[folder][0]
    paths = sorted(directory.glob(PARTS[part]))
    documents = load_remotes(suite)
    groups = []
    for path in paths:
        relative = f"{folder}/{path.relative_to(directory).as_posix()}"
        for group in json.loads(path.read_text(encoding="utf-8")):
            cases = tuple(group["tests"])
            groups.append(
                Group(
                    relative,
                    group["description"],
                    group["schema"],
                    cases,
                    dialect,
                    documents,
                    part == "format",
                )
            )
    return groups


def keywords_used(schema: Any, dialect: str = "2020-12") -> set[str]:
    """Every keyword that appears in a schema position anywhere in ``schema``, found statically."""
    found: set[str] = set()
    for subschema in _subschemas(schema, dialect):
        found.update(subschema)
    return found


def in_toolreg_vocabulary(schema: Any, dialect: str = "2020-12", documents: Any = None) -> bool:
    """Only supported keywords and one dialect (named at the root directly, or by a meta-schema of
    ``documents``), in the schema and in every document its ``$ref``s reach, bundled meta-schemas
    included."""
    given = {**META_SCHEMAS, **(documents or {})}
    root_declares = schema.get("$schema") if isinstance(schema, dict) else None
    meta = given.get(root_declares) if isinstance(root_declares, str) else None
    if isinstance(meta, dict) and DIALECTS.get(meta.get("$schema", "")) != dialect:
        return False
    pending, seen = [(schema, ROOT_URI)], set[str]()
    while pending:
        current, base = pending.pop()
        every = list(_subschemas(current, dialect))
        declared = {subschema["$schema"] for subschema in every if "$schema" in subschema}
        if not all(uri == root_declares or DIALECTS.get(uri) == dialect for uri in declared):
            return False
        if not keywords_used(current, dialect) <= supported(dialect):
            return False
        for ref in _references(current, base, dialect):
            if ref in given and ref not in seen:
                seen.add(ref)
                pending.append((given[ref], ref))
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
    # Cases answered otherwise on purpose, as an exception of EXCEPTIONS covers them.
    excused: tuple[str, ...] = ()
    # Cases on which the implementation raised (counted among the wrong ones too).
    raised: tuple[str, ...] = ()

    @property
    def exception(self) -> str | None:
        """Why toolreg answers this group otherwise on purpose, for the few written down."""
        written = EXCEPTIONS.get(self.group.file)
        if written is None:
            return None
        applies = self.refused is not None if written.refused else bool(self.excused)
        return written.reason if applies else None

    @property
    def ok(self) -> bool:
        """In the vocabulary: accepted and every case right. Outside it: refused, never misjudged."""
        if self.exception is not None and not self.wrong:
            return True
        if self.in_vocabulary:
            return self.refused is None and not self.wrong
        return self.refused is not None


def _toolreg_is_valid(group: Group) -> Callable[[Any], bool]:
    # Generated at once, so that the suite judges the fast path (the reference walk answers a
    # validator's first calls otherwise).
    return (
        toolreg.compile(group.declared, documents=group.documents, assert_formats=group.assert_formats)
        .prepare()
        .is_valid
    )


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

    wrong: list[str] = []
    excused: list[str] = []
    raised: list[str] = []
    written = EXCEPTIONS.get(group.file)
    for case in group.cases:
        try:
            verdict = is_valid(case["data"])
        except toolreg.SchemaError as error:
            return Outcome(group, in_vocabulary, str(error), (), 0)
        except Exception as error:  # any crash is a wrong answer, reported with its cause
            wrong.append(f"{case['description']} (raised {type(error).__name__}: {error})")
            raised.append(case["description"])
            continue
        if verdict is not case["valid"]:
            covered = written is not None and not written.refused and written.covers(case["data"])
            (excused if covered else wrong).append(case["description"])
    passed = len(group.cases) - len(wrong) - len(excused)
    return Outcome(group, in_vocabulary, None, tuple(wrong), passed, tuple(excused), tuple(raised))
