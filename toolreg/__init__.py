"""toolreg: a typed tool registry and a strict, pure JSON Schema validator for agent tool calls."""

from ._errors import (
    DuplicateToolError,
    InvalidToolError,
    InvalidToolNameError,
    Ok,
    SchemaError,
    ToolregError,
    UnknownToolError,
    ValidationError,
)
from ._limits import Limits
from ._registry import ToolRecord, ToolRegistry
from ._schema import check_schema
from ._validator import Validator, compile, validate  # noqa: A004 - toolreg.compile, like re.compile

__all__ = [
    "ToolRegistry",
    "ToolRecord",
    "Ok",
    "ValidationError",
    "Validator",
    "validate",
    "compile",
    "check_schema",
    "Limits",
    "ToolregError",
    "SchemaError",
    "DuplicateToolError",
    "InvalidToolNameError",
    "InvalidToolError",
    "UnknownToolError",
]
