"""Validation: a compiled schema applied to an instance, returning every error in a fixed order."""

from __future__ import annotations

from typing import Any

from ._codegen import FastCheck, generate
from ._errors import ValidationError
from ._json import find_non_json
from ._limits import DEFAULT_LIMITS, Limits
from ._pointer import to_pointer
from ._schema import compile_schema

__all__ = ["Validator", "compile", "validate"]


class Validator:
    """A schema checked and compiled once, to validate any number of instances.

    ``validate`` runs generated straight-line code (see :attr:`source`), made at the first call;
    ``validate_reference`` runs the readable recursive walk it is checked against. Both return
    the same errors in the same order.
    """

    __slots__ = ("schema", "_compiled", "_source", "_fast")

    def __init__(self, schema: Any, limits: Limits = DEFAULT_LIMITS) -> None:
        self._compiled = compile_schema(schema, limits)
        # The compiled snapshot: a caller changing its dict later cannot change what we check.
        self.schema = self._compiled.root
        self._source: str | None = None
        self._fast: FastCheck | None = None

    @property
    def source(self) -> str:
        """The Python source of the fast path, for reading; constants live in its namespace."""
        self._build()
        assert self._source is not None
        return self._source

    def _build(self) -> FastCheck:
        if self._fast is None:
            self._source, self._fast = generate(self._compiled)
        return self._fast

    def validate(self, instance: Any) -> list[ValidationError]:
        """Every error, in a deterministic order; an empty list when ``instance`` is valid."""
        fast = self._fast or self._build()
        try:
            errors = fast(instance)
        except RecursionError:
            errors = None  # a max_depth set past this Python's stack: the reference walk reports it
        return self.validate_reference(instance) if errors is None else errors

    def validate_reference(self, instance: Any) -> list[ValidationError]:
        """The same answer as :meth:`validate`, from the recursive reference walk."""
        limit = self._compiled.limits.max_depth
        problems = find_non_json(instance, limit)
        if problems:
            # Schema keywords only speak of JSON values within the limits, so these come alone.
            return [_problem(path, keyword, reason, limit) for path, keyword, reason in problems]
        errors: list[ValidationError] = []
        try:
            self._compiled.checks[""](instance, (), errors)
        except RecursionError:
            # Only a max_depth raised past what this Python's stack allows can get here.
            message = f"too deep to check within Python's recursion limit (max_depth is {limit})"
            return [ValidationError("", "", "depth", message, {"limit": limit})]
        return errors

    def is_valid(self, instance: Any) -> bool:
        """True when :meth:`validate` would return no errors."""
        return not self.validate(instance)


def _problem(path: tuple[str | int, ...], keyword: str, reason: str, limit: int) -> ValidationError:
    if keyword == "depth":
        return ValidationError(to_pointer(path), "", "depth", reason, {"limit": limit})
    return ValidationError(to_pointer(path), "", "json", f"not a JSON value: {reason}")


def compile(schema: Any, limits: Limits = DEFAULT_LIMITS) -> Validator:  # noqa: A001 - as in re.compile
    """Check ``schema`` (raising SchemaError) and return a reusable :class:`Validator`."""
    return Validator(schema, limits)


def validate(schema: Any, instance: Any, limits: Limits = DEFAULT_LIMITS) -> list[ValidationError]:
    """Every error of ``instance`` against ``schema``; an empty list when it is valid."""
    return Validator(schema, limits).validate(instance)
