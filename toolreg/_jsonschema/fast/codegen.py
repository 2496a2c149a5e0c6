"""The fast path: a compiled schema turned into straight-line Python source that finds the same errors.

The generated code decides, with inline tests on exact types, whether each keyword fails; when one
does, it appends the error the reference walk (the ``keywords`` package) would make: the same site,
path and kept part of the instance, worded by the same function when first read. Every error,
message and fact is the reference's, in the reference's order, and no path is built unless an
error is reported. Three entries are written from the same blocks (see ``writer``): ``validate``,
which collects every error; ``is_valid``, the yes/no answer, each of whose functions returns at its
first failure; and validate's front, the yes/no answer's root written again with ``return OK`` and
``return otherwise(v)`` for its answers. No line is changed once written: the blocks are placed.

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

from collections.abc import Callable
from typing import Any, NamedTuple

from ..compiled import Compiled
from ..errors import OK, Result, ValidationError
from ..findings import OverBudget
from ..limits import Limits
from ..room import ROOMY_VALUES, SHALLOW_LEVELS, chunked_stack
from ..vocabulary import DEFAULT_DIALECT
from .kinds import Generator
from .runtime import NotPlainJSON, plain_json
from .writer import _SPENDS_ITSELF as _SPENDS_ITSELF
from .writer import _UNEVALUATED as _UNEVALUATED
from .writer import HANDLED_KEYWORDS, INLINE_MAX_INDENT, YES_NO, Answers, Body, NoFastPath

__all__ = [
    "FastCheck",
    "Generated",
    "NoFastPath",
    "NotPlainJSON",
    "generate",
    "plain_json",
    "HANDLED_KEYWORDS",
]

# The fast path takes an instance and the limits; it answers with every error, or None where the
# reference walk must answer, or OverBudget where the work budget ran out.
FastCheck = Callable[[Any, Limits], "list[ValidationError] | type[OverBudget] | bool | None"]

# validate's front writes the root's body a second time (see generate) only up to this many lines:
# past them, compiling the copy would cost more than the call it spares saves in many thousands.
_FRONT_MAX_LINES = 2_000
# validate's front answers: Ok where the yes/no answer passes, and hands the instance to the code
# that collects the errors wherever it would answer anything else.
_FRONT = Answers("return OK", "return otherwise(v)")


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
    written = write(compiled, yes_no=yes_no, front=otherwise is not None)
    namespace = written.namespace
    if written.front:
        # The front's own names; limits is the namespace's, as its caller passes none.
        namespace |= {"OK": OK, "otherwise": otherwise, "limits": compiled.limits}
    exec(compile(written.text, "<toolreg fast path>", "exec"), namespace)
    if not yes_no:
        return Generated(written.text, namespace["validate"])
    return Generated(written.text, namespace["is_valid"], namespace["validate"] if written.front else None)


class Written(NamedTuple):
    """The source of a fast path, the namespace of its constants, and whether it holds a front."""

    text: str
    namespace: dict[str, Any]
    front: bool


def write(
    compiled: Compiled, *, yes_no: bool = False, front: bool = False, chunked: bool = chunked_stack
) -> Written:
    """The source :func:`generate` compiles, and the namespace of its constants: ``front`` (with
    ``yes_no``) asks for validate's front too, written where the root's body is short enough;
    ``chunked`` (by default, whether this interpreter's frame stack can thrash) asks for each entry
    twice, a first walk and one with room (see _walks)."""
    unhandled = sorted(compiled.used - HANDLED_KEYWORDS)
    if unhandled or compiled.dialect != DEFAULT_DIALECT:
        raise NoFastPath(f"written for {compiled.dialect} keywords {unhandled}")
    if compiled.dynamic:
        raise NoFastPath("enters schema resources for $dynamicRef or $recursiveRef")
    if compiled.ignored or (compiled.asserts_formats and "format" in compiled.used):
        raise NoFastPath("reads keywords by a meta-schema's vocabularies, or asserts formats")
    writer = Generator(compiled, yes_no)
    writer.counts_items = chunked
    root = writer.function_for(())
    writer.write_functions()
    first = writer.bodies[root]
    # The root, when no $ref leads back to it, always starts at depth 0: it needs no check of its
    # depth, and its body is written into the entry itself, one call fewer for every instance
    # (unless indented so deeply that one more block, the entry's try, could pass Python's compiler).
    checked = writer.requests[root] > 1 or first.deepest >= compiled.limits.max_depth
    inline = not checked and first.block.deepest() <= INLINE_MAX_INDENT

    def again(answers: Answers, counts_items: bool) -> Body:
        # The root's body once more; the $ref targets written in place in it are written in place again.
        writer.inlined -= first.inlined
        writer.counts_items = counts_items
        body = writer.write_body((), answers)
        writer.counts_items = chunked
        writer.write_functions()
        return body

    # Each entry's body: the first walk's, and, where there is one, the walk with room's, which counts
    # no items (see _walks): counting each array's items cost a walk of 10,000 rows a tenth of its time.
    entries: tuple[Body | None, ...] = (None, None)
    fronts: tuple[Body | None, ...] = (None, None)
    if inline:
        entries = (first, again(YES_NO, False) if chunked else None)
    if yes_no and front and inline and len(first.block) <= _FRONT_MAX_LINES:
        fronts = (again(_FRONT, chunked), again(_FRONT, False) if chunked else None)
    module: list[str] = []
    for name, body in writer.bodies.items():
        if name == root and inline:
            continue
        module.append(f"def {name}(v, p, errors, d, allow):")
        if name != root or checked:
            # d is how deep v sits; the body looks at most `deepest` levels further down. Past the
            # limit the reference walk answers, with its one depth error.
            limit = writer.source.constant(compiled.limits.max_depth - body.deepest)
            module.append(f"    if d >= {limit}: raise NotPlainJSON")
        module.extend(body.block.placed(0))
        module.append("")
    module.extend(writer.tables)
    entry = entries[0]
    if not yes_no:
        for walk, placed in zip(_walks(compiled, "validate", chunked), entries, strict=False):
            module.extend(_collecting_entry(writer.findings, root, placed, walk))
    else:
        # The budget the values known at a glance earn; the rest is counted once that is spent.
        # Code that counts no steps and calls no reference check needs no list at all.
        errors = (
            "Verdict.glance(v, limits)" if writer.findings else "Refusing()" if writer.calls_checks else None
        )
        if errors is None and (entry is None or "errors" in entry.block.reads):
            errors = "None"
        for walk, placed in zip(_walks(compiled, "is_valid", chunked), entries, strict=False):
            module.extend(_yes_no_entry(errors, root, placed, YES_NO, walk, front=False))
        front = front and (fronts[0] is not None or entry is None)
        if front:
            for walk, placed in zip(_walks(compiled, "validate", chunked), fronts, strict=False):
                module.extend(_yes_no_entry(errors, root, placed, _FRONT, walk, front=True))
    return Written("\n".join(module) + "\n", writer.source.namespace, yes_no and front)


# An allowance of items no walk can spend: the count of a walk with room.
_UNCOUNTED = 1 << 62


class _Walk(NamedTuple):
    """How an entry walks (see ``room``): the name it is written under, the depth it says the root is
    at, and the items its loops may go over, and the entry it hands the instance to, where it stops
    short, to walk again from the top with room (None for that one). The first walk says the root is
    :data:`~toolreg._jsonschema.room.SHALLOW_LEVELS` levels short of ``max_depth``, so that each level's
    test of its depth stops it there as it would stop a value past the limit."""

    name: str
    depth: int
    items: int
    again: str | None

    def start(self, body: Body | None) -> list[str]:
        """The root's path, depth and allowance, as its function would take them, where its body (or
        the call of its function) reads them."""
        reads = {"p", "d", "allow"} if body is None else body.block.reads
        values = {"p": "()", "d": str(self.depth), "allow": f"[{self.items}]"}
        names = [name for name in values if name in reads]
        return [f"        {', '.join(names)} = {', '.join(values[name] for name in names)}"] if names else []

    def stopped(self, arguments: str, otherwise: str) -> str:
        """Where the walk stopped short, or met a value that is not plain JSON: again with room, if it
        was the first walk, else ``otherwise``."""
        return otherwise if self.again is None else f"return with_room(partial({self.again}, {arguments}))"


def _walks(compiled: Compiled, name: str, chunked: bool) -> list[_Walk]:
    """The entries written under ``name``: one walk, where the interpreter's stack does not thrash;
    else a first, shallow and short one, which counts the items its loops go over, and one with room,
    whose own body counts none (the functions both call count for the first)."""
    if not chunked:
        return [_Walk(name, 0, _UNCOUNTED, None)]
    roomy = f"{name}_with_room"
    shallow = max(0, compiled.limits.max_depth - SHALLOW_LEVELS)
    return [_Walk(name, shallow, ROOMY_VALUES, roomy), _Walk(roomy, 0, _UNCOUNTED, None)]


def _collecting_entry(findings: bool, root: str, body: Body | None, walk: _Walk) -> list[str]:
    """``validate(v, limits)``: every error, None where the reference walk must answer, or
    OverBudget; the root's body written in, or a call of its function (see _Walk)."""
    return [
        f"def {walk.name}(v, limits):",
        "    errors = Findings.glance(v, limits)" if findings else "    errors = []",
        "    try:",
        *walk.start(body),
        *([f"        {root}(v, (), errors, d, allow)"] if body is None else body.block.placed(1)),
        "    except (NotPlainJSON, UnicodeError, KeyError):",
        f"        {walk.stopped('v, limits', 'return None')}",
        "    except OverBudget:",
        "        return OverBudget",
        "    return list(errors)" if findings else "    return errors",
        "",
    ]


def _yes_no_entry(
    errors: str | None, root: str, body: Body | None, answers: Answers, walk: _Walk, *, front: bool
) -> list[str]:
    """An entry of the yes/no answer, the root's body (written with ``answers``) placed in it, or
    a call of its function: ``is_valid(v, limits)``, answering True, False, or None where the
    reference walk must answer; or with ``front``, validate's front ``validate(instance)``,
    answering ``OK`` where is_valid answers True and handing the instance to ``otherwise`` wherever
    it answers anything else (see _Walk)."""
    # The front hands on what is_valid would leave to the reference walk, as it hands on a failure.
    unsure = answers.failed if front else "return None"
    call = f"{root}(v, (), errors, d, allow)"  # True or False
    if body is not None:
        inner = [*walk.start(body), *body.block.placed(1)]
    elif front:
        inner = [*walk.start(None), f"        return OK if {call} else otherwise(v)"]
    else:
        inner = [*walk.start(None), f"        return {call}"]
    lines = [
        "",
        # The method's name for the instance, for a caller who names it.
        *([f"def {walk.name}(instance):", "    v = instance"] if front else [f"def {walk.name}(v, limits):"]),
        *([f"    errors = {errors}"] if errors is not None else []),
        "    try:",
        *inner,
        "    except (NotPlainJSON, UnicodeError, KeyError):",
        f"        {walk.stopped('instance' if front else 'v, limits', unsure)}",
        "    except (Failed, OverBudget):",
        f"        {answers.failed}",
    ]
    if front:
        # Handed on, as validate's method would: a stack too deep, or a container another thread changes.
        lines += ["    except (RecursionError, RuntimeError, IndexError):", f"        {answers.failed}"]
    return lines
