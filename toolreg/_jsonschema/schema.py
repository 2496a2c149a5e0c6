"""The strict schema check: every keyword is supported, an annotation, or refused with a pointer."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote, urljoin

from .errors import Masked, SchemaError, ValidationError, trusted_error
from .keywords import NOTES, Check, Evaluated, Findings, Note, Path, Site, no_check, noted, spend
from .limits import DEFAULT_LIMITS, Limits, LimitsLike, as_limits
from .metaschemas import META_SCHEMAS
from .pointer import ARRAY_INDEX, Document, masked_pointer, split, to_pointer
from .regex import MAX_PROGRAM, Pattern, UnsupportedPattern
from .values import NotJSON, snapshot
from .vocabulary import (
    ANNOTATIONS,
    DEFAULT_DIALECT,
    DIALECTS,
    KNOWN_UNSUPPORTED,
    REWRITES,
    VOCABULARIES,
    dialects_of,
    is_annotation,
    keyword_order,
    keywords,
    subschemas,
    vocabulary_uri,
)


def _entering(resource: str, checks: list[Check]) -> Check:
    """``checks``, run with ``resource`` entered: a ``$dynamicRef`` below looks there (outermost first)."""

    def in_resource(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        scope = errors.scope if isinstance(errors, Findings) else []
        scope.append(resource)
        try:
            for check in checks:
                check(instance, path, errors)
        finally:
            scope.pop()

    return in_resource


def _followed(target: Callable[[list[ValidationError]], tuple[Check, str | None]], annotates: bool) -> Check:
    """The check of a reference in a schema with ``$dynamicRef`` or ``unevaluated*``: a step spent, the
    ``target`` check chosen, the resource it belongs to entered, and, where the schema around collects
    what is evaluated of the value, its notes handed on if the value passes (see keywords.Evaluated),
    all in one call, so a chain of references costs one Python frame for each."""

    def follow(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        spend(errors)
        check, resource = target(errors)
        if not isinstance(errors, Findings):
            check(instance, path, errors)
            return
        around = noted(errors, instance) if annotates else None
        own, before = (Evaluated(instance), len(errors)) if around is not None else (None, 0)
        if resource is not None:
            errors.scope.append(resource)
        if own is not None:
            errors.notes.append(own)
        try:
            check(instance, path, errors)
        finally:
            if own is not None:
                errors.notes.pop()
            if resource is not None:
                errors.scope.pop()
        if around is not None and own is not None and len(errors) == before:
            around.take(own)

    return follow


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def resolve(base: str, reference: str) -> str:
    """``reference`` made absolute against ``base`` (RFC 3986), URNs included, which Python's
    ``urljoin`` leaves alone: ``#/$defs/a`` against ``urn:uuid:…`` is ``urn:uuid:…#/$defs/a``."""
    # The fragment is kept as written: urljoin would drop characters such as a newline from it.
    address, hashed, fragment = reference.partition("#")
    if _SCHEME.match(address):
        absolute = address
    elif not address:
        absolute = base.partition("#")[0]
    else:
        try:
            absolute = urljoin(base, address)
        except ValueError:  # not a URI reference ("//["): it names nothing, and "$id" refuses it
            absolute = address
    return absolute + hashed + fragment


# The base URI of a schema without an "$id": relative references resolve against it, and a document
# given by a relative URI is placed under it.
ROOT_URI = "https://toolreg.invalid/schema.json"

__all__ = ["check_schema", "compile_schema", "guarded_pattern", "Compiled", "Node"]


@dataclass(frozen=True, slots=True)
class Node:
    """A schema object as compilation read it, which is all the fast path reads: ``boolean`` for a
    ``true`` or ``false`` schema, else ``keywords``, each keyword the dialect checks here in the
    table's order with its plan. A keyword holding subschemas has their locations (one; a tuple;
    or, for an object of them, a tuple of (name, location)); ``$ref`` its target's location;
    ``type`` a tuple of names; ``pattern`` the compiled pattern; any other its checked value,
    a list as a tuple.
    """

    location: Path
    pointer: str
    boolean: bool | None
    keywords: Mapping[str, Any]


# The keywords that make a schema object matter to the URI index.
_MARKED = frozenset(
    ("$id", "$anchor", "$dynamicAnchor", "$ref", "$dynamicRef", "$recursiveRef", "$recursiveAnchor")
)
# Where a schema's JSON text names one of them as a key or a string; a "$ref" alone adds nothing to
# the index (it matters there only beside an "$id").
_MARKED_IN_TEXT = re.compile("|".join(re.escape(f'"{keyword}"') for keyword in sorted(_MARKED - {"$ref"})))
# The keywords that lead back to a schema object: without them no loop of schemas is possible.
_REFERENCES = frozenset(("$ref", "$dynamicRef", "$recursiveRef"))

# An edge between two schemas applied to the same value: the target, and the $ref that made it, if any.
_Edge = tuple[str, str | None]


class _Compiler:
    """One walk over one schema document: each location compiled once, local ``$ref``s resolved."""

    def __init__(
        self,
        root: Any,
        limits: Limits = DEFAULT_LIMITS,
        documents: Mapping[str, Any] | None = None,
        assert_formats: bool = False,
        text: str | None = None,
        patterns: dict[str, tuple[Pattern, str | None]] | None = None,
        dynamic: bool = False,
        annotates: bool = False,
    ) -> None:
        self.root = root
        self.limits = limits
        self.documents = {resolve(ROOT_URI, uri): schema for uri, schema in (documents or {}).items()}
        # The root's "$schema" names the dialect, directly or through a meta-schema the caller gave;
        # none means 2020-12. Such a meta-schema's "$vocabulary" may leave keywords out: they are
        # then read as annotations, as the specification says.
        self.declared = root.get("$schema") if isinstance(root, dict) else None
        self.dialect, vocabularies = self._dialect_of(self.declared)
        self.asserts_formats = assert_formats
        self.ignored: frozenset[str] = frozenset()
        self.keywords, self.order = keywords(self.dialect), keyword_order(self.dialect)
        if vocabularies is not None:
            in_use = frozenset[str]().union(*(VOCABULARIES[name] for name in ("core", *vocabularies)))
            self.ignored = frozenset[str]().union(*VOCABULARIES.values()) - in_use
            self.asserts_formats = assert_formats or "format-assertion" in vocabularies
            self.keywords = {name: row for name, row in self.keywords.items() if name not in self.ignored}
            self.order = {name: index for index, name in enumerate(self.keywords)}
        # Every keyword compiled anywhere: the fast path writes code only for those it knows.
        self.used: set[str] = set()
        self.patterns = {} if patterns is None else patterns
        # The size of the RE2 programs of this schema's patterns, each counted once (see MAX_PROGRAM).
        self.programs: dict[str, int] = {}
        self.dynamic_names: set[str] = set()
        # Where URIs lead: each schema resource ($id) and anchor, by absolute URI, and the documents
        # the caller gave, read only when a $ref names them. Nothing is ever fetched.
        self.loaded: dict[str, Any] = {}
        self.resources: dict[str, Path] = {}
        self.anchors: dict[str, Path] = {}
        self.bases: dict[Path, str] = {}
        # For $dynamicRef: each dynamic anchor's schema in each resource, and each resource's root.
        self.dynamic_anchors: dict[str, dict[str, Path]] = {}
        self.resource_roots: dict[str, str] = {}
        self.resources[ROOT_URI] = ()
        # Resources are entered and left only where a $dynamicRef may look (else it costs for nothing):
        # the index of the root says whether it holds one. A document read later that holds one
        # makes compile_schema start again with ``dynamic`` set.
        self.dynamic = dynamic
        # Whether subschemas note what they evaluate, for unevaluatedItems and unevaluatedProperties:
        # compile_schema starts again with it set when the schema turns out to hold one of them.
        self.annotates = annotates
        self.spends = False
        self.recursive_anchors: dict[str, Path] = {}
        if text is None or _MARKED_IN_TEXT.search(text):
            self._index(root, (), ROOT_URI)
        else:  # the schema's JSON text names no identifier, anchor or reference: nothing to index
            self.bases[()], self.resource_roots[""] = ROOT_URI, ROOT_URI
        self.checks: dict[str, Check] = {}
        self.compiling: set[str] = set()
        # Schemas that apply to the same value (allOf, anyOf, oneOf, not, $ref): a cycle of them
        # never reaches a smaller part of the value, so evaluating it would never end.
        self.in_place: list[tuple[Path, Path, str | None]] = []
        # What the fast path (``codegen``) reuses: each keyword's check, by the keyword's pointer,
        # and where each $ref leads.
        self.keyword_checks: dict[tuple[str, str], Check] = {}
        self.ref_targets: dict[str, Path] = {}
        self.waiting: list[tuple[Any, Path, str]] = []
        self.nodes: dict[str, Node] = {}

    def compile(self, schema: Any, location: Path, pointer: str | None = None) -> Check:
        if pointer is None:
            pointer = to_pointer(location)
        if pointer in self.checks:
            return self.checks[pointer]
        if len(self.checks) + len(self.compiling) >= self.limits.max_schema_size:
            raise SchemaError(
                f"a schema may hold at most {self.limits.max_schema_size} subschemas (max_schema_size)",
                schema_path=pointer,
            )
        self.compiling.add(pointer)
        check = self._compile_new(schema, location, pointer)
        self.compiling.discard(pointer)
        self.checks[pointer] = check
        return check

    @property
    def chains(self) -> bool:
        """Whether a schema object enters what allOf and $ref apply in its own loop (see _Chain):
        where no resource is entered for $dynamicRef and no notes are taken for unevaluated*."""
        return not (self.dynamic or self.annotates)

    def applies_in_place(self, source: Path, target: Path, via_ref: str | None = None) -> None:
        # As locations: pointers are written only if a loop must be looked for.
        self.in_place.append((source, target, via_ref))

    def _index(self, schema: Any, location: Path, base: str) -> None:
        """Record the base URI where an ``$id`` changes it below ``location``, and the resources, anchors
        and references that the schema walk and ``$dynamicRef`` need to know of in advance."""
        self.bases[location] = base
        self.resource_roots[to_pointer(location)] = base
        stack = [(schema, location, base)]
        while stack:
            schema, location, base = stack.pop()
            if not isinstance(schema, dict):
                continue
            if not _MARKED.isdisjoint(schema):
                base = self._mark(schema, location, base)
            below = subschemas(schema, self.dialect)
            stack.extend((child, location + tokens, base) for tokens, child in below)

    def _mark(self, schema: dict[str, Any], location: Path, base: str) -> str:
        """What one schema object with an identifier, an anchor or a reference adds to the index; the
        base URI in force below it."""
        declared = schema.get("$id")
        # draft-07 ignores the keywords beside a $ref, $id included.
        if isinstance(declared, str) and not (self.dialect == "draft-07" and "$ref" in schema):
            if declared.startswith("#"):
                self.anchors.setdefault(resolve(base, declared), location)  # draft-07's anchor form
            else:
                base = resolve(base, declared).partition("#")[0]
                self.resources.setdefault(base, location)
                self.bases[location] = base
                self.resource_roots[to_pointer(location)] = base
        for keyword in ("$anchor", "$dynamicAnchor"):
            if isinstance(schema.get(keyword), str):
                self.anchors.setdefault(f"{base}#{schema[keyword]}", location)
        if "$dynamicRef" in schema or "$recursiveRef" in schema:
            self.dynamic = True
        if isinstance(schema.get("$dynamicAnchor"), str):
            self.dynamic_anchors.setdefault(schema["$dynamicAnchor"], {}).setdefault(base, location)
        if schema.get("$recursiveAnchor") is True and self.dialect == "2019-09":
            self.recursive_anchors.setdefault(base, location)
        return base

    def base_of(self, location: Path) -> str:
        """The base URI in force at a schema object."""
        while location not in self.bases and location:
            location = location[:-1]
        return self.bases.get(location, ROOT_URI)

    def reference(self, ref: str, location: Path) -> Check:
        target = self._resolve_reference(ref, location)
        return self._follow(target, location, to_pointer(location))

    def _dialect_of(self, declared: Any) -> tuple[str, tuple[str, ...] | None]:
        """The dialect a root's ``$schema`` names, and the vocabularies (of :data:`VOCABULARIES`) in use:
        ``None`` for a dialect's own meta-schema, which uses every one, with format an annotation."""
        if not isinstance(declared, str):
            return DEFAULT_DIALECT, None
        if declared in DIALECTS:
            return DIALECTS[declared], None

        def refuse(reason: str) -> SchemaError:
            return SchemaError(f"'$schema' {declared!r} {reason}", schema_path="/$schema", keyword="$schema")

        meta = self.documents.get(resolve(ROOT_URI, declared).partition("#")[0])
        if meta is None:
            raise refuse(
                "names neither the 2020-12, 2019-09 or draft-07 meta-schema nor a meta-schema given in "
                "documents={uri: schema}"
            )
        try:
            meta = snapshot(meta, self.limits.max_schema_depth)
        except NotJSON as error:
            raise refuse(f"names a document that is not a JSON schema: {error}") from None
        dialect = DIALECTS.get(meta.get("$schema", "")) if isinstance(meta, dict) else None
        if dialect is None:
            raise refuse("names a meta-schema whose own '$schema' is not 2020-12, 2019-09 or draft-07")
        stated = meta.get("$vocabulary")
        known = vocabulary_uri(dialect)
        if stated is None:
            return dialect, None
        if not isinstance(stated, dict) or not all(isinstance(value, bool) for value in stated.values()):
            raise refuse("names a meta-schema whose '$vocabulary' is not an object of URIs to booleans")
        for uri, required in stated.items():
            if required and uri not in known:
                raise refuse(f"names a meta-schema that requires the vocabulary {uri!r}, which toolreg lacks")
        return dialect, tuple(name for uri in stated if uri in known for name in known[uri])

    def recursive_reference(self, location: Path) -> Check:
        """2019-09's ``$recursiveRef``: the root of this resource, or, when that root has
        ``"$recursiveAnchor": true``, the outermost resource entered whose root has it too."""
        pointer = to_pointer(location)
        start = self._resolve_reference("#", location)
        declared = self.schema_at(start)
        if not (isinstance(declared, dict) and declared.get("$recursiveAnchor") is True):
            return self._follow(start, location, pointer)
        self.applies_in_place(location[:-1], start, via_ref=pointer)
        self.ref_targets[pointer] = start
        self.deferred(declared, start)
        return self._outermost(pointer, start, self.recursive_anchors)

    def dynamic_reference(self, ref: str, location: Path) -> Check:
        pointer = to_pointer(location)
        start = self._resolve_reference(ref, location)
        name = resolve(self.base_of(location[:-1]), ref).partition("#")[2]
        declared = self.schema_at(start)
        if not (isinstance(declared, dict) and declared.get("$dynamicAnchor") == name):
            return self._follow(start, location, pointer)  # no dynamic anchor there: a plain $ref
        self.applies_in_place(location[:-1], start, via_ref=pointer)
        self.deferred(declared, start)
        self.dynamic_names.add(name)
        return self._outermost(pointer, start, self.dynamic_anchors[name])

    def _outermost(self, pointer: str, start: Path, anchors: dict[str, Path]) -> Check:
        """The check of a $dynamicRef or $recursiveRef at ``pointer``: the schema ``anchors`` holds for
        the outermost resource the walk has entered (by its URI), else ``start``. ``anchors`` is read
        when the check runs, so documents read later count."""
        checks = self.checks

        def choose(errors: list[ValidationError]) -> tuple[Check, str | None]:
            chosen = start
            for uri in errors.scope if isinstance(errors, Findings) else ():
                if uri in anchors:
                    chosen = anchors[uri]
                    break
            return checks[to_pointer(chosen)], self.base_of(chosen)

        return _followed(choose, self.annotates)

    def _resolve_reference(self, ref: str, location: Path) -> Path:
        """The location a $ref (or $dynamicRef) at ``location`` names, or SchemaError."""
        pointer = to_pointer(location)

        def refuse(reason: str) -> SchemaError:
            return SchemaError(f"'$ref' {ref!r} {reason}", schema_path=pointer, keyword="$ref")

        uri, _, fragment = resolve(self.base_of(location[:-1]), ref).partition("#")
        resource = self.resources.get(uri)
        if resource is None:
            resource = self._load(uri)
        if resource is None:
            raise refuse(
                "names a schema document toolreg was not given; toolreg never fetches one: pass it in "
                "documents={uri: schema}"
            )
        # A URI fragment: percent-decoding first, then RFC 6901's ~1 and ~0, or an anchor's name.
        fragment = unquote(fragment)
        if fragment and not fragment.startswith("/"):
            anchored = self.anchors.get(f"{uri}#{fragment}")
            if anchored is None:
                raise refuse(f"names the anchor {fragment!r}, which no schema there declares")
            return anchored
        target, resolved = self.schema_at(resource), list(resource)
        for token in split(fragment):
            step: str | int = token
            if isinstance(target, list) and ARRAY_INDEX.fullmatch(token) and int(token) < len(target):
                step = int(token)
            elif not isinstance(target, dict) or token not in target:
                where = to_pointer(resolved[len(resource) :]) or "#"
                raise refuse(f"points at nothing: there is no {token!r} at {where!r}")
            target = target[step]
            resolved.append(step)
        return tuple(resolved)

    def _follow(self, target: Path, location: Path, pointer: str) -> Check:
        self.applies_in_place(location[:-1], target, via_ref=pointer)
        self.ref_targets[pointer] = target
        return self.deferred(self.schema_at(target), target)

    def _load(self, uri: str) -> Path | None:
        """A document the caller gave, or a bundled meta-schema, checked as JSON, indexed, and
        returned as a location."""
        document = self.documents.get(uri, META_SCHEMAS.get(uri))
        if document is None or uri in self.loaded:
            return None
        try:
            self.loaded[uri] = snapshot(document, self.limits.max_schema_depth)
        except NotJSON as error:
            raise SchemaError(f"the document {uri!r} is not a JSON schema: {error}") from None
        root = (Document(uri),)
        self.resources[uri] = root
        self._index(self.loaded[uri], root, uri)
        return self.resources.get(uri, root)

    def deferred(self, schema: Any, location: Path) -> Check:
        """The check of a $ref's target, compiled after the current one rather than inside it, so
        that a chain of references costs no Python stack; it is looked up when it runs."""
        pointer = to_pointer(location)
        if pointer not in self.checks and pointer not in self.compiling:
            self.waiting.append((schema, location, pointer))
        checks = self.checks
        if self.dynamic or self.annotates:
            # Following a reference enters the resource its target belongs to, wherever in it it is.
            resource = self.base_of(location) if self.dynamic else None
            return _followed(lambda errors: (checks[pointer], resource), self.annotates)

        def target(instance: Any, path: Path, errors: list[ValidationError]) -> None:
            spend(errors)
            checks[pointer](instance, path, errors)

        return target

    def compile_all(self, root: Any) -> None:
        """The root, then every $ref target waiting, one after another."""
        self.compile(root, ())
        while True:
            while self.waiting:
                schema, location, pointer = self.waiting.pop()
                self.compile(schema, location, pointer)
            # Every schema a $dynamicRef may choose at run time, in whichever resource declares it.
            for name in sorted(self.dynamic_names):
                for location in self.dynamic_anchors[name].values():
                    self.deferred(self.schema_at(location), location)
            for location in self.recursive_anchors.values():
                self.deferred(self.schema_at(location), location)
            if not self.waiting:
                return

    def pattern_and_risk(self, source: str) -> tuple[Pattern, str | None]:
        """The compiled pattern and what in it needs a backtracking engine, once per schema, or once
        per registry that shares its patterns; RegexSyntaxError or UnsupportedPattern."""
        found = guarded_pattern(source, self.patterns)
        if source not in self.programs:
            self.programs[source] = found[0].program
            total = sum(self.programs.values())
            if total > MAX_PROGRAM:
                raise UnsupportedPattern(
                    f"with the patterns before it, RE2's programs for this schema would hold {total} "
                    f"instructions, more than the {MAX_PROGRAM} one schema may; write fewer or smaller "
                    "patterns"
                )
        return found

    def pattern(self, source: str) -> Pattern:
        """The compiled pattern (it was checked where the schema holds it)."""
        return self.pattern_and_risk(source)[0]

    def node(self, location: Path) -> Node:
        """The intermediate form of the compiled schema object at ``location``, made on first request
        (the fast path asks; registration alone need not pay for it)."""
        pointer = to_pointer(location)
        found = self.nodes.get(pointer)
        if found is not None:
            return found
        schema = self.schema_at(location)
        if isinstance(schema, bool):
            found = Node(location, pointer, schema, MappingProxyType({}))
        else:
            present = [name for name in self.order if name in schema]
            if "$ref" in schema and self.dialect == "draft-07":
                present = ["$ref"]
            found = Node(
                location,
                pointer,
                None,
                MappingProxyType({name: self._plan(name, schema[name], location) for name in present}),
            )
        self.nodes[pointer] = found
        return found

    def _plan(self, name: str, value: Any, location: Path) -> Any:
        holds = self.keywords[name].holds
        here = location + (name,)
        if holds == "schema" or (holds == "schema-or-list" and not isinstance(value, list)):
            return here
        if holds in ("list", "schema-or-list"):
            return tuple(here + (index,) for index in range(len(value)))
        if holds == "map":
            return tuple(
                (key, here + (key,)) for key, item in value.items() if isinstance(item, (dict, bool))
            )
        if name == "$ref":
            return self.ref_targets[to_pointer(here)]
        if name == "type":
            return (value,) if isinstance(value, str) else tuple(value)
        if name == "pattern":
            return self.pattern(value)
        return tuple(value) if isinstance(value, list) else value

    def schema_at(self, location: Path) -> Any:
        schema = self.root
        if location and type(location[0]) is Document:
            schema, location = self.loaded[location[0]], location[1:]
        for token in location:
            schema = schema[token]
        return schema

    def refuse_endless_loops(self) -> None:
        """Refuse a cycle of schemas that apply to the same value, naming a ``$ref`` on it."""
        if self.used.isdisjoint(_REFERENCES):
            return  # every other keyword applies its subschemas further down the schema
        graph: dict[str, list[_Edge]] = {}
        for source, towards, via_ref in self.in_place:
            graph.setdefault(to_pointer(source), []).append((to_pointer(towards), via_ref))
        finished: set[str] = set()
        for start in sorted(graph):
            if start in finished:
                continue
            # Depth first with a stack of its own, so a long chain of references needs no recursion.
            trail: list[tuple[str, str | None]] = [(start, None)]
            on_trail = {start}
            pending = [iter(graph.get(start, []))]
            while pending:
                step = next(pending[-1], None)
                if step is None:
                    node, _ = trail.pop()
                    on_trail.discard(node)
                    finished.add(node)
                    pending.pop()
                    continue
                target, edge = step
                if target in finished:
                    continue
                if target in on_trail:
                    names = [node for node, _ in trail]
                    # The edges of the loop itself: the one into its first node came from outside it.
                    edges = [via for _, via in trail[names.index(target) + 1 :]] + [edge]
                    ref = next(via for via in edges if via is not None)
                    raise SchemaError(
                        f"'$ref' leads back to {'#' + target!r} without applying to any part of the value "
                        "(only through allOf, anyOf, oneOf, not or $ref), so checking it would never end",
                        schema_path=ref,
                        keyword="$ref",
                    )
                trail.append((target, edge))
                on_trail.add(target)
                pending.append(iter(graph.get(target, [])))

    def _admit(self, keyword: str, value: Any, location: Path) -> None:
        """Refuse a keyword that is neither this dialect's nor a well-formed annotation."""
        if keyword in self.ignored:
            return  # its vocabulary is not in use: an annotation
        if is_annotation(keyword) and (keyword not in ANNOTATIONS or ANNOTATIONS[keyword][1](value)):
            if (
                keyword == "$schema"
                and location
                and value != self.declared
                and DIALECTS.get(value) != self.dialect
            ):
                named = DIALECTS.get(value, repr(value))
                raise SchemaError(
                    f"'$schema' names {named}, but the schema's root declares {self.dialect}; "
                    "toolreg reads one dialect in one schema",
                    schema_path=to_pointer(location + (keyword,)),
                    keyword=keyword,
                )
            return
        pointer = to_pointer(location + (keyword,))
        if keyword in ANNOTATIONS:
            shape = ANNOTATIONS[keyword][0]
            raise SchemaError(f"{keyword!r} must be {shape}", schema_path=pointer, keyword=keyword)
        if keyword in REWRITES:
            raise SchemaError(REWRITES[keyword], schema_path=pointer, keyword=keyword)
        if keyword in KNOWN_UNSUPPORTED:
            raise SchemaError(
                f"the keyword {keyword!r} is not supported by toolreg", schema_path=pointer, keyword=keyword
            )
        elsewhere = dialects_of(keyword)
        if elsewhere:
            raise SchemaError(
                f"{keyword!r} is not a keyword of {self.dialect}, the dialect this schema declares; "
                f"it belongs to {' and '.join(sorted(elsewhere))}",
                schema_path=pointer,
                keyword=keyword,
            )
        nearest = difflib.get_close_matches(keyword, [*self.keywords, *ANNOTATIONS], n=1, cutoff=0.6)
        hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
        raise SchemaError(f"unknown keyword {keyword!r}{hint}", schema_path=pointer, keyword=keyword)

    def _plan_entering(
        self, schema: dict[str, Any], location: Path, pointer: str, present: list[str]
    ) -> tuple[Check | str, ...]:
        """The keywords' checks in order, with the pointer of each schema that allOf or $ref applies
        in place where their checks would be (see _Chain)."""
        plan: list[Check | str] = []
        for keyword in present:
            if keyword == "allOf":
                plan.extend(f"{pointer}/allOf/{index}" for index in range(len(schema["allOf"])))
            elif keyword == "$ref":
                plan.append(to_pointer(self.ref_targets[to_pointer(location + ("$ref",))]))
            elif self.keyword_checks[pointer, keyword] is not no_check:
                plan.append(self.keyword_checks[pointer, keyword])
        return tuple(plan)

    def _compile_new(self, schema: Any, location: Path, pointer: str) -> Check:
        if schema is True:
            return no_check
        if schema is False:
            at = to_pointer(location)

            def reject(instance: Any, path: Path, errors: list[ValidationError]) -> None:
                here, hidden, message = to_pointer(path), masked_pointer(path), "no value is allowed here"
                masked: Masked | None = None if hidden is None else (hidden, message, {})
                errors.append(trusted_error(here, at, "false", message, {}, masked))

            return reject
        if not isinstance(schema, dict):
            raise SchemaError("a schema must be an object or a boolean", schema_path=to_pointer(location))
        present = []
        for keyword, value in schema.items():
            if keyword in self.order:
                present.append(keyword)
            else:
                self._admit(keyword, value, location)
        if "$ref" in schema and self.dialect == "draft-07":
            present = ["$ref"]  # draft-07 ignores the keywords beside a $ref
        self.used.update(present)
        checks = []
        if len(present) > 1:
            # Each keyword in the table's order, whatever the order of the schema's keys.
            present.sort(key=self.order.__getitem__)
        annotates, chains = self.annotates, self.chains
        notes: list[Note] = []
        last: list[Check] = []  # unevaluatedItems and unevaluatedProperties, which read the notes
        for keyword in present:
            site = Site(keyword, location, schema, self, pointer)
            check = self.keywords[keyword].build(schema[keyword], site)
            self.keyword_checks[pointer, keyword] = check
            if annotates and keyword in _UNEVALUATED:
                last.append(check)
            elif check is not no_check:
                checks.append(check)
            if annotates and keyword in NOTES:
                notes.append(NOTES[keyword](site))
        if chains and ("allOf" in present or "$ref" in present):
            return _Chain(self._plan_entering(schema, location, pointer, present), self.checks)
        resource = self.resource_roots.get(pointer) if self.dynamic else None
        if notes or last:
            return _Annotating(checks, notes, last, resource)
        if resource is not None:
            return _entering(resource, checks)
        if not checks:
            return no_check
        if len(checks) == 1:
            return checks[0]

        def check_all(instance: Any, path: Path, errors: list[ValidationError]) -> None:
            for check in checks:
                check(instance, path, errors)

        return check_all


class _Chain:
    """The check of a schema object that applies others to its value in place through allOf or $ref,
    in a schema without $dynamicRef or unevaluated*: ``plan`` is its keywords' checks in order, with
    the pointer of each schema it applies in place where that one's check would be. It runs them in
    its own loop, with a stack of its own, entering the plan of each such schema that is a chain too
    rather than calling its check, so a chain of them costs no Python stack however long; only the
    instance's nesting does. Each one entered spends a step, as the call would, and the errors come
    in the same order."""

    __slots__ = ("plan", "checks")

    def __init__(self, plan: tuple[Check | str, ...], checks: dict[str, Check]) -> None:
        self.plan, self.checks = plan, checks

    def __call__(self, instance: Any, path: Path, errors: list[ValidationError]) -> None:
        checks = self.checks
        pending = [iter(self.plan)]
        while pending:
            for step in pending[-1]:
                if type(step) is str:
                    spend(errors)
                    target = checks[step]
                    if type(target) is _Chain:
                        pending.append(iter(target.plan))
                        break
                    target(instance, path, errors)
                else:
                    step(instance, path, errors)  # type: ignore[operator]
            else:
                pending.pop()


class _Annotating:
    """The check of a schema object in a schema that reads what is evaluated: its keywords; then, when
    its value's notes are being collected, what its own keywords evaluate (see ``keywords.NOTES``);
    then its unevaluatedItems and unevaluatedProperties, which read the notes it opened for them. The
    root of a schema resource enters it (``resource``), for $dynamicRef."""

    __slots__ = ("checks", "notes", "last", "resource")

    def __init__(
        self, checks: list[Check], notes: list[Note], last: list[Check], resource: str | None
    ) -> None:
        self.checks, self.notes, self.last, self.resource = checks, notes, last, resource

    def __call__(self, instance: Any, path: Path, errors: list[ValidationError]) -> None:
        # Every list is the validation's Findings here (the fast path hands these over with its own).
        findings = errors if isinstance(errors, Findings) else Findings.budget(0)
        opened = None
        if self.last and isinstance(instance, (dict, list)):
            opened, before = Evaluated(instance), len(errors)
            findings.notes.append(opened)
        if self.resource is not None:
            findings.scope.append(self.resource)
        try:
            for check in self.checks:
                check(instance, path, errors)
            notes = opened or noted(errors, instance)
            if notes is not None:
                for note in self.notes:
                    note(instance, notes, errors)
            for check in self.last:
                check(instance, path, errors)
        finally:
            if opened is not None:
                findings.notes.pop()
            if self.resource is not None:
                findings.scope.pop()
        if opened is not None and len(errors) == before:
            around = noted(errors, instance)
            if around is not None:
                around.take(opened)


# Checked last in a schema object, as the table orders them, once the notes of the rest are in.
_UNEVALUATED = frozenset(("unevaluatedItems", "unevaluatedProperties"))


def guarded_pattern(source: str, cache: dict[str, tuple[Pattern, str | None]]) -> tuple[Pattern, str | None]:
    """The compiled pattern and, if only a backtracking engine can run it, what needs one (None when
    RE2 runs it), from ``cache`` or put there; raises RegexSyntaxError or UnsupportedPattern."""
    found = cache.get(source)
    if found is None:
        pattern = Pattern(source)
        found = cache[source] = (pattern, pattern.backtracking)
    return found


def compile_schema(
    schema: Any,
    limits: Limits = DEFAULT_LIMITS,
    documents: Mapping[str, Any] | None = None,
    assert_formats: bool = False,
    *,
    copy: bool = True,
    text: str | None = None,
    patterns: dict[str, tuple[Pattern, str | None]] | None = None,
) -> Compiled:
    """Check ``schema`` and compile it: the root check, and every part the fast path reuses.
    ``copy=False`` takes ``schema`` as a snapshot already made, which nothing else holds, and ``text``
    is that snapshot's JSON text, if known; ``patterns`` a cache of compiled patterns to share."""
    try:
        # A copy, so that no later change to the caller's dict can change what was checked.
        copied = snapshot(schema, limits.max_schema_depth) if copy else schema
    except NotJSON as error:
        assert error.problem is not None
        path, keyword, reason = error.problem
        what = "is" if keyword == "depth" else "must be JSON, but holds"
        raise SchemaError(f"a schema {what} {reason}", schema_path=to_pointer(path)) from None
    if documents is not None and not (
        isinstance(documents, Mapping) and all(isinstance(uri, str) for uri in documents)
    ):
        raise SchemaError("documents must map URIs (strings) to schemas")
    compiler = _Compiler(copied, limits, documents, assert_formats, None if copy else text, patterns)
    before = compiler.dynamic
    compiler.compile_all(copied)
    annotates = not _UNEVALUATED.isdisjoint(compiler.used)
    if (compiler.dynamic and not before) or annotates:
        # A document a $ref led to holds a $dynamicRef, so every resource must record its entry; or
        # the schema reads what is evaluated, so every subschema must note it.
        compiler = _Compiler(
            copied,
            limits,
            documents,
            assert_formats,
            None,
            patterns,
            dynamic=compiler.dynamic,
            annotates=annotates,
        )
        compiler.compile_all(copied)
    compiler.refuse_endless_loops()
    return compiler


# What compile_schema returns: the walk itself, its checks by pointer ("" is the root).
Compiled = _Compiler


def check_schema(
    schema: Any,
    *,
    limits: LimitsLike = DEFAULT_LIMITS,
    documents: Mapping[str, Any] | None = None,
    assert_formats: bool = False,
) -> None:
    """Raise SchemaError, naming the keyword and its pointer, unless toolreg supports ``schema``.

    ``documents`` maps URIs to the schemas a ``$ref`` may name outside ``schema``.
    """
    compile_schema(schema, as_limits(limits), documents, assert_formats)
