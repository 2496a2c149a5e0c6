"""Format assertion: off by default, on when asked or when a meta-schema's vocabulary says so."""

import pytest

import toolreg
from toolreg._jsonschema.formats import FORMATS

# One valid and one invalid string for each format toolreg asserts.
EXAMPLES = {
    "date-time": ("2026-12-03T18:30:00.5+01:00", "2026-12-03 18:30:00Z"),
    "date": ("2024-02-29", "2023-02-29"),
    "time": ("23:59:60Z", "23:59:60+01:00"),
    "duration": ("P1Y2M3DT4H5M6S", "P1Y2D"),
    "email": ('"joe bloggs"@example.com', "joe bloggs@example.com"),
    "idn-email": ("실례@실례.테스트", "user\uff20example.com"),  # a fullwidth at sign
    "hostname": ("xn--9n2bp8q.xn--9t4b11yi5a", "host_name"),
    "ipv4": ("192.168.0.1", "192.168.0.01"),
    "ipv6": ("::ffff:192.168.0.1", "fe80::a%eth1"),
    "uri": ("ldap://[2001:db8::7]/c=GB?objectClass?one", "//example.com/no-scheme"),
    "uri-reference": ("./this:that", "1:b"),
    "iri": ("http://ƒøø.ßår/?∂éœ=πîx#πîüx", "âππ"),
    "iri-reference": ("#ƒrägmênt", "#ƒräg\\mênt"),
    "uri-template": ("http://example.com/{term:1}/{term}", "{v:10000}"),
    "uuid": ("2EB8AA08-AA98-11EA-B4AA-73B441D16380", "2eb8aa08aa9811eab4aa73b441d16380"),
    "json-pointer": ("/a~1b/~0", "/~2"),
    "relative-json-pointer": ("0#", "01#"),
    "regex": ("^(?<year>\\d{4})$", "(unclosed"),
}


def test_every_format_has_its_examples():
    assert set(EXAMPLES) == set(FORMATS)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_format_accepts_and_refuses_when_asserting(name):
    good, bad = EXAMPLES[name]
    validator = toolreg.compile({"format": name}, assert_formats=True)
    assert validator.is_valid(good)
    [error] = validator.validate(bad)
    assert (error.keyword, error.path, error.schema_path) == ("format", "", "/format")
    assert error.message == f"must be a valid {name}"
    assert error.facts["format"] == name
    # The message does not repeat the instance, so masking has nothing to hide.
    assert bad not in error.masked().message


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_format_is_an_annotation_by_default(name):
    _, bad = EXAMPLES[name]
    assert toolreg.compile({"format": name}).is_valid(bad)
    assert toolreg.validate({"format": name}, bad) == []


def test_only_strings_are_judged_and_unknown_formats_are_refused_when_asserted():
    validator = toolreg.compile({"format": "email"}, assert_formats=True)
    assert all(validator.is_valid(value) for value in (12, 1.5, None, True, [], {}))
    # A misspelt format would be silently an annotation: asserting, only the ones toolreg knows go.
    with pytest.raises(toolreg.SchemaError, match="names no format toolreg knows"):
        toolreg.compile({"format": "not-a-format"}, assert_formats=True)
    assert toolreg.compile({"format": "not-a-format"}).is_valid("anything")
    assert toolreg.compile({"format": "idn-hostname"}, assert_formats=True).is_valid("-")


def test_the_fast_path_and_the_reference_walk_agree_when_asserting():
    schema = {"properties": {"when": {"format": "date"}, "who": {"type": "string", "format": "email"}}}
    validator = toolreg.compile(schema, assert_formats=True)
    instance = {"when": "2023-02-29", "who": "nobody"}
    assert validator.validate(instance) == validator.validate_reference(instance)
    assert [error.path for error in validator.validate(instance)] == ["/when", "/who"]


def test_a_registry_asserts_formats_for_every_tool_when_asked():
    schema = {
        "type": "object",
        "properties": {"at": {"type": "string", "format": "date-time"}},
        "additionalProperties": False,
    }
    strict, lenient = toolreg.ToolRegistry(assert_formats=True), toolreg.ToolRegistry()
    for tools in (strict, lenient):
        tools.register("cal.add", schema, lambda at=None: at)
    assert not strict.is_valid("cal.add", {"at": "tomorrow"})
    assert lenient.is_valid("cal.add", {"at": "tomorrow"})


def test_a_meta_schema_with_the_format_assertion_vocabulary_turns_it_on():
    meta = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$vocabulary": {
            "https://json-schema.org/draft/2020-12/vocab/core": True,
            "https://json-schema.org/draft/2020-12/vocab/format-assertion": False,
        },
    }
    schema = {"$schema": "https://example.com/meta", "format": "ipv4"}
    validator = toolreg.compile(schema, documents={"https://example.com/meta": meta})
    assert validator.is_valid("127.0.0.1")
    assert not validator.is_valid("not-an-ipv4")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("uri", "a:" + "%" * 100_000),
        ("uri", "http://" + "a" * 100_000 + ":x"),
        ("uri-reference", "1" + "a" * 100_000 + ":"),
        ("iri", "é:" + "é" * 100_000 + "\\"),
        ("email", "a." * 50_000 + "@"),
        ("idn-email", "é" * 100_000 + "@" + "é-" * 50_000),
        ("hostname", "a-" * 100_000),
        ("uri-template", "{" + "a." * 50_000 + "}}"),
        ("json-pointer", "/" + "~0" * 50_000 + "~"),
        ("relative-json-pointer", "1" * 100_000 + "/~"),
        ("duration", "P" + "1" * 100_000),
        ("date-time", "2020-01-01T00:00:00." + "1" * 100_000),
    ],
)
def test_long_hostile_strings_get_an_answer(name, text):
    # Each test is a fullmatch with no two ways to match one place: these answer at once.
    assert FORMATS[name](text) is False


# Cases the official suite's optional/format files reach too, each checked against its RFC, so that a
# clone without the suite still covers them.
@pytest.mark.parametrize(
    ("name", "text", "valid"),
    [
        ("time", "24:00:00Z", False),  # RFC 3339: time-hour is 00-23
        ("time", "12:60:00Z", False),
        ("time", "12:00:00+24:00", False),  # an offset's hour is 00-23 too
        ("hostname", "ab--c.example", False),  # RFC 5891 4.2.3.1: "--" in the 3rd and 4th places
        ("hostname", "xn--99999999999999.com", False),  # an A-label whose Punycode does not decode
        ("email", "joe@[127.0.0.1]", True),  # RFC 5321 4.1.3: address literals
        ("email", "joe@[IPv6:::1]", True),
        ("email", "joe@[300.0.0.1]", False),
        ("email", "joe@[IPv6:1:2]", False),
        ("ipv6", "12345::", False),  # a group of more than four hex digits
        ("uri", "http://[::1]:80/", True),  # RFC 3986 3.2.2: an IP-literal, then a port
        ("uri", "http://[v1.x]/", True),  # IPvFuture
        ("uri", "http://[::1]x/", False),  # after the bracket, only a port or the path
        ("uri", "http://[::1/", False),  # no closing bracket
        ("uri", "http://[::1]:8a/", False),  # a port is digits
        ("uri", "http://us^er@example.com/", False),  # "^" is not allowed in userinfo
        ("uri", "http://user:pw@example.com/", True),
    ],
)
def test_format_edges_each_rfc_decides(name, text, valid):
    assert FORMATS[name](text) is valid
    assert toolreg.compile({"format": name}, assert_formats=True).is_valid(text) is valid
