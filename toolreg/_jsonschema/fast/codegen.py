"""The fast path: a compiled schema turned into straight-line Python source that finds the same errors.

The generator reads only the intermediate form compilation made (``schema.Node``: each schema
object's keywords in the table's order, with subschemas as locations and patterns compiled), never
the schema itself. The generated code decides, with inline tests on exact types, whether each
keyword fails; when one does, it appends the error the reference walk (the ``keywords`` package) would make:
the same site, path and kept part of the instance, worded by the same function when first read. For
the keywords whose verdict takes more than a test (``multipleOf``, ``uniqueItems``, a closed object's
extra names, …) it calls their reference check instead. Either way every error, message and fact
is the reference's, in the reference's order, and no path is built unless an error is reported.

Safety: no text from the schema is ever written into the source. Property names, enum values and
patterns reach the code as constants in its namespace (``c0``, ``c1``, …); numbers (limits, depths)
are written as Python literals, which ``repr`` of an exact ``int`` or finite ``float`` spells with
digits, a sign, a point and an exponent only. The source holds nothing else but identifiers the
generator made and fixed keywords of Python.

Values that are not plain JSON (a tuple, NaN, a subclass of ``int``, a non-string key…) make
the generated code raise ``NotPlainJSON``; the validator then answers with the reference walk,
which reports them. Every part of the instance is either tested by exact type or walked.
"""

from __future__ import annotations

import collections
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..errors import OK, Result, ValidationError, deferred_error
from ..findings import Failed, Findings, OverBudget, Path, Place, Verdict, spent
from ..keywords.applicators import KEPT_ERROR_STEPS, BranchCheck, kept_errors_cost
from ..keywords.objects import MISSING_STEPS
from ..limits import Limits
from ..pointer import InstanceKey, to_pointer
from ..regex import PYTHON_MAX_TEXT, SEARCH_STEP, uncounted_length
from ..schema import Compiled, Node
from ..sites import Site
from ..vocabulary import DEFAULT_DIALECT, VOCABULARY, keywords

__all__ = ["Generated", "NoFastPath", "NotPlainJSON", "generate", "plain_json"]

# The fast path takes an instance and the limits; it answers with every error, or None where the
# reference walk must answer, or OverBudget where the work budget ran out.
FastCheck = Callable[[Any, Limits], "list[ValidationError] | type[OverBudget] | bool | None"]

# What the generator does with each keyword of its dialect, as its row says (see ``vocabulary.Keyword``).
_FAST = {name: row.fast for name, row in keywords(DEFAULT_DIALECT).items()}
# How many $refs in a row are written in place: past it the next target is called as a function of its
# own, so a chain of 5,000 (each target reached by one $ref) is written as functions of 32 hops
# each, rather than one walk too deep for Python's stack that left the schema with no fast path.
_INLINE_MAX_CHAIN = 32
# The most lines of source the generator writes for one schema (about 1 MB): Python's compiler takes
# about 5 s and 600 MB for 120,000 (10,000 subschemas that each test a string), so a schema past it
# gets no fast path, and the reference walk answers every call.
MAX_LINES = 20_000
# validate's front writes the root's body a second time (see generate) only up to this many lines:
# past them, compiling the copy would cost more than the call it spares saves in many thousands.
_FRONT_MAX_LINES = 2_000
# A properties, prefixItems or required list longer than this is looped over rather than written out,
# so that a small value costs the size of the value rather than that of the schema.
_INLINE_TABLE = 16
# Every keyword the generator writes code for. A schema that uses another keyword anywhere, or
# declares another dialect, gets no fast path: the reference walk answers it.
HANDLED_KEYWORDS = frozenset(name for name, fast in _FAST.items() if fast)
# Keywords that apply a schema to the whole value, whatever its kind: their code walks the whole
# value with the same care (the subschemas applied in place, and the reference checks called).
_IN_PLACE = frozenset(
    name
    for name, fast in _FAST.items()
    if fast in ("applied", "called") and not keywords()[name].instance_type
)
# A schema object holding one of these is handed over whole: its reference check collects what the
# others evaluate.
_UNEVALUATED = frozenset(name for name, fast in _FAST.items() if fast == "whole")
# Keywords whose reference checks need the validation's memo (see findings.Memo): those the generated
# code hands values to, shown plain JSON first, and those whose checks keep what they work out there
# (the rows' ``memo``), so that no level of a recursive schema works it out again.
_HANDED_OVER = frozenset(name for name, fast in _FAST.items() if fast in ("called", "whole")) | frozenset(
    row.name for row in VOCABULARY if row.memo
)
# Keywords whose subschemas the generated code leaves to reference checks (propertyNames's, which it
# reports, too): a pattern below them is searched by its reference check, which spends on the budget.
_SUBSCHEMAS_HANDED_OVER = frozenset(
    name for name, fast in _FAST.items() if fast in ("called", "whole") and keywords()[name].holds
) | {"propertyNames"}
# Keywords that spend a step each time their schema object is applied to a value.
_SPENDS_ITSELF = frozenset(row.name for row in VOCABULARY if row.spends_itself)
# The ones that speak to one type of instance, as the vocabulary says.
_TYPED_KEYWORDS = frozenset(name for name in HANDLED_KEYWORDS if keywords()[name].instance_type)
# Integers written as literals are below this in size (a larger one, up to Python's limit on the
# digits of an int's text, is a constant in the namespace).
_LITERAL_INT = 10**18
# The kinds of value the generated code tells apart, each by its exact Python type.
_KINDS = {
    "object": "{t} is dict",
    "array": "{t} is list",
    "string": "{t} is str",
    "int": "{t} is int",
    "float": "{t} is float",
    "boolean": "{t} is bool",
    "null": "{v} is None",
}


def _json_type(kind: str) -> str:
    """The JSON type of a kind: an int or a float is a number (a whole float an integer, too)."""
    return "number" if kind in ("int", "float") else kind


# The keywords that speak to each kind.
_KEYWORDS_OF = {
    kind: frozenset(name for name in _TYPED_KEYWORDS if keywords()[name].instance_type == _json_type(kind))
    for kind in _KINDS
}
# A numeric bound fails when this comparison of the value with the limit holds.
_BOUND_FAILS = {"minimum": "<", "exclusiveMinimum": "<=", "maximum": ">", "exclusiveMaximum": ">="}
_SCALARS = frozenset({str, int, bool, type(None)})
# A $ref's target is written in place only up to this indentation: Python's compiler refuses more
# than 20 nested blocks (loops, try), and the parser 100 levels of indentation.
_INLINE_MAX_INDENT = 12


def _kinds_of_type(name: str) -> tuple[str, ...]:
    return ("int", "float") if name in ("integer", "number") else (name,)


def _kinds_of_value(value: Any) -> tuple[str, ...]:
    """The kinds a value equal to this constant may have (1.0 equals 1); none for an array or object."""
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("boolean",)
    if isinstance(value, (int, float)):
        return ("int", "float")
    return ("string",) if isinstance(value, str) else ()


def _string_enum(plan: Mapping[str, Any]) -> bool:
    """An "enum" of strings only, which the generated code tests inline by exact type."""
    options = plan.get("enum", ())
    return bool(options) and all(isinstance(option, str) for option in options)


class NotPlainJSON(Exception):
    """Raised by generated code on a value it cannot vouch for; the reference walk takes over."""


def long_text() -> bool:
    """Where the generated code counts no steps: a text whose search would cost more of them than the
    work bound took a search to (see ``regex.UNCOUNTED_STEPS``); the reference walk answers."""
    raise NotPlainJSON


def plain_json(value: Any, levels: int, findings: Findings | None = None) -> bool:
    """True when ``value`` is JSON made of exact built-in types, finite floats and string keys,
    with containers nested at most ``levels`` deep.

    With ``findings``, its memo holds how deep each array and object found plain nests, so that none
    is walked again: at each level of a recursive schema, or for each of many subschemas applied to
    it in place, that would cost the size of the value each time.
    """
    if findings is not None:
        return _plain_depth(value, levels, findings.memo().plain) >= 0
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is float:
        return bool(value - value == 0)  # False for NaN and the infinities
    if levels <= 0:
        return False
    if kind is dict:
        if not all(type(key) is str for key in value):
            return False
        items: Any = value.values()
    elif kind is list:
        items = value
    else:
        return False
    # Scalars are tested here rather than in a call each: an array of a million numbers is one loop.
    for item in items:
        kind = type(item)
        if kind in _SCALARS:
            continue
        if kind is float:
            if item - item != 0:
                return False
        elif not plain_json(item, levels - 1):
            return False
    return True


def _plain_depth(value: Any, levels: int, known: dict[int, int]) -> int:
    """How deep ``value`` nests (0 for a scalar) if it is plain JSON within ``levels``, else -1."""
    kind = type(value)
    if kind in _SCALARS:
        return 0
    if kind is float:
        return 0 if value - value == 0 else -1
    if levels <= 0:
        return -1
    depth = known.get(id(value))
    if depth is not None:
        return depth if depth <= levels else -1
    if kind is dict:
        if not all(type(key) is str for key in value):
            return -1
        items: Any = value.values()
    elif kind is list:
        items = value
    else:
        return -1
    deepest = 0
    for item in items:
        below = _plain_depth(item, levels - 1, known)
        if below < 0:
            return -1
        deepest = max(deepest, below)
    known[id(value)] = deepest + 1
    return deepest + 1


def _one_schema_a_value(compiled: Compiled) -> bool:
    """Whether no value is applied more than one schema object with keywords of its own: the only
    subschemas applied in place are the targets of ``$ref``s that stand alone in their objects."""
    rows = compiled.keywords
    for source, _, via_ref in compiled.in_place:
        if via_ref is None:
            return False
        beside = compiled.node(source).keywords.keys() - {"$ref"}
        if any(rows[name].fast != "nothing" or rows[name].in_place for name in beside):
            return False
    return True


class _Source:
    """Lines of Python, fresh names, and the namespace that holds every constant."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.namespace: dict[str, Any] = {
            "NotPlainJSON": NotPlainJSON,
            "plain": plain_json,
            "K": InstanceKey,
            "Findings": Findings,
            "OverBudget": OverBudget,
            "spent": spent,
            "Verdict": Verdict,
            "Failed": Failed,
            "Refusing": Refusing,
            "passes": passes,
            "E": deferred_error,
            "long_text": long_text,
        }
        self.counter = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def constant(self, value: Any) -> str:
        """An expression for ``value``: a literal for a number (Python reads one quicker than a
        global, and it reads better), else the name of a constant in the namespace."""
        exact_int = type(value) is int and abs(value) < _LITERAL_INT
        if exact_int or (type(value) is float and math.isfinite(value)):
            literal = repr(value)
            return f"({literal})" if literal.startswith("-") else literal
        name = self.fresh("c")
        self.namespace[name] = value
        return name

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def _names(name: str, lines: list[str]) -> bool:
    """Whether any of the lines of generated source reads the variable ``name``."""
    read = re.compile(rf"\b{name}\b")
    return any(read.search(text) for text in lines)


def _path_expression(tokens: list[str]) -> str:
    """The place (see ``pointer.Place``) below ``p`` that ``tokens`` lead to, as an expression
    evaluated only when an error is reported: ``["*p", "k", "i"]`` is ``((p, k), i)``."""
    assert tokens[0] == "*p"
    expression = "p"
    for token in tokens[1:]:
        expression = f"({expression}, {token})"
    return expression


class _Generator:
    def __init__(self, compiled: Compiled, yes_no: bool = False) -> None:
        self.compiled = compiled
        # A yes/no answer: each function returns whether its value passes, at the first failure;
        # no error is made and no path is kept, and the reference checks it calls stop at their
        # first error (findings.Verdict).
        self.yes_no = yes_no
        # Whether the code calls a reference check, which needs a list for its errors.
        self.calls_checks = False
        # Whether the code counts work steps: only where the reference walk could spend more than the
        # allowance for each value (see work.within_allowance); elsewhere its budget never runs out.
        # (Searching a long text spends more than that bound takes a search to: the code guards the
        # searches it writes, and counts where a reference check it calls may search, as
        # patternProperties's searches of the names do.)
        # Whether each error a failing branch of anyOf or oneOf keeps past its first costs steps, as in
        # the reference walk: only where the shape does not bound the work, so where the code counts.
        self.kept_errors_cost = kept_errors_cost(compiled)
        self.counts = (
            self.kept_errors_cost
            or "patternProperties" in compiled.used
            or ("pattern" in compiled.used and not _SUBSCHEMAS_HANDED_OVER.isdisjoint(compiled.used))
        )
        # Whether its errors are Findings: where it counts; wherever a value may be applied more than
        # one schema, whose branches need lists of their own; and wherever it hands values to
        # reference checks: the memo kept there (of the values found plain JSON, of the keys
        # uniqueItems made) works nothing out twice, however many levels above look at it too. (A
        # plain list costs a valid nested call a tenth less.)
        self.findings = (
            self.counts
            or compiled.annotates
            or not _HANDED_OVER.isdisjoint(compiled.used)
            or not _one_schema_a_value(compiled)
        )
        self.source = _Source()
        self.functions: dict[str, str] = {}
        self.pending: list[tuple[str, Path]] = []
        self.deepest = 0
        self.entry_checks: dict[str, tuple[int, int]] = {}
        self.requests: collections.Counter[str] = collections.Counter()
        # How many $refs lead to each schema, and the ones whose code is written where their one
        # $ref is (see inlines).
        self.referred = collections.Counter(to_pointer(target) for target in compiled.ref_targets.values())
        self.inlined: set[str] = set()
        # How many inlined $refs the code being written stands inside (see inlines).
        self.inline_depth = 0
        # Module-level tables of generated functions (see node_table), written after them.
        self.tables: list[str] = []

    def function_for(self, location: Path) -> str:
        """The name of the generated function for the schema at ``location``, written once."""
        pointer = to_pointer(location)
        if pointer not in self.functions:
            self.functions[pointer] = self.source.fresh("f")
            self.pending.append((self.functions[pointer], location))
        name = self.functions[pointer]
        self.requests[name] += 1
        return name

    def write_functions(self) -> None:
        while self.pending:
            name, location = self.pending.pop(0)
            self.source.line(0, f"def {name}(v, p, errors, d):")
            start, self.deepest = len(self.source.lines), 0
            self.emit(location, "v", ["*p"], 1)
            if self.yes_no:
                self.source.line(1, "return True")
            # d is how deep v sits; the body looks at most `deepest` levels further down. Past the
            # limit the reference walk answers, with its one depth error.
            limit = self.source.constant(self.compiled.limits.max_depth - self.deepest)
            self.source.lines.insert(start, f"    if d >= {limit}: raise NotPlainJSON")
            self.entry_checks[name] = (start, self.deepest)
            self.source.line(0, "")

    def drop_needless_entry_check(self, root: str) -> bool:
        """The root function, when no $ref leads back to it, always starts at depth 0."""
        start, deepest = self.entry_checks[root]
        if self.requests[root] == 1 and deepest < self.compiled.limits.max_depth:
            del self.source.lines[start]
            return True
        return False

    def take_root_body(self) -> list[str] | None:
        """The body of the root function (written first), taken out of the source to be written
        into the entry function itself, one call fewer for every instance; None where it must stay
        a function ($ref leads back to it) or is indented so deeply that one more block (the entry's
        try) could take it past Python's compiler."""
        lines = self.source.lines
        end = lines.index("")  # the blank line after the root function
        body = lines[1:end]
        if max(len(text) - len(text.lstrip(" ")) for text in body) > 4 * _INLINE_MAX_INDENT:
            return None
        del lines[: end + 1]
        return ["    " + text for text in body]

    def inlines(self, target: Path, depth: int) -> bool:
        """Whether a $ref's target is written where the $ref is, as a subschema is, rather than
        called: a call and its path cost more than most checks do. Only a target no other $ref
        leads to (so no code is written twice, and no loop of $refs is unrolled), not the root, and
        not where the code is so deeply indented already that Python's compiler could refuse it."""
        pointer = to_pointer(target)
        return (
            target != ()
            and self.referred[pointer] == 1
            and pointer not in self.inlined
            and depth <= _INLINE_MAX_INDENT
            and self.inline_depth < _INLINE_MAX_CHAIN
        )

    def depth_of(self, path: list[str]) -> str:
        """How deep the value at ``path`` sits in the instance, as an expression."""
        self.deepest = max(self.deepest, len(path) - 1)
        return f"d + {len(path) - 1}" if len(path) > 1 else "d"

    def levels(self, path: list[str]) -> str:
        """How many levels of containers the value at ``path`` may still hold."""
        return f"{self.source.constant(self.compiled.limits.max_depth)} - ({self.depth_of(path)})"

    def spend(self, depth: int, steps: str = "1") -> None:
        """Steps of the work budget, inline: a call would cost more than the step itself."""
        if not self.counts:
            return
        self.source.line(depth, f"errors.left[0] -= {steps}")
        self.source.line(depth, "if errors.left[0] < 0: spent(errors.left)")

    def counts_itself(self, location: Path) -> bool:
        """Whether the schema at ``location`` spends a step whenever it is applied (see
        Site.counts_itself), read from its node."""
        node = self.compiled.node(location)
        return node.boolean is None and not _SPENDS_ITSELF.isdisjoint(node.keywords)

    def plain(self, value: str, path: list[str]) -> str:
        """The test that ``value`` is plain JSON within the depth left; where the errors are Findings,
        with the validation's record of the values found plain, so that none is walked twice."""
        memo = ", errors" if self.findings else ""
        return f"plain({value}, {self.levels(path)}{memo})"

    def path(self, path: list[str]) -> str:
        """The path as an expression, evaluated only when an error is reported; a yes/no answer
        keeps no error, so its code passes the path it was given along unchanged."""
        return "p" if self.yes_no else _path_expression(path)

    def report(self, node: Node, keyword: str, value: str, path: list[str], depth: int) -> None:
        """Let the reference check of this keyword append its errors (in a yes/no answer, the
        first raises Failed)."""
        check = self.source.constant(self.compiled.keyword_checks[node.pointer, keyword])
        self.source.line(depth, f"{check}({value}, {self.path(path)}, errors)")
        self.calls_checks = True

    def fail(self, node: Node, keyword: str, kept: str, path: list[str], depth: int) -> None:
        """Append the error of a keyword found failing, keeping what its reference check keeps: the
        same site and words, so the error is the reference's, written only when read. A yes/no
        answer returns False."""
        if self.yes_no:
            self.source.line(depth, "return False")
            return
        site = Site(
            keyword, node.location, self.compiled.schema_at(node.location), self.compiled, node.pointer
        )
        self.source.line(
            depth, f"errors.append(E({self.source.constant(site)}, {_path_expression(path)}, {kept}))"
        )

    def hand_over(
        self, node: Node, keywords: tuple[str, ...], value: str, path: list[str], depth: int
    ) -> None:
        """Run the reference checks of those ``keywords`` the schema has, on a value shown plain JSON."""
        present = [keyword for keyword in keywords if keyword in node.keywords]
        if present:
            self.source.line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
        for keyword in present:
            self.report(node, keyword, value, path, depth)

    def emit(self, location: Path, value: str, path: list[str], depth: int) -> None:
        line = self.source.line
        if len(self.source.lines) > MAX_LINES:
            raise NoFastPath(f"would take more than {MAX_LINES} lines of Python")
        node = self.compiled.node(location)
        if node.boolean is True:
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            return
        if node.boolean is False:
            if self.yes_no:
                line(depth, "return False")  # whatever the value is
                return
            reject = self.source.constant(self.compiled.checks[node.pointer])
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            line(depth, f"{reject}({value}, {_path_expression(path)}, errors)")
            return
        plan = node.keywords
        if not _UNEVALUATED.isdisjoint(plan):
            # The reference check collects what the keywords here evaluate, as they run, for these two
            # to read (see findings.Evaluated): the whole schema object is handed over.
            whole = self.source.constant(self.compiled.checks[node.pointer])
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            line(depth, f"{whole}({value}, {self.path(path)}, errors)")
            self.calls_checks = True
            return
        kind = self.source.fresh("t")
        if {"type", "enum", "const"} & plan.keys() or _TYPED_KEYWORDS & plan.keys():
            line(depth, f"{kind} = type({value})")  # which emit_kinds tests
        # Each subschema applied in place ($ref, a branch of allOf, anyOf or oneOf, not) spends one
        # step of the work budget, at the same places as in the reference walk, so both stop alike.
        if "$ref" in plan and self.inlines(plan["$ref"], depth):
            self.spend(depth)
            self.inlined.add(to_pointer(plan["$ref"]))
            self.inline_depth += 1
            self.emit(plan["$ref"], value, path, depth)
            self.inline_depth -= 1
        elif "$ref" in plan:
            target = self.function_for(plan["$ref"])
            self.spend(depth)
            call = f"{target}({value}, {self.path(path)}, errors, {self.depth_of(path)})"
            line(depth, f"if not {call}: return False" if self.yes_no else call)
        self.emit_kinds(node, value, kind, path, depth)
        for branch in plan.get("allOf", ()):
            self.spend(depth)
            self.emit(branch, value, path, depth)
        for keyword in ("anyOf", "oneOf"):
            if keyword in plan:
                self.emit_branches(node, keyword, value, path, depth)
        if "not" in plan and self.yes_no:
            self.spend(depth)
            function = self.function_for(plan["not"])
            line(depth, f"if passes({function}, {value}, p, errors, {self.depth_of(path)}): return False")
            # Its subschema may have failed at once, at a type, reading nothing below: the value must
            # still be shown plain JSON, or validate's answer would be an error where this passes.
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
        elif "not" in plan:
            scratch = self.source.fresh("s")
            self.spend(depth)
            line(depth, f"{scratch} = errors.scratch()")
            line(depth, f"{self.function_for(plan['not'])}({value}, (), {scratch}, {self.depth_of(path)})")
            line(depth, f"if not {scratch}:")
            self.fail(node, "not", "None", path, depth + 1)
        self.hand_over(node, ("if",), value, path, depth)

    def emit_branches(self, node: Node, keyword: str, value: str, path: list[str], depth: int) -> None:
        if self.yes_no:
            self.emit_branches_yes_no(node, keyword, value, path, depth)
            return
        line = self.source.line
        passed, where = self.source.fresh("n"), self.source.fresh("w")
        line(depth, f"{passed} = 0")
        # The branches see the real path, so that a failure is judged from what they found: asking
        # the reference check would walk the value again, at every level of a nested anyOf.
        line(depth, f"{where} = {_path_expression(path)}")
        scratches = []
        for index, location in enumerate(node.keywords[keyword]):
            scratch = self.source.fresh("s")
            branch = self.function_for(location)
            line(depth, f"{scratch} = errors.scratch()")
            # anyOf is settled by its first passing branch, as in the reference walk.
            inner = depth + 1 if keyword == "anyOf" and index > 0 else depth
            if inner > depth:
                line(depth, f"if {passed} == 0:")
            self.spend(inner)
            line(inner, f"{branch}({value}, {where}, {scratch}, {self.depth_of(path)})")
            line(inner, f"{passed} += not {scratch}")
            if self.kept_errors_cost:  # what the errors it keeps past its first cost, as the check spends
                line(inner, f"if len({scratch}) > 1:")
                self.spend(inner + 1, f"{KEPT_ERROR_STEPS} * (len({scratch}) - 1)")
            scratches.append(scratch)
        check = self.compiled.keyword_checks[node.pointer, keyword]
        assert isinstance(check, BranchCheck)
        judge, found = self.source.constant(check.judge), self.source.fresh("e")
        line(depth, f"if {passed} {'== 0' if keyword == 'anyOf' else '!= 1'}:")
        line(depth + 1, f"{found} = {judge}({where}, [{', '.join(scratches)}], {value})")
        line(depth + 1, f"if {found} is not None: errors.append({found})")

    def emit_branches_yes_no(self, node: Node, keyword: str, value: str, path: list[str], depth: int) -> None:
        """anyOf passes at its first passing branch, oneOf when exactly one of them passes; each branch
        stops at its first failure (``passes`` catches a reference check's Failed)."""
        line, passed = self.source.line, self.source.fresh("n")
        line(depth, f"{passed} = 0")
        for index, location in enumerate(node.keywords[keyword]):
            call = f"passes({self.function_for(location)}, {value}, p, errors, {self.depth_of(path)})"
            inner = depth + 1 if keyword == "anyOf" and index > 0 else depth
            if inner > depth:
                line(depth, f"if {passed} == 0:")
            self.spend(inner)
            line(inner, f"{passed} += {call}")
        line(depth, f"if {passed} {'== 0' if keyword == 'anyOf' else '!= 1'}: return False")

    def emit_kinds(self, node: Node, value: str, kind: str, path: list[str], depth: int) -> None:
        """A branch for each kind of value (see _KINDS) a valid value may have, the declared types or
        those enum and const allow, first (one test finds what a valid call holds), and for each
        kind a keyword here speaks to: in each, what type, enum and const say of that kind, then the
        keywords that speak to it. One branch more for every other kind, which type, enum and const
        refuse alike; a value of no JSON type leaves the answer to the reference walk."""
        line, plan = self.source.line, node.keywords
        if not {"type", "enum", "const"} & plan.keys() and not _TYPED_KEYWORDS & plan.keys():
            if not _IN_PLACE & plan.keys():
                # Without a $ref or combinator, which walk the whole value with the same care.
                line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            return
        likely = [kind for name in plan.get("type", ()) for kind in _kinds_of_type(name)]
        for option in [*plan.get("enum", ()), *([plan["const"]] if "const" in plan else [])]:
            # 1 and 1.0 are equal in JSON: a number's value may be either kind.
            likely.extend(_kinds_of_value(option))
        own = [
            name
            for name in dict.fromkeys([*likely, *_KINDS])
            if name in likely or _KEYWORDS_OF[name] & plan.keys()
        ]
        others = [name for name in _KINDS if name not in own]
        allowed = self.source.constant(frozenset(plan["enum"])) if _string_enum(plan) else ""
        for number, name in enumerate(own):
            line(depth, f"{'if' if number == 0 else 'elif'} {_KINDS[name].format(t=kind, v=value)}:")
            start = len(self.source.lines)
            self.emit_kind(node, name, value, kind, path, depth + 1, allowed)
            if len(self.source.lines) == start:
                line(depth + 1, "pass")
        if others:
            tests = " or ".join(_KINDS[name].format(t=kind, v=value) for name in others)
            line(depth, f"{'elif' if own else 'if'} {tests}:")
            self.emit_other_kinds(node, value, kind, path, depth + 1, allowed)
        line(depth, "else:")
        line(depth + 1, "raise NotPlainJSON")

    def emit_other_kinds(
        self, node: Node, value: str, kind: str, path: list[str], depth: int, allowed: str
    ) -> None:
        """A value of a kind that no type here declares, no enum or const allows and no keyword here
        speaks to: type and a string enum or scalar const fail; another enum or const is asked."""
        line, plan = self.source.line, node.keywords
        if self.yes_no and (
            "type" in plan
            or (allowed and "enum" in plan)
            or ("const" in plan and _kinds_of_value(plan["const"]))
        ):
            line(depth, "return False")  # whatever the value holds
            return
        if _IN_PLACE & plan.keys():
            line(depth, f"if {kind} is float and {value} - {value} != 0: raise NotPlainJSON  # NaN or ∞")
        else:
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
        if "type" in plan:
            self.fail(node, "type", f"{kind} if {kind} is dict or {kind} is list else {value}", path, depth)
        if "enum" in plan:
            if allowed:
                self.fail(node, "enum", "None", path, depth)
            else:
                self.report(node, "enum", value, path, depth)
        if "const" in plan:
            if _kinds_of_value(plan["const"]):
                self.fail(node, "const", "None", path, depth)
            else:
                self.report(node, "const", value, path, depth)

    def emit_kind(
        self, node: Node, name: str, value: str, kind: str, path: list[str], depth: int, allowed: str
    ) -> None:
        """The checks for a value known to be of the kind ``name``, in the table's order."""
        line, plan = self.source.line, node.keywords
        if name == "float":
            line(depth, f"if {value} - {value} != 0: raise NotPlainJSON  # NaN or an infinity")
        if "type" in plan:
            kept = kind if name in ("object", "array") else value
            if name == "float" and "number" not in plan["type"] and "integer" in plan["type"]:
                line(depth, f"if not {value}.is_integer():")  # 1.0 is an integer
                self.fail(node, "type", kept, path, depth + 1)
            elif not any(name in _kinds_of_type(declared) for declared in plan["type"]):
                self.fail(node, "type", kept, path, depth)
        if "enum" in plan:
            if not allowed:
                self.report(node, "enum", value, path, depth)
            elif name == "string":
                line(depth, f"if {value} not in {allowed}:")
                self.fail(node, "enum", "None", path, depth + 1)
            else:
                self.fail(node, "enum", "None", path, depth)
        if "const" in plan:
            expected = plan["const"]
            if not _kinds_of_value(expected):
                self.report(node, "const", value, path, depth)
            elif name not in _kinds_of_value(expected):
                self.fail(node, "const", "None", path, depth)
            elif name != "null":
                # JSON's equality within one type: 1 == 1.0, and true is only true.
                test = (
                    f"{value} is {expected}"
                    if name == "boolean"
                    else f"{value} == {self.source.constant(expected)}"
                )
                line(depth, f"if not ({test}):")
                self.fail(node, "const", "None", path, depth + 1)
        emitters: dict[str, Callable[[Node, str, list[str], int], None]] = {
            "string": self.emit_string,
            "int": self.emit_number,
            "float": self.emit_number,
            "array": self.emit_array,
            "object": self.emit_object,
        }
        if _KEYWORDS_OF.get(name, frozenset()) & plan.keys():
            emitters[name](node, value, path, depth)
        elif name in ("object", "array") and not _IN_PLACE & plan.keys():
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")

    def emit_string(self, node: Node, value: str, path: list[str], depth: int) -> None:
        line, plan = self.source.line, node.keywords
        pattern = plan.get("pattern")
        python_search = pattern.python_search() if pattern is not None else None
        size = f"len({value})"
        # A name for the length where more than one test reads it: the bounds', and the search's (two
        # where the code counts; with Python's engine a short text meets one of them).
        searches = 0 if pattern is None else 1 + self.counts
        if ("minLength" in plan) + ("maxLength" in plan) + searches > 1:
            size = self.source.fresh("n")
            line(depth, f"{size} = len({value})")
        self.emit_size_bounds(node, value, path, depth, ("minLength", "maxLength"), size)
        if pattern is not None:
            # The search's steps, spent before it runs, as the reference check spends them (a short
            # text costs none); where the code counts nothing, a text that costs more than the work
            # bound took a search to cost is left to the reference walk (long_text), tested only
            # past the short texts Python's engine answers.
            test = f"{self.source.constant(pattern.search)}({value})"
            longest = uncounted_length(pattern.size)
            if self.counts:
                line(depth, f"if {size} > {(SEARCH_STEP - 1) // pattern.size}:")
                self.spend(depth + 1, f"{size} * {pattern.size} // {SEARCH_STEP}")
            else:
                test = f"({test} if {size} <= {longest} else long_text())"
            if python_search is not None:
                # Python's engine answers short text of the simplest patterns in a third of the
                # time a call into RE2 takes (see regex.python_engine), tested here, in line.
                short = f"{self.source.constant(python_search)}({value})"
                if not self.counts and longest < PYTHON_MAX_TEXT:
                    short = f"({short} if {size} <= {longest} else long_text())"
                test = f"({short} is not None if {size} <= {PYTHON_MAX_TEXT} else {test})"
            line(depth, f"if not {test}:")
            self.fail(node, "pattern", "None", path, depth + 1)

    def emit_size_bounds(
        self,
        node: Node,
        value: str,
        path: list[str],
        depth: int,
        keywords: tuple[str, str],
        length: str | None = None,
    ) -> None:
        """minLength, minItems, minProperties and their max twins: ``len`` against a limit."""
        size = length or f"len({value})"
        for keyword, fails in zip(keywords, ("<", ">"), strict=True):
            if keyword in node.keywords:
                limit = self.source.constant(int(node.keywords[keyword]))
                self.source.line(depth, f"if {size} {fails} {limit}:")
                self.fail(node, keyword, size, path, depth + 1)

    def emit_number(self, node: Node, value: str, path: list[str], depth: int) -> None:
        if "multipleOf" in node.keywords:
            self.report(node, "multipleOf", value, path, depth)
        for keyword, fails in _BOUND_FAILS.items():
            if keyword in node.keywords:
                limit = self.source.constant(node.keywords[keyword])
                self.source.line(depth, f"if {value} {fails} {limit}:")
                self.fail(node, keyword, value, path, depth + 1)

    def emit_array(self, node: Node, value: str, path: list[str], depth: int) -> None:
        line, plan = self.source.line, node.keywords
        length = self.source.fresh("n")
        items_false = "items" in plan and self.compiled.node(plan["items"]).boolean is False
        if {"minItems", "maxItems", "prefixItems"} & plan.keys() or items_false:
            line(depth, f"{length} = len({value})")
        self.emit_size_bounds(node, value, path, depth, ("minItems", "maxItems"), length)
        # prefixItems and items: one step for each item whose schema does not count itself (see
        # Site.counts_itself), as the reference checks spend them.
        if plan.get("uniqueItems") is True:
            self.report(node, "uniqueItems", value, path, depth)
        prefix = plan.get("prefixItems", ())
        if len(prefix) > _INLINE_TABLE:
            self.emit_prefix_table(prefix, value, length, path, depth)
        for index, location in enumerate(prefix) if len(prefix) <= _INLINE_TABLE else ():
            item = self.source.fresh("x")
            line(depth, f"if {length} > {index}:")
            if self.counts and not self.counts_itself(location):
                self.spend(depth + 1)
            line(depth + 1, f"{item} = {value}[{index}]")
            self.emit(location, item, [*path, str(index)], depth + 1)
        start = len(prefix)
        items = self.compiled.node(plan["items"]) if "items" in plan else None
        counted = self.counts and items is not None and not items_false
        if counted and not self.counts_itself(plan["items"]) and start:
            line(depth, f"if {length} > {start}:")
            self.spend(depth + 1, f"{length} - {start}")
        elif counted and not self.counts_itself(plan["items"]):
            self.spend(depth, f"len({value})")
        if items_false and self.yes_no:
            line(depth, f"if {length} > {start}: return False")
            self.hand_over(node, ("contains",), value, path, depth)
            return
        position, item = self.source.fresh("i"), self.source.fresh("x")
        loop = len(self.source.lines)
        if start == 0:
            line(depth, f"for {position}, {item} in enumerate({value}):")
        else:
            line(depth, f"for {position} in range({start}, {length}):")
            line(depth + 1, f"{item} = {value}[{position}]")
        if items is not None and items.boolean is False:
            line(depth + 1, f"if not {self.plain(item, [*path, position])}: raise NotPlainJSON")
            line(depth, f"if {length} > {start}:")
            self.report(node, "items", value, path, depth + 1)
        elif items is not None:
            self.emit(items.location, item, [*path, position], depth + 1)
        else:
            line(depth + 1, f"if not {self.plain(item, [*path, position])}: raise NotPlainJSON")
        if start == 0 and not _names(position, self.source.lines[loop + 1 :]):
            # No path is made below (a yes/no answer makes none): a loop without positions costs less.
            self.source.lines[loop] = "    " * depth + f"for {item} in {value}:"
        self.hand_over(node, ("contains",), value, path, depth)

    def emit_object(self, node: Node, value: str, path: list[str], depth: int) -> None:
        line, plan = self.source.line, node.keywords
        self.emit_size_bounds(node, value, path, depth, ("minProperties", "maxProperties"))
        names = [self.source.constant(name) for name in plan.get("required", ())]
        if len(names) == 1:
            line(depth, f"if {names[0]} not in {value}:")
            self.missing(node, names[0], path, depth + 1)
        elif len(names) > _INLINE_TABLE:
            missing = self.source.fresh("k")
            line(depth, f"for {missing} in {self.source.constant(tuple(plan['required']))}:")
            line(depth + 1, f"if {missing} not in {value}:")
            self.missing(node, missing, path, depth + 2)
        elif names:
            # One test for a call that has them all; then which are missing, in the schema's order.
            line(depth, f"if not ({' and '.join(f'{name} in {value}' for name in names)}):")
            for name in names:
                line(depth + 1, f"if {name} not in {value}:")
                self.missing(node, name, path, depth + 2)
        self.hand_over(node, ("dependentRequired",), value, path, depth)
        if "propertyNames" in plan:
            key = self.source.fresh("k")
            line(depth, f"for {key} in {value}:")
            line(depth + 1, f"if type({key}) is not str: raise NotPlainJSON")
            self.report(node, "propertyNames", value, path, depth)
        required, properties = frozenset(plan.get("required", ())), plan.get("properties", ())
        if len(properties) > _INLINE_TABLE:
            self.emit_property_table(node, value, path, depth)
            properties = ()
        # Where the names outside properties matter, the properties found are counted: an object
        # with as many names as that has no other, and its names need no second look (a set test
        # of every name costs a small valid call a fifth of its time).
        found = self.source.fresh("m") if properties and "patternProperties" not in plan else None
        if found is not None:
            line(depth, f"{found} = 0")
        for name, location in properties:
            constant, child = self.source.constant(name), self.source.fresh("x")
            if name in required:
                # A valid call has it, so a subscript finds it at once; only a wrong call pays for
                # the exception.
                line(depth, "try:")
                line(depth + 1, f"{child} = {value}[{constant}]")
                line(depth, "except KeyError:")
                line(depth + 1, "pass")
                line(depth, "else:")
            else:
                # Two lookups cost less than a call of get; were the name taken away between them,
                # by another thread, the KeyError hands the answer to the reference walk.
                line(depth, f"if {constant} in {value}:")
                line(depth + 1, f"{child} = {value}[{constant}]")
            if found is not None:
                line(depth + 1, f"{found} += 1")
            self.emit(location, child, [*path, constant], depth + 1)
        if "patternProperties" in plan:
            # additionalProperties leaves what the patterns match: its reference check knows them.
            later = ("patternProperties", "additionalProperties", "dependentSchemas")
            self.hand_over(node, later, value, path, depth)
            return
        if found is None:
            self.emit_extra(node, value, path, depth)
        else:
            line(depth, f"if len({value}) != {found}:")
            self.emit_extra(node, value, path, depth + 1)
        self.hand_over(node, ("dependentSchemas",), value, path, depth)

    def missing(self, node: Node, name: str, path: list[str], depth: int) -> None:
        """A required property found missing: one step, as the reference check spends for each."""
        if self.counts:
            self.spend(depth, str(MISSING_STEPS))
        self.fail(node, "required", name, path, depth)

    def emit_property_table(self, node: Node, value: str, path: list[str], depth: int) -> None:
        """``properties`` naming more than a few: each present property's schema is a function of its
        own, and a loop finds them, looking up the names of the object or of the table, whichever
        has fewer (as ``keywords.objects.present_in`` does), in the table's order."""
        line, table = self.source.line, self.node_table(node.keywords["properties"])
        names = [name for name, _ in node.keywords["properties"]]
        positions = self.source.constant({name: position for position, name in enumerate(names)})
        order, position = self.source.fresh("o"), self.source.fresh("j")
        name, function, child = self.source.fresh("k"), self.source.fresh("g"), self.source.fresh("x")
        line(depth, f"if len({value}) < {len(names)}:")
        line(depth + 1, f"{order} = sorted({positions}[k] for k in {value} if k in {positions})")
        line(depth, "else:")
        line(depth + 1, f"{order} = range({len(names)})")
        line(depth, f"for {position} in {order}:")
        line(depth + 1, f"{name}, {function} = {table}[{position}]")
        line(depth + 1, f"if {name} in {value}:")
        line(depth + 2, f"{child} = {value}[{name}]")
        inner = [*path, name]
        call = f"{function}({child}, {self.path(inner)}, errors, {self.depth_of(inner)})"
        line(depth + 2, f"if not {call}: return False" if self.yes_no else call)

    def emit_prefix_table(
        self, prefix: tuple[Path, ...], value: str, length: str, path: list[str], depth: int
    ) -> None:
        """``prefixItems`` of more than a few schemas: a loop over the items the array has, each
        schema a function of its own, spending at once what the reference check spends."""
        line, table = self.source.line, self.node_table(enumerate(prefix))
        if self.counts:
            steps, total = [0], 0
            for location in prefix:
                total += not self.counts_itself(location)
                steps.append(total)
            self.spend(depth, f"{self.source.constant(tuple(steps))}[min({length}, {len(prefix)})]")
        position, function = self.source.fresh("j"), self.source.fresh("g")
        line(depth, f"for {position} in range(min({length}, {len(prefix)})):")
        line(depth + 1, f"{function} = {table}[{position}][1]")
        inner = [*path, position]
        call = f"{function}({value}[{position}], {self.path(inner)}, errors, {self.depth_of(inner)})"
        line(depth + 1, f"if not {call}: return False" if self.yes_no else call)

    def node_table(self, entries: Any) -> str:
        """A tuple of (name or index, function of the schema) for each entry, as a global of the
        generated module, written after the functions it names."""
        table = self.source.fresh("T")
        pairs = ", ".join(
            f"({self.source.constant(key)}, {self.function_for(location)})" for key, location in entries
        )
        self.tables.append(f"{table} = ({pairs},)")
        return table

    def emit_extra(self, node: Node, value: str, path: list[str], depth: int) -> None:
        """additionalProperties, for a schema without patternProperties."""
        line, plan = self.source.line, node.keywords
        known = self.source.constant(frozenset(name for name, _ in plan.get("properties", ())))
        extra = self.compiled.node(plan["additionalProperties"]) if "additionalProperties" in plan else None
        if extra is not None and extra.boolean is False and self.yes_no:
            line(depth, f"if not {known}.issuperset({value}):")
            if self.counts:
                self.spend(depth + 1, f"len({value}.keys() - {known})")  # as the reference check would
            line(depth + 1, "return False")
            return
        if extra is not None and extra.boolean is False:
            key = self.source.fresh("k")
            line(depth, f"if not {known}.issuperset({value}):")
            line(depth + 1, f"for {key}, {self.source.fresh('x')} in {value}.items():")
            unplain = f"type({key}) is not str or not {self.plain(f'{value}[{key}]', [*path, key])}"
            line(depth + 2, f"if {key} not in {known} and ({unplain}):")
            line(depth + 3, "raise NotPlainJSON")
            self.report(node, "additionalProperties", value, path, depth + 1)
            return
        key, item = self.source.fresh("k"), self.source.fresh("x")
        line(depth, f"for {key}, {item} in {value}.items():")
        line(depth + 1, f"if {key} not in {known}:")
        line(depth + 2, f"if type({key}) is not str: raise NotPlainJSON")
        if extra is None:
            line(depth + 2, f"if not {self.plain(item, [*path, key])}: raise NotPlainJSON")
            return
        if self.counts:
            self.spend(depth + 2)  # one step for each name it applies its schema to
        # The name is the instance's, not the schema's: a masked error hides it.
        self.emit(extra.location, item, [*path, f"K({key})"], depth + 2)


class NoFastPath(Exception):
    """The schema uses what the generator writes no code for."""


class Generated(NamedTuple):
    """What :func:`generate` made: the source, for reading, and the functions it defines."""

    source: str
    # Every error (with yes_no, whether there is none: True or False); None when the instance holds
    # something that is not plain JSON, or is deeper than the generated code looks, and the
    # reference walk must answer; or OverBudget when it spent its work budget (with yes_no, False:
    # the answer would be a ``limit`` error).
    check: FastCheck
    # validate itself, where it was asked for (see generate).
    front: Callable[[Any], Result] | None = None


def generate(
    compiled: Compiled, *, yes_no: bool = False, otherwise: Callable[[Any], Result] | None = None
) -> Generated:
    """The fast path for a compiled schema: every error, or with ``yes_no`` whether there is none;
    given ``otherwise`` (with ``yes_no``), also validate's front, which answers ``Ok`` where the
    yes/no answer is True and hands every other instance to ``otherwise``."""
    unhandled = sorted(compiled.used - HANDLED_KEYWORDS)
    if unhandled or compiled.dialect != DEFAULT_DIALECT:
        raise NoFastPath(f"written for {compiled.dialect} keywords {unhandled}")
    if compiled.dynamic:
        raise NoFastPath("enters schema resources for $dynamicRef or $recursiveRef")
    if compiled.ignored or (compiled.asserts_formats and "format" in compiled.used):
        raise NoFastPath("reads keywords by a meta-schema's vocabularies, or asserts formats")
    generator = _Generator(compiled, yes_no)
    root = generator.function_for(())
    generator.write_functions()
    body = generator.take_root_body() if generator.drop_needless_entry_check(root) else None
    source, findings = generator.source, generator.findings
    source.lines.extend(generator.tables)
    if yes_no:
        # The budget the values known at a glance earn; the rest is counted once that is spent.
        # Code that counts no steps and calls no reference check needs no list at all.
        errors = "Verdict.glance(v, limits)" if findings else "Refusing()" if generator.calls_checks else None
        if errors is None and _names("errors", body or source.lines):
            errors = "None"
        _write_yes_no_entry(source, errors, root, body)
        if otherwise is not None and len(body or ()) <= _FRONT_MAX_LINES:
            # validate's front: the same entry, answering Ok where is_valid answers True and handing
            # the instance on wherever it answers anything else; limits is the namespace's.
            source.namespace |= {"OK": OK, "otherwise": otherwise, "limits": compiled.limits}
            _write_yes_no_entry(source, errors, root, body, front=True)
    else:
        source.line(0, "def validate(v, limits):")
        source.line(1, "errors = Findings.glance(v, limits)" if findings else "errors = []")
        source.line(1, "try:")
        if body is None:
            source.line(2, f"{root}(v, (), errors, 0)")
        else:
            if _names("p", body) or _names("d", body):
                source.line(2, "p, d = (), 0")
            source.lines.extend(body)
        source.line(1, "except (NotPlainJSON, UnicodeError, KeyError):")
        source.line(2, "return None")
        source.line(1, "except OverBudget:")
        source.line(2, "return OverBudget")
        source.line(1, "return list(errors)" if findings else "return errors")
    text = "\n".join(source.lines) + "\n"
    namespace = dict(source.namespace)
    exec(compile(text, "<toolreg fast path>", "exec"), namespace)
    if not yes_no:
        return Generated(text, namespace["validate"])
    return Generated(text, namespace["is_valid"], namespace.get("validate"))


# A yes/no answer's return statements: written only by the generator, as the source holds no text of
# the schema (and its comments stand after a #, which nothing else in it holds).
_YES_NO_RETURN = re.compile(r"\breturn (True|False)\b")


def _write_yes_no_entry(
    source: _Source, errors: str | None, root: str, body: list[str] | None, *, front: bool = False
) -> None:
    """An entry of the yes/no answer, the root's body written in (or a call of its function):
    ``is_valid(v, limits)``, answering True, False, or None where the reference walk must answer; or
    with ``front``, validate's front ``validate(instance)``, answering ``OK`` where is_valid answers
    True and handing the instance to ``otherwise`` wherever it answers anything else."""
    handed_on = "otherwise(v)"
    yes, no, unsure = ("OK", handed_on, handed_on) if front else ("True", "False", "None")
    source.line(0, "")
    if front:
        source.line(0, "def validate(instance):")
        source.line(1, "v = instance")  # the method's name for it, for a caller who names it
    else:
        source.line(0, "def is_valid(v, limits):")
    if errors is not None:
        source.line(1, f"errors = {errors}")
    source.line(1, "try:")
    if body is None:
        call = f"{root}(v, (), errors, 0)"  # True or False
        source.line(2, f"return {yes} if {call} else {no}" if front else f"return {call}")
    else:
        if _names("p", body) or _names("d", body):
            source.line(2, "p, d = (), 0")  # the root's path and depth, as its function would take them
        if not front:
            source.lines.extend(body)  # which ends in return True
        else:
            for text in body:
                code, hash_sign, comment = text.partition("#")
                code = _YES_NO_RETURN.sub(lambda said: f"return {yes if said[1] == 'True' else no}", code)
                source.lines.append(code + hash_sign + comment)
    source.line(1, "except (NotPlainJSON, UnicodeError, KeyError):")
    source.line(2, f"return {unsure}")
    source.line(1, "except (Failed, OverBudget):")
    source.line(2, f"return {no}")
    if front:
        # As validate's method does: a stack too deep, or a container another thread changes.
        source.line(1, "except (RecursionError, RuntimeError, IndexError):")
        source.line(2, f"return {handed_on}")


class Refusing(list[ValidationError]):
    """The errors of a yes/no answer whose schema counts no steps (a Verdict needs a budget): the
    reference checks it calls stop at their first error, which raises Failed."""

    __slots__ = ()

    def append(self, error: ValidationError) -> None:
        raise Failed


def passes(function: Callable[..., bool], value: Any, path: Place, errors: Any, depth: int) -> bool:
    """Whether ``value`` passes a branch's generated function in a yes/no answer, which returns
    False at its first failure, or raises Failed from a reference check it calls."""
    try:
        return function(value, path, errors, depth)
    except Failed:
        return False
