"""The registry's rules: names, duplicates, arguments, snapshots, validation by name."""

import gc
import json
import sys
import threading
import weakref
from typing import Any

import pytest

import toolreg
from tests import accept_any
from toolreg._feedback import UNPRINTABLE
from toolreg._registry import LINE_BREAK, Registry
from toolreg._sharing import WeakValues

SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def handler(**kwargs):
    raise AssertionError("validation must never call the handler")


@pytest.fixture
def registry():
    return toolreg.ToolRegistry()


@pytest.mark.parametrize("name", ["fs", "fs.read_file", "web.fetch.v2", "a_1.b2", "_0", "a" * 64])
def test_good_names(registry, name):
    registry.register(name, SCHEMA, handler)
    assert name in registry


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "empty"),
        ("Fs.read", "'F'"),
        ("fs-read", "'-'"),
        ("fs read", "' '"),
        ("fs..read", "empty segment"),
        (".fs", "empty segment"),
        ("fs.", "empty segment"),
        ("fs.réad", "'é'"),
        (3, "string"),
        ("0", "gemini"),  # a provider's rule, caught at registration rather than at every export
        ("2fa.verify", "a letter or _ first"),
        ("a" * 65, "openai"),
    ],
)
def test_bad_names_say_what_is_wrong(registry, name, words):
    with pytest.raises(toolreg.InvalidToolNameError) as caught:
        registry.register(name, SCHEMA, handler)
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert len(registry) == 0


def test_duplicates_and_override_keep_order(registry):
    registry.register("a", SCHEMA, handler)
    registry.register("b", SCHEMA, handler)
    with pytest.raises(toolreg.DuplicateToolError) as caught:
        registry.register("a", {"type": "object"}, handler)
    assert caught.value.name == "a" and isinstance(caught.value, ValueError)
    assert registry.get("a").schema == SCHEMA
    replaced = registry.register("a", {"type": "object"}, accept_any, description="new", override=True)
    assert registry.names() == ["a", "b"]
    assert registry.get("a") is replaced
    assert replaced.handler is accept_any and replaced.description == "new"


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"handler": 3}, "handler"),
        ({"description": "two\nlines"}, "description"),
        ({"description": 5}, "description"),
        ({"idempotent": 1}, "idempotent"),
        ({"timeout_ms": 0}, "timeout_ms"),
        ({"timeout_ms": -5}, "timeout_ms"),
        ({"timeout_ms": 1.5}, "timeout_ms"),
        ({"timeout_ms": True}, "timeout_ms"),
    ],
)
def test_bad_arguments_are_named_and_change_nothing(registry, arguments, words):
    registry.register("keep", SCHEMA, handler)
    call = {"handler": handler, **arguments}
    with pytest.raises(toolreg.InvalidToolError) as caught:
        registry.register("t", SCHEMA, call.pop("handler"), **call)
    assert words in str(caught.value)
    assert registry.names() == ["keep"]


def test_bad_schema_changes_nothing_even_on_override(registry):
    registry.register("t", SCHEMA, handler)
    with pytest.raises(toolreg.SchemaError):
        registry.register("t", {"type": "object", "requried": []}, handler, override=True)
    assert registry.get("t").schema == SCHEMA
    assert registry.names() == ["t"]


@pytest.mark.parametrize("schema", [{"type": "string"}, {"type": ["array", "null"]}, False])
def test_top_level_type_must_admit_objects(registry, schema):
    with pytest.raises(toolreg.SchemaError):
        registry.register("t", schema, handler)
    assert "t" not in registry


def test_type_list_with_object_and_untyped_schemas_are_fine(registry):
    registry.register("a", {"type": ["object", "null"]}, handler)
    registry.register("b", {}, handler)
    registry.register("c", True, handler)
    assert len(registry) == 3


def test_schema_is_snapshotted(registry):
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    registry.register("t", schema, handler)
    schema["properties"]["n"]["type"] = "string"
    assert registry.get("t").schema["properties"]["n"]["type"] == "integer"
    assert registry.validate("t", {"n": 1}) == toolreg.Ok()


def test_record_fields(registry):
    async def async_handler(**arguments):
        return None

    record = registry.register("t", SCHEMA, async_handler, description="d", idempotent=True, timeout_ms=500)
    assert (record.name, record.description, record.handler, record.idempotent, record.timeout_ms) == (
        "t",
        "d",
        async_handler,
        True,
        500,
    )
    with pytest.raises(AttributeError):
        record.name = "u"  # type: ignore[misc]


def test_validate_by_name(registry):
    registry.register("fs.read_file", SCHEMA, handler)
    result = registry.validate("fs.read_file", {"path": "/etc/hosts"})
    assert isinstance(result, toolreg.Ok) and not result and len(result) == 0 and list(result) == []
    assert result == [] and result == toolreg.Ok() and repr(result) == "Ok()"
    assert registry.is_valid("fs.read_file", {"path": "/etc/hosts"})
    assert registry.check("fs.read_file", {"path": "/etc/hosts"}) is None
    errors = registry.validate("fs.read_file", {"path": 1})
    assert [(e.path, e.keyword) for e in errors] == [("/path", "type")]
    errors = registry.validate("fs.read_file", {})
    assert [e.to_dict()["missing"] for e in errors] == ["path"]


def test_unknown_names(registry):
    with pytest.raises(toolreg.UnknownToolError) as caught:
        registry.get("nope")
    assert isinstance(caught.value, LookupError)
    with pytest.raises(toolreg.UnknownToolError):
        registry.validate("nope", {})
    assert "nope" not in registry and len(registry) == 0


def test_public_api():
    assert set(toolreg.__all__) == {
        "ToolRegistry", "ToolRecord", "Ok", "ValidationError", "Validator", "validate", "compile",
        "check_schema", "Limits", "format_errors", "FormattedErrors", "import_mcp", "import_openapi",
        "ImportReport",
        "normalize_bfcl", "repair", "Repair", "replay", "ReplayReport", "diff", "CatalogDiff", "ToolDiff",
        "SchemaDiff", "Finding", "TextChange", "CatalogError", "DiffError",
        "ToolregError", "SchemaError", "DuplicateToolError", "InvalidToolNameError", "ExportError",
        "InvalidToolError", "UnknownToolError", "UnknownProviderError", "InvalidArgumentsError",
        "LimitsError", "CallResult", "RetryPolicy", "ToolError", "TransientError", "InvalidCallError",
        "OutputFormatError",
    }  # fmt: skip
    for name in toolreg.__all__:
        assert getattr(toolreg, name) is not None
    for error in (toolreg.SchemaError, toolreg.DuplicateToolError, toolreg.UnknownToolError):
        assert issubclass(error, toolreg.ToolregError)
    assert issubclass(toolreg.TransientError, toolreg.ToolregError) and issubclass(
        toolreg.TransientError, RuntimeError
    )
    assert issubclass(toolreg.InvalidCallError, toolreg.ToolregError) and issubclass(
        toolreg.InvalidCallError, ValueError
    )
    assert issubclass(toolreg.OutputFormatError, toolreg.ToolregError) and issubclass(
        toolreg.OutputFormatError, ValueError
    )


def test_tools_with_the_same_schema_share_one_compiled_validator():
    registry = toolreg.ToolRegistry()
    shape = {"type": "object", "properties": {"n": {"maximum": 1}}}
    first = registry.register("a", shape, accept_any)
    second = registry.register("b", {"type": "object", "properties": {"n": {"maximum": 1}}}, accept_any)
    assert first.validator is second.validator
    # Read from JSON text, its strings are not the interned ones of the literals: the same schema.
    third = registry.register("d", json.loads(json.dumps(shape)), accept_any)
    assert third.validator is first.validator
    # Equal as JSON is not enough: 1.0 and true are written differently, and key order orders errors.
    for number, other in enumerate(
        (
            {"type": "object", "properties": {"n": {"maximum": 1.0}}},
            {"type": "object", "properties": {"n": {"maximum": True}}},
            {"properties": {"n": {"maximum": 1}}, "type": "object"},
        )
    ):
        try:
            record = registry.register(f"c{number}", other, accept_any)
        except toolreg.SchemaError:
            continue  # true is no number
        assert record.validator is not first.validator
    assert registry.validate("b", {"n": 2})[0].message == "must be at most 1, is 2"
    assert registry.validate("c0", {"n": 2})[0].message == "must be at most 1.0, is 2"


def test_a_shared_validator_goes_with_its_last_tool_and_its_key_with_it():
    def schema(number: int = 1) -> dict[str, Any]:
        return {"type": "object", "properties": {"n": {"maximum": number}}}

    registry = toolreg.ToolRegistry()
    gone = weakref.ref(registry.register("a", schema(), accept_any).validator)
    registry.register("b", schema(), accept_any)
    gc.disable()
    try:
        registry.unregister("a")
        assert gone() is not None  # "b" holds it still
        registry.unregister("b")
        assert gone() is None  # at once, not by the cycle collector
        assert registry._shared._references == {}
        # Registered again, the schema gets a validator of its own, which the next tool finds.
        again = registry.register("c", schema(), accept_any)
        assert registry.register("d", schema(), accept_any).validator is again.validator
        # A tool replaced 2,000 times, each with a schema of its own: each old key goes with its tool.
        for number in range(2_000):
            registry.register("e", schema(number + 2), accept_any, override=True)
        assert len(registry._shared._references) == 2  # c's and d's, and e's
        del again
        for name in ("c", "d", "e"):
            registry.unregister(name)
        assert registry._shared._references == {}
        # The map holding a value goes at once when let go: its references' callback holds it weakly.
        values: WeakValues[Any] = WeakValues()
        kept = toolreg.compile({"type": "integer"})
        assert values.setdefault(b"key", kept) is kept and values.get(b"key") is kept
        held = weakref.ref(values)
        del values
        assert held() is None
    finally:
        gc.enable()


def test_validate_takes_nulls_as_absent_by_position_too_and_only_as_a_bool():
    tools = toolreg.ToolRegistry()
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": False}
    tools.register("t", schema, accept_any)
    assert (
        tools.validate("t", {"n": None}, True) == tools.validate("t", {"n": None}, nulls_as_absent=True) == []
    )
    assert [error.keyword for error in tools.validate("t", {"n": None}, False)] == ["type"]
    with pytest.raises(toolreg.InvalidCallError, match="nulls_as_absent must be True or False, not str"):
        tools.validate("t", {"n": None}, "openai")


def test_a_schema_whose_number_has_no_json_text_in_python_is_registered_and_compiled_later():
    # Past Python's limit on the digits of an int's text: its key is still made, and compiling finds
    # what to index without the text.
    registry = toolreg.ToolRegistry()
    schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 10**5000}}}
    record = registry.register("huge", schema, accept_any)
    assert registry.validate("huge", {"n": 5}) == []
    assert [error.keyword for error in registry.validate("huge", {"n": "x"})] == ["type"]
    assert record.validator._compiled is not None


def test_documents_are_read_as_the_registry_was_given_them():
    shared = {"$defs": {"id": {"type": "integer"}}}
    registry = toolreg.ToolRegistry(documents={"https://example.com/defs.json": shared})
    schema = {"type": "object", "properties": {"id": {"$ref": "https://example.com/defs.json#/$defs/id"}}}
    registry.register("a", schema, accept_any)
    shared["$defs"]["id"]["type"] = "string"
    registry.register("b", dict(schema), accept_any)
    assert registry.is_valid("a", {"id": 1}) and registry.is_valid("b", {"id": 1})
    assert (
        registry.validate("b", {"id": "1"})[0].schema_path == "https://example.com/defs.json#/$defs/id/type"
    )
    with pytest.raises(toolreg.SchemaError):
        toolreg.ToolRegistry(documents={"x.json": {"type": float("nan")}})


def test_a_registry_can_generate_the_fast_paths_now(monkeypatch):
    registry = toolreg.ToolRegistry()
    registry.register("a", {"type": "object", "properties": {"n": {"type": "integer"}}}, accept_any)
    validator = registry.get("a").validator
    assert validator._fast is None  # nothing generated at registration
    registry.prepare()
    assert validator._fast is not None and "def validate" in validator.source
    assert toolreg.compile({"type": "string"}).prepare()._fast is not None
    with pytest.raises(toolreg.UnknownToolError):
        registry.prepare(["nope"])
    with pytest.raises(toolreg.InvalidToolError):
        registry.prepare("a")


def test_a_tool_called_a_few_times_never_generates_code(monkeypatch):
    from tests.conftest import WALKED_VALUES

    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", WALKED_VALUES)
    registry = toolreg.ToolRegistry()
    registry.register("a", {"type": "object", "properties": {"n": {"type": "integer"}}}, accept_any)
    validator = registry.get("a").validator
    # Each call holds two values (the object and n): the walk answers until they add up.
    for _ in range(WALKED_VALUES // 2):
        assert registry.validate("a", {"n": "1"})[0].keyword == "type"
    assert validator._fast is None  # answered by the reference walk so far
    assert registry.validate("a", {"n": 1}) == [] and validator._fast is not None
    # A large call is walked once at most before the code is generated.
    large = toolreg.compile({"type": "array", "items": {"type": "integer"}})
    assert large.validate(list(range(1000))) == [] and large._fast is None
    assert large.validate(list(range(1000))) == [] and large._fast is not None


def test_every_change_bumps_the_version_and_reaches_each_subscriber():
    registry = toolreg.ToolRegistry()
    heard, seen_names = [], []

    def listener(version):
        heard.append(version)
        seen_names.append(registry.names())  # the change is whole, and the lock free, when it is heard

    stop = registry.subscribe(listener)
    assert registry.version == 0
    registry.register("fs.read", SCHEMA, handler)
    registry.register("fs.read", SCHEMA, handler, override=True)
    with pytest.raises(toolreg.DuplicateToolError):
        registry.register("fs.read", SCHEMA, handler)  # refused: no change, no word of one
    report = toolreg.import_mcp(registry, [{"name": "a"}, {"name": "b"}], lambda tool: handler)
    registry.unregister("a")
    assert report.ok and heard == [1, 2, 3, 4, 5] and registry.version == 5
    assert seen_names[-1] == ["fs.read", "b"]
    stop()
    stop()  # twice is harmless
    registry.unregister("b")
    assert heard == [1, 2, 3, 4, 5] and registry.version == 6


def test_a_subscriber_that_raises_or_writes_changes_nothing_it_should_not(monkeypatch):
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    registry = toolreg.ToolRegistry()
    registry.subscribe(lambda version: 1 / 0)
    writes = []

    def writer(version):
        if "fs.log" not in registry:  # a subscriber may itself change the registry: the lock is free
            writes.append(version)
            registry.register("fs.log", SCHEMA, handler)

    registry.subscribe(writer)
    registry.register("fs.read", SCHEMA, handler)
    assert registry.names() == ["fs.read", "fs.log"] and writes == [1] and registry.version == 2
    # The ZeroDivisionError went where Python sends errors no one can catch, once for each change.
    assert [type(report.exc_value) for report in unraisable] == [ZeroDivisionError, ZeroDivisionError]
    with pytest.raises(toolreg.InvalidToolError, match="callable"):
        registry.subscribe("not a function")


def test_version_counts_every_change_made_from_many_threads():
    registry = toolreg.ToolRegistry()
    heard = []
    registry.subscribe(heard.append)

    def register_many(thread):
        for index in range(50):
            registry.register(f"t{thread}.n{index}", SCHEMA, handler)

    threads = [threading.Thread(target=register_many, args=(thread,)) for thread in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert registry.version == 200 and sorted(heard) == list(range(1, 201))


def test_every_character_refused_in_a_description_is_one_python_finds_unprintable() -> None:
    # A printable description is taken in one test of str.isprintable, so that must hold of each.
    refused = [
        chr(point)
        for point in range(sys.maxunicode + 1)
        if LINE_BREAK.match(chr(point)) or UNPRINTABLE.match(chr(point))
    ]
    assert len(refused) > 200
    assert not any(character.isprintable() for character in refused)
    registry = toolreg.ToolRegistry()
    for character in refused[::7]:
        with pytest.raises(toolreg.InvalidToolError, match="description"):
            registry.register("t", {}, accept_any, description=f"a{character}b")


class _Shown(str):
    """A string that would show other text wherever it is formatted or printed."""

    def __format__(self, spec: str) -> str:
        return "\x1b]0;title\x07\u202e\nIGNORE"

    __str__ = __repr__ = lambda self: "\x1b[2J"  # type: ignore[assignment]

    def split(self, *args: Any, **kwargs: Any) -> Any:
        return ["fine"]


def test_a_record_keeps_its_name_and_texts_as_exact_strings() -> None:
    registry = toolreg.ToolRegistry()
    record = registry.register(
        _Shown("t.x"),
        {"type": "object"},
        accept_any,
        description=_Shown("ok"),
        details=_Shown("more"),
        title=_Shown("T"),
    )
    assert [type(text) for text in (record.name, record.description, record.details, record.title)] == [
        str
    ] * 4
    assert record.full_description == "ok\nmore"
    assert registry.export("anthropic")[0]["description"] == "ok\nmore"
    # The name is read as its characters are, not by the subclass's own split.
    with pytest.raises(toolreg.InvalidToolNameError):
        registry.register(_Shown("Not Fine"), {"type": "object"}, accept_any)


@pytest.mark.parametrize("registry", [toolreg.ToolRegistry, Registry])
def test_each_call_finds_the_validate_standing_now(registry, monkeypatch):
    # A validator's validate becomes generated code once it has walked enough values (see
    # Validator). Until then the registry asks the validator at each call, never a method it kept;
    # from then on it calls the generated front itself. (Two threads generating the code at once may
    # each install a front, the entry keeping one; both give the same answers.)
    from tests.conftest import WALKED_VALUES

    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", WALKED_VALUES)
    tools = registry()
    record = tools.register("t", {"type": "object", "properties": {"n": {"type": "integer"}}}, accept_any)
    calls = []
    validate = record.validator.validate
    vars(record.validator)["validate"] = lambda args: calls.append(args) or validate(args)
    assert tools.validate("t", {"n": 1}) == [] and calls == [{"n": 1}]  # asked, not kept from before
    del vars(record.validator)["validate"]
    for _ in range(WALKED_VALUES):
        tools.validate("t", {"n": 1})
    front = vars(record.validator)["validate"]
    assert tools._entry("t").check is front
    assert tools.validate("t", {"n": 1}) == []
    assert [error.path for error in tools.validate("t", {"n": "x"})] == ["/n"]


@pytest.mark.parametrize("how", ["unregister", "override"])
def test_a_tool_taken_away_is_freed_at_once_not_by_the_cycle_collector(how, monkeypatch):
    # Before its validator has generated its code (the default policy walks first), an entry's check
    # asks the validator through a weak reference to the entry: no loop of references keeps the
    # tool's handler (and whatever it holds) alive until the cyclic collector runs.
    from tests.conftest import WALKED_VALUES

    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", WALKED_VALUES)

    class Handler:
        def __call__(self, **arguments: Any) -> Any:
            return arguments

    tools = toolreg.ToolRegistry()
    handler = Handler()
    gone = weakref.ref(handler)
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tools.register("t", schema, handler)
    assert tools.validate("t", {"n": 1}) == []
    assert "validate" not in vars(tools.get("t").validator)  # not generated yet: the entry still asks
    gc.disable()
    try:
        del handler
        if how == "unregister":
            tools.unregister("t")
        else:
            tools.register("t", schema, Handler(), override=True)
        assert gone() is None
    finally:
        gc.enable()
