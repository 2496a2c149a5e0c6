"""A handler held against its tool's schema with the standard library alone: do they agree on arguments?"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ._errors import InvalidToolError
from ._json import json_equal

__all__ = ["check_handler"]

_MISSING = object()


def check_handler(name: str, schema: Any, handler: Callable[..., Any]) -> None:
    """Raise InvalidToolError naming both sides where ``handler`` (called with the arguments as
    keywords) and the top-level ``properties``/``required`` of ``schema`` disagree:

    - a required property no parameter takes (and no ``**kwargs``);
    - a parameter without a default that is not a required property (a call may leave it out);
    - a property the schema names that no parameter takes (and no ``**kwargs``);
    - a parameter that cannot be passed by keyword (positional-only) and has no default;
    - a default in the schema that differs from the parameter's default.

    A handler whose signature Python cannot read (some built-ins) is taken as it is. Properties an
    open object allows beyond those it names are not checked: a call that sends one to a handler
    without ``**kwargs`` is reported by ``call`` as the handler's error.
    """
    try:
        signature = inspect.signature(handler)
    except (TypeError, ValueError):
        return
    if not isinstance(schema, dict):
        return
    properties = schema.get("properties", {})
    properties = properties if isinstance(properties, dict) else {}
    required = [item for item in schema.get("required", []) if isinstance(item, str)]
    parameters = signature.parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    by_keyword = {
        key: parameter
        for key, parameter in parameters.items()
        if parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }
    problems = []
    empty = inspect.Parameter.empty
    for key, parameter in parameters.items():
        if parameter.kind is inspect.Parameter.POSITIONAL_ONLY and parameter.default is empty:
            problems.append(f"parameter {key!r} is positional-only, but toolreg passes arguments by keyword")
    for prop in required:
        if prop not in by_keyword and not takes_any:
            problems.append(f"the schema requires {prop!r}, but the handler has no parameter {prop!r}")
    for prop in properties:
        if prop not in by_keyword and not takes_any and prop not in required:
            problems.append(f"the schema allows {prop!r}, but the handler has no parameter {prop!r}")
    for key, parameter in by_keyword.items():
        if parameter.default is empty and key not in required:
            where = "names it as optional" if key in properties else "does not name it"
            problems.append(f"the handler's parameter {key!r} has no default, but the schema {where}")
        rule = properties.get(key)
        stated = rule.get("default", _MISSING) if isinstance(rule, dict) else _MISSING
        if stated is not _MISSING and parameter.default is not empty and not _same(stated, parameter.default):
            problems.append(
                f"the schema's default for {key!r} is {stated!r}, the handler's is {parameter.default!r}"
            )
    if problems:
        raise InvalidToolError(f"the handler of {name!r} does not fit its schema: " + "; ".join(problems))


def _same(stated: Any, given: Any) -> bool:
    try:
        return json_equal(stated, given)
    except (TypeError, ValueError, RecursionError):
        return bool(stated == given)
