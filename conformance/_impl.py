"""Implementations under test: any ``f(schema, instance)`` whose errors have a path and a keyword."""

from __future__ import annotations

import importlib
from typing import Any

import toolreg
from toolreg._jsonschema.fast.glance import Glance, glance_of
from toolreg._jsonschema.pointer import to_pointer

from ._official import Implementation
from ._oracle import Finding, exact_key

__all__ = ["Implementation", "FastPathMismatch", "load", "findings", "toolreg_errors"]


class FastPathMismatch(AssertionError):
    """toolreg's generated fast path and its reference walk gave different errors."""


# The prepared validators (and glances) of the schemas judged last, by the schema's exact key (see
# ``exact_key``): Hypothesis draws most schemas again and again, and generating a schema's fast path
# is most of what toolreg's side of judging costs. A prepared validator and a glance keep nothing from
# one call to the next but what they work out from the schema alone, so those made for an equal
# schema answer as new ones would.
_PREPARED_KEPT = 1024
_prepared: dict[bytes, tuple[toolreg.Validator, Glance | None]] = {}
# The schema judged last, as an object, with its validator: one schema is judged against several
# instances in a row.
_last_compiled: list[tuple[Any, toolreg.Validator, Glance | None]] = []


def _prepared_for(schema: Any) -> tuple[toolreg.Validator, Glance | None]:
    key = exact_key(schema)
    made = None if key is None else _prepared.pop(key, None)
    if made is None:
        made = (toolreg.compile(schema).prepare(), glance_of(schema))
        if key is not None and len(_prepared) >= _PREPARED_KEPT:
            del _prepared[next(iter(_prepared))]
    if key is not None:
        _prepared[key] = made  # the last asked for comes last
    return made


def toolreg_errors(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """The default implementation under test: toolreg's fast path, held to its reference walk too.

    The two must return the same errors in the same order, messages and facts included, and the
    same masked forms; and where a registry would answer a first call from the snapshot alone, that
    answer must be the same verdict.
    """
    if not _last_compiled or _last_compiled[0][0] is not schema:
        _last_compiled[:] = [(schema, *_prepared_for(schema))]
    _, validator, glance = _last_compiled[0]
    fast, reference = validator.validate(instance), validator.validate_reference(instance)
    if fast != reference:
        raise FastPathMismatch(
            f"fast path {[e.to_dict() for e in fast]} != reference {[e.to_dict() for e in reference]}"
        )
    glanced = None if glance is None else glance.verdict(instance)[0]
    if glanced is not None and glanced != (not fast):
        raise FastPathMismatch(f"a registry's first call would answer valid={glanced}, the walk {not fast}")
    fast_masked, reference_masked = [e.masked() for e in fast], [e.masked() for e in reference]
    if fast_masked != reference_masked:
        raise FastPathMismatch(
            f"masked: fast path {[e.to_dict() for e in fast_masked]} "
            f"!= reference {[e.to_dict() for e in reference_masked]}"
        )
    return list(fast)


def load(spec: str) -> Implementation:
    """``"package.module:function"`` to the function it names, with a clear error when it cannot."""
    module_name, colon, function_name = spec.partition(":")
    if not colon or not module_name or not function_name:
        raise ValueError(f"--impl wants MODULE:FUNCTION, not {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # a module that fails as it is imported cannot be loaded either
        raise ValueError(f"cannot import {module_name!r}: {type(error).__name__}: {error}") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise ValueError(f"{module_name!r} has no function {function_name!r}")
    return function  # type: ignore[no-any-return]


def _field(error: Any, name: str) -> Any:
    if isinstance(error, dict):
        return error.get(name)
    return getattr(error, name, None)


def _as_pointer(location: Any) -> str | None:
    """A pointer string as it is, or a sequence of tokens turned into one."""
    if location is None or isinstance(location, str):
        return location
    return to_pointer(location)


def findings(implementation: Implementation, schema: Any, instance: Any) -> list[Finding]:
    """The implementation's errors as findings; raises whatever the implementation raises."""
    found = []
    for error in implementation(schema, instance):
        path, keyword = _as_pointer(_field(error, "path")), _field(error, "keyword")
        if not isinstance(path, str) or not isinstance(keyword, str):
            raise TypeError(f"an error needs a string 'path' (or tokens) and 'keyword', got {error!r}")
        found.append(Finding(path, keyword, _as_pointer(_field(error, "schema_path"))))
    return found
