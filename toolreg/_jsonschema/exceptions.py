"""The exceptions the core raises on purpose: ``ToolregError``, the root of every exception toolreg
raises, and the validator's own. Each is a ``ValueError`` too, as the argument it refuses is a wrong
value. The module imports nothing, so every layer of toolreg, the pattern engine included, can stand
on it; the errors validation reports are values, in ``errors``."""

from __future__ import annotations

__all__ = ["ToolregError", "SchemaError", "LimitsError", "OutputFormatError"]


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


class LimitsError(ToolregError, ValueError):
    """A ``limits`` argument that is neither a :class:`~toolreg.Limits` nor a mapping of its fields,
    or a field that is not a positive whole number (or a bool, for the flag)."""


class OutputFormatError(ToolregError, ValueError):
    """An output format toolreg does not write; ``format`` is the name asked for."""

    def __init__(self, format: str, known: tuple[str, ...]) -> None:  # noqa: A002 - the parameter's name
        super().__init__(f"unknown output format {format!r}; toolreg writes {', '.join(map(repr, known))}")
        self.format = format
