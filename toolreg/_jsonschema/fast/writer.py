"""The writer's state and its blocks for a schema object: ``$ref``, the combinators and ``not``.

It reads only the intermediate form compilation made (``schema.Node``: each schema object's
keywords in the table's order, with subschemas as locations and patterns compiled), never the
schema itself, and writes into blocks (see ``source``) that it only ever adds to. What a pass and a
failure are is the writer's ``answers``: in a yes/no answer ``return True`` and ``return False``,
in validate's front ``return OK`` and ``return otherwise(v)``; the code that collects every error
appends the reference's error where the others return. The code for each kind of value (type, the
bounds, properties, items) is in ``kinds``; what is generated, and its entries, in ``codegen``.
"""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Iterator
from typing import NamedTuple

from ..compiled import Compiled, Node
from ..findings import Path
from ..keywords.applicators import KEPT_ERROR_STEPS, BranchCheck
from ..pointer import to_pointer
from ..room import chunked_stack
from ..vocabulary import DEFAULT_DIALECT, VOCABULARY, keywords
from .runtime import namespace
from .source import Block, Source

__all__ = ["Answers", "Body", "HANDLED_KEYWORDS", "NoFastPath", "Writer", "YES_NO"]

# What the generator does with each keyword of its dialect, as its row's speed group says (see
# ``vocabulary.Speed``); a keyword without one is left to the reference walk.
_FAST = {name: row.speed.fast for name, row in keywords(DEFAULT_DIALECT).items() if row.speed is not None}
# How many $refs in a row are written in place: past it the next target is called as a function of its
# own, so a chain of 5,000 (each target reached by one $ref) is written as functions of 32 hops
# each, rather than one walk too deep for Python's stack that left the schema with no fast path.
_INLINE_MAX_CHAIN = 32
# The most lines of source the generator writes for one schema (about 1 MB): Python's compiler takes
# about 5 s and 600 MB for 120,000 (10,000 subschemas that each test a string), so a schema past it
# gets no fast path, and the reference walk answers every call.
MAX_LINES = 20_000
# Every keyword the generator writes code for. A schema that uses another keyword anywhere, or
# declares another dialect, gets no fast path: the reference walk answers it.
HANDLED_KEYWORDS = frozenset(_FAST)
# Keywords that apply a schema to the whole value, whatever its kind: their code walks the whole
# value with the same care (the subschemas applied in place, and the reference checks called).
IN_PLACE = frozenset(
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
    row.name for row in VOCABULARY if row.speed is not None and row.speed.memo
)
# Keywords whose subschemas the generated code leaves to reference checks (propertyNames's, which it
# reports, too): a pattern below them is searched by its reference check, which spends on the budget.
_SUBSCHEMAS_HANDED_OVER = frozenset(
    name for name, fast in _FAST.items() if fast in ("called", "whole") and keywords()[name].holds
) | {"propertyNames"}
# Keywords that spend a step each time their schema object is applied to a value.
_SPENDS_ITSELF = frozenset(row.name for row in VOCABULARY if row.spends_itself)
# The ones that speak to one type of instance, as the vocabulary says.
TYPED_KEYWORDS = frozenset(name for name in HANDLED_KEYWORDS if keywords()[name].instance_type)
# A $ref's target is written in place only up to this indentation: Python's compiler refuses more
# than 20 nested blocks (loops, try), and the parser 100 levels of indentation.
INLINE_MAX_INDENT = 12


class NoFastPath(Exception):
    """The schema uses what the generator writes no code for."""


class Answers(NamedTuple):
    """What a yes/no body writes where its value passes (its last line) and where it fails."""

    passed: str
    failed: str


# The yes/no answer's, in every function it writes (validate's front has its own: see codegen).
YES_NO = Answers("return True", "return False")


class Body(NamedTuple):
    """The body written for one schema: its block (written at depth 1), how many levels below its
    value it looks, and the $ref targets written in place in it."""

    block: Block
    deepest: int
    inlined: frozenset[str]


def _one_schema_a_value(compiled: Compiled) -> bool:
    """Whether no value is applied more than one schema object with keywords of its own: the only
    subschemas applied in place are the targets of ``$ref``s that stand alone in their objects."""
    rows = compiled.keywords
    for source, _, via_ref in compiled.in_place:
        if via_ref is None:
            return False
        beside = compiled.node(source).keywords.keys() - {"$ref"}
        if any(_FAST.get(name) != "nothing" or rows[name].in_place for name in beside):
            return False
    return True


class Writer:
    """The state of one schema's generation, the helpers every block is written with, and the
    blocks of a schema object (``emit``); ``emit_kinds`` is the subclass's (see ``kinds``)."""

    def __init__(self, compiled: Compiled, yes_no: bool = False) -> None:
        self.compiled = compiled
        # A yes/no answer: each function returns whether its value passes, at the first failure;
        # no error is made and no path is kept, and the reference checks it calls stop at their
        # first error (findings.Verdict).
        self.yes_no = yes_no
        # What a pass and a failure are written as in the body being written (yes/no only).
        self.answers = YES_NO
        # Whether the code calls a reference check, which needs a list for its errors.
        self.calls_checks = False
        # Whether each error a failing branch of anyOf or oneOf keeps past its first costs steps, as in
        # the reference walk: only where the shape does not bound the work, so where the code counts.
        self.kept_errors_cost = compiled.kept_errors_cost()
        # Whether the code counts work steps: only where the reference walk could spend more than the
        # allowance for each value (see work.within_allowance); elsewhere its budget never runs out.
        # (Searching a long text spends more than that bound takes a search to: the code guards the
        # searches it writes, and counts where a reference check it calls may search, as
        # patternProperties's searches of the names do.)
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
        # Whether the body being written counts the items its loops go over against the first walk's
        # allowance (see room): where the stack thrashes, but not in the walk with room, which has
        # none to stay within (its body is written apart, see codegen.write).
        self.counts_items = chunked_stack
        self.source = Source(namespace())
        self.block = Block()  # the block being written
        self.functions: dict[str, str] = {}
        self.pending: list[tuple[str, Path]] = []
        self.bodies: dict[str, Body] = {}
        self.deepest = 0
        self.requests: collections.Counter[str] = collections.Counter()
        # How many $refs lead to each schema, and the ones whose code is written where their one
        # $ref is (see inlines).
        self.referred = collections.Counter(to_pointer(target) for target in compiled.ref_targets.values())
        self.inlined: set[str] = set()
        # How many inlined $refs the code being written stands inside (see inlines).
        self.inline_depth = 0
        # Module-level tables of generated functions (see kinds.node_table), written after them.
        self.tables: list[str] = []
        self.table_names: dict[str, str] = {}

    # -- the blocks -------------------------------------------------------------------------------

    def line(self, depth: int, text: str) -> None:
        self.block.line(depth, text)
        self.source.written += 1

    @contextlib.contextmanager
    def writing(self, block: Block) -> Iterator[Block]:
        """Lines written meanwhile go to ``block``, which the caller then places."""
        outer, self.block = self.block, block
        try:
            yield block
        finally:
            self.block = outer

    @property
    def errors(self) -> str:
        """The body's list of errors, noted as read."""
        return self.block.read("errors")

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
        """The body of every function asked for, each in a block of its own."""
        while self.pending:
            name, location = self.pending.pop(0)
            self.bodies[name] = self.write_body(location, YES_NO)

    def write_body(self, location: Path, answers: Answers) -> Body:
        """The body for the schema at ``location`` applied to ``v`` at path ``p`` and depth ``d``,
        a pass and a failure written as ``answers`` say (in a yes/no answer)."""
        block, before = Block(), set(self.inlined)
        self.deepest, self.answers = 0, answers
        with self.writing(block):
            self.emit(location, "v", ["*p"], 1)
            if self.yes_no:
                self.line(1, answers.passed)
        return Body(block, self.deepest, frozenset(self.inlined - before))

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
            and depth <= INLINE_MAX_INDENT
            and self.inline_depth < _INLINE_MAX_CHAIN
        )

    # -- expressions ------------------------------------------------------------------------------

    def depth_of(self, path: list[str]) -> str:
        """How deep the value at ``path`` sits in the instance, as an expression."""
        self.deepest = max(self.deepest, len(path) - 1)
        depth = self.block.read("d")
        return f"{depth} + {len(path) - 1}" if len(path) > 1 else depth

    def levels(self, path: list[str]) -> str:
        """How many levels of containers the value at ``path`` may still hold."""
        return f"{self.source.constant(self.compiled.limits.max_depth)} - ({self.depth_of(path)})"

    def place(self, tokens: list[str]) -> str:
        """The place (see ``pointer.Place``) below ``p`` that ``tokens`` lead to, as an expression
        evaluated only when an error is reported: ``["*p", "k", "i"]`` is ``((p, k), i)``. Every
        name in it is noted as read (a loop need not number its items where no place reads it)."""
        assert tokens[0] == "*p"
        expression = self.block.read("p")
        for token in tokens[1:]:
            expression = f"({expression}, {self.block.read(token)})"
        return expression

    def path(self, path: list[str]) -> str:
        """The path as an expression, evaluated only when an error is reported; a yes/no answer
        keeps no error, so its code passes the path it was given along unchanged."""
        return self.block.read("p") if self.yes_no else self.place(path)

    def plain(self, value: str, path: list[str]) -> str:
        """The test that ``value`` is plain JSON within the depth left; where the errors are Findings,
        with the validation's record of the values found plain, so that none is walked twice; and,
        where the stack thrashes, within the first walk's allowance of items."""
        if self.counts_items:  # the first walk counts what it finds plain (see runtime.plain_json)
            memo = self.errors if self.findings else "None"
            return f"plain({value}, {self.levels(path)}, {memo}, {self.block.read('allow')})"
        memo = f", {self.errors}" if self.findings else ""
        return f"plain({value}, {self.levels(path)}{memo})"

    # -- statements -------------------------------------------------------------------------------

    def spend(self, depth: int, steps: str = "1") -> None:
        """Steps of the work budget, inline: a call would cost more than the step itself."""
        if not self.counts:
            return
        self.line(depth, f"{self.errors}.left[0] -= {steps}")
        self.line(depth, f"if {self.errors}.left[0] < 0: spent({self.errors}.left)")

    def count_items(self, depth: int, value: str) -> None:
        """Before a loop that may call a function for each item, or a reference check that goes over
        every item: the items, counted against what the first walk may do before it runs with room (see
        ``room``); past it, the entry walks again with room."""
        if not self.counts_items:
            return
        allow = self.block.read("allow")
        self.line(depth, f"{allow}[0] -= len({value})")
        self.line(depth, f"if {allow}[0] < 0: raise NotPlainJSON")

    def counts_itself(self, location: Path) -> bool:
        """Whether the schema at ``location`` spends a step whenever it is applied (see
        Site.counts_itself), read from its node."""
        node = self.compiled.node(location)
        return node.boolean is None and not _SPENDS_ITSELF.isdisjoint(node.keywords)

    def report(self, node: Node, keyword: str, value: str, path: list[str], depth: int) -> None:
        """Let the reference check of this keyword append its errors (in a yes/no answer, the
        first raises Failed)."""
        check = self.source.constant(self.compiled.keyword_checks[node.pointer, keyword])
        self.line(depth, f"{check}({value}, {self.path(path)}, {self.errors})")
        self.calls_checks = True

    def fail(self, node: Node, keyword: str, kept: str, path: list[str], depth: int) -> None:
        """Append the error of a keyword found failing, keeping what its reference check keeps: the
        same site and words, so the error is the reference's, written only when read. A yes/no
        answer writes its failure instead."""
        if self.yes_no:
            self.line(depth, self.answers.failed)
            return
        site = self.compiled.site(keyword, node.location, node.pointer)
        error = f"E({self.source.constant(site)}, {self.place(path)}, {kept})"
        self.line(depth, f"{self.errors}.append({error})")

    def unless(self, depth: int, call: str) -> None:
        """A call of a generated function: in a yes/no answer, a failure where it answers False."""
        self.line(depth, f"if not {call}: {self.answers.failed}" if self.yes_no else call)

    def call(self, function: str, value: str, path: list[str], errors: str | None = None) -> str:
        """A call of a generated function on ``value`` at ``path``, adding to ``errors``."""
        errors = errors or self.errors
        allow = self.block.read("allow")
        return f"{function}({value}, {self.path(path)}, {errors}, {self.depth_of(path)}, {allow})"

    def hand_over(
        self, node: Node, keywords: tuple[str, ...], value: str, path: list[str], depth: int
    ) -> None:
        """Run the reference checks of those ``keywords`` the schema has, on a value shown plain JSON."""
        present = [keyword for keyword in keywords if keyword in node.keywords]
        if present:
            self.line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
        for keyword in present:
            self.report(node, keyword, value, path, depth)

    # -- a schema object --------------------------------------------------------------------------

    def emit_kinds(self, node: Node, value: str, kind: str, path: list[str], depth: int) -> None:
        raise NotImplementedError  # see kinds.Generator

    def emit(self, location: Path, value: str, path: list[str], depth: int) -> None:
        line = self.line
        if self.source.written > MAX_LINES:
            raise NoFastPath(f"would take more than {MAX_LINES} lines of Python")
        node = self.compiled.node(location)
        if node.boolean is True:
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            return
        if node.boolean is False:
            if self.yes_no:
                line(depth, self.answers.failed)  # whatever the value is
                return
            reject = self.source.constant(self.compiled.checks[node.pointer])
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            line(depth, f"{reject}({value}, {self.place(path)}, {self.errors})")
            return
        plan = node.keywords
        if not _UNEVALUATED.isdisjoint(plan):
            # The reference check collects what the keywords here evaluate, as they run, for these two
            # to read (see findings.Evaluated): the whole schema object is handed over.
            whole = self.source.constant(self.compiled.checks[node.pointer])
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            line(depth, f"{whole}({value}, {self.path(path)}, {self.errors})")
            self.calls_checks = True
            return
        kind = self.source.fresh("t")
        if {"type", "enum", "const"} & plan.keys() or TYPED_KEYWORDS & plan.keys():
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
            self.unless(depth, self.call(target, value, path))
        self.emit_kinds(node, value, kind, path, depth)
        for branch in plan.get("allOf", ()):
            self.spend(depth)
            self.emit(branch, value, path, depth)
        for keyword in ("anyOf", "oneOf"):
            if keyword in plan:
                self.emit_branches(node, keyword, value, path, depth)
        if "not" in plan:
            self.emit_not(node, value, path, depth)
        self.hand_over(node, ("if",), value, path, depth)

    def emit_not(self, node: Node, value: str, path: list[str], depth: int) -> None:
        line, function = self.line, self.function_for(node.keywords["not"])
        self.spend(depth)
        if self.yes_no:
            allow = self.block.read("allow")
            arguments = f"{value}, {self.path(path)}, {self.errors}, {self.depth_of(path)}, {allow}"
            passes = f"passes({function}, {arguments})"
            line(depth, f"if {passes}: {self.answers.failed}")
            # Its subschema may have failed at once, at a type, reading nothing below: the value must
            # still be shown plain JSON, or validate's answer would be an error where this passes.
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            return
        scratch = self.source.fresh("s")
        line(depth, f"{scratch} = {self.errors}.scratch()")
        line(depth, f"{function}({value}, (), {scratch}, {self.depth_of(path)}, {self.block.read('allow')})")
        line(depth, f"if not {scratch}:")
        self.fail(node, "not", "None", path, depth + 1)

    def emit_branches(self, node: Node, keyword: str, value: str, path: list[str], depth: int) -> None:
        if self.yes_no:
            self.emit_branches_yes_no(node, keyword, value, path, depth)
            return
        line = self.line
        passed, where = self.source.fresh("n"), self.source.fresh("w")
        line(depth, f"{passed} = 0")
        # The branches see the real path, so that a failure is judged from what they found: asking
        # the reference check would walk the value again, at every level of a nested anyOf.
        line(depth, f"{where} = {self.place(path)}")
        scratches = []
        for index, location in enumerate(node.keywords[keyword]):
            scratch = self.source.fresh("s")
            branch = self.function_for(location)
            line(depth, f"{scratch} = {self.errors}.scratch()")
            # anyOf is settled by its first passing branch, as in the reference walk.
            inner = depth + 1 if keyword == "anyOf" and index > 0 else depth
            if inner > depth:
                line(depth, f"if {passed} == 0:")
            self.spend(inner)
            line(
                inner,
                f"{branch}({value}, {where}, {scratch}, {self.depth_of(path)}, {self.block.read('allow')})",
            )
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
        line(depth + 1, f"if {found} is not None: {self.errors}.append({found})")

    def emit_branches_yes_no(self, node: Node, keyword: str, value: str, path: list[str], depth: int) -> None:
        """anyOf passes at its first passing branch, oneOf when exactly one of them passes; each branch
        stops at its first failure (``passes`` catches a reference check's Failed)."""
        line, passed = self.line, self.source.fresh("n")
        line(depth, f"{passed} = 0")
        for index, location in enumerate(node.keywords[keyword]):
            function = self.function_for(location)
            allow = self.block.read("allow")
            arguments = f"{value}, {self.path(path)}, {self.errors}, {self.depth_of(path)}, {allow}"
            call = f"passes({function}, {arguments})"
            inner = depth + 1 if keyword == "anyOf" and index > 0 else depth
            if inner > depth:
                line(depth, f"if {passed} == 0:")
            self.spend(inner)
            line(inner, f"{passed} += {call}")
        line(depth, f"if {passed} {'== 0' if keyword == 'anyOf' else '!= 1'}: {self.answers.failed}")
