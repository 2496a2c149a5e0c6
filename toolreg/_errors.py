"""The exceptions of the layers above the validator: registration, lookup, export and calling."""

from __future__ import annotations

from ._jsonschema.errors import ValidationError
from ._jsonschema.exceptions import ToolregError

__all__ = [
    "DuplicateToolError",
    "InvalidToolNameError",
    "InvalidToolError",
    "InvalidArgumentsError",
    "ExportError",
    "InvalidCallError",
    "ToolError",
    "TransientError",
    "UnknownToolError",
    "UnknownProviderError",
]


class DuplicateToolError(ToolregError, ValueError):
    """A name is registered already and ``override=True`` was not given."""

    def __init__(self, name: str) -> None:
        super().__init__(f"tool {name!r} is registered already; pass override=True to replace it")
        self.name = name


class InvalidToolNameError(ToolregError, ValueError):
    """A tool name outside the grammar: lowercase segments joined by dots."""


class InvalidToolError(ToolregError, ValueError):
    """A registration argument other than the name or schema is refused: a handler that is not
    callable, a description of more than one line, a ``meta`` that is not JSON."""


class InvalidArgumentsError(ToolregError, ValueError):
    """Raised by ``check``: the arguments do not fit the tool's schema; ``errors`` holds every error."""

    def __init__(self, tool: str, errors: list[ValidationError]) -> None:
        shown = "; ".join(f"{error.path or 'the arguments'}: {error.message}" for error in errors[:3])
        more = f"; and {len(errors) - 3} more" if len(errors) > 3 else ""
        noun = "error" if len(errors) == 1 else "errors"
        super().__init__(f"arguments for {tool!r} have {len(errors)} {noun}: {shown}{more}")
        self.tool = tool
        self.errors = tuple(errors)


class ExportError(ToolregError, ValueError):
    """Tools cannot take a provider's form: a name breaks a rule, or strict mode lacks a keyword.
    ``schema_path`` points at the first blocker in the first such tool's schema (the message names
    each tool and each blocker)."""

    def __init__(self, message: str, *, schema_path: str | None = None) -> None:
        super().__init__(message)
        self.schema_path = schema_path


class InvalidCallError(ToolregError, ValueError):
    """A value that is no tool call toolreg reads, or a calling option out of range."""


class ToolError(ToolregError, RuntimeError):
    """Raised by a handler for a failure it words for the model ("no file named notes.txt"): the model
    is shown its message. Of any other exception a handler raises, the model is shown the type alone,
    since its message may hold what the model must not read (a password in a database URL, a path);
    ``ToolRegistry(show_handler_errors=True)`` shows every message."""


class TransientError(ToolError):
    """Raised by a handler for a failure that may pass (a rate limit, a dropped connection): a tool
    marked idempotent is tried again, within its registry's RetryPolicy. A ToolError: the model is
    shown its message."""


class UnknownToolError(ToolregError, LookupError):
    """No tool is registered under the name asked for."""

    def __init__(self, name: object) -> None:
        super().__init__(f"no tool named {name!r} is registered")
        self.name = name


class UnknownProviderError(ToolregError, LookupError):
    """A provider name toolreg has no form for, given to ``export``, ``answer``, ``lookup`` or the
    command line; ``known`` lists the ones it has."""

    def __init__(self, provider: object, known: list[str]) -> None:
        super().__init__(f"unknown provider {provider!r}; the providers are {', '.join(known)}")
        self.provider = provider
        self.known = tuple(known)
