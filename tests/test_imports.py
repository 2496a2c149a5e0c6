"""What ``import toolreg`` brings in: the validator, and each other public name at its first use."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import toolreg
from toolreg._jsonschema import formats

# Modules that validating does not need, and that `import toolreg` and a validation leave unimported
# (docs/speed.md says so): the event loop and thread pools of the calling layer, the providers, the
# catalog lifecycle tools, the registry, pydantic and the MCP SDK, the code generator.
NOT_IMPORTED = (
    "asyncio",
    "concurrent.futures",
    "toolreg._calls",
    "toolreg._providers",
    "toolreg._lifecycle",
    "toolreg._registry",
    "toolreg._toolregistry",
    "toolreg._cli",
    "toolreg.mcp",
    "pydantic",
    "mcp",
    "toolreg._jsonschema.codegen",
)

_CHILD = """
import json, sys
import toolreg
imported = sorted(sys.modules)
errors = toolreg.validate({"type": "object", "required": ["when"]}, {})
bad_date = toolreg.compile({"properties": {"when": {"format": "date"}}}, assert_formats=True).validate(
    {"when": "2024-02-30"}
)
validated = sorted(sys.modules)
registry = toolreg.ToolRegistry()
registry.register("echo", {"type": "object", "additionalProperties": False}, lambda: "done")
called = registry.call("echo", {}).output
keywords = [[error.keyword for error in errors], [error.keyword for error in bad_date]]
print(json.dumps([imported, validated, *keywords, sorted(sys.modules), called]))
"""


def test_import_toolreg_a_validation_and_a_sync_call_leave_the_rest_unimported():
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True)
    imported, after_validating, keywords, formats_found, after_calling, called = json.loads(done.stdout)
    assert "toolreg._jsonschema.validator" in imported
    for modules in (imported, after_validating):
        present = [name for name in NOT_IMPORTED if name in modules]
        assert present == []
    assert keywords == ["required"] and formats_found == ["format"]
    # A registry called from sync code has no use for the event loop, nor for pydantic or the MCP SDK.
    assert "toolreg._calls" in after_calling and called == "done"
    assert [
        name for name in ("asyncio", "concurrent.futures", "pydantic", "mcp") if name in after_calling
    ] == []


def test_every_public_name_resolves_and_is_listed():
    for name in toolreg.__all__:
        value = getattr(toolreg, name)
        assert value is not None and getattr(value, "__name__", name) == name
    assert set(toolreg.__all__) <= set(dir(toolreg))
    namespace: dict[str, object] = {}
    exec("from toolreg import *", namespace)
    assert set(toolreg.__all__) <= set(namespace)


def test_a_lazy_name_is_its_module_s_own_object():
    from toolreg._lifecycle.diff import diff
    from toolreg._toolregistry import ToolRegistry

    assert toolreg.ToolRegistry is ToolRegistry and toolreg.diff is diff
    assert "ToolRegistry" in vars(toolreg)  # kept: a second read is a plain attribute


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="module 'toolreg' has no attribute 'ToolRegistery'"):
        toolreg.ToolRegistery  # noqa: B018
    assert not hasattr(toolreg, "_LAZY_NOT_THERE")


def test_type_checkers_see_every_lazy_name():
    # The names imported under TYPE_CHECKING are exactly the lazy ones, from the same modules.
    tree = ast.parse(Path(toolreg.__file__).read_text(encoding="utf-8"))
    block = next(
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    typed = {alias.name: node.module for node in block.body for alias in node.names}
    assert typed == toolreg._LAZY


def test_a_format_pattern_is_compiled_at_its_first_match_and_kept():
    # Each stand-in is replaced where it stood, so later matches reach the compiled pattern.
    for name, text in (("uuid", "12345678-1234-1234-1234-123456789abc"), ("iri", "https://ex.com/ü?q#f")):
        assert formats.FORMATS[name](text)
    assert isinstance(formats._UUID, re.Pattern)
    assert all(isinstance(formats._PARTS[True][part], re.Pattern) for part in ("path", "query", "fragment"))
    assert not formats.FORMATS["uuid"]("12345678-1234-1234-1234-123456789abz")
