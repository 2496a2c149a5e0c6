"""RFC 6901 pointers."""

from toolreg._jsonschema.pointer import escape, split, to_pointer, unescape


def test_escaping_round_trips():
    for token in ["a", "", "a/b", "~", "~1", "~0/", "é"]:
        assert unescape(escape(token)) == token
    assert escape("~1") == "~01"
    assert to_pointer(()) == ""
    assert to_pointer(("user", "email")) == "/user/email"
    assert to_pointer(("tags", 1)) == "/tags/1"
    assert split("/a~1b/~0") == ["a/b", "~"]
