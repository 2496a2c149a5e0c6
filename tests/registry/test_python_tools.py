"""Tools written in Python: schemas from typed functions and pydantic models (the ``pydantic`` extra)."""

import dataclasses
import enum
import json
from typing import Annotated, Any, Literal

import pytest

import toolreg

pydantic = pytest.importorskip(
    "pydantic", reason="pydantic is not installed: pip install 'pytoolreg[pydantic]'"
)
from pydantic import BaseModel, Field  # noqa: E402
from typing_extensions import TypedDict  # noqa: E402  (pydantic needs it before Python 3.12)


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(BaseModel):
    x: int
    y: int = 0


@dataclasses.dataclass
class Box:
    width: float
    height: float


class Options(TypedDict):
    verbose: bool


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    barks: bool = True


# Each kind of annotation, a value it takes and one it refuses (never by coercion: "1" is no integer).
KINDS = {
    "plain": (int, 3, "3"),
    "constrained": (Annotated[int, Field(ge=1, le=10)], 10, 11),
    "literal": (Literal["a", "b"], "a", "c"),
    "enum": (Color, "red", "RED"),
    "optional": (int | None, None, "x"),
    "list": (list[str], ["a"], [1]),
    "dict": (dict[str, int], {"a": 1}, {"a": "1"}),
    "nested model": (Point, {"x": 1}, {"y": 1}),
    "dataclass": (Box, {"width": 1.5, "height": 2}, {"width": 1.5}),
    "typed dict": (Options, {"verbose": True}, {"verbose": "yes"}),
    "discriminated union": (
        Annotated[Cat | Dog, Field(discriminator="kind")],
        {"kind": "dog"},
        {"kind": "cow"},
    ),
}


def pydantic_schema(annotation: Any) -> dict[str, Any]:
    """What pydantic writes for one required parameter of this annotation, titles left out."""
    model = pydantic.create_model("arguments", value=(annotation, ...))
    return _without_titles(model.model_json_schema())


def _without_titles(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_titles(item) for key, item in value.items() if key != "title"}
    if isinstance(value, list):
        return [_without_titles(item) for item in value]
    return value


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_of_annotation_gets_the_schema_pydantic_writes(kind):
    annotation, good, bad = KINDS[kind]
    tools = toolreg.ToolRegistry()
    seen = []

    def handler(value):
        seen.append(value)
        return "done"

    handler.__annotations__ = {"value": annotation}
    tools.tool("t.check")(handler)
    schema = tools.get("t.check").schema
    expected = pydantic_schema(annotation)
    assert _without_titles(schema)["properties"] == expected["properties"]
    assert schema.get("$defs", {}).keys() == expected.get("$defs", {}).keys()
    assert schema["required"] == ["value"] and schema["additionalProperties"] is False
    assert tools.validate("t.check", {"value": good}) == []
    assert tools.validate("t.check", {"value": bad}) != []
    assert tools.call("t.check", {"value": good}).ok and len(seen) == 1


def test_a_decorated_function_round_trips():
    class Quotient(BaseModel):
        value: float
        exact: bool

    tools = toolreg.ToolRegistry()

    @tools.tool("math.div", idempotent=True)
    def div(
        numerator: float, denominator: Annotated[float, Field(gt=0)] = 1.0, point: Point | None = None
    ) -> Quotient:
        """Divide two numbers.

        The quotient, and whether it is exact.

        Args:
            numerator: The number to divide.
            denominator: What to divide by;
                never zero.
            point: Where to put it.
        """
        assert point is None or isinstance(point, Point)  # the handler gets the model, not a dict
        return Quotient(value=numerator / denominator, exact=numerator % denominator == 0)

    record = tools.get("math.div")
    assert div(6, 3).value == 2  # the decorator hands the function back as it was
    assert record.description == "Divide two numbers."
    properties = record.schema["properties"]
    assert properties["numerator"]["description"] == "The number to divide."
    assert properties["denominator"]["description"] == "What to divide by; never zero."
    assert properties["denominator"]["exclusiveMinimum"] == 0
    assert record.output_schema["required"] == ["value", "exact"]
    for provider in ("mcp", "openai", "anthropic", "gemini"):
        [exported] = tools.export(provider)
        assert json.dumps(exported)
    [mcp] = tools.export("mcp")
    assert mcp["inputSchema"] == record.schema and mcp["outputSchema"] == record.output_schema
    result = tools.call("math.div", {"numerator": 6, "denominator": 4, "point": {"x": 1}})
    assert result.ok and result.output == {"value": 1.5, "exact": False}
    assert tools.validate_output("math.div", result.output) == []
    refused = tools.call("math.div", {"numerator": "6", "denominator": 0})
    assert refused.step == "arguments"
    assert [error.path for error in refused.errors] == ["/numerator", "/denominator"]
    answer = tools.answer({"name": "math.div", "arguments": {"numerator": 1}})
    assert answer["structuredContent"] == {"value": 1.0, "exact": True}


def test_a_pydantic_model_is_a_schema_and_validates_without_coercion():
    class ReadFile(BaseModel):
        model_config = pydantic.ConfigDict(extra="forbid")
        path: str
        limit: int = 10

    tools = toolreg.ToolRegistry()
    tools.register("fs.read", ReadFile, lambda path, limit=10: f"{path}:{limit}")
    assert tools.get("fs.read").schema == ReadFile.model_json_schema()
    [error] = tools.validate("fs.read", {"path": "a", "limit": "42"})
    assert error.facts["hint"] == "unquote"  # pydantic itself would have taken "42" as 42
    assert tools.call("fs.read", {"path": "a"}).output == "a:10"


def test_a_handler_may_take_the_model_instance():
    class ReadFile(BaseModel):
        path: str
        limit: int = 10

    seen = []
    tools = toolreg.ToolRegistry()
    tools.register("fs.read", ReadFile, lambda request: seen.append(request) or "ok", as_model=True)
    assert tools.call("fs.read", {"path": "a"}).ok
    assert seen == [ReadFile(path="a", limit=10)]
    with pytest.raises(toolreg.InvalidToolError, match="needs a pydantic model"):
        tools.register("fs.other", {"type": "object"}, print, as_model=True)


def test_as_model_holds_the_handler_to_taking_the_instance():
    class ReadFile(BaseModel):
        path: str

    tools = toolreg.ToolRegistry()
    for handler in (lambda: "none", lambda request, mode: "two", lambda *, request: "keyword only"):
        with pytest.raises(toolreg.InvalidToolError, match="one argument, the model instance"):
            tools.register("fs.read", ReadFile, handler, as_model=True)
    with pytest.raises(toolreg.InvalidToolError, match="must be callable"):
        tools.register("fs.read", ReadFile, "not a function", as_model=True)
    assert len(tools) == 0
    tools.register("fs.read", ReadFile, lambda request, mode="r": "ok", as_model=True)  # a default is fine
    assert tools.call("fs.read", {"path": "a"}).output == "ok"


def test_what_the_function_types_refuse_is_an_arguments_error_with_its_pointer():
    import datetime
    import decimal
    import uuid

    seen = []
    tools = toolreg.ToolRegistry()

    @tools.tool("cal.book")
    def book(day: datetime.date, price: decimal.Decimal, ticket: uuid.UUID | None = None) -> str:
        """Book a day."""
        seen.append((day, price, ticket))
        return "booked"

    bad = {"day": "2024-02-30", "price": "1.2.3", "ticket": "not-a-uuid"}
    assert tools.validate("cal.book", bad) == []  # the schema only names the formats
    result = tools.call("cal.book", bad)
    assert (result.step, seen) == ("arguments", [])
    assert [error.path for error in result.errors] == ["/day", "/price", "/ticket"]
    assert result.message.startswith("The arguments for cal.book have 3 problems:\n- at /day: ")
    assert "\\u000a" not in result.message and "Fix these and call again" in result.message
    answer = tools.answer({"type": "tool_use", "id": "u", "name": "cal-book", "input": bad})
    assert answer["is_error"] is True and "The arguments for cal-book have 3 problems" in answer["content"]
    assert tools.call("cal.book", {"day": "2024-02-29", "price": "1.5"}).output == "booked"

    class Booking(BaseModel):
        day: datetime.date

    tools.register("cal.model", Booking, lambda booking: booking.day.isoformat(), as_model=True)
    assert tools.call("cal.model", {"day": "2024-13-01"}).errors[0].path == "/day"
    assert tools.call("cal.model", {"day": "2024-12-01"}).output == "2024-12-01"


def test_an_annotation_pydantic_cannot_build_is_refused_at_registration():
    tools = toolreg.ToolRegistry()
    with pytest.raises(toolreg.InvalidToolError, match="pydantic cannot write a schema for"):

        @tools.tool("text.find")
        def find(needle: Annotated[str, Field(pattern="[")]) -> str:
            return needle

    assert len(tools) == 0


def test_without_pydantic_the_message_says_how_to_get_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pydantic", None)  # `import pydantic` now fails, as when absent
    with pytest.raises(toolreg.InvalidToolError, match=r"pytoolreg\[pydantic\]"):
        toolreg.ToolRegistry().tool("t.x")(lambda a: a)
