"""Schemas from typed Python, a function's parameters or a pydantic model, written by pydantic (an extra)."""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from typing import Annotated, Any

from ._errors import InvalidArgumentsError, InvalidToolError
from ._jsonschema.errors import ValidationError
from ._jsonschema.pointer import to_pointer

__all__ = ["is_model", "model_schema", "model_handler", "function_schemas", "docstring_parts"]


def _pydantic() -> Any:
    try:
        import pydantic
    except ImportError:
        raise InvalidToolError(
            "a schema from a Python function or model needs pydantic: pip install 'pytoolreg[pydantic]' "
            "(from a checkout: pip install '.[pydantic]'), or pass schema= yourself"
        ) from None
    return pydantic


def is_model(schema: Any) -> bool:
    """Whether ``schema`` is a pydantic model class (checked without importing pydantic)."""
    return isinstance(schema, type) and any(
        base.__module__.startswith("pydantic") and base.__name__ == "BaseModel" for base in schema.__mro__
    )


def model_schema(model: type) -> dict[str, Any]:
    """The JSON schema of a pydantic model's input, as pydantic writes it."""
    schema: dict[str, Any] = model.model_json_schema(mode="validation")  # type: ignore[attr-defined]
    return schema


def model_handler(name: str, model: type, handler: Callable[..., Any]) -> Callable[..., Any]:
    """A handler that takes the arguments as keywords and gives ``handler`` the model instance.

    The arguments passed toolreg's check of the model's schema; what pydantic still refuses (a
    ``date`` or ``UUID`` that is none: the schema only names the format) raises
    InvalidArgumentsError with each error at its pointer, before ``handler`` runs.
    """
    pydantic = _pydantic()

    def with_model(**arguments: Any) -> Any:
        return handler(_built(pydantic, name, model, arguments))

    with_model.__name__ = getattr(handler, "__name__", "handler")
    with_model.__doc__ = getattr(handler, "__doc__", None)
    return with_model


_ARGS_HEADER = re.compile(r"^(Args|Arguments|Parameters):\s*$")
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_SECTION = re.compile(r"^[A-Z][A-Za-z ]*:\s*$")


def docstring_parts(function: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """The summary (the first paragraph, as one line) and each parameter's description from a
    Google-style ``Args:`` section (``name (type): text``, continued on deeper-indented lines)."""
    text = inspect.getdoc(function) or ""
    first = text.split("\n\n")[0]
    summary = "" if _ARGS_HEADER.match(first.strip()) else " ".join(first.split())
    described: dict[str, str] = {}
    current, indent_of_names, in_args = None, -1, False
    for line in text.splitlines():
        stripped, indent = line.strip(), len(line) - len(line.lstrip())
        if _ARGS_HEADER.match(stripped):
            current, indent_of_names, in_args = None, -1, True
        elif not in_args or not stripped:
            continue
        elif indent == 0 and _SECTION.match(stripped):
            in_args = False  # Returns:, Raises: …
        elif (found := _ARG_LINE.match(stripped)) and indent_of_names in (-1, indent):
            current, indent_of_names = found.group(1).lstrip("*"), indent
            described[current] = found.group(2).strip()
        elif current is not None:
            described[current] = f"{described[current]} {stripped}".strip()
    return summary, described


def _built(pydantic: Any, name: str, model: Any, arguments: dict[str, Any]) -> Any:
    """The model instance of ``arguments``, or InvalidArgumentsError with pydantic's errors as toolreg's."""
    try:
        return model.model_validate(arguments)
    except pydantic.ValidationError as refused:
        raise InvalidArgumentsError(name, [_error(found) for found in refused.errors()]) from None


def _error(found: Any) -> ValidationError:
    """One of pydantic's errors as a toolreg error: at the pointer of its ``loc``, in its words."""
    path = to_pointer(part for part in found.get("loc", ()) if isinstance(part, (str, int)))
    message = " ".join(str(found.get("msg", "is refused by the function's types")).split())
    return ValidationError(path, "", "pydantic", message, {"error_type": str(found.get("type", ""))})


def function_schemas(
    function: Callable[..., Any], name: str = "tool"
) -> tuple[dict[str, Any], dict[str, Any] | None, str, Callable[..., Any]]:
    """The argument schema of ``function``'s parameters, the output schema of its return annotation
    (None unless it is an object), the description from its docstring, and the handler to register:
    ``function`` given its arguments as pydantic reads them (a nested model as its instance, an enum
    as its member) and its result as JSON. What pydantic refuses when it builds the arguments (its
    types enforce more than the schema says: a real date, a real UUID) raises InvalidArgumentsError
    for the tool ``name`` before ``function`` runs.

    Parameters become properties (``Annotated[..., Field(...)]`` constraints, ``Literal``, enums,
    optionals, lists, dicts, nested models, dataclasses and TypedDicts, as pydantic writes them); one
    without a default is required; the object is closed unless the function takes ``**kwargs``.
    """
    pydantic = _pydantic()
    summary, described = docstring_parts(function)
    signature = inspect.signature(function)
    try:
        hints = _type_hints(function)
    except Exception as error:  # an annotation that names what cannot be imported here
        raise InvalidToolError(f"cannot read the annotations of {function.__qualname__}: {error}") from None
    fields: dict[str, Any] = {}
    open_object = False
    for key, parameter in signature.parameters.items():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            open_object = True
            continue
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.POSITIONAL_ONLY):
            raise InvalidToolError(
                f"{function.__qualname__}: parameter {key!r} cannot take an argument by keyword, "
                "as a tool's handler must"
            )
        annotation = hints.get(key, Any)
        if key in described:
            annotation = Annotated[annotation, pydantic.Field(description=described[key])]
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        fields[key] = (annotation, default)
    config = pydantic.ConfigDict(extra="allow" if open_object else "forbid")
    try:
        model = pydantic.create_model(_model_name(function), __config__=config, **fields)
        schema = model_schema(model)
    except Exception as error:  # pydantic's own errors, pydantic_core's SchemaError, a TypeError …
        said = " ".join(str(error).split())
        raise InvalidToolError(
            f"pydantic cannot write a schema for {function.__qualname__}: {said}"
        ) from None
    schema.pop("title", None)
    output, adapter = None, None
    returned = hints.get("return", inspect.Signature.empty)
    if returned is not inspect.Signature.empty:
        try:
            adapter = pydantic.TypeAdapter(returned)
        except Exception as error:  # a return type pydantic cannot read: it could not write the result
            said = " ".join(str(error).split())
            raise InvalidToolError(
                f"pydantic cannot read the return type of {function.__qualname__}: {said}"
            ) from None
        output = _output_schema(adapter) if returned not in (None, type(None), Any) else None

    def handler(**arguments: Any) -> Any:
        # The arguments passed toolreg's check of this very schema: pydantic builds the values, and
        # refuses what its types refuse beyond the schema, before the function runs.
        built = _built(pydantic, name, model, arguments)
        given = {field: getattr(built, field) for field in fields if field in arguments}
        extra = built.model_extra or {}
        result = function(**given, **extra)
        return adapter.dump_python(result, mode="json") if adapter is not None else result

    handler.__name__ = getattr(function, "__name__", "handler")
    handler.__doc__ = function.__doc__
    return schema, output, summary, handler


def _output_schema(adapter: Any) -> dict[str, Any] | None:
    """The schema of a return type when it is an object (MCP's outputSchema is one), else None."""
    try:
        written = adapter.json_schema(mode="serialization")
    except Exception:  # a type pydantic can dump but not describe: no output schema, then
        return None
    is_object = isinstance(written, dict) and (written.get("type") == "object" or "$ref" in written)
    return written if is_object else None


def _type_hints(function: Callable[..., Any]) -> dict[str, Any]:
    return typing.get_type_hints(function, include_extras=True)


def _model_name(function: Callable[..., Any]) -> str:
    name = re.sub(r"\W", "_", getattr(function, "__name__", "tool"))
    return f"{name}_arguments"
