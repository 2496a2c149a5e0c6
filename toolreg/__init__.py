"""toolreg: a typed tool registry and a strict, pure JSON Schema validator for agent tool calls."""

from typing import TYPE_CHECKING

from ._errors import (
    DuplicateToolError,
    ExportError,
    InvalidArgumentsError,
    InvalidCallError,
    InvalidToolError,
    InvalidToolNameError,
    ToolError,
    TransientError,
    UnknownProviderError,
    UnknownToolError,
)
from ._jsonschema.errors import Ok, ValidationError
from ._jsonschema.exceptions import LimitsError, OutputFormatError, SchemaError, ToolregError
from ._jsonschema.limits import Limits
from ._jsonschema.schema import check_schema
from ._jsonschema.validator import Validator, compile, validate  # noqa: A004 - toolreg.compile, like re.compile
from ._version import __version__ as __version__

# Validating needs only the names imported above. These come from modules it does not need (the
# registry and the calling layer with its threads, the providers, the catalog lifecycle, pydantic's
# bridge, the wording of errors for a model), each imported at the first use of one of its names, so
# that `import toolreg` costs about what validating needs.
_LAZY = {
    "normalize_bfcl": "_bfcl",
    "CallResult": "_results",
    "RetryPolicy": "_calls",
    "FormattedErrors": "_feedback",
    "format_errors": "_feedback",
    "CatalogError": "_lifecycle.catalogs",
    "CatalogDiff": "_lifecycle.diff",
    "DiffError": "_lifecycle.diff",
    "Finding": "_lifecycle.diff",
    "SchemaDiff": "_lifecycle.diff",
    "TextChange": "_lifecycle.diff",
    "ToolDiff": "_lifecycle.diff",
    "diff": "_lifecycle.diff",
    "ReplayReport": "_lifecycle.replay",
    "replay": "_lifecycle.replay",
    "ImportReport": "_providers.mcp",
    "import_mcp": "_providers.mcp",
    "import_openapi": "_openapi",
    "ToolRecord": "_registry",
    "Repair": "_repair",
    "repair": "_repair",
    "ToolRegistry": "_toolregistry",
}


def _import_lazily(name: str) -> object:
    """A name of ``_LAZY``, imported from its module and kept, as ``from toolreg import name`` asks."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value: object = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


if TYPE_CHECKING:
    from ._bfcl import normalize_bfcl
    from ._calls import RetryPolicy
    from ._feedback import FormattedErrors, format_errors
    from ._lifecycle.catalogs import CatalogError
    from ._lifecycle.diff import CatalogDiff, DiffError, Finding, SchemaDiff, TextChange, ToolDiff, diff
    from ._lifecycle.replay import ReplayReport, replay
    from ._openapi import import_openapi
    from ._providers.mcp import ImportReport, import_mcp
    from ._registry import ToolRecord
    from ._repair import Repair, repair
    from ._results import CallResult
    from ._toolregistry import ToolRegistry
else:
    # Type checkers read the lazy names from the imports above, and never see this: a module's
    # __getattr__ would have them take any misspelt name for one of its attributes.
    __getattr__ = _import_lazily

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
    "CallResult",
    "RetryPolicy",
    "repair",
    "Repair",
    "format_errors",
    "FormattedErrors",
    "import_mcp",
    "import_openapi",
    "ImportReport",
    "normalize_bfcl",
    "replay",
    "ReplayReport",
    "diff",
    "CatalogDiff",
    "ToolDiff",
    "SchemaDiff",
    "Finding",
    "TextChange",
    "ToolregError",
    "SchemaError",
    "DuplicateToolError",
    "InvalidToolNameError",
    "InvalidToolError",
    "ExportError",
    "UnknownToolError",
    "UnknownProviderError",
    "InvalidArgumentsError",
    "LimitsError",
    "OutputFormatError",
    "ToolError",
    "TransientError",
    "InvalidCallError",
    "CatalogError",
    "DiffError",
]
