"""The settings of a compilation: one frozen value, made where a caller gives limits, documents and
whether formats are asserted."""

from inspect import signature

import pytest

import toolreg
from toolreg._jsonschema.limits import DEFAULT_LIMITS
from toolreg._jsonschema.schema import compile_schema, compile_with
from toolreg._jsonschema.settings import Settings

DOCUMENT = {"$id": "https://example.com/name.json", "type": "string"}
SCHEMA = {"properties": {"name": {"$ref": "https://example.com/name.json"}, "when": {"format": "date"}}}


def test_settings_are_frozen():
    settings = Settings(DEFAULT_LIMITS, None, True)
    for field in Settings.__slots__:
        with pytest.raises(AttributeError):
            setattr(settings, field, None)
        with pytest.raises(AttributeError):
            delattr(settings, field)
    with pytest.raises(AttributeError):
        settings.other = 1
    assert (settings.limits, settings.documents, settings.assert_formats) == (DEFAULT_LIMITS, None, True)
    assert settings == Settings(DEFAULT_LIMITS, None, True) != Settings(DEFAULT_LIMITS, None, False)


def test_given_reads_limits_as_the_public_entry_points_do():
    settings = Settings.given({"max_depth": 7}, {"urn:a": {}}, assert_formats=True)
    assert settings.limits == toolreg.Limits(max_depth=7)
    assert settings.documents == {"urn:a": {}} and settings.assert_formats is True
    assert Settings.given() == Settings()
    with pytest.raises(toolreg.LimitsError, match="no field 'max_dpeth'; did you mean 'max_depth'"):
        Settings.given({"max_dpeth": 7})


def test_the_triple_and_the_value_compile_alike():
    settings = Settings(toolreg.Limits(max_depth=3), {"https://example.com/name.json": DOCUMENT}, True)
    apart = compile_schema(SCHEMA, settings.limits, settings.documents, settings.assert_formats)
    together = compile_with(SCHEMA, settings)
    instance = {"name": 1, "when": "2024-02-30"}
    for compiled in (apart, together):
        found = []
        compiled.checks[""](instance, (), found)
        assert [error.keyword for error in found] == ["type", "format"]
        assert compiled.limits == settings.limits and compiled.asserts_formats


def test_documents_are_refused_after_the_schema_as_before():
    with pytest.raises(toolreg.SchemaError, match="a schema must be JSON"):
        compile_with({"const": {1, 2}}, Settings(documents=[1]))
    with pytest.raises(toolreg.SchemaError, match="documents must map URIs"):
        compile_with({}, Settings(documents={1: {}}))


@pytest.mark.parametrize(
    "entry", [toolreg.compile, toolreg.validate, toolreg.check_schema, toolreg.Validator]
)
def test_the_public_entry_points_take_the_three_settings_as_keywords(entry):
    parameters = signature(entry).parameters
    for name, default in (("limits", DEFAULT_LIMITS), ("documents", None), ("assert_formats", False)):
        assert parameters[name].kind is parameters[name].KEYWORD_ONLY
        assert parameters[name].default == default
