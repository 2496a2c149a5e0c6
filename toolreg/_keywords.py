"""The keyword table: for each supported keyword, one function that checks its value and builds its check."""

from __future__ import annotations

import json
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ._errors import SchemaError, ValidationError
from ._json import is_integer, is_number, json_equal, json_type
from ._pointer import Token, to_pointer
from ._regex import Pattern, RegexSyntaxError

__all__ = ["Check", "Path", "Site", "KEYWORDS", "JSON_TYPES"]

Path = tuple[Token, ...]
# A check looks at one instance value at ``path`` and appends what is wrong to the list.
Check = Callable[[Any, Path, list[ValidationError]], None]

JSON_TYPES: dict[str, Callable[[object], bool]] = {
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "integer": is_integer,
    "number": is_number,
    "string": lambda value: isinstance(value, str),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
}


def show(value: Any) -> str:
    """A value as JSON text, for messages: ``"a"``, ``null``, ``[1, 2]``, never a Python repr."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _characters(count: int) -> str:
    return f"{count} character" if count == 1 else f"{count} characters"


@dataclass(frozen=True)
class Site:
    """Where a keyword stands in its schema, and how to compile the subschemas below it."""

    keyword: str
    location: Path
    schema: dict[str, Any]
    compile_subschema: Callable[[Any, Path], Check]

    @property
    def pointer(self) -> str:
        return to_pointer(self.location)

    def refuse(self, reason: str, *below: Token) -> NoReturn:
        raise SchemaError(
            f"{self.keyword!r} {reason}",
            schema_path=to_pointer(self.location + below),
            keyword=self.keyword,
        )

    def subschema(self, schema: Any, *below: Token) -> Check:
        return self.compile_subschema(schema, self.location + below)

    def non_negative_integer(self, value: Any) -> int:
        if not is_integer(value) or value < 0:
            self.refuse(f"must be a non-negative integer, not {show(value)}")
        return int(value)

    def failure(self, path: Path, message: str, **facts: Any) -> ValidationError:
        return ValidationError(to_pointer(path), self.pointer, self.keyword, message, facts)


def _type(value: Any, site: Site) -> Check:
    names = value if isinstance(value, list) else [value]
    if not names or not all(isinstance(name, str) for name in names):
        site.refuse("must be a type name or a non-empty list of type names")
    for index, name in enumerate(names):
        if name not in JSON_TYPES:
            known = ", ".join(JSON_TYPES)
            below = (index,) if isinstance(value, list) else ()
            site.refuse(f"names an unknown type {show(name)}; the types are {known}", *below)
    if len(set(names)) != len(names):
        site.refuse("lists a type twice")
    tests = [JSON_TYPES[name] for name in names]
    expected = " or ".join(names)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not any(test(instance) for test in tests):
            actual = json_type(instance)
            errors.append(
                site.failure(
                    path, f"expected {expected}, got {actual}", expected_type=value, actual_type=actual
                )
            )

    return check


def _properties(value: Any, site: Site) -> Check:
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to schemas")
    children = [(name, site.subschema(schema, name)) for name, schema in value.items()]

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name, child in children:
                if name in instance:
                    child(instance[name], path + (name,), errors)

    return check


def _required(value: Any, site: Site) -> Check:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        site.refuse("must be a list of property names")
    if len(set(value)) != len(value):
        site.refuse("lists a property name twice")
    names = list(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name in names:
                if name not in instance:
                    errors.append(site.failure(path, f"missing required property {show(name)}", missing=name))

    return check


def _enum(value: Any, site: Site) -> Check:
    if not isinstance(value, list):
        site.refuse("must be an array of the allowed values")
    allowed = value

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not any(json_equal(instance, option) for option in allowed):
            errors.append(site.failure(path, f"must be one of {show(allowed)}", allowed=allowed))

    return check


def _length_bound(value: Any, site: Site, word: str, breaks: Callable[[int, int], bool]) -> Check:
    limit = site.non_negative_integer(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, str) and breaks(len(instance), limit):
            errors.append(
                site.failure(
                    path,
                    f"must be {word} {_characters(limit)} long, is {len(instance)}",
                    limit=limit,
                    length=len(instance),
                )
            )

    return check


def _min_length(value: Any, site: Site) -> Check:
    return _length_bound(value, site, "at least", operator.lt)


def _max_length(value: Any, site: Site) -> Check:
    return _length_bound(value, site, "at most", operator.gt)


def _pattern(value: Any, site: Site) -> Check:
    if not isinstance(value, str):
        site.refuse("must be a string holding an ECMA-262 regular expression")
    try:
        pattern = Pattern(value)
    except RegexSyntaxError as error:
        site.refuse(f"is not a valid ECMA-262 regular expression: {error}")

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, str) and not pattern.search(instance):
            errors.append(site.failure(path, f"must match the pattern {show(value)}", pattern=value))

    return check


def _items(value: Any, site: Site) -> Check:
    if isinstance(value, list):
        site.refuse("as an array is the draft-07 tuple form; in 2020-12 write it as 'prefixItems'")
    if value is False:
        # One error for the whole array, as jsonschema reports it, rather than one per element.
        def check_empty(instance: Any, path: Path, errors: list[ValidationError]) -> None:
            if isinstance(instance, list) and instance:
                count = len(instance)
                errors.append(site.failure(path, f"must have no items, has {count}", limit=0, actual=count))

        return check_empty
    child = site.subschema(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            for index, item in enumerate(instance):
                child(item, path + (index,), errors)

    return check


# Rows run in this order, so errors come out in this order whatever the schema's key order.
KEYWORDS: dict[str, Callable[[Any, Site], Check]] = {
    "type": _type,
    "enum": _enum,
    "minLength": _min_length,
    "maxLength": _max_length,
    "pattern": _pattern,
    "required": _required,
    "properties": _properties,
    "items": _items,
}
