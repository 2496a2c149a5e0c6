"""Where references lead: base URIs, $id, anchors, the documents given, and the resources a walk entered."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import ValidationError
from .exceptions import SchemaError
from .findings import Check, Evaluated, Findings, Path, Place, noted, spend
from .limits import Limits
from .pointer import ARRAY_INDEX, Document, split, to_pointer
from .values import NotJSON, snapshot
from .vocabulary import DEFAULT_DIALECT, DIALECTS, VOCABULARY, subschemas, vocabulary_uri

__all__ = ["ROOT_URI", "References", "resolve", "entering", "MARKED_IN_TEXT", "base_at", "schema_in"]

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
        # Imported at the first relative reference: most schemas hold none, and urllib.parse (with
        # the ipaddress it imports) costs the import a tenth of its time.
        from urllib.parse import urljoin

        try:
            absolute = urljoin(base, address)
        except ValueError:  # not a URI reference ("//["): it names nothing, and "$id" refuses it
            absolute = address
    return absolute + hashed + fragment


# The base URI of a schema without an "$id": relative references resolve against it, and a document
# given by a relative URI is placed under it.
ROOT_URI = "https://toolreg.invalid/schema.json"

# The keywords that make a schema object matter to the URI index.
_MARKED = frozenset(row.name for row in VOCABULARY if row.marks)
# Where a schema's JSON text names one of them as a key or a string; a "$ref" alone adds nothing to
# the index (it matters there only beside an "$id").
MARKED_IN_TEXT = re.compile("|".join(re.escape(f'"{keyword}"') for keyword in sorted(_MARKED - {"$ref"})))
# The keywords that lead back to a schema object: without them no loop of schemas is possible.
_REFERENCES = frozenset(row.name for row in VOCABULARY if row.refers)

# An edge between two schemas applied to the same value: the target, and the $ref that made it, if any.
_Edge = tuple[str, str | None]


def entering(resource: str, checks: list[Check]) -> Check:
    """``checks``, run with ``resource`` entered: a ``$dynamicRef`` below looks there (outermost first)."""

    def in_resource(instance: Any, path: Place, errors: list[ValidationError]) -> None:
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
    what is evaluated of the value, its notes handed on if the value passes (see findings.Evaluated),
    all in one call, so a chain of references costs one Python frame for each."""

    def follow(instance: Any, path: Place, errors: list[ValidationError]) -> None:
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


def base_at(bases: Mapping[Path, str], location: Path) -> str:
    """The base URI in force at the schema object at ``location``, from the base URIs recorded where
    an ``$id`` changes it (``bases``)."""
    while location not in bases and location:
        location = location[:-1]
    return bases.get(location, ROOT_URI)


def schema_in(root: Any, loaded: Mapping[str, Any], location: Path) -> Any:
    """The schema at ``location``: in ``root``, or in the document read from the URI it starts with."""
    schema = root
    if location and type(location[0]) is Document:
        schema, location = loaded[location[0]], location[1:]
    for token in location:
        schema = schema[token]
    return schema


class References:
    """The half of the schema walk that follows references: the index of base URIs, resources and
    anchors made before compilation, the documents read when a reference names them, the checks of
    $ref, $dynamicRef and $recursiveRef, and the refusal of a loop of schemas applied in place.
    The schema walk (``schema``) sets every attribute below."""

    root: Any
    limits: Limits
    documents: dict[str, Any]
    dialect: str
    # Whether resources are entered for $dynamicRef, and whether subschemas note what they evaluate.
    dynamic: bool
    annotates: bool
    used: set[str]
    dynamic_names: set[str]
    loaded: dict[str, Any]
    resources: dict[str, Path]
    anchors: dict[str, Path]
    bases: dict[Path, str]
    dynamic_anchors: dict[str, dict[str, Path]]
    resource_roots: dict[str, str]
    recursive_anchors: dict[str, Path]
    checks: dict[str, Check]
    compiling: set[str]
    in_place: list[tuple[Path, Path, str | None]]
    ref_targets: dict[str, Path]
    waiting: list[tuple[Any, Path, str]]

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
        return base_at(self.bases, location)

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
        self.ref_targets[pointer] = start  # where it starts, outside every resource that declares the anchor
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
        # A URI fragment: percent-decoding first, then RFC 6901's ~1 and ~0, or an anchor's name
        # (unquote leaves a fragment without "%" as it is, so only one with it imports urllib.parse).
        if "%" in fragment:
            from urllib.parse import unquote

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
        # The meta-schemas' data is imported at the first "$ref" to a document toolreg was not given:
        # a schema whose references stay within it never reads them.
        from .metaschemas import META_SCHEMAS

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

        def target(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            spend(errors)
            checks[pointer](instance, path, errors)

        return target

    def schema_at(self, location: Path) -> Any:
        return schema_in(self.root, self.loaded, location)

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
