"""What ``import toolreg`` brings in: the validator, and each other public name at its first use."""

import ast
import copy
import json
import os
import pickle
import re
import subprocess
import sys
from inspect import signature
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
    "toolreg._jsonschema.fast.codegen",
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


# Modules `import toolreg` leaves for later: dataclasses (with the inspect it imports), difflib (the
# "did you mean" of a refused schema), fractions and decimal (exact multipleOf), json (the words of an
# error quoting a value), urllib.parse and ipaddress (relative URIs, the ip formats), unicodedata
# (idn-hostname), and the pattern engines' libraries, loaded with the first pattern (RE2's load was a
# quarter of the import). Each cost the import a millisecond or more.
DEFERRED = (
    "re2",
    "regress",
    "dataclasses",
    "inspect",
    "difflib",
    "fractions",
    "decimal",
    "json",
    "urllib.parse",
    "ipaddress",
    "unicodedata",
    "asyncio",
)

_IMPORT_ALONE = """
import sys
before = set(sys.modules)
import toolreg
print(" ".join(sorted(before)))
print(" ".join(sorted(set(sys.modules) - before)))
"""


def test_import_toolreg_leaves_the_deferred_standard_modules_unimported():
    # Coverage started in the child (COVERAGE_PROCESS_START) would import some of them itself.
    env = {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE_")}
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALONE], capture_output=True, text=True, check=True, env=env
    )
    at_start, imported = (line.split() for line in done.stdout.splitlines())
    # The interpreter's start imported none of them, so their absence below is toolreg's doing.
    assert [name for name in DEFERRED if name in at_start] == []
    assert "toolreg._jsonschema.validator" in imported
    assert [name for name in DEFERRED if name in imported] == []


_WITHOUT_PATTERN_LIBRARIES = """
import sys
sys.modules["re2"] = sys.modules["regress"] = None  # as where neither can be imported: a broken install
import toolreg
print(toolreg.validate({"type": "string"}, 1)[0].keyword)
for pattern in ("^a", "(?<=a)b"):  # the second is for the backtracking engine, which RE2 never sees
    try:
        toolreg.compile({"pattern": pattern}, limits=toolreg.Limits(allow_backtracking_patterns=True))
    except ImportError as error:
        print(error)
"""


def test_a_pattern_without_its_engine_s_library_says_which_is_missing():
    # The pattern engines load their libraries at the first pattern that needs each, so that is where
    # a broken install shows.
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_PATTERN_LIBRARIES], capture_output=True, text=True, check=True
    )
    keyword, without_re2, without_regress = done.stdout.splitlines()
    assert keyword == "type"
    assert without_re2.startswith("toolreg's patterns need google-re2 (pip install google-re2): ")
    assert without_regress.startswith("toolreg's backtracking patterns need regress (pip install regress): ")


def test_limits_behaves_as_the_frozen_dataclass_it_was():
    limits = toolreg.Limits(max_depth=3)
    assert limits == toolreg.Limits(3) != toolreg.Limits()
    assert hash(limits) == hash(toolreg.Limits(3)) and len({limits, toolreg.Limits(3)}) == 1
    assert limits != (3, 128, 10_000, False, 10_000, 600_000, 10_000_000)
    assert repr(limits) == (
        "Limits(max_depth=3, max_schema_depth=128, max_schema_size=10000, allow_backtracking_patterns=False, "
        "max_work=10000, max_pattern_program=600000, max_output_bytes=10000000)"
    )
    with pytest.raises(AttributeError, match="cannot assign to field 'max_depth'"):
        limits.max_depth = 4
    with pytest.raises(AttributeError, match="cannot delete field 'max_work'"):
        del limits.max_work
    with pytest.raises(AttributeError):
        limits.other = 1
    assert pickle.loads(pickle.dumps(limits)) == limits and copy.deepcopy(limits) == limits
    assert limits.__replace__(max_work=5) == toolreg.Limits(max_depth=3, max_work=5)
    with pytest.raises(TypeError):
        limits.__replace__(max_dept=5)
    match limits:
        case toolreg.Limits(depth, schema_depth, max_work=work):
            assert (depth, schema_depth, work) == (3, 128, 10_000)
    defaults = {name: parameter.default for name, parameter in signature(toolreg.Limits).parameters.items()}
    assert defaults == {
        "max_depth": 128,
        "max_schema_depth": 128,
        "max_schema_size": 10_000,
        "allow_backtracking_patterns": False,
        "max_work": 10_000,
        "max_pattern_program": 600_000,
        "max_output_bytes": 10_000_000,
    }
    with pytest.raises(toolreg.LimitsError, match="max_work must be a positive int"):
        toolreg.Limits(max_work=0)
