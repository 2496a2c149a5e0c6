"""The core keywords: $ref, $dynamicRef and $recursiveRef, $id and the anchors, $vocabulary, $defs."""

from __future__ import annotations

import re
from typing import Any

from ..findings import Check, no_check
from ..sites import Reading, Site
from ..wording import show


def ref(value: Any, site: Site) -> Check:
    """The instance matches the schema at a local JSON Pointer (``#``, ``#/$defs/name``, ``#/...``)."""
    if not isinstance(value, str):
        site.refuse(f"must be a string, not {show(value)}")
    return site.compiler.reference(value, site.location)


def ref_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return reading.fits(reading.target(value), instance)


def id_(value: Any, site: Site) -> Check:
    """The URI of this schema resource, against which the ``$ref``s inside it resolve."""
    if not isinstance(value, str):
        site.refuse(f"must be a string holding a URI, not {show(value)}")
    from urllib.parse import urlsplit  # here, as references.resolve imports it: few schemas have "$id"

    try:
        urlsplit(value)
    except ValueError as error:
        site.refuse(f"is not a URI reference: {error}")
    if "#" in value.rstrip("#") and site.compiler.dialect != "draft-07":
        site.refuse("must not have a fragment; name a schema with '$anchor' instead")
    return no_check


def anchor(value: Any, site: Site) -> Check:
    """A name a ``$ref`` can use as its fragment (``"#name"``) for this schema."""
    grammar, said = _ANCHORS.get(site.compiler.dialect, _ANCHORS["2020-12"])
    if not isinstance(value, str) or not grammar.fullmatch(value):
        site.refuse(f"must be a name of {said}, not {show(value)}")
    return no_check


# Each dialect's grammar for an anchor's name, as its meta-schema's pattern states it: 2020-12's
# "^[A-Za-z_][-A-Za-z0-9._]*$"; 2019-09's "^[A-Za-z][-A-Za-z0-9.:_]*$", XML's NCName as its core
# specification (8.2.3) words it, which allows a colon and requires a letter first.
_ANCHORS = {
    "2020-12": (
        re.compile(r"[A-Za-z_][-A-Za-z0-9._]*"),
        "letters, digits, '-', '_' and '.' that starts with a letter or '_'",
    ),
    "2019-09": (
        re.compile(r"[A-Za-z][-A-Za-z0-9.:_]*"),
        "letters, digits, '-', '_', ':' and '.' that starts with a letter",
    ),
}


def definitions(value: Any, site: Site) -> Check:
    """Schemas kept for ``$ref``; each is checked now, and none applies by itself."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping names to schemas")
    for name, schema in value.items():
        site.subschema(schema, name)
    return no_check


def dynamic_ref(value: Any, site: Site) -> Check:
    """Like ``$ref``; but when it names a ``$dynamicAnchor``, the outermost schema resource the walk
    has entered that declares the same anchor decides."""
    if not isinstance(value, str):
        site.refuse(f"must be a string, not {show(value)}")
    return site.compiler.dynamic_reference(value, site.location)


def recursive_ref(value: Any, site: Site) -> Check:
    """2019-09's ``$dynamicRef``: ``"#"``, the root of this resource, unless that root says
    ``"$recursiveAnchor": true``; then the outermost resource entered that says the same."""
    if value != "#":
        site.refuse(f"must be '#', the only value 2019-09 gives it, not {show(value)}")
    return site.compiler.recursive_reference(site.location)


def recursive_anchor(value: Any, site: Site) -> Check:
    """Marks a resource's root as a place a ``$recursiveRef`` may go on to (2019-09)."""
    if not isinstance(value, bool):
        site.refuse(f"must be a boolean, not {show(value)}")
    return no_check


def vocabulary(value: Any, site: Site) -> Check:
    """In a meta-schema, the vocabularies a schema declaring it uses (URI: required); the schema walk
    reads it from the meta-schema a ``$schema`` names, and it checks nothing itself."""
    if not isinstance(value, dict) or not all(isinstance(required, bool) for required in value.values()):
        site.refuse("must be an object mapping vocabulary URIs to booleans")
    return no_check
