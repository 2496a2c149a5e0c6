"""Handlers held against their schemas at registration, with the standard library alone."""

import functools
from typing import Any

import pytest

import toolreg

SCHEMA = {
    "type": "object",
    "properties": {"numerator": {"type": "number"}, "denominator": {"type": "number", "default": 1}},
    "required": ["numerator"],
    "additionalProperties": False,
}


def refusal(handler, schema=SCHEMA):
    with pytest.raises(toolreg.InvalidToolError) as caught:
        toolreg.ToolRegistry().register("math.div", schema, handler)
    return str(caught.value)


def test_a_handler_that_fits_registers():
    def div(numerator, denominator=1):
        return numerator / denominator

    def keywords_only(*, numerator, denominator=1.0):
        return numerator / denominator

    def anything(**arguments):
        return arguments

    for handler in (div, keywords_only, anything, functools.partial(div, denominator=1)):
        toolreg.ToolRegistry().register("math.div", SCHEMA, handler)


def test_a_required_property_no_parameter_takes_is_refused_naming_both_sides():
    def div(a, b=1):
        return a / b

    message = refusal(div)
    assert "the schema requires 'numerator', but the handler has no parameter 'numerator'" in message
    assert "the handler's parameter 'a' has no default, but the schema does not name it" in message
    assert "the schema allows 'denominator', but the handler has no parameter 'denominator'" in message


def test_a_parameter_without_a_default_must_be_required():
    def div(numerator, denominator):
        return numerator / denominator

    assert "parameter 'denominator' has no default, but the schema names it as optional" in refusal(div)


def test_defaults_that_disagree_are_reported():
    def div(numerator, denominator=2):
        return numerator / denominator

    assert "the schema's default for 'denominator' is 1, the handler's is 2" in refusal(div)

    def same(numerator, denominator=1.0):  # 1 and 1.0 are the same JSON number
        return numerator / denominator

    toolreg.ToolRegistry().register("math.div", SCHEMA, same)


def test_a_positional_only_parameter_cannot_take_an_argument_by_keyword():
    def div(numerator, /, denominator=1):
        return numerator / denominator

    assert "parameter 'numerator' is positional-only" in refusal(div)


def test_a_handler_python_cannot_read_is_taken_as_it_is():
    toolreg.ToolRegistry().register("t", {"type": "object", "properties": {"a": {}}}, dict)


def test_nothing_is_registered_when_the_handler_is_refused():
    tools = toolreg.ToolRegistry()
    with pytest.raises(toolreg.InvalidToolError):
        tools.register("math.div", SCHEMA, lambda x: x)
    assert "math.div" not in tools and tools.names() == []


def _shapes():
    def a(x, y=1, *args, z, w=2, **kwargs): ...
    def b(x, /, y, z=3): ...
    def c(x=1, /, *, y): ...
    def d(): ...
    async def e(path, limit=None): ...
    def k(**arguments): ...  # an imported tool's, read without its names
    def v(*args): ...

    return [a, b, c, d, e, k, v, lambda q, r=None: None]


@pytest.mark.parametrize("function", _shapes(), ids=lambda f: f.__name__)
def test_a_function_is_read_from_its_code_as_inspect_reads_it(function):
    from toolreg._signatures import _parameters

    @functools.wraps(function)
    def wrapped(*args, **kwargs):  # __wrapped__ sends the reading through inspect.signature
        return function(*args, **kwargs)

    assert _parameters(function) == _parameters(wrapped)


def test_a_dict_subclass_as_a_function_s_dict_cannot_hide_its_wrapped():
    from toolreg._signatures import _parameters

    class Hiding(dict[str, Any]):
        def __contains__(self, key: object) -> bool:
            return False

    def inner(x, y): ...
    def outer(**arguments): ...

    outer.__dict__ = Hiding(__wrapped__=inner)
    assert _parameters(outer) == _parameters(inner)  # read through inspect, which unwraps it


def test_an_open_object_needs_a_handler_that_takes_what_it_does_not_name():
    open_schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}

    def read(path):
        return path

    message = refusal(read, open_schema)
    assert "allows properties it does not name" in message and "**kwargs" in message

    def read_more(path, **rest):
        return path

    toolreg.ToolRegistry().register("fs.read", open_schema, read_more)
    toolreg.ToolRegistry().register("fs.read", {**open_schema, "additionalProperties": False}, read)
    # A tool without arguments says so by closing its object, or takes **kwargs.
    toolreg.ToolRegistry().register("clock.now", {"type": "object", "additionalProperties": False}, lambda: 0)
    assert "does not name" in refusal(lambda: 0, {"type": "object"})


def test_properties_named_by_pattern_need_kwargs_too():
    schema = {"type": "object", "patternProperties": {"^x-": {}}, "additionalProperties": False}
    assert "does not name" in refusal(lambda: 0, schema)
    toolreg.ToolRegistry().register("t.x", schema, lambda **headers: headers)
