"""The ``format`` values toolreg can assert, each a test of a string that runs in linear time."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .regex import is_regex

__all__ = ["FORMATS", "FORMAT_SIZES", "KNOWN_FORMATS"]

# Every pattern here is matched whole (fullmatch), in ASCII mode, and has no two ways to match one
# place, so a hostile string costs time in proportion to its length.
_A = re.ASCII


class _Pattern:
    """Stands for a compiled pattern until its first match, which compiles it and puts it in this
    stand-in's place, ``home[key]`` (the module's global ``key`` unless a table of patterns is given),
    where every later match finds it with nothing to test. Compiling them all at import took 15 ms, as
    long as the rest of the validator's import: the patterns of IRIs spell out much of Unicode."""

    __slots__ = ("_home", "_key", "_source", "_flags")

    def __init__(self, key: str, source: str, flags: int = 0, home: dict[str, Any] | None = None) -> None:
        self._home = globals() if home is None else home
        self._key, self._source, self._flags = key, source, flags

    def fullmatch(self, text: str) -> re.Match[str] | None:
        compiled = re.compile(self._source, self._flags)
        self._home[self._key] = compiled
        return compiled.fullmatch(text)


# What a format's test finds where its pattern is: the stand-in until the first match. So each test
# reads the global or the table's entry at every call, and nothing keeps the stand-in.
_Matcher = re.Pattern[str] | _Pattern


_DATE: _Matcher = _Pattern("_DATE", r"([0-9]{4})-([0-9]{2})-([0-9]{2})", _A)
_TIME: _Matcher = _Pattern(
    "_TIME", r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))", _A
)
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _date(text: str) -> bool:
    """RFC 3339 full-date: a day that exists, February 29 in leap years only."""
    found = _DATE.fullmatch(text)
    if found is None:
        return False
    year, month, day = (int(part) for part in found.groups())
    if not 1 <= month <= 12:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _DAYS_IN_MONTH[month - 1] + (month == 2 and leap)


def _time(text: str) -> bool:
    """RFC 3339 full-time: an offset is required, and a leap second falls at 23:59:60 UTC only."""
    found = _TIME.fullmatch(text)
    if found is None:
        return False
    hour, minute, second = int(found[1]), int(found[2]), int(found[3])
    offset_hour, offset_minute = (int(found[6]), int(found[7])) if found[5] else (0, 0)
    if hour > 23 or minute > 59 or second > 60 or offset_hour > 23 or offset_minute > 59:
        return False
    if second == 60:
        sign = -1 if found[5] == "+" else 1
        utc = (hour * 60 + minute + sign * (offset_hour * 60 + offset_minute)) % (24 * 60)
        return utc == 23 * 60 + 59
    return True


def _date_time(text: str) -> bool:
    date, separator, time = text[:10], text[10:11], text[11:]
    return separator in ("T", "t") and _date(date) and _time(time)


_DURATION_TIME = r"T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"
_DURATION: _Matcher = _Pattern(
    "_DURATION",
    rf"P(?:(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)(?:{_DURATION_TIME})?"
    rf"|{_DURATION_TIME}|[0-9]+W)",
    _A,
)


def _duration(text: str) -> bool:
    """RFC 3339 appendix A: units in order, none skipped in between, weeks alone."""
    return _DURATION.fullmatch(text) is not None


_LABEL: _Matcher = _Pattern("_LABEL", r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?", _A)


def _hostname(text: str) -> bool:
    """RFC 1123 labels of letters, digits and inner hyphens, at most 63 each and 253 in all; only an
    A-label (``xn--``) has ``--`` in its third and fourth places, and it must hold a U-label."""
    if not text or len(text) > 253:
        return False
    for label in text.split("."):
        if not _LABEL.fullmatch(label):
            return False
        if label[2:4] == "--" and not (label[:2].lower() == "xn" and _u_label(label[4:])):
            return False
    return True


def _u_label(encoded: str) -> bool:
    """Punycode that decodes, and re-encodes to itself, into a label RFC 5891 (4.2.3) allows: not
    ASCII alone, no ``--`` in the third and fourth places, no hyphen at either end, and no combining
    mark first. IDNA2008's code point tables and contextual rules (RFC 5892) are not checked."""
    try:
        decoded = encoded.encode("ascii").decode("punycode")
    except UnicodeError:
        return False
    import unicodedata  # at the first such label, as ipaddress is imported at the first address

    return (
        decoded.encode("punycode").decode("ascii") == encoded.lower()
        and not decoded.isascii()
        and decoded[2:4] != "--"
        and not decoded.startswith("-")
        and not decoded.endswith("-")
        and not unicodedata.category(decoded[0]).startswith("M")
    )


_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL: _Matcher = _Pattern("_LOCAL", rf"{_ATOM}(?:\.{_ATOM})*|\"(?:[ !#-\[\]-~]|\\[ -~])*\"", _A)
_IDN_ATOM = r"(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\x00-\x7f])+"
_IDN_LOCAL: _Matcher = _Pattern(
    "_IDN_LOCAL", rf"{_IDN_ATOM}(?:\.{_IDN_ATOM})*|\"(?:[ !#-\[\]-~]|\\[ -~]|[^\x00-\x7f])*\""
)
_IDN_LABEL: _Matcher = _Pattern(
    "_IDN_LABEL",
    r"(?:[A-Za-z0-9]|[^\x00-\x7f])(?:(?:[A-Za-z0-9-]|[^\x00-\x7f])*(?:[A-Za-z0-9]|[^\x00-\x7f]))?",
)


def _mailbox(text: str, local_part: _Matcher, domain: Callable[[str], bool]) -> bool:
    local, at, host = text.rpartition("@")
    if not at or not local_part.fullmatch(local):
        return False
    if host.startswith("[") and host.endswith("]"):
        literal = host[1:-1]
        if literal[:5].lower() == "ipv6:":
            return _ipv6(literal[5:])
        return _ipv4(literal)
    return domain(host)


def _email(text: str) -> bool:
    """RFC 5321 Mailbox: a dot-atom or quoted local part, and a host name or an address literal."""
    return _mailbox(text, _LOCAL, _hostname)


def _idn_domain(text: str) -> bool:
    return 0 < len(text) <= 253 and all(_IDN_LABEL.fullmatch(label) for label in text.split("."))


def _idn_email(text: str) -> bool:
    """RFC 6531: an e-mail address whose local part and domain may hold any non-ASCII character."""
    return _mailbox(text, _IDN_LOCAL, _idn_domain)


def _ipv4(text: str) -> bool:
    """Four decimal octets in ASCII digits, without leading zeros (Python's reading)."""
    import ipaddress  # at the first address tested: only ipv4 and ipv6 need it, and it costs the import

    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def _ipv6(text: str) -> bool:
    """RFC 4291's text forms; a zone index (``%eth0``) is not part of an address."""
    if "%" in text:
        return False
    import ipaddress

    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


# RFC 3986 and RFC 3987: the characters each part of a URI may hold, written out, with the non-ASCII
# ones an IRI adds (ucschar; iprivate in the query).
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_UCSCHAR = (
    "\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef\U00010000-\U0001fffd\U00020000-\U0002fffd"
    "\U00030000-\U0003fffd\U00040000-\U0004fffd\U00050000-\U0005fffd\U00060000-\U0006fffd"
    "\U00070000-\U0007fffd\U00080000-\U0008fffd\U00090000-\U0009fffd\U000a0000-\U000afffd"
    "\U000b0000-\U000bfffd\U000c0000-\U000cfffd\U000d0000-\U000dfffd\U000e1000-\U000efffd"
)
_IPRIVATE = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
_PERCENT = r"%[0-9A-Fa-f]{2}"


# What each part of a URI may hold besides the unreserved characters, the sub-delimiters and escapes.
_PART_EXTRAS = {"userinfo": ":", "host": "", "path": ":@/", "query": ":@/?", "fragment": ":@/?"}


def _parts(iri: bool) -> dict[str, _Matcher]:
    """The patterns of a URI's parts, or with ``iri`` an IRI's."""
    table: dict[str, _Matcher] = {}
    for part, extra in _PART_EXTRAS.items():
        wider = (_UCSCHAR + _IPRIVATE if part == "query" else _UCSCHAR) if iri else ""
        allowed = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}{extra}{wider}]|{_PERCENT})*"
        table[part] = _Pattern(part, allowed, home=table)
    return table


_SPLIT: _Matcher = _Pattern(
    "_SPLIT", r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.DOTALL
)
_SCHEME: _Matcher = _Pattern("_SCHEME", r"[A-Za-z][A-Za-z0-9+.-]*", _A)
_PORT: _Matcher = _Pattern("_PORT", r"[0-9]*", _A)
_IP_FUTURE: _Matcher = _Pattern("_IP_FUTURE", rf"[vV][0-9A-Fa-f]+\.[{_UNRESERVED}{_SUB_DELIMS}:]+", _A)
_PARTS = {iri: _parts(iri) for iri in (False, True)}


def _authority(text: str, parts: dict[str, _Matcher]) -> bool:
    userinfo, at, host_port = text.rpartition("@") if "@" in text else ("", "", text)
    if at and not parts["userinfo"].fullmatch(userinfo):
        return False
    if host_port.startswith("["):
        literal, bracket, port = host_port[1:].partition("]")
        if not bracket or (port and not (port[0] == ":" and _PORT.fullmatch(port[1:]))):
            return False
        return _ipv6(literal) or _IP_FUTURE.fullmatch(literal) is not None
    host, _, port = host_port.partition(":") if ":" in host_port else (host_port, "", "")
    return parts["host"].fullmatch(host) is not None and _PORT.fullmatch(port) is not None


def _uri_like(text: str, *, iri: bool, absolute: bool) -> bool:
    """A URI (or IRI) reference; with ``absolute``, one with a scheme."""
    found = _SPLIT.fullmatch(text)
    if found is None:
        return False
    scheme, authority, path, query, fragment = found.groups()
    parts = _PARTS[iri]
    if scheme is not None and not _SCHEME.fullmatch(scheme):
        return False
    if absolute and scheme is None:
        return False
    if authority is not None and not _authority(authority, parts):
        return False
    # A relative reference without an authority cannot have a colon in its first segment.
    if scheme is None and authority is None and ":" in path.partition("/")[0]:
        return False
    return (
        parts["path"].fullmatch(path) is not None
        and (query is None or parts["query"].fullmatch(query) is not None)
        and (fragment is None or parts["fragment"].fullmatch(fragment) is not None)
    )


_VARCHAR = rf"(?:[A-Za-z0-9_]|{_PERCENT})"
_VARSPEC = rf"{_VARCHAR}+(?:\.{_VARCHAR}+)*(?::[1-9][0-9]{{0,3}}|\*)?"
_URI_TEMPLATE: _Matcher = _Pattern(
    "_URI_TEMPLATE",
    rf"(?:[!#$&'()*+,\-./0-9:;=?@A-Z\[\]_a-z~{_UCSCHAR}{_IPRIVATE}]|{_PERCENT}"
    rf"|\{{[+#./;?&]?{_VARSPEC}(?:,{_VARSPEC})*\}})*",
)

_JSON_POINTER: _Matcher = _Pattern("_JSON_POINTER", r"(?:/(?:[^~/]|~[01])*)*", re.DOTALL)
_RELATIVE_JSON_POINTER: _Matcher = _Pattern(
    "_RELATIVE_JSON_POINTER", r"(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~[01])*)*)", re.DOTALL
)
_UUID: _Matcher = _Pattern(
    "_UUID", r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", _A
)


# Each format toolreg asserts when asked, and its test. Any other format stays an annotation.
FORMATS: dict[str, Callable[[str], bool]] = {
    "date-time": _date_time,
    "date": _date,
    "time": _time,
    "duration": _duration,
    "email": _email,
    "idn-email": _idn_email,
    "hostname": _hostname,
    "ipv4": _ipv4,
    "ipv6": _ipv6,
    "uri": lambda text: _uri_like(text, iri=False, absolute=True),
    "uri-reference": lambda text: _uri_like(text, iri=False, absolute=False),
    "iri": lambda text: _uri_like(text, iri=True, absolute=True),
    "iri-reference": lambda text: _uri_like(text, iri=True, absolute=False),
    "uri-template": lambda text: _URI_TEMPLATE.fullmatch(text) is not None,
    "uuid": lambda text: _UUID.fullmatch(text) is not None,
    "json-pointer": lambda text: _JSON_POINTER.fullmatch(text) is not None,
    "relative-json-pointer": lambda text: _RELATIVE_JSON_POINTER.fullmatch(text) is not None,
    "regex": is_regex,
}

# What each test costs at each character, as a pattern's size does (see ``regex.search_steps``): the
# most measured on long strings built to go far, at 20 ns an instruction. Reading a regex costs
# about 1.1 µs a character; a URI template's nested alternatives 0.35 µs; an e-mail address's
# parts 0.16 µs; every other test under 0.07 µs.
# Every format name toolreg knows: those it asserts, and idn-hostname, which the specification
# defines and toolreg leaves an annotation (IDNA2008's tables are not built in). With format assertion
# on, any other name is refused, so that a misspelt one ("date_time") is never silently an annotation.
KNOWN_FORMATS = frozenset(FORMATS) | {"idn-hostname"}

FORMAT_SIZES: dict[str, int] = {
    name: {"regex": 64, "uri-template": 32, "email": 16, "idn-email": 16}.get(name, 4) for name in FORMATS
}
