"""A handler held against its tool's schema with the standard library alone: do they agree on arguments?"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import FunctionType
from typing import Any

from ._errors import InvalidToolError
from ._jsonschema.values import json_equal

__all__ = ["check_handler"]

_MISSING = object()


def check_handler(name: str, schema: Any, handler: Callable[..., Any]) -> None:
    """Raise InvalidToolError naming both sides where ``handler`` (called with the arguments as
    keywords) and the top-level ``properties``/``required`` of ``schema`` disagree:

    - a required property no parameter takes (and no ``**kwargs``);
    - a parameter without a default that is not a required property (a call may leave it out);
    - a property the schema names that no parameter takes (and no ``**kwargs``);
    - a parameter that cannot be passed by keyword (positional-only) and has no default;
    - a default in the schema that differs from the parameter's default;
    - an object open to properties it does not name (``additionalProperties`` not false), for a
      handler without ``**kwargs``: a valid call could send one, and the handler could not take it.

    A handler whose signature Python cannot read (some built-ins) is taken as it is.
    """
    read = _parameters(handler)
    if read is None or not isinstance(schema, dict):
        return
    by_keyword, takes_any, positional_only = read
    if takes_any and not by_keyword and not positional_only:
        return  # (**arguments) alone, as an imported tool's handler: it takes whatever the schema names
    properties = schema.get("properties", {})
    properties = properties if isinstance(properties, dict) else {}
    required = [item for item in schema.get("required", []) if isinstance(item, str)]
    problems = [
        f"parameter {key!r} is positional-only, but toolreg passes arguments by keyword"
        for key in positional_only
    ]
    for prop in required:
        if prop not in by_keyword and not takes_any:
            problems.append(f"the schema requires {prop!r}, but the handler has no parameter {prop!r}")
    for prop in properties:
        if prop not in by_keyword and not takes_any and prop not in required:
            problems.append(f"the schema allows {prop!r}, but the handler has no parameter {prop!r}")
    if not takes_any and _open(schema):
        problems.append(
            "the schema allows properties it does not name (its additionalProperties is not false), but "
            'the handler takes no **kwargs: close the schema with "additionalProperties": false, or '
            "give the handler **kwargs"
        )
    for key, default in by_keyword.items():
        if default is _MISSING and key not in required:
            where = "names it as optional" if key in properties else "does not name it"
            problems.append(f"the handler's parameter {key!r} has no default, but the schema {where}")
        rule = properties.get(key)
        stated = rule.get("default", _MISSING) if isinstance(rule, dict) else _MISSING
        if stated is not _MISSING and default is not _MISSING and not _same(stated, default):
            problems.append(f"the schema's default for {key!r} is {stated!r}, the handler's is {default!r}")
    if problems:
        raise InvalidToolError(f"the handler of {name!r} does not fit its schema: " + "; ".join(problems))


def _open(schema: dict[str, Any]) -> bool:
    """Whether a valid call may hold properties the schema does not name (by ``patternProperties``
    too, whose names no parameter can foresee)."""
    if isinstance(schema.get("patternProperties"), dict) and schema["patternProperties"]:
        return True
    if schema.get("additionalProperties", True) is False or schema.get("unevaluatedProperties") is False:
        return False
    return schema.get("type") in ("object", None) or "object" in (schema.get("type") or ())


def _parameters(handler: Callable[..., Any]) -> tuple[dict[str, Any], bool, list[str]] | None:
    """Each parameter a keyword can reach with its default (or ``_MISSING``), whether the handler
    takes ``**kwargs``, and its positional-only parameters without a default; None when unreadable.
    A plain function is read from its code object, the rest through ``inspect.signature``."""
    code = getattr(handler, "__code__", None)
    # A function keeps __wrapped__ (functools.wraps') in its own __dict__, read there as getattr reads
    # it (a dict subclass's __contains__ cannot hide it), without the AttributeError hasattr makes.
    plain = type(handler) is FunctionType and not dict.__contains__(handler.__dict__, "__wrapped__")
    if plain and code is not None:
        takes_any = bool(code.co_flags & inspect.CO_VARKEYWORDS)
        count, keyword_count = code.co_argcount, code.co_kwonlyargcount
        if not count and not keyword_count:
            return {}, takes_any, []  # (**arguments) or (): no parameter by name
        names = code.co_varnames  # read once: CPython builds the tuple anew at each read
        positional = names[:count]
        keyword_only = names[count : count + keyword_count]
        defaults = handler.__defaults__ or ()
        first_default = len(positional) - len(defaults)
        kw_defaults = handler.__kwdefaults__ or {}
        by_keyword = {
            key: defaults[index - first_default] if index >= first_default else _MISSING
            for index, key in enumerate(positional)
        }
        by_keyword.update({key: kw_defaults.get(key, _MISSING) for key in keyword_only})
        lone = [
            key for index, key in enumerate(positional[: code.co_posonlyargcount]) if index < first_default
        ]
        for key in positional[: code.co_posonlyargcount]:
            del by_keyword[key]
        return by_keyword, takes_any, lone
    try:
        signature = inspect.signature(handler)
    except (TypeError, ValueError):
        return None
    empty, parameters = inspect.Parameter.empty, signature.parameters.values()
    reachable = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return (
        {p.name: _MISSING if p.default is empty else p.default for p in parameters if p.kind in reachable},
        any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters),
        [p.name for p in parameters if p.kind is inspect.Parameter.POSITIONAL_ONLY and p.default is empty],
    )


def _same(stated: Any, given: Any) -> bool:
    try:
        return json_equal(stated, given)
    except (TypeError, ValueError, RecursionError):
        return bool(stated == given)
