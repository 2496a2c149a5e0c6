"""Validation: a compiled schema applied to an instance, returning every error in a fixed order."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .compiled import Compiled
from .errors import OK, Result, ValidationError, trusted_error
from .exceptions import OutputFormatError
from .findings import FAILED, Failed, Findings, OverBudget, Verdict
from .limits import DEFAULT_LIMITS, WORK_PER_VALUE, Limits, LimitsLike, budget
from .pointer import to_pointer
from .room import ROOMY_VALUES, with_room
from .schema import compile_with
from .settings import Settings
from .stack import on_a_stack_of_its_own, on_own_stack
from .values import json_copy, json_key, plain_copy, survey
from .vocabulary import DEFAULT_DIALECT

# The standard output is imported where first used, when a validator is asked for its output, and
# fast/ (every answerer that only makes answers quicker) through _generated below.
if TYPE_CHECKING:
    from .fast.codegen import FastCheck, Generated
    from .fast.glance import Glance

__all__ = ["Validator", "compile", "validate", "work_bound", "WALKED_VALUES"]

# How many values of the instances it is called with the reference walk answers for before a
# validator generates its fast path: about what generating it costs (a millisecond or so).
WALKED_VALUES = 500

# How many times the work budget of a validation the standard output may spend.
_OUTPUT_WORK = 4


class Validator:
    """A schema checked and compiled once, to validate any number of instances.

    ``validate`` returns :class:`~toolreg.Ok` (falsy, the empty list of errors) or the list of
    every error, so ``if errors := validator.validate(value):`` reports and ``else`` proceeds.
    Its first calls are answered by the readable recursive walk (``validate_reference``) until they
    have held :data:`WALKED_VALUES` (500) values; later ones by generated straight-line code (see
    :attr:`source`), made then, or earlier by :meth:`prepare`: a tool called a few times never pays
    for code generation, and a large call pays for one walk at most. (A registry's validator answers
    the valid first calls it can before it even compiles the schema, by reading the snapshot; see
    ``fast.glance``.) Both return the same errors in the same order. Where no instance can spend the work
    budget, ``validate`` then becomes the generated yes/no answer of :meth:`is_valid` itself (an
    attribute of the instance, over the method; not past 2,000 lines of code, nor for a subclass
    with a ``validate`` of its own): it answers ``Ok`` where that answer is yes, and hands every
    other instance to the code that collects the errors, so a valid call makes no list, no path and
    no call beyond its own. The schema is a private snapshot: :attr:`schema` hands out copies, so
    nothing done to them changes what either path checks. (A registry's validator may compile its
    snapshot at its first call, once the quick check of ``fast.quick`` has vouched for it.)
    """

    __slots__ = (
        "_compiled",
        "_later",
        "_root",
        "_limits",
        "_source",
        "_fast",
        "_valid",
        "_key",
        "_walked",
        "_glance",
        "__weakref__",
        # Where the generated validate stands over the method (see _install_front); toolreg keeps
        # nothing else there.
        "__dict__",
    )

    def __init__(
        self,
        schema: Any,
        *,
        limits: LimitsLike = DEFAULT_LIMITS,
        documents: Mapping[str, Any] | None = None,
        assert_formats: bool = False,
    ) -> None:
        settings = Settings.given(limits, documents, assert_formats)
        self._start(compile_with(schema, settings, allowance=work_bound))

    def _start(self, compiled: Compiled | None, root: Any = None, limits: Limits = DEFAULT_LIMITS) -> None:
        self._compiled = compiled
        self._later: Callable[[], Compiled] | None = None
        self._root = compiled.root if compiled is not None else root
        self._limits = compiled.limits if compiled is not None else limits
        self._source: str | None = None
        self._fast: FastCheck | None = None
        self._valid: FastCheck | None = None
        self._key: Any = None
        self._walked = 0
        self._glance: Glance | None = None

    @classmethod
    def _of(cls, compiled: Compiled) -> Validator:
        """A validator over a schema compiled already (the registry snapshots each schema once)."""
        validator = cls.__new__(cls)
        validator._start(compiled)
        return validator

    @classmethod
    def _deferred(
        cls, root: Any, limits: Limits, compile_later: Callable[[], Compiled], glance: Glance | None = None
    ) -> Validator:
        """A validator over a snapshot checked already (see ``fast.quick``), compiled at its first use;
        ``glance`` answers its first calls where it can without compiling it."""
        validator = cls.__new__(cls)
        validator._start(None, root, limits)
        validator._later = compile_later
        validator._glance = glance
        return validator

    def _compiled_schema(self) -> Compiled:
        compiled = self._compiled
        if compiled is None:
            assert self._later is not None
            # Two threads may both compile it: each gets an equal result, and one is kept.
            compiled = self._compiled = self._later()
        return compiled

    @property
    def schema(self) -> Any:
        """A fresh copy of the checked snapshot, yours to change."""
        return json_copy(self._root)

    @property
    def schema_key(self) -> Any:
        """A hashable stand-in for the schema, equal exactly when the schemas are equal as JSON."""
        if self._key is None:
            self._key = json_key(self._root)
        return self._key

    @property
    def source(self) -> str:
        """The Python source of the fast path that collects every error, for reading; constants live
        in its namespace. (The yes/no answer and validate's front are written from the same code,
        with their own answers.)"""
        self._build()
        assert self._source is not None
        return self._source

    def prepare(self) -> Validator:
        """Generate the fast path now rather than at the first call (for benchmarks, and for callers
        that would rather pay at start-up); returns the validator itself."""
        self._build()
        return self

    def _build(self) -> FastCheck:
        if self._fast is None:
            compiled = self._compiled_schema()
            generated = _generated(compiled)
            if isinstance(generated, str):
                self._source = f"# no fast path: {generated}\n"
                self._fast = self._reference_only
                return self._fast
            source, fast, _ = generated
            if compiled.within_allowance() and type(self).validate is Validator.validate:
                # Where no instance can spend the work budget, the yes/no answer's True is exactly
                # validate's Ok: validate itself becomes that answer's code (the front), which spares
                # a valid call the list of errors, the paths and a call, and costs an invalid one
                # what it takes to find its first error before the errors are collected. (Not where
                # a subclass has a validate of its own, which the front would pass by.)
                self._build_yes_no(functools.partial(_collected, compiled, self._limits, fast))
            self._source, self._fast = source, fast
        return self._fast

    def _reference_only(self, instance: Any, limits: Limits) -> None:
        return None

    def validate(self, instance: Any) -> Result:
        """``Ok`` when ``instance`` is valid, else every error in a deterministic order."""
        # Generating code costs about what walking a few hundred values does: walk until then.
        if self._fast is None and self._walked < WALKED_VALUES:
            if self._glanced(instance, collecting=True) is True:
                return OK
            walked, values = _walk_counted(self._compiled_schema(), instance)
            self._walked += max(values, 1)
            return walked or OK
        fast = self._build()
        # The generated front where _build made one (a caller reading validator.validate finds it at
        # once; one who kept this method from before it was made comes here), else every error.
        front: Callable[[Any], Result] | None = self.__dict__.get("validate")
        if front is not None:
            return front(instance)
        return _collected(self._compiled_schema(), self._limits, fast, instance)

    def _settled(self) -> Callable[[Any], Result] | None:
        """What answers :meth:`validate` from now on, for a caller that keeps it rather than looking it
        up at each call (a registry's entry): the generated front, or this method where code was
        generated without one; None while the first calls are answered otherwise (the glance, the
        walk), which may yet end in a front. (_build installs the front before it sets ``_fast``; two
        threads building at once may each install one, both answering alike.)"""
        if self._fast is None:
            return None
        front: Callable[[Any], Result] | None = self.__dict__.get("validate")
        return self.validate if front is None else front

    def _glanced(self, instance: Any, collecting: bool) -> bool | None:
        """The glance's answer, before the schema is compiled (None: it has none); ``collecting``
        when a False answer leaves the walk to find the errors."""
        glance = self._glance  # read once: another thread may drop it meanwhile
        if glance is None:
            return None
        answer, values = glance.verdict(instance)
        if answer is True or (answer is False and not collecting):
            self._walked += max(values, 1)  # else the walk counts them, answering with every error
        elif answer is None and not glance.answers:
            self._glance = None  # it never will for this schema: spare later calls its survey
        return answer

    def validate_reference(self, instance: Any) -> Result:
        """The same answer as :meth:`validate`, from the recursive reference walk."""
        return _walk(self._compiled_schema(), instance) or OK

    def is_valid(self, instance: Any) -> bool:
        """True when :meth:`validate` would return ``Ok``, found without collecting the errors:
        each path stops at the first failure (a yes/no answer of its own, generated like the fast
        path, on first use once the validator has one). Having done no more work than
        :meth:`validate`, it answers False wherever that would run out of the work budget, and can
        answer True where that runs out on the errors of branches a valid value does not take."""
        check = self._valid
        if check is None:
            if self._fast is None and self._walked < WALKED_VALUES:
                if (glanced := self._glanced(instance, collecting=False)) is not None:
                    return glanced
                errors, values = _walk_counted(self._compiled_schema(), instance, Verdict)
                self._walked += max(values, 1)
                return not errors
            check = self._build_yes_no()
        try:
            answer = check(instance, self._limits)
        except (RecursionError, RuntimeError, IndexError):
            answer = None  # as in validate: the reference walk answers
        if type(answer) is bool:
            return answer
        # A value that is not plain JSON, or deeper than the code looks: the reference walk, stopping
        # at its first error.
        return not _walk(self._compiled_schema(), instance, Verdict)

    def output(self, instance: Any, format: str = "basic") -> dict[str, Any]:  # noqa: A002 - the spec's word
        """The result as JSON Schema's standard output, a JSON-ready dict: ``"flag"`` (``{"valid": …}``,
        from :meth:`is_valid`, stopping at the first failure), the 2019-09 and 2020-12 forms
        ``"basic"``, ``"detailed"`` and ``"verbose"``, or the newer proposal's ``"list"`` and
        ``"hierarchical"``. Locations are evaluation paths (through ``$ref``), absolute schema
        locations (under ``https://toolreg.invalid/schema.json`` where the schema has no ``$id``)
        and instance pointers; failures carry toolreg's messages, passing units their annotations.
        It runs the reference walk again, traced, recording each schema object and keyword it
        applies, so its verdicts and errors are the walk's; it costs more than :meth:`validate`
        (within four times the work budget); its JSON text is at most ``Limits.max_output_bytes``
        (past it, one ``limit`` error); an unknown ``format`` raises OutputFormatError."""
        return self._outputs(instance, (format,))[0]

    def _outputs(self, instance: Any, formats: tuple[str, ...]) -> list[dict[str, Any]]:
        """:meth:`output` in each of ``formats``, from one evaluation: what checking every format of
        one instance costs (the conformance suite does) is one walk, not one for each."""
        from .output import FORMATS, TooLarge, failure_output, output

        for form in formats:
            if form not in FORMATS:
                raise OutputFormatError(form, FORMATS)
        flagged = {form: {"valid": self.is_valid(instance)} for form in formats if form == "flag"}
        shapes = tuple(form for form in formats if form != "flag")
        if not shapes:
            return [flagged[form] for form in formats]
        compiled = self._compiled_schema()
        limits = compiled.limits
        most = limits.max_output_bytes
        problems, values, exact = survey(instance, limits.max_depth)
        try:
            if problems:
                found = [_problem(path, kind, reason, limits.max_depth) for path, kind, reason in problems]
                shaped = [failure_output(form, found, most) for form in shapes]
            else:
                if not exact:
                    with contextlib.suppress(RecursionError):
                        instance = plain_copy(instance)
                # The traced walk reads every branch of anyOf, where validate stops at the first that
                # passes, for what each evaluates.
                steps = _OUTPUT_WORK * budget(limits, values)

                def record() -> list[dict[str, Any]]:
                    try:
                        return output(compiled, instance, shapes, Findings.budget(steps), most)
                    except (RuntimeError, LookupError):
                        # Another thread changed a container while it was read (see _checked): one
                        # copy, taken whole.
                        return output(compiled, plain_copy(instance), shapes, Findings.budget(steps), most)

                # A large instance is recorded with room, as it is walked (see room.py).
                shaped = with_room(record) if values >= ROOMY_VALUES else record()
        except OverBudget:
            shaped = [failure_output(form, [_over_budget(limits, values)]) for form in shapes]
        except TooLarge:
            message = f"would pass {most} bytes of JSON text (max_output_bytes)"
            error = ValidationError("", "", "limit", message, {"limit": most})
            shaped = [failure_output(form, [error]) for form in shapes]
        except RecursionError:
            if not on_own_stack():  # as the walk does (see _checked): again, on a stack of its own
                ran = on_a_stack_of_its_own(functools.partial(self._outputs, instance, formats))
                if ran:
                    return ran[0]
            message = (
                "too deep to write the output of within Python's recursion limit "
                f"(max_depth is {limits.max_depth})"
            )
            error = ValidationError("", "", "depth", message, {"limit": limits.max_depth})
            shaped = [failure_output(form, [error]) for form in shapes]
        by_format = dict(zip(shapes, shaped, strict=True))
        return [flagged[form] if form == "flag" else by_format[form] for form in formats]

    def _build_yes_no(self, otherwise: Callable[[Any], Result] | None = None) -> FastCheck:
        """is_valid's generated answer, made at its first use (or again by _build); given
        ``otherwise``, which collects every error, validate's front too."""
        if self._valid is None or otherwise is not None:
            generated = _generated(self._compiled_schema(), yes_no=True, otherwise=otherwise)
            if isinstance(generated, str):
                self._valid = self._reference_only
            else:
                if generated.front is not None:
                    self._install_front(generated.front)
                self._valid = generated.check
        return self._valid

    def _install_front(self, front: Callable[[Any], Result]) -> None:
        """The one place validate's generated front is put over the method: an attribute of the
        instance stands over the method of the class, so a call of validator.validate finds the
        front with no call of its own in between: a valid call then costs about 30% less than through
        the method for bench/workloads.py's small schema, 15% for its nested and large ones (an
        invalid one about the same). The front holds no reference to the validator, so none is kept
        alive by a loop of references."""
        front.__doc__ = Validator.validate.__doc__
        self.__dict__["validate"] = front


# -- The one place the validator calls into fast/ ------------------------------------------------------
# Who answers a call is the validator's choice, so it alone reaches into fast/, here; the reference
# walk above it needs nothing from there. Imported at first use: a validator walks a few hundred values
# before it generates code, and most validations never need it.


def _generated(
    compiled: Compiled, *, yes_no: bool = False, otherwise: Callable[[Any], Result] | None = None
) -> Generated | str:
    """The generated code for ``compiled`` (see ``fast.codegen.generate``), or why there is none."""
    from .fast import codegen

    try:
        if yes_no:
            return codegen.generate(compiled, yes_no=True, otherwise=otherwise)
        return codegen.generate(compiled)
    except (codegen.NoFastPath, SyntaxError, RecursionError, MemoryError) as error:
        # Python's compiler has limits of its own (20 nested blocks): a schema within toolreg's
        # limits can pass them, and the reference walk then answers every call.
        return f"{type(error).__name__}: {error}"


def work_bound(compiled: Compiled) -> bool:
    """The work bound: whether no instance can spend the work budget (see ``fast.work``), which every
    schema a validator runs is compiled with (a registry's too), given here, where the validator
    reaches into the speed layer, so that the spec modules never do. Only where it holds is a yes/no
    answer's True exactly validate's Ok, so only there may the front answer for validate. No code is
    generated in draft-07 and 2019-09, whose schemas the work bound leaves out; there the coarser
    bound a registry's glance reads off the schema as written answers, since the glance answers first
    calls where it holds."""
    from .fast.work import within_allowance

    if compiled.dialect == DEFAULT_DIALECT:
        return within_allowance(compiled)
    from .fast.glance import glance_of

    glance = glance_of(compiled.root, compiled.limits, compiled.asserts_formats)
    return glance is not None and glance.may_answer()


def _collected(compiled: Compiled, limits: Limits, fast: FastCheck, instance: Any) -> Result:
    """Every error, from the generated code that collects them, or from the reference walk where
    that code cannot answer: validate's answer once code is generated (its front hands this every
    instance it does not find valid)."""
    try:
        errors = fast(instance, limits)
    except (RecursionError, RuntimeError, IndexError):
        # A max_depth set past this Python's stack, or another thread changing a container as we
        # read it: the reference walk answers (from a copy, if a container changes again).
        errors = None
    if type(errors) is list:
        return errors or OK
    if errors is OverBudget:
        # It spent the budget of every value (keywords.spent counted them), unless it found one
        # that is not JSON; both paths spend at the same places, so the reference walk would stop too.
        problems, values, _ = survey(instance, limits.max_depth)
        if not problems:
            return [_over_budget(limits, values)]
    return _walk(compiled, instance) or OK


def _walk(compiled: Compiled, instance: Any, answer: type[Findings] = Findings) -> list[ValidationError]:
    return _walk_counted(compiled, instance, answer)[0]


def _walk_counted(
    compiled: Compiled, instance: Any, answer: type[Findings] = Findings
) -> tuple[list[ValidationError], int]:
    """The reference walk's errors, and how many values the instance holds. With ``answer`` a
    :class:`Verdict` the walk stops at its first error, and returns one that stands for them all."""
    limit = compiled.limits.max_depth
    problems, values, exact = survey(instance, limit)
    if problems:
        # Schema keywords only speak of JSON values within the limits, so these come alone.
        return [_problem(path, keyword, reason, limit) for path, keyword, reason in problems], values
    if values >= ROOMY_VALUES:
        # Where the walk's loops sit is the instance's to choose: away from a chunk's end (see room.py).
        return with_room(functools.partial(_checked, compiled, instance, values, exact, answer)), values
    return _checked(compiled, instance, values, exact, answer), values


def _checked(
    compiled: Compiled, instance: Any, values: int, exact: bool, answer: type[Findings] = Findings
) -> list[ValidationError]:
    limit = compiled.limits.max_depth
    if not exact:
        # Subclasses (an OrderedDict, an IntEnum, or a hostile one overriding __iter__ or __eq__) are
        # read once with the built-in types' own methods; the checks then see plain values only.
        with contextlib.suppress(RecursionError):
            instance = plain_copy(instance)
    errors = answer.budget(budget(compiled.limits, values))
    try:
        try:
            compiled.checks[""](instance, (), errors)
        except RecursionError:
            raise  # a RuntimeError, but no sign of another thread: a copy would run out alike
        except (RuntimeError, LookupError):
            # Another thread changed a container while we read it (a dict's size as it was iterated,
            # a list's length between a test and a subscript): judge one copy, taken whole.
            errors = answer.budget(budget(compiled.limits, values))
            compiled.checks[""](plain_copy(instance), (), errors)
    except Failed:
        return [FAILED]
    except OverBudget:
        return [_over_budget(compiled.limits, values)]
    except RecursionError:
        if not on_own_stack():
            # Out of the caller's stack, which may have been nearly spent before the walk began: the
            # walk again from the start on a stack of its own, so the verdict does not depend on
            # where it was called from (see stack.py).
            ran = on_a_stack_of_its_own(
                functools.partial(_checked, compiled, instance, values, exact, answer)
            )
            if ran:
                return ran[0]
        # Out of a stack of its own: a max_depth raised past what Python's recursion limit allows, or
        # hundreds of subschemas applied in place along one path through anyOf, oneOf, not or if,
        # each of which takes Python frames.
        message = (
            "too deep to check within Python's recursion limit, counting the subschemas applied in "
            f"place on the way (max_depth is {limit})"
        )
        return [ValidationError("", "", "depth", message, {"limit": limit})]
    return list(errors)


def _over_budget(limits: Limits, values: int) -> ValidationError:
    steps = budget(limits, values)
    message = (
        f"needs more than {steps} steps of work to check "
        f"(max_work {limits.max_work}, and {WORK_PER_VALUE} for each of its {values} values)"
    )
    return ValidationError("", "", "limit", message, {"limit": steps})


def _problem(path: tuple[str | int, ...], keyword: str, reason: str, limit: int) -> ValidationError:
    # Found without the schema, so every name on the path may be the instance's own: masked, all go.
    pointer, hidden = to_pointer(path), to_pointer("*" if isinstance(token, str) else token for token in path)
    if keyword == "depth":
        facts = {"limit": limit}
        return trusted_error(pointer, "", "depth", reason, facts, (hidden, reason, facts))
    message = f"not a JSON value: {reason}"
    return trusted_error(pointer, "", "json", message, {}, (hidden, message, {}))


def compile(  # noqa: A001 - as re.compile
    schema: Any,
    *,
    limits: LimitsLike = DEFAULT_LIMITS,
    documents: Mapping[str, Any] | None = None,
    assert_formats: bool = False,
) -> Validator:
    """Check ``schema`` (raising SchemaError) and return a reusable :class:`Validator`.

    ``documents`` maps URIs to the schemas a ``$ref`` may name outside ``schema``; nothing is fetched.
    ``assert_formats`` makes ``format`` an assertion for the formats toolreg knows (else an annotation).
    """
    return Validator(schema, limits=limits, documents=documents, assert_formats=assert_formats)


def validate(
    schema: Any,
    instance: Any,
    *,
    limits: LimitsLike = DEFAULT_LIMITS,
    documents: Mapping[str, Any] | None = None,
    assert_formats: bool = False,
) -> Result:
    """``Ok`` when ``instance`` fits ``schema``, else every error; for one-off checks.

    It answers with the reference walk, so it never pays for generating code; to validate many
    instances against one schema, :func:`compile` it once.
    """
    settings = Settings.given(limits, documents, assert_formats)
    return _walk(compile_with(schema, settings, allowance=work_bound), instance) or OK


def checked_schema(validator: Validator) -> Any:
    """The validator's private snapshot itself, for readers inside toolreg that never change it."""
    return validator._root
