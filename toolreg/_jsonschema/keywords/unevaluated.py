"""unevaluatedProperties and unevaluatedItems: what no other keyword evaluated matches their schema."""

from __future__ import annotations

from typing import Any

from ..errors import ValidationError, Words, deferred_error, freeze
from ..findings import Check, Evaluated, Place, noted, spend
from ..pointer import InstanceKey
from ..sites import Site
from ..wording import extra_words


def unevaluated_properties(value: Any, site: Site) -> Check:
    """Each property that no other keyword here evaluated (``properties``, ``patternProperties``,
    ``additionalProperties``, or a subschema applied in place that the object passes) matches the
    schema. Its schema object's check collects those as it goes (see :class:`Evaluated`)."""
    child = None if value is False else site.subschema(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if not isinstance(instance, dict) or not instance:
            return
        notes = noted(errors, instance) or Evaluated(instance)
        if not notes.every:
            spend(errors, len(instance))
            left = [name for name in instance if name not in notes.found]
            if child is not None:
                for name in left:
                    child(instance[name], (path, InstanceKey(name)), errors)
            elif left:
                errors.append(deferred_error(site, path, tuple(left)))
        notes.every = True  # for the schemas around: the rest is evaluated here

    return check


def unevaluated_words(site: Site, extra: tuple[str, ...]) -> Words:
    return extra_words(extra, ", which no other keyword here allows", "no keyword here allows", {})


def unevaluated_items(value: Any, site: Site) -> Check:
    """Each item that no other keyword here evaluated (``prefixItems``, ``items``, ``contains``, or a
    subschema applied in place that the array passes) matches the schema. Its schema object's check
    collects those as it goes (see :class:`Evaluated`)."""
    child = None if value is False else site.subschema(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if not isinstance(instance, list) or not instance:
            return
        notes = noted(errors, instance) or Evaluated(instance)
        if not notes.every:
            spend(errors, len(instance))
            left = [index for index in range(len(instance)) if index not in notes.found]
            if child is not None:
                for index in left:
                    child(instance[index], (path, index), errors)
            elif left:
                which = ", ".join(map(str, left))
                noun = "item" if len(left) == 1 else "items"
                message = f"must not have the {noun} at {which}, which no other keyword here allows"
                errors.append(site.failure(path, message, extra=freeze(left)))
        notes.every = True  # for the schemas around: the rest is evaluated here

    return check
