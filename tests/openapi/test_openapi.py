"""toolreg.import_openapi: OpenAPI operations as checked tools, on the fixtures of tests/openapi/ (each
a pitfall or a failure measured elsewhere, named in its "x-source"), real documents (FastAPI's, and
RapidAPI's as the NESTFUL data set ships them), hostile documents, and the `toolreg openapi` command.

Every request goes to an httpx.MockTransport that records it: a call whose arguments break the
tool's schema must never reach it, and a valid one must reach it as the request the document
describes."""

import json
import re
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import httpx
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
from toolreg import InvalidArgumentsError, InvalidToolError, RetryPolicy, ToolError, ToolRegistry
from toolreg._cli import main
from toolreg._openapi import plan
from toolreg._openapi.operations import MAX_OPERATIONS
from toolreg._openapi.requests import Argument, OperationHandler, Route, build_request, httpx_module

FIXTURES = Path(__file__).parent
BASE = "https://api.example.com/v1"


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class Recorder:
    """A transport that records each request and answers it as ``answer`` says (200 and {} by default)."""

    def __init__(self, answer=None):
        self.sent = []
        self.answer = answer or (lambda request: httpx.Response(200, json={}))

    def __call__(self, request):
        self.sent.append(request)
        return self.answer(request)

    def client(self):
        return httpx.Client(transport=httpx.MockTransport(self))


def imported(spec, answer=None, tools=None, **options):
    """A registry holding the document's tools, the report, and the transport's record."""
    recorder = Recorder(answer)
    tools = tools if tools is not None else ToolRegistry(retry=RetryPolicy(attempts=2, backoff_ms=0))
    spec = load(spec) if isinstance(spec, str) else spec
    report = toolreg.import_openapi(tools, spec, base_url=BASE, client=recorder.client(), **options)
    return tools, report, recorder


def body(request):
    return json.loads(request.content) if request.content else None


def refusals(report):
    return {refusal.name: (refusal.reason, refusal.schema_path) for refusal in report.refused}


def test_every_fixture_names_where_it_comes_from():
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for path in sorted(FIXTURES.glob("**/*.json")):
        spec = json.loads(path.read_text(encoding="utf-8"))
        named = "x-source" in spec or path.name in readme or path.parent.name in readme
        assert named, f"{path.name} names no source"
    assert len(list(FIXTURES.glob("*.json"))) >= 13


# -- the anchors' failures -----------------------------------------------------------------------------


def test_calls_that_break_the_schema_never_reach_the_api():
    # FastMCP 4.2 forwarded each of these to the HTTP API.
    tools, report, recorder = imported("fastmcp_unchecked.json", lambda request: httpx.Response(200, json=[]))
    assert report.registered == {"listItems": "list_items", "createItem": "create_item"}
    for name, bad in [
        ("list_items", {"limit": 0}),
        ("list_items", {"limit": "x"}),
        ("create_item", {"name": 7}),
    ]:
        result = tools.call(name, bad)
        assert (result.ok, result.step) == (False, "arguments")
        answered = tools.answer(
            {"type": "tool_use", "id": "u", "name": name, "input": bad}, provider="anthropic"
        )
        assert answered["is_error"] is True
        with pytest.raises(InvalidArgumentsError):
            tools.get(name).handler(**bad)  # the handler checks again: calling it directly sends nothing
    assert recorder.sent == []
    assert tools.call("list_items", {"limit": 5}).ok
    recorder.answer = lambda request: httpx.Response(201, json={"id": 1})
    assert tools.call("create_item", {"name": "pen"}, nulls_as_absent=True).output == {"id": 1}
    [listed, created] = recorder.sent
    assert (listed.method, str(listed.url)) == ("GET", f"{BASE}/items?limit=5")
    assert (created.method, str(created.url), body(created)) == ("POST", f"{BASE}/items", {"name": "pen"})
    assert created.headers["content-type"] == "application/json"


def test_a_request_body_given_by_reference_is_kept():
    # toolregistry 0.19 dropped it.
    tools, _, recorder = imported("ref_request_body.json")
    schema = tools.get("create_order").schema
    assert schema["required"] == ["sku", "quantity"]
    assert schema["properties"]["sku"] == {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}
    assert not tools.is_valid("create_order", {"sku": "abc", "quantity": 1})
    assert not tools.is_valid("create_order", {"sku": "ABC-1234"})
    answer = {"sku": "ABC-1234", "quantity": 2}
    recorder.answer = lambda request: httpx.Response(201, json=answer)
    result = tools.call("create_order", answer)
    assert result.ok and result.output == answer
    assert body(recorder.sent[0]) == answer
    # The result is checked against the 201 response's schema, the same component under $defs.
    assert tools.get("create_order").output_schema["$ref"] == "#/$defs/Order"
    recorder.answer = lambda request: httpx.Response(201, json={"sku": 5})
    assert tools.call("create_order", answer).step == "output"


def test_a_parameter_given_by_reference_is_read():
    # toolregistry 0.19 crashed on it; the second reference leads through another.
    tools, report, recorder = imported("ref_parameter.json")
    assert report.ok
    schema = tools.get("list_users").schema
    assert schema["properties"] == {
        "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        "cursor": {"type": "string", "minLength": 8},
    }
    assert schema["required"] == ["limit"]
    assert not tools.is_valid("list_users", {"limit": 51})
    assert tools.call("list_users", {"limit": 10, "cursor": "abcdefgh"}).ok
    assert str(recorder.sent[0].url) == f"{BASE}/users?limit=10&cursor=abcdefgh"


def test_nested_references_keep_their_schemas():
    # toolregistry 0.19 turned them into "string".
    tools, _, recorder = imported("nested_ref.json")
    schema = tools.get("draw_shape").schema
    assert schema["properties"]["origin"] == {"$ref": "#/$defs/Point"}
    assert schema["properties"]["points"]["items"] == {"$ref": "#/$defs/Point"}
    assert schema["$defs"]["Size"] == {"$ref": "#/$defs/Count"}
    assert schema["$defs"]["Count"] == {"type": "integer", "minimum": 1, "maximum": 10}
    assert schema["$defs"]["Style"]["properties"]["color"] == {"$ref": "#/$defs/Color"}
    good = {"size": 3, "origin": {"x": 0, "y": 0}, "points": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]}
    errors = tools.validate(
        "draw_shape",
        {**good, "size": 11, "origin": {"x": 1}, "points": [{"x": 1, "y": "2"}], "style": {"color": "pink"}},
    )
    assert {error.path for error in errors} == {"/size", "/origin", "/points", "/points/0/y", "/style/color"}
    assert tools.call("draw_shape", {**good, "style": {"color": "red"}}).ok
    [sent] = recorder.sent
    assert str(sent.url) == f"{BASE}/shapes/3"
    assert body(sent) == {"origin": {"x": 0, "y": 0}, "points": good["points"], "style": {"color": "red"}}


# -- OpenAPI 3.0 as 2020-12 ------------------------------------------------------------------------------


def test_nullable_becomes_a_type_union_with_null():
    tools, report, recorder = imported("nullable.json")
    properties = tools.get("update_profile").schema["properties"]
    assert properties["nickname"] == {"type": ["string", "null"], "maxLength": 20}
    assert properties["plan"] == {"type": ["string", "null"], "enum": ["free", "pro", None]}
    assert properties["age"] == {"type": "integer"}
    for fine in ({"nickname": None}, {"plan": None}, {"address": None}, {"address": {"city": "Oslo"}}):
        assert tools.is_valid("update_profile", fine), fine
    for bad in ({"age": None}, {"address": {}}, {"plan": "gold"}, {"nickname": "x" * 21}):
        assert not tools.is_valid("update_profile", bad), bad
    [change] = [change for change in report.changed if "nullable" in change.reason]
    assert "3 places" in change.reason
    assert tools.call("update_profile", {"nickname": None, "age": 3}).ok
    assert body(recorder.sent[0]) == {"nickname": None, "age": 3}


def test_boolean_exclusive_bounds_become_numbers():
    tools, _, _ = imported("exclusive_bounds.json")
    properties = tools.get("find_measures").schema["properties"]
    assert properties["above"] == {"type": "number", "exclusiveMinimum": 0}
    assert properties["below"] == {"type": "number", "exclusiveMaximum": 1}
    assert properties["step"] == {"type": "number", "minimum": 0.5}
    assert not tools.is_valid("find_measures", {"above": 0})
    assert tools.is_valid("find_measures", {"above": 0.1, "below": 0.9, "step": 0.5})
    assert not tools.is_valid("find_measures", {"above": 1, "below": 1})


def test_read_only_properties_are_not_arguments_and_write_only_ones_no_result():
    tools, report, recorder = imported("read_only.json")
    record = tools.get("create_account")
    assert sorted(record.schema["properties"]) == ["email", "password"]
    assert record.schema["required"] == ["email", "password"]
    assert not tools.is_valid("create_account", {"id": "a1", "email": "a@b.c", "password": "x" * 12})
    account = record.output_schema["$defs"]["Account"]
    assert "password" not in account["properties"] and account["required"] == ["id", "email"]
    recorder.answer = lambda request: httpx.Response(201, json={"id": "a1", "email": "a@b.c"})
    assert tools.call("create_account", {"email": "a@b.c", "password": "x" * 12}).output["id"] == "a1"
    reasons = [change.reason for change in report.changed]
    assert any("'id' left out" in reason for reason in reasons)
    assert any(reason.startswith("writeOnly properties left out") for reason in reasons)


def test_external_and_dangling_references_are_refused_with_their_pointers():
    tools, report, _ = imported("external_ref.json")
    assert tools.names() == ["ping"]  # nothing of the refused operations is registered
    refused = refusals(report)
    assert refused["createPet"] == (
        "the $ref 'common.yaml#/components/schemas/Pet' names another document; only references within "
        "this one are followed",
        "/paths/~1pets/post/requestBody/content/application~1json/schema/$ref",
    )
    assert refused["listOwners"][1] == "/paths/~1owners/get/parameters/0/$ref"
    assert "https://example.com/parameters.json#/Limit" in refused["listOwners"][0]
    assert refused["listVets"] == (
        "the $ref '#/components/schemas/Missing' points nowhere",
        "/paths/~1vets/get/parameters/0/schema/$ref",
    )


@pytest.mark.parametrize("index", ["²", "01", "-1", "9"])
def test_a_reference_into_a_list_by_what_is_no_index_there_points_nowhere(index):
    # RFC 6901: an array index is 0 or digits without a leading zero, ASCII only ("²".isdigit() is
    # true, and int("²") raised ValueError out of the import).
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {"operationId": "a", "parameters": [{"$ref": f"#/components/x/{index}"}]}}},
        "components": {"x": [{"name": "q", "in": "query", "schema": {"type": "string"}}]},
    }
    tools = toolreg.ToolRegistry()
    report = toolreg.import_openapi(tools, spec, base_url="http://api.test")
    assert tools.names() == []
    assert refusals(report)["a"] == (
        f"the $ref '#/components/x/{index}' points nowhere",
        "/paths/~1a/get/parameters/0/$ref",
    )


def test_names_two_places_share_are_prefixed_with_each():
    tools, report, recorder = imported("collisions.json")
    schema = tools.get("replace_document").schema
    assert list(schema["properties"]) == [
        "path_id",
        "query_version",
        "header_version",
        "path_id_2",
        "body_id",
        "title",
    ]
    assert schema["required"] == ["path_id", "body_id", "title"]
    renamed = [change.reason for change in report.changed if change.field == "arguments"]
    assert "the path parameter 'id' is the argument 'path_id'" in renamed
    assert "the body's property 'id' is the argument 'body_id'" in renamed
    arguments = {
        "path_id": 7,
        "query_version": 2,
        "header_version": "b",
        "path_id_2": "q",
        "body_id": "d7",
        "title": "T",
    }
    assert tools.call("replace_document", arguments).ok
    [sent] = recorder.sent
    assert (sent.method, str(sent.url)) == ("PUT", f"{BASE}/documents/7?version=2&path_id=q")
    assert sent.headers["version"] == "b"
    assert body(sent) == {"id": "d7", "title": "T"}


def test_long_and_unsendable_names_are_made_short_plain_and_unique():
    tools, report, recorder = imported("long_names.json")
    names = tools.names()
    assert all(len(name) <= 64 for name in names) and len(set(names)) == len(names) == 4
    assert names[1:] == ["get_user", "get_user_2", "get_users_user_id_avatar_png"]
    invoices = names[0]
    assert invoices.startswith("retrieve_the_complete_list_of_every_archived_invoice")
    properties = tools.get(invoices).schema["properties"]
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name) for name in properties)
    assert list(properties)[:2] == ["filter_id", "top"]
    long_one = list(properties)[2]
    assert tools.call(invoices, {"filter_id": "7", "top": 3, long_one: "z"}).ok
    assert str(recorder.sent[0].url) == f"{BASE}/invoices?filter%5Bid%5D=7&%24top=3&{'x' * 70}=z"
    assert tools.call("get_users_user_id_avatar_png", {"user-id": "a/b"}).ok
    assert str(recorder.sent[1].url) == f"{BASE}/users/a%2Fb/avatar.png"
    fields = [change.field for change in report.changed]
    assert fields.count("name") == 2


def test_the_common_styles_write_what_the_openapi_examples_show():
    # OpenAPI 3.0.3's "Style Examples": color as ["blue", "black", "brown"] or {"R": 100, "G": 200, "B": 150}.
    tools, report, recorder = imported("styles.json")
    colors, rgb = ["blue", "black", "brown"], {"R": 100, "G": 200, "B": 150}
    arguments = {
        "color": colors, "rgb": rgb, "spread": rgb, "shade": colors, "tone": colors, "mix": rgb,
        "blend": rgb, "X-Palette": colors, "theme": "dark night",
    }  # fmt: skip
    assert tools.call("paint", arguments).ok
    [sent] = recorder.sent
    url = urlsplit(str(sent.url))
    assert url.path == "/v1/paint/blue,black,brown/R,100,G,200,B,150/R=100,G=200,B=150"
    assert url.query == (
        "shade=blue&shade=black&shade=brown&tone=blue,black,brown&R=100&G=200&B=150&blend=R,100,G,200,B,150"
    )
    assert sent.headers["X-Palette"] == "blue,black,brown"
    assert sent.headers["Cookie"] == "theme=dark%20night"
    refused = refusals(report)
    for name, style in [
        ("matrixStyle", "matrix"), ("labelStyle", "label"), ("deepObjectStyle", "deepObject"),
        ("pipeDelimitedStyle", "pipeDelimited"), ("spaceDelimitedStyle", "spaceDelimited"),
    ]:  # fmt: skip
        reason, pointer = refused.pop(name)
        assert f"has style {style!r}" in reason and pointer.endswith("/parameters/0/style")
    assert refused.pop("reservedQuery")[1] == "/paths/~1reserved/get/parameters/0/allowReserved"
    assert refused.pop("contentParameter")[1] == "/paths/~1content/get/parameters/0/content"
    assert refused.pop("explodedCookie")[1] == "/paths/~1cookies/get/parameters/0"
    assert refused == {}


def test_recursive_schemas_stay_recursive():
    tools, _, recorder = imported("recursive.json")
    record = tools.get("plant_tree")
    assert record.schema["properties"]["children"] == {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    assert record.schema["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    people = record.output_schema["$defs"]
    assert people["Person"]["properties"]["employer"] == {"$ref": "#/$defs/Company"}
    assert people["Company"]["properties"]["founder"] == {"$ref": "#/$defs/Person"}
    tree = {"label": "a", "children": [{"label": "b", "children": [{"label": ""}]}]}
    [error] = tools.validate("plant_tree", tree)
    assert error.path == "/children/0/children/0/label"
    tree["children"][0]["children"][0]["label"] = "c"
    recorder.answer = lambda request: httpx.Response(200, json={"name": "A", "employer": {"name": "B"}})
    assert tools.call("plant_tree", tree).ok
    assert body(recorder.sent[0]) == tree


def test_openapi_3_1_schemas_are_taken_as_2020_12():
    tools, report, recorder = imported("openapi31.json")
    record = tools.get("put_note")
    assert record.schema["properties"]["tags"] == {"$ref": "#/$defs/Tags", "maxItems": 3}
    assert not tools.is_valid("put_note", {"id": "n", "text": None, "tags": ["a", "b", "c", "d"]})
    refused = refusals(report)
    # 3.1 has no "nullable": the registry refuses it, and the pointer leads into the document.
    assert refused["legacyNullable"] == (
        "'nullable' is OpenAPI, not JSON Schema; add \"null\" to a type list instead",
        "/paths/~1legacy/get/parameters/0/schema/nullable",
    )
    assert "multipart/form-data" in refused["uploadFile"][0]
    # A 204 answers no body: the result may be null.
    recorder.answer = lambda request: httpx.Response(204)
    result = tools.call("put_note", {"id": "n1", "text": "hi", "kind": "note"})
    assert result.ok and result.output is None
    assert body(recorder.sent[0]) == {"text": "hi", "kind": "note"}


# -- responses -------------------------------------------------------------------------------------------


def test_what_the_api_answers_becomes_the_result_or_the_error():
    tools, _, recorder = imported("fastmcp_unchecked.json")
    recorder.answer = lambda request: httpx.Response(404, text="no such item\n" + "x" * 5000)
    failed = tools.call("list_items", {})
    assert failed.step == "handler" and failed.attempts == 1
    assert failed.message.startswith(
        "The tool list_items failed: GET /items answered 404 Not Found: no such item x"
    )
    assert len(failed.message) < 300
    recorder.answer = lambda request: httpx.Response(503, text="later")
    assert tools.call("list_items", {}).attempts == 2  # idempotent: tried again, as RetryPolicy allows
    assert tools.call("create_item", {"name": "a"}).attempts == 1
    recorder.answer = lambda request: httpx.Response(
        200, text="plain words", headers={"content-type": "text/plain"}
    )
    assert tools.call("list_items", {}).step == "output"  # text where the document promised JSON
    recorder.answer = lambda request: httpx.Response(
        200, content=b"[NaN]", headers={"content-type": "application/json"}
    )
    assert "not JSON: NaN is not JSON" in tools.call("list_items", {}).message


def test_a_failure_on_the_way_is_tried_again_only_where_that_is_safe():
    def broken(request):
        raise httpx.ConnectError("refused", request=request)

    tools, _, recorder = imported("fastmcp_unchecked.json", broken)
    get = tools.call("list_items", {})
    assert get.attempts == 2 and "failed on the way: ConnectError: refused" in get.message
    post = tools.call("create_item", {"name": "a"})
    assert post.attempts == 1 and "not tried again (POST is not idempotent" in post.message
    assert len(recorder.sent) == 3


def test_an_answer_past_the_byte_limit_is_not_read():
    tools = ToolRegistry(limits={"max_output_bytes": 100})
    tools, _, _ = imported(
        "fastmcp_unchecked.json", lambda request: httpx.Response(200, json=["x" * 200]), tools
    )
    assert "more than 100 bytes" in tools.call("list_items", {}).message


def test_values_their_place_cannot_carry_are_refused_before_sending():
    route = Route(
        "GET",
        "/a",
        (Argument("h", "header", "X-H", "simple"), Argument("q", "query", "q", "form", True)),
    )
    with pytest.raises(ToolError, match="printable ASCII on one line"):
        build_request(route, BASE, {"h": "a\r\nX-Injected: 1"})
    with pytest.raises(ToolError, match="holds an object within its value"):
        build_request(route, BASE, {"q": [{"a": 1}]})
    assert build_request(route, BASE, {"q": [True, 1.5, None], "h": None}).url == f"{BASE}/a?q=true&q=1.5&q="


def test_an_unregistered_handler_sends_nothing():
    recorder = Recorder()
    handler = OperationHandler("t", Route("GET", "/a", ()), BASE, recorder.client(), 1000)
    with pytest.raises(ToolError, match="not registered"):
        handler()
    assert recorder.sent == [] and "GET /a" in repr(handler)


# -- every fixture tool, drawn calls ---------------------------------------------------------------------

# One valid call of each fixture tool, which the drawn calls change.
VALID = {
    ("fastmcp_unchecked.json", "list_items"): {"limit": 3},
    ("fastmcp_unchecked.json", "create_item"): {"name": "pen"},
    ("ref_request_body.json", "create_order"): {"sku": "ABC-1234", "quantity": 1},
    ("ref_parameter.json", "list_users"): {"limit": 1},
    ("nested_ref.json", "draw_shape"): {
        "size": 1,
        "origin": {"x": 0, "y": 0},
        "points": [{"x": 0, "y": 1}] * 2,
    },
    ("nullable.json", "update_profile"): {"nickname": None},
    ("exclusive_bounds.json", "find_measures"): {"above": 1},
    ("read_only.json", "create_account"): {"email": "a@b.c", "password": "p" * 12},
    ("collisions.json", "replace_document"): {"path_id": 1, "body_id": "d", "title": "t"},
    ("styles.json", "paint"): {"color": ["a"], "rgb": {"r": 1}, "spread": {}, "tone": []},
    ("recursive.json", "plant_tree"): {"label": "root", "children": [{"label": "leaf"}]},
    ("openapi31.json", "put_note"): {"id": "n", "text": None},
    ("fastapi_app.json", "create_pet"): {"name": "Rex", "kind": "dog", "age": 3},
    ("fastapi_app.json", "put_tree"): {"name": "t", "label": "root"},
    ("fastapi_app.json", "list_pets"): {"tag": ["a", "b"], "limit": 5},
}
# Values a change draws from: of every JSON type, some valid somewhere, most not.
VALUES = [
    None, True, 0, -1, 1, 3, 41, 0.5, 1e300, "", "a", "a b/c", "ABC-1234", "dog", [], ["a"], [1, "a"],
    {}, {"x": 1}, {"x": 0, "y": 0}, [{"x": 1, "y": 2}], {"label": "x"}, [{"label": ""}],
]  # fmt: skip
# A change: which property (an index into the tool's names, past them a name it does not have), and
# the value it takes, or none (the property left out).
CHANGES = st.lists(st.tuples(st.integers(0, 20), st.none() | st.sampled_from(range(len(VALUES)))), max_size=2)


@pytest.fixture(scope="module")
def every_tool():
    recorder = Recorder()
    tools = ToolRegistry()
    for fixture in sorted({fixture for fixture, _ in VALID}):
        prefix = fixture.removesuffix(".json")
        toolreg.import_openapi(tools, load(fixture), base_url=BASE, client=recorder.client(), prefix=prefix)
    return tools, recorder


def test_each_valid_call_the_drawn_ones_start_from_is_sent(every_tool):
    tools, recorder = every_tool
    before = len(recorder.sent)
    for (fixture, name), arguments in VALID.items():
        assert tools.call(f"{fixture.removesuffix('.json')}.{name}", arguments).step != "arguments", name
    assert len(recorder.sent) - before == len(VALID)


@given(st.sampled_from(sorted(VALID)), CHANGES)
def test_drawn_calls_reach_the_api_exactly_when_valid(every_tool, tool, changes):
    tools, recorder = every_tool
    fixture, name = tool
    name = f"{fixture.removesuffix('.json')}.{name}"
    record = tools.get(name)
    arguments = dict(VALID[tool])
    keys = sorted(record.schema["properties"])
    for index, value in changes:
        key = keys[index] if index < len(keys) else "extra"
        if value is None:
            arguments.pop(key, None)
        else:
            arguments[key] = VALUES[value]
    before = len(recorder.sent)
    result = tools.call(name, arguments)
    valid = jsonschema.Draft202012Validator(record.schema).is_valid(arguments)  # the oracle
    assert result.step != "arguments" if valid else result.step == "arguments"
    sent = recorder.sent[before:]
    if not valid:
        assert sent == []
        return
    [request] = sent[:1]
    route = record.handler.route
    assert request.method == route.method
    assert urlsplit(str(request.url)).path.startswith("/v1" + route.path.split("{")[0])
    query = dict(parse_qsl(urlsplit(str(request.url)).query, keep_blank_values=True))
    for argument in route.arguments:
        value = arguments.get(argument.name)
        if argument.location == "query" and isinstance(value, str):
            assert query[argument.sent] == value
        if argument.location == "body" and argument.name in arguments:
            assert body(request)[argument.sent] == value
        if argument.location == "payload" and argument.name in arguments:
            assert body(request) == value


# -- real documents --------------------------------------------------------------------------------------


def test_a_fastapi_document_imports_whole():
    tools, report, recorder = imported("fastapi_app.json")
    assert report.ok and report.changed == ()
    assert report.registered == {
        "listPets": "list_pets", "createPet": "create_pet", "getPet": "get_pet",
        "deletePet": "delete_pet", "putTree": "put_tree",
    }  # fmt: skip
    create = tools.get("create_pet").schema
    assert list(create["properties"]) == ["x-request-id", "name", "kind", "age", "owner", "tags"]
    assert create["required"] == ["name", "kind", "age"]
    assert create["properties"]["kind"] == {"$ref": "#/$defs/Kind"}
    assert create["$defs"]["Kind"] == {"type": "string", "enum": ["cat", "dog"], "title": "Kind"}
    assert create["properties"]["owner"]["anyOf"] == [{"$ref": "#/$defs/Owner"}, {"type": "null"}]
    listed = tools.get("list_pets")
    assert listed.schema["properties"]["limit"]["minimum"] == 1 and listed.idempotent
    assert listed.output_schema["items"] == {"$ref": "#/$defs/Pet"}
    assert tools.get("delete_pet").output_schema is None  # 204: no body
    # FastAPI names a model read in and written out apart: Tree-Input and Tree-Output.
    tree = tools.get("put_tree")
    assert tree.schema["$defs"]["Tree-Input"]["properties"]["children"]["items"] == {
        "$ref": "#/$defs/Tree-Input"
    }
    children = {"items": {"$ref": "#/$defs/Tree-Output"}, "type": "array", "title": "Children", "default": []}
    assert tree.output_schema["$defs"] == {
        "Tree-Output": {
            "properties": {"label": {"type": "string", "title": "Label"}, "children": children},
            "type": "object",
            "required": ["label"],
            "title": "Tree",
        }
    }
    assert not tools.is_valid("create_pet", {"name": "", "kind": "cow", "age": 41})
    pet = {"name": "Rex", "kind": "dog", "age": 3, "id": 1, "tags": [], "owner": None}
    recorder.answer = lambda request: httpx.Response(201, json=pet)
    result = tools.call("create_pet", {"name": "Rex", "kind": "dog", "age": 3, "x-request-id": "r1"})
    assert result.ok and result.output == pet
    assert recorder.sent[0].headers["x-request-id"] == "r1"
    assert tools.call("get_pet", {"pet_id": 1, "session": "s"}).ok
    assert recorder.sent[1].headers["cookie"] == "session=s"


# The RapidAPI documents NESTFUL ships (tests/openapi/nestful/README.md), and the name each tool takes.
NESTFUL = {
    "Alpha_Vantage_CURRENCY_EXCHANGE_RATE.json": "alpha_vantage_currency_exchange_rate",
    "CipherCircuit_Math_Assistant_CalculateAllArithmeticOperations.json": (
        "cipher_circuit_math_assistant_calculate_all_arithmetic_ddebedd8"
    ),
    "LocalBusinessData.json": "local_business_data",
    "Real-Time_Product_Search_Search.json": "real_time_product_search_search",
    "SkyScrapperFlightSearch.json": "sky_scrapper_flight_search",
    "Spotify_Scraper_List_Artist_Albums_Singles.json": "spotify_scraper_list_artist_albums_singles",
    "TripadvisorSearchHotels.json": "tripadvisor_search_hotels",
    "WeatherAPI.com_Forecast_Weather_API.json": "weather_api.com_forecast_weather_api",
}


@pytest.mark.parametrize("document", sorted(NESTFUL))
def test_rapidapi_documents_import_cleanly(document):
    tools, report, recorder = imported(f"nestful/{document}")
    assert report.ok and list(report.registered.values()) == [NESTFUL[document]]
    record = tools.get(NESTFUL[document])
    stand_ins = {"string": "v", "number": 1, "integer": 1, "boolean": True, "array": ["v"]}
    arguments = {
        name: stand_ins[record.schema["properties"][name].get("type", "string")]
        for name in record.schema.get("required", [])
    }
    recorder.answer = lambda request: httpx.Response(500, text="stand-in")
    assert tools.call(record.name, arguments).step == "handler"
    [sent] = recorder.sent
    assert sent.method == "GET"
    assert sorted(dict(parse_qsl(sent.url.query.decode()))) == sorted(arguments)


# -- what the document may hold --------------------------------------------------------------------------


def operation(**fields):
    return {"responses": {"200": {"description": "ok"}}, **fields}


def document(paths, **fields):
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths, **fields}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ([], "an OpenAPI document is a JSON object, not list"),
        ({"swagger": "2.0"}, "Swagger 2.0"),
        ({"info": {}}, "names its version in 'openapi'"),
        ({"openapi": "4.0.0"}, "OpenAPI '4.0.0' is not read"),
        ({"openapi": "3.1.0", "jsonSchemaDialect": "https://example.com/s"}, "jsonSchemaDialect"),
        ({"openapi": "3.0.0", "paths": []}, "'paths' is an object"),
    ],
)
def test_what_is_no_openapi_3_document_is_refused_whole(spec, message):
    with pytest.raises(InvalidToolError, match=re.escape(message)):
        imported(spec)


def test_the_operations_and_the_options_are_bounded_and_checked():
    many = document({f"/p{number}": {"get": operation()} for number in range(MAX_OPERATIONS + 1)})
    with pytest.raises(InvalidToolError, match="more than 2000 operations"):
        imported(many)
    tools, report, _ = imported(many, operations=["GET /p7", "nothing"])
    assert tools.names() == ["get_p7"] and list(refusals(report)) == ["nothing"]
    with pytest.raises(InvalidToolError, match="not the string"):
        imported(many, operations="GET /p7")
    with pytest.raises(InvalidToolError, match="leaves 12 characters"):
        imported(many, prefix="p" * 51, operations=[])
    small = document({"/a": {"get": operation(operationId="a")}})
    with pytest.raises(InvalidToolError, match="base_url"):
        toolreg.import_openapi(ToolRegistry(), small, base_url="ftp://x")
    with pytest.raises(InvalidToolError, match="is not a URL"):
        toolreg.import_openapi(ToolRegistry(), small, base_url="http://[::1")
    with pytest.raises(InvalidToolError, match="base_url is a string"):
        toolreg.import_openapi(ToolRegistry(), small, base_url=None)
    with pytest.raises(InvalidToolError, match=r"httpx\.Client, not str"):
        toolreg.import_openapi(ToolRegistry(), small, base_url=BASE, client="x")
    tools = ToolRegistry()
    assert toolreg.import_openapi(tools, small, base_url=BASE, prefix="shop").registered == {"a": "shop.a"}
    assert "registered already" in refusals(imported(small, tools=tools, prefix="shop")[1])["a"][0]


def test_operations_that_cannot_be_read_are_refused_each_with_its_pointer():
    loop = {"$ref": "#/components/parameters/A"}
    spec = document(
        {
            "/ok/{id}": {
                "get": operation(operationId="fine", parameters=[{"name": "id", "in": "path", "schema": {}}])
            },
            "nopath": {"get": operation()},
            "/item": [],
            "/ref": {"$ref": "#/nowhere"},
            "/op": {"get": []},
            "/same": {"get": operation(operationId="twice"), "post": operation(operationId="twice")},
            "/missing/{id}": {"get": operation(operationId="noParameter")},
            "/extra": {"get": operation(operationId="extra", parameters=[{"name": "id", "in": "path"}])},
            "/loop": {"get": operation(operationId="loop", parameters=[loop])},
            "/where": {"get": operation(operationId="where", parameters=[{"name": "a", "in": "body"}])},
            "/nameless": {"get": operation(operationId="nameless", parameters=[{"in": "query"}])},
            "/body": {"post": operation(operationId="noContent", requestBody={"content": {}})},
            "/params": {"get": operation(operationId="params", parameters={})},
            "/explode": {
                "get": operation(
                    operationId="explode", parameters=[{"name": "a", "in": "query", "explode": 1}]
                )
            },
            "/bad": {"get": operation(operationId="badRef", parameters=[{"$ref": 7}])},
            "/pointer": {"get": operation(operationId="badPointer", parameters=[{"$ref": "#components"}])},
            "/schema": {
                "get": operation(
                    operationId="badSchema", parameters=[{"name": "a", "in": "query", "schema": []}]
                )
            },
            "/id": {
                "get": operation(
                    operationId="identifier",
                    parameters=[{"name": "a", "in": "query", "schema": {"$id": "x"}}],
                )
            },
        },
        components={"parameters": {"A": {"$ref": "#/components/parameters/B"}, "B": loop}},
    )
    tools, report, _ = imported(spec)
    assert tools.names() == ["fine"]
    refused = refusals(report)
    assert refused.pop("nopath") == ("a path starts with '/'", "/paths/nopath")
    assert refused.pop("/item") == ("a path item is an object", "/paths/~1item")
    assert refused.pop("/ref") == ("the $ref '#/nowhere' points nowhere", "/paths/~1ref/$ref")
    assert refused.pop("GET /op") == ("an operation is an object", "/paths/~1op/get")
    assert "is another operation's too" in refused.pop("GET /same")[0]
    assert "is another operation's too" in refused.pop("POST /same")[0]
    assert refused.pop("noParameter") == (
        "the path names {id}, which no path parameter defines",
        "/paths/~1missing~1{id}",
    )
    assert refused.pop("extra")[0] == "the path parameter 'id' is not in the path '/extra'"
    assert refused.pop("loop")[0] == "more than 32 references in a row"
    assert "not 'body'" in refused.pop("where")[0]
    assert "non-empty string 'name'" in refused.pop("nameless")[0]
    assert refused.pop("noContent")[1] == "/paths/~1body/post/requestBody"
    assert refused.pop("params")[0] == "parameters is an array"
    assert refused.pop("explode")[0] == "explode is true or false"
    assert refused.pop("badRef")[0] == "a $ref is a string, not int"
    assert "not a JSON Pointer" in refused.pop("badPointer")[0]
    assert refused.pop("badSchema")[0] == "a schema is an object, not an array"
    assert refused.pop("identifier")[1] == "/paths/~1id/get/parameters/0/schema/$id"
    assert refused == {}


def test_hostile_schemas_are_refused_within_the_limits():
    deep: dict = {"type": "object"}
    for _ in range(20):
        deep = {"type": "array", "items": deep}
    wide = {"type": "object", "properties": {f"p{n}": {"type": "string"} for n in range(60)}}
    looped: dict = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped  # a YAML alias can build this
    spec = document(
        {
            "/deep": {
                "get": operation(
                    operationId="deep", parameters=[{"name": "a", "in": "query", "schema": deep}]
                )
            },
            "/wide": {
                "post": operation(
                    operationId="wide", requestBody={"content": {"application/json": {"schema": wide}}}
                )
            },
            "/looped": {
                "get": operation(
                    operationId="looped", parameters=[{"name": "a", "in": "query", "schema": looped}]
                )
            },
            "/broad": {
                "get": operation(
                    operationId="broad", parameters=[{"name": "a", "in": "query", "schema": wide}]
                )
            },
        }
    )
    big = {"$ref": "#/components/schemas/Big"}
    for path in ("/big", "/bigger"):  # the second is refused without walking Big again
        spec["paths"][path] = {
            "get": operation(operationId=path[1:], parameters=[{"name": "a", "in": "query", "schema": big}])
        }
    spec["components"] = {"schemas": {"Big": wide}}
    tools = ToolRegistry(limits={"max_schema_depth": 10, "max_schema_size": 50})
    _, report, _ = imported(spec, tools=tools)
    refused = refusals(report)
    assert "nests deeper than 10 levels" in refused["deep"][0]
    assert "more than 50 subschemas" in refused["wide"][0]
    assert refused["broad"] == (
        "a schema holds more than 50 subschemas (Limits.max_schema_size)",
        "/paths/~1broad/get/parameters/0/schema/properties/p49",
    )
    assert "nests deeper than 10 levels" in refused["looped"][0]
    assert (
        refused["big"]
        == refused["bigger"]
        == (
            "a schema holds more than 50 subschemas (Limits.max_schema_size)",
            "/components/schemas/Big/properties/p49",
        )
    )
    assert len(tools) == 0


def test_the_rewrites_corner_cases():
    reply = {"$ref": "#/components/responses/Pet/content/application~1json/schema"}
    pet = {
        "type": "object",
        "properties": {"id": {"$ref": "#/components/schemas/Id"}, "n": {"type": "integer"}},
    }
    legacy = document(
        {
            "/a/{p}": {
                "post": operation(
                    operationId="3dPrint",
                    parameters=[
                        {"name": "p", "in": "path", "description": "The p.", "schema": {"type": "string"}},
                        {
                            "name": "q",
                            "in": "query",
                            "schema": {"$ref": "#/paths/~1a~1%7Bp%7D/post/parameters/0/schema"},
                        },
                        {
                            "name": "c",
                            "in": "cookie",
                            "schema": {"$ref": "#/components/schemas/Id", "maxLength": 3},
                        },
                        {
                            "name": "t",
                            "in": "query",
                            "schema": {"type": ["string", "integer"], "nullable": True},
                        },
                    ],
                    requestBody={
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
                    },
                    responses={"201": {"content": {"application/json": {"schema": {"allOf": [reply]}}}}},
                ),
            },
            "/b": {
                "get": operation(
                    operationId="badNullable",
                    parameters=[{"name": "a", "in": "query", "schema": {"nullable": "yes"}}],
                )
            },
            "/c": {
                "post": operation(
                    operationId="notFlat",
                    requestBody={
                        "content": {"application/json": {"schema": {"allOf": [{"type": "object"}]}}}
                    },
                )
            },
            "/d": {"get": {"operationId": "noResponses"}},
            "/e": {
                "get": operation(
                    operationId="tooMany", parameters=[{"name": f"p{n}", "in": "query"} for n in range(1001)]
                )
            },
            "/f": {"get": operation(operationId="notAnObject", parameters=[5])},
            "/g": {
                "get": operation(
                    operationId="strayCookie",
                    parameters=[{"name": "a", "in": "cookie", "schema": {"$ref": "#/x"}}],
                )
            },
            "/h": {
                "post": operation(
                    operationId="strayProperty",
                    parameters=[{"name": "any", "in": "query", "schema": True}],
                    requestBody={
                        "content": {
                            "application/json": {"schema": {"properties": {"a": True, "b": {"$ref": "#/y"}}}}
                        }
                    },
                )
            },
        },
        components={
            "schemas": {"Id": {"type": "string", "readOnly": True}, "Pet": pet},
            "responses": {
                "Pet": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}
            },
        },
    )
    tools, report, recorder = imported(legacy)
    record = tools.get("op_3d_print")
    assert list(record.schema["properties"]) == ["p", "q", "c", "t", "n"]  # the readOnly id left out
    assert record.schema["properties"]["p"] == {"type": "string", "description": "The p."}
    assert record.schema["properties"]["q"] == {"$ref": "#/$defs/schema"}
    assert record.schema["properties"]["c"] == {"$ref": "#/$defs/Id"}  # 3.0: a $ref's siblings are ignored
    assert record.schema["properties"]["t"] == {"type": ["string", "integer", "null"]}
    assert record.output_schema["allOf"] == [{"$ref": "#/$defs/schema_2"}]
    assert record.output_schema["$defs"]["schema_2"] == {"$ref": "#/$defs/Pet"}
    assert any("beside a $ref" in change.reason for change in report.changed)
    refused = refusals(report)
    assert refused.pop("badNullable") == (
        "nullable is true or false, not a string",
        "/paths/~1b/get/parameters/0/schema/nullable",
    )
    assert refused.pop("tooMany")[0] == "more than 1000 parameters"
    assert refused.pop("notAnObject")[0] == "a parameter is an object"
    assert refused.pop("strayCookie")[0] == "the $ref '#/x' points nowhere"
    assert refused.pop("strayProperty") == (
        "the $ref '#/y' points nowhere",
        "/paths/~1h/post/requestBody/content/application~1json/schema/properties/b/$ref",
    )
    assert refused == {}
    assert tools.get("not_flat").schema["properties"] == {"body": {"allOf": [{"type": "object"}]}}
    assert tools.get("no_responses").output_schema is None
    assert tools.call("op_3d_print", {"p": "x y", "q": "1", "n": 2}).ok
    assert str(recorder.sent[0].url) == f"{BASE}/a/x%20y?q=1"
    modern = {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "paths": {
            "/a": {
                "post": operation(
                    operationId="a",
                    requestBody={
                        "content": {
                            "application/json": {
                                "schema": {
                                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                                    "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"type": "object"}],
                                    "discriminator": {
                                        "propertyName": "kind",
                                        "mapping": {"cat": "#/components/schemas/Cat"},
                                    },
                                }
                            }
                        }
                    },
                )
            },
            "/b": {
                "get": operation(
                    operationId="b",
                    parameters=[
                        {
                            "name": "a",
                            "in": "query",
                            "schema": {"$schema": "http://json-schema.org/draft-07/schema#"},
                        }
                    ],
                )
            },
        },
        "components": {
            "schemas": {
                "Cat": {"type": "object", "description": "A cat.", "$ref": "#/components/schemas/Base"},
                "Base": {},
            }
        },
    }
    tools, report, _ = imported(modern)
    body_schema = tools.get("a").schema["properties"]["body"]
    assert body_schema["discriminator"] == {"propertyName": "kind"} and "$schema" not in body_schema
    assert tools.get("a").schema["$defs"]["Cat"] == {
        "type": "object",
        "description": "A cat.",
        "$ref": "#/$defs/Base",
    }
    assert "is not 2020-12" in refusals(report)["b"][0]


def test_schemas_deeper_than_python_can_follow_are_refused():
    deep: dict = {"type": "string"}
    for _ in range(5000):
        deep = {"not": deep}
    spec = document(
        {"/a": {"get": operation(operationId="a", parameters=[{"name": "a", "in": "query", "schema": deep}])}}
    )
    _, report, _ = imported(spec, tools=ToolRegistry(limits={"max_schema_depth": 100_000}))
    assert refusals(report)["a"] == ("its schemas nest too deeply", "/paths/~1a/get")


def test_what_cannot_be_written_is_refused_before_sending():
    cookie = Route("GET", "/a", (Argument("c", "cookie", "c", "form", True),), "application/json", True)
    with pytest.raises(ToolError, match="is a cookie, which holds no an array"):
        build_request(cookie, BASE, {"c": [1]})
    huge = 10**5000
    with pytest.raises(ToolError, match="the body cannot be written as JSON"):
        build_request(
            Route("POST", "/a", (Argument("b", "payload", "body"),), "application/json"), BASE, {"b": huge}
        )
    with pytest.raises(ToolError, match="cannot be written"):
        build_request(Route("GET", "/a", (Argument("q", "query", "q", "form", True),)), BASE, {"q": huge})


def test_a_client_failure_that_is_no_transport_failure_is_a_tool_error():
    def redirected(request):
        raise httpx.TooManyRedirects("too many", request=request)

    tools, _, _ = imported("fastmcp_unchecked.json", redirected)
    result = tools.call("list_items", {})
    assert result.attempts == 1 and "GET /items failed: TooManyRedirects: too many" in result.message


def test_what_cannot_be_kept_as_written_is_said():
    spec = document(
        {
            "/a": {
                "post": operation(
                    operationId="a",
                    summary="Line one\nand two\x1b[31m",
                    description="More\r\nwords\x00.",
                    parameters=[
                        {"name": "Accept", "in": "header", "schema": {"type": "string"}},
                        {"name": "q", "in": "query", "schema": {"type": "string", "example": "x", "xml": {}}},
                    ],
                    requestBody={"content": {"application/json": {"schema": {"type": "array"}}}},
                    responses={
                        "200": {
                            "content": {
                                "application/json": {"schema": {"type": "string", "pattern": "(?P<x>a)"}}
                            }
                        }
                    },
                ),
                "get": operation(
                    operationId="b",
                    responses={
                        "200": {"content": {"application/json": {"schema": {"$ref": "elsewhere.json"}}}}
                    },
                ),
                "put": operation(
                    operationId="c",
                    responses={"200": {"content": {"text/plain": {"schema": {"type": "string"}}}}},
                ),
            }
        }
    )
    tools, report, recorder = imported(spec)
    assert report.ok
    record = tools.get("a")
    assert (record.description, record.details) == ("Line one and two[31m", "More\nwords.")
    assert list(record.schema["properties"]) == ["q", "body"]  # the header Accept is the client's
    assert record.schema["properties"]["q"] == {"type": "string", "examples": ["x"]}
    assert record.output_schema is None and tools.get("b").output_schema is None
    assert tools.get("c").output_schema is None  # text: nothing to check it against
    said = {(change.name, change.field): change.reason for change in report.changed}
    assert said[("a", "description")] == "line breaks and control characters made plain"
    assert said[("a", "output_schema")].endswith(
        "(at '/paths/~1a/post/responses/200/content/application~1json/schema/pattern')"
    )
    assert said[("b", "output_schema")].startswith(
        "left out: the $ref 'elsewhere.json' names another document"
    )
    assert tools.call("a", {}).ok and recorder.sent[0].content == b""  # the optional body left out
    assert tools.call("a", {"body": [1]}).ok and body(recorder.sent[1]) == [1]


def test_without_httpx_the_import_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(ImportError, match=re.escape("pip install 'pytoolreg[openapi]'")):
        httpx_module()


def test_the_plan_is_read_without_httpx_and_each_operation_once():
    planned = plan(load("nested_ref.json"), ToolRegistry().limits)
    [drawn] = planned.operations
    # A pointer into the arguments' schema leads back into the document, through $defs too.
    assert drawn.pointer("/$defs/Point/properties/x/type") == "/components/schemas/Point/properties/x/type"
    assert drawn.pointer("/properties/points/minItems") == (
        "/paths/~1shapes~1{size}/post/requestBody/content/application~1json/schema/properties/points/minItems"
    )
    assert drawn.pointer("not a pointer") == drawn.pointer("") == "/paths/~1shapes~1{size}/post"


# -- the command -----------------------------------------------------------------------------------------


def test_the_command_prints_what_would_be_registered(capsys, tmp_path):
    assert main(["openapi", str(FIXTURES / "collisions.json"), "--base-url", "https://api.example.com/"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "tool     replace_document: PUT https://api.example.com/documents/{id} "
        "(path_id, query_version, header_version, path_id_2, body_id, title)"
    )
    assert lines[-1] == "1 would be registered, 0 refused"
    assert main(["openapi", str(FIXTURES / "external_ref.json")]) == 1
    out = capsys.readouterr().out
    assert "refused  listVets: the $ref '#/components/schemas/Missing' points nowhere at '/paths/" in out
    yaml_spec = tmp_path / "api.yaml"
    yaml_spec.write_text(
        "openapi: 3.0.3\npaths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\n"
    )
    assert main(["openapi", str(yaml_spec)]) == 0
    assert capsys.readouterr().out.startswith("tool     get_a: GET /a (no arguments)")


@pytest.mark.parametrize(
    ("text", "name", "said"),
    [
        ("{", "api.json", "not JSON"),
        ("a: [", "api.yml", "not YAML"),
        ('{"swagger": "2.0"}', "api.json", "Swagger 2.0"),
    ],
)
def test_the_command_refuses_bad_input(capsys, tmp_path, text, name, said):
    path = tmp_path / name
    path.write_text(text)
    assert main(["openapi", str(path)]) == 2
    assert said in capsys.readouterr().err


def test_the_command_refuses_a_bad_base_url_and_yaml_without_pyyaml(capsys, monkeypatch, tmp_path):
    assert main(["openapi", str(FIXTURES / "collisions.json"), "--base-url", "nowhere"]) == 2
    assert "base_url 'nowhere'" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "yaml", None)
    path = tmp_path / "api.yaml"
    path.write_text("openapi: 3.0.3\n")
    assert main(["openapi", str(path)]) == 2
    assert "reading YAML needs PyYAML" in capsys.readouterr().err
