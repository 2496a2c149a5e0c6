"""What toolreg reports: validation errors as immutable values, and one family of exceptions."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = [
    "Ok",
    "ValidationError",
    "ToolregError",
    "SchemaError",
    "DuplicateToolError",
    "InvalidToolNameError",
    "InvalidToolError",
    "UnknownToolError",
]


@dataclass(frozen=True)
class Ok:
    """The result of a successful validation; truthy, so ``if result:`` reads naturally."""

    def __bool__(self) -> bool:
        return True


@dataclass(frozen=True)
class ValidationError:
    """One reason an instance does not match its schema.

    ``path`` points into the instance and ``schema_path`` at the failing keyword,
    both as RFC 6901 JSON Pointers; ``facts`` holds what a caller needs to fix the
    value (``expected_type``, ``missing``, ``limit`` …), all of it plain JSON.
    """

    path: str
    schema_path: str
    keyword: str
    message: str
    facts: Mapping[str, Any] = field(default_factory=dict, compare=True)

    def __post_init__(self) -> None:
        # A read-only copy: an error handed to a caller can never change under it.
        object.__setattr__(self, "facts", MappingProxyType(copy.deepcopy(dict(self.facts))))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict: the four fields, then the facts."""
        return {
            "path": self.path,
            "schema_path": self.schema_path,
            "keyword": self.keyword,
            "message": self.message,
            **copy.deepcopy(dict(self.facts)),
        }


class ToolregError(Exception):
    """The root of every exception toolreg raises on purpose."""


class SchemaError(ToolregError, ValueError):
    """A schema toolreg refuses; ``schema_path`` points at the offending keyword."""

    def __init__(self, message: str, *, schema_path: str = "", keyword: str | None = None) -> None:
        where = f"at {schema_path!r}" if schema_path else "at the schema root"
        super().__init__(f"{message} ({where})")
        self.reason = message
        self.schema_path = schema_path
        self.keyword = keyword


class DuplicateToolError(ToolregError, ValueError):
    """A name is registered already and ``override=True`` was not given."""

    def __init__(self, name: str) -> None:
        super().__init__(f"tool {name!r} is registered already; pass override=True to replace it")
        self.name = name


class InvalidToolNameError(ToolregError, ValueError):
    """A tool name outside the grammar: lowercase segments joined by dots."""


class InvalidToolError(ToolregError, ValueError):
    """A registration argument other than the name or schema is of the wrong kind."""


class UnknownToolError(ToolregError, LookupError):
    """No tool is registered under the name asked for."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no tool named {name!r} is registered")
        self.name = name
