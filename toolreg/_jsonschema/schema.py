"""The strict schema check and its compilation: each keyword supported, an annotation, or refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .compiled import Allowance, Compiled, frozen
from .errors import Masked, ValidationError, trusted_error
from .evaluated import Note, annotating
from .exceptions import SchemaError
from .findings import Check, Path, Place, no_check, spend
from .limits import DEFAULT_LIMITS, Limits, LimitsLike
from .pointer import names_a_key, to_pointer
from .references import MARKED_IN_TEXT, ROOT_URI, References, entering, resolve
from .regex import MAX_PROGRAM, Pattern, Patterns, UnsupportedPattern
from .settings import Settings
from .sites import Site
from .values import NotJSON, snapshot
from .vocabulary import (
    ANNOTATIONS,
    DIALECTS,
    REWRITES,
    VOCABULARIES,
    VOCABULARY,
    dialects_of,
    is_annotation,
    keyword_order,
    keywords,
)

# Compiled, what compilation returns, is importable from here too, where the registry names it.
__all__ = [
    "check_schema",
    "compile_schema",
    "compile_with",
    "guarded_pattern",
    "traced_walk",
    "Tracing",
    "Compiled",
]


class Tracing(Protocol):
    """What a traced walk (see :func:`traced_walk`) makes of each schema object in place of its check:
    a check that runs what the plain one runs (each keyword's check in order, then what the object's
    own keywords evaluate, ``notes``, then ``last``, unevaluatedItems and unevaluatedProperties, within
    the ``resource`` it enters, if any) and records, as it goes, what each schema object and keyword
    applied and found; ``boolean`` for a ``true`` or ``false`` schema, whose plain check is ``check``."""

    def schema(
        self,
        location: Path,
        pointer: str,
        keywords: list[tuple[str, Check]],
        notes: list[Note],
        last: list[tuple[str, Check]],
        resource: str | None,
    ) -> Check: ...

    def boolean(self, location: Path, pointer: str, check: Check) -> Check: ...


class _Compiler(References):
    """One walk over one schema document: each location compiled once, local ``$ref``s resolved; what
    it made, once it is done, as a :class:`Compiled` (``finished``). The keyword functions ask it
    what they need as it walks (see ``sites.Compiler``)."""

    def __init__(
        self,
        root: Any,
        settings: Settings,
        text: str | None = None,
        patterns: Patterns | None = None,
        dynamic: bool = False,
        annotates: bool = False,
        tracing: Tracing | None = None,
    ) -> None:
        self.root = root
        self.tracing = tracing
        self.settings = settings
        self.limits = limits = settings.limits
        assert_formats, documents = settings.assert_formats, settings.documents
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
        self.patterns = Patterns(limits.max_pattern_program) if patterns is None else patterns
        # This schema's patterns by source, whose RE2 programs' sizes count once each (see MAX_PROGRAM).
        self.own_patterns: dict[str, Pattern] = {}
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
        self.recursive_anchors: dict[str, Path] = {}
        if text is None or MARKED_IN_TEXT.search(text):
            self._index(root, (), ROOT_URI)
        else:  # the schema's JSON text names no identifier, anchor or reference: nothing to index
            self.bases[()], self.resource_roots[""] = ROOT_URI, ROOT_URI
        self.checks: dict[str, Check] = {}
        # The plan of each schema object whose check is a chain (see _chain), by its pointer.
        self.plans: dict[str, tuple[Check | str, ...]] = {}
        self.compiling: set[str] = set()
        # Schemas that apply to the same value (allOf, anyOf, oneOf, not, $ref): a cycle of them
        # never reaches a smaller part of the value, so evaluating it would never end.
        self.in_place: list[tuple[Path, Path, str | None]] = []
        # What the fast path (``fast.codegen``) reuses: each keyword's check, by its schema object's
        # pointer and its name, and where each $ref leads.
        self.keyword_checks: dict[tuple[str, str], Check] = {}
        self.ref_targets: dict[str, Path] = {}
        self.waiting: list[tuple[Any, Path, str]] = []
        # What the walk made, once it is done: the checks of anyOf and oneOf ask it as they run.
        self.result: Compiled | None = None

    def finished(self, allowance: Allowance | None) -> Compiled:
        """The compiled schema, with the work bound ``allowance`` (see Compiled.kept_errors_cost)."""
        self.result = frozen(self, allowance)
        return self.result

    def kept_errors_cost(self) -> bool:
        """The compiled schema's answer (see Compiled.kept_errors_cost), asked by the checks of anyOf
        and oneOf as they run, once the walk is done."""
        assert self.result is not None
        return self.result.kept_errors_cost()

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
        """Whether a schema object enters what allOf and $ref apply in its own loop (see _chain):
        where no resource is entered for $dynamicRef, no notes are taken for unevaluated*, and the walk
        is not traced."""
        return not (self.dynamic or self.annotates or self.tracing is not None)

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
        # A new pattern is built within what this schema has left of MAX_PROGRAM.
        own = self.own_patterns
        room = None if source in own else MAX_PROGRAM - sum(pattern.program for pattern in own.values())
        found = guarded_pattern(source, self.patterns, room)
        if source not in own:
            own[source] = found[0]
            total = sum(pattern.program for pattern in own.values())
            if total > MAX_PROGRAM:
                raise UnsupportedPattern(
                    f"with the patterns before it, RE2's programs for this schema would hold {total} "
                    f"instructions, more than the {MAX_PROGRAM} one schema may; write fewer or smaller "
                    "patterns"
                )
        return found

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
        elsewhere = dialects_of(keyword)
        if elsewhere:
            raise SchemaError(
                f"{keyword!r} is not a keyword of {self.dialect}, the dialect this schema declares; "
                f"it belongs to {' and '.join(sorted(elsewhere))}",
                schema_path=pointer,
                keyword=keyword,
            )
        import difflib  # here: only the hint for an unknown keyword needs it, and it costs the import

        nearest = difflib.get_close_matches(keyword, [*self.keywords, *ANNOTATIONS], n=1, cutoff=0.6)
        hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
        raise SchemaError(f"unknown keyword {keyword!r}{hint}", schema_path=pointer, keyword=keyword)

    def _plan_entering(
        self, schema: dict[str, Any], location: Path, pointer: str, present: list[str]
    ) -> tuple[Check | str, ...]:
        """The keywords' checks in order, with the pointer of each schema that allOf or $ref applies
        in place where their checks would be (see _chain)."""
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
        if isinstance(schema, bool):
            check = self._compile_boolean(schema, location)
            return check if self.tracing is None else self.tracing.boolean(location, pointer, check)
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
        annotates, chains, tracing = self.annotates, self.chains, self.tracing
        notes: list[Note] = []
        last: list[Check] = []  # unevaluatedItems and unevaluatedProperties, which read the notes
        named: list[tuple[str, Check]] = []  # for a traced walk: each keyword's check, by name
        last_named: list[tuple[str, Check]] = []
        for keyword in present:
            site, row = Site(keyword, location, schema, self, pointer), self.keywords[keyword]
            check = row.build(schema[keyword], site)
            self.keyword_checks[pointer, keyword] = check
            if annotates and row.notes is not None:
                notes.append(row.notes(site))
            if tracing is not None:
                # Each keyword traced by name; a format that only annotates checks nothing, but is
                # traced for its annotation.
                if check is not no_check or keyword == "format":
                    (last_named if annotates and row.reads_evaluated else named).append((keyword, check))
            elif annotates and row.reads_evaluated:
                last.append(check)
            elif check is not no_check:
                checks.append(check)
        if tracing is not None:
            resource = self.resource_roots.get(pointer) if self.dynamic else None
            return tracing.schema(location, pointer, named, notes, last_named, resource)
        if chains and ("allOf" in present or "$ref" in present):
            plan = self.plans[pointer] = self._plan_entering(schema, location, pointer, present)
            return _chain(plan, self.checks, self.plans)
        resource = self.resource_roots.get(pointer) if self.dynamic else None
        if notes or last:
            return annotating(checks, notes, last, resource)
        if resource is not None:
            return entering(resource, checks)
        if not checks:
            return no_check
        if len(checks) == 1:
            return checks[0]

        def check_all(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            for check in checks:
                check(instance, path, errors)

        return check_all

    @staticmethod
    def _compile_boolean(schema: bool, location: Path) -> Check:
        if schema:
            return no_check
        at = to_pointer(location)

        def reject(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            message = "no value is allowed here"
            masked: Masked | None = (None, message, {}) if names_a_key(path) else None
            errors.append(trusted_error(path, at, "false", message, {}, masked))

        return reject


def _chain(plan: tuple[Check | str, ...], checks: dict[str, Check], plans: dict[str, Any]) -> Check:
    """The check of a schema object that applies others to its value in place through allOf or $ref,
    in a schema without $dynamicRef or unevaluated*: ``plan`` is its keywords' checks in order, with
    the pointer of each schema it applies in place where that one's check would be. It runs them in
    its own loop, with a stack of its own, entering the plan of each such schema that is a chain too
    (``plans``, by pointer) rather than calling its check, so a chain of them costs no Python stack
    however long; only the instance's nesting does. Each one entered spends a step, as the call would,
    and the errors come in the same order. (A function, not an object with ``__call__``, which would
    cost Python's recursion limit twice as much at each level of the instance.)"""

    def chained(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        pending = [iter(plan)]
        while pending:
            for step in pending[-1]:
                if type(step) is str:
                    spend(errors)
                    entered = plans.get(step)
                    if entered is not None:
                        pending.append(iter(entered))
                        break
                    checks[step](instance, path, errors)
                else:
                    step(instance, path, errors)  # type: ignore[operator]
            else:
                pending.pop()

    return chained


# The keywords that read what the others evaluate: a schema holding one compiles its subschemas to note it.
_READS_EVALUATED = frozenset(row.name for row in VOCABULARY if row.reads_evaluated)


def guarded_pattern(source: str, cache: Patterns, room: int | None = None) -> tuple[Pattern, str | None]:
    """The compiled pattern and, if only a backtracking engine can run it, what needs one (None when
    RE2 runs it), from ``cache`` or put there within its allowance (and a new one within ``room``
    instructions, see ``Patterns.guarded``); raises RegexSyntaxError or UnsupportedPattern."""
    return cache.guarded(source, room)


def compile_schema(
    schema: Any,
    limits: Limits = DEFAULT_LIMITS,
    documents: Mapping[str, Any] | None = None,
    assert_formats: bool = False,
    *,
    copy: bool = True,
    text: str | None = None,
    patterns: Patterns | None = None,
    allowance: Allowance | None = None,
) -> Compiled:
    """:func:`compile_with` for a caller that holds the three settings apart (a registry)."""
    settings = Settings(limits, documents, assert_formats)
    return compile_with(schema, settings, copy=copy, text=text, patterns=patterns, allowance=allowance)


def compile_with(
    schema: Any,
    settings: Settings,
    *,
    copy: bool = True,
    text: str | None = None,
    patterns: Patterns | None = None,
    allowance: Allowance | None = None,
) -> Compiled:
    """Check ``schema`` and compile it: the root check, and every part the fast path reuses.
    ``copy=False`` takes ``schema`` as a snapshot already made, which nothing else holds, and ``text``
    is that snapshot's JSON text, if known; ``patterns`` the compiled patterns to share (a registry's),
    with their allowance; ``allowance`` the work bound of the validator that will run it (none for a
    schema compiled to be checked only; see Compiled.kept_errors_cost)."""
    limits, documents = settings.limits, settings.documents
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
    try:
        return _compiled(copied, settings, None if copy else text, patterns).finished(allowance)
    except RecursionError:
        # A max_schema_depth raised past what this Python's stack allows.
        raise SchemaError(
            "a schema is nested deeper than Python's recursion limit lets it be compiled "
            f"(max_schema_depth is {limits.max_schema_depth})"
        ) from None


def _compiled(copied: Any, settings: Settings, text: str | None, patterns: Patterns | None) -> _Compiler:
    """The walk over ``copied``, done, its loops refused."""
    if patterns is None:
        # Shared by a second compilation, as below.
        patterns = Patterns(settings.limits.max_pattern_program)
    compiler = _Compiler(copied, settings, text, patterns)
    before = compiler.dynamic
    compiler.compile_all(copied)
    annotates = not _READS_EVALUATED.isdisjoint(compiler.used)
    if (compiler.dynamic and not before) or annotates:
        # A document a $ref led to holds a $dynamicRef, so every resource must record its entry; or
        # the schema reads what is evaluated, so every subschema must note it.
        compiler = _Compiler(copied, settings, None, patterns, dynamic=compiler.dynamic, annotates=annotates)
        compiler.compile_all(copied)
    compiler.refuse_endless_loops()
    return compiler


def traced_walk(compiled: Compiled, tracing: Tracing) -> Check:
    """The reference walk of ``compiled`` compiled once more, each schema object's check made by
    ``tracing`` from its keywords' checks: the root's check. Nothing is chained past a schema object
    (see _chain); the keywords' checks, their order, the references and the notes are the plain
    walk's; the patterns are those ``compiled`` holds."""
    patterns = Patterns.holding(compiled.own_patterns(), compiled.limits.max_pattern_program)
    walk = _Compiler(
        compiled.root, compiled.settings, None, patterns, compiled.dynamic, compiled.annotates, tracing
    )
    walk.compile_all(compiled.root)
    walk.finished(compiled.allowance)
    return walk.checks[""]


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
    compile_with(schema, Settings.given(limits, documents, assert_formats))
