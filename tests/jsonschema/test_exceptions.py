"""The core's exceptions: one module holds them, under one root, each a ValueError too."""

import ast

import pytest

import toolreg
from tests.paths import ROOT
from toolreg._jsonschema import errors, exceptions

CORE = ROOT / "toolreg" / "_jsonschema"
PUBLIC = ("ToolregError", "SchemaError", "LimitsError", "OutputFormatError")


@pytest.mark.parametrize("name", PUBLIC)
def test_each_public_exception_is_defined_in_exceptions_and_is_toolreg_s_own(name):
    kind = getattr(exceptions, name)
    assert kind.__module__ == "toolreg._jsonschema.exceptions"
    assert getattr(toolreg, name) is kind
    # Still the same class where the layers above the core name it from errors.
    assert getattr(errors, name) is kind


def test_one_root_and_each_other_a_value_error():
    assert exceptions.ToolregError.__bases__ == (Exception,)
    for name in PUBLIC[1:]:
        assert getattr(exceptions, name).__bases__ == (exceptions.ToolregError, ValueError)
    assert sorted(exceptions.__all__) == sorted(PUBLIC)


def test_the_exceptions_module_imports_nothing():
    tree = ast.parse((CORE / "exceptions.py").read_text(encoding="utf-8"))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom | ast.Import)]
    assert imported == ["__future__"]


def test_errors_holds_values_and_no_exception_class():
    defined = [value for name, value in vars(errors).items() if isinstance(value, type)]
    own = [kind for kind in defined if kind.__module__ == errors.__name__]
    assert own and not [kind for kind in own if issubclass(kind, BaseException)]


def core_modules():
    # Not the pattern engine's: a library of its own beside the core, whose imports it answers for.
    return sorted(path for path in CORE.rglob("*.py") if "regex" not in path.relative_to(CORE).parts)


@pytest.mark.parametrize("module", core_modules(), ids=lambda path: str(path.relative_to(CORE)))
def test_the_core_imports_its_exceptions_from_exceptions(module):
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None and node.module.endswith("errors"):
            named = {alias.name for alias in node.names}
            assert not named & set(PUBLIC) or module.name == "errors.py", (module, named & set(PUBLIC))
