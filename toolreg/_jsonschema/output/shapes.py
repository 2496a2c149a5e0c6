"""The units of one recorded evaluation written in each output format's shape."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..findings import Place
from ..pointer import place_pointer
from .recording import NOTHING, Unit, trail_text

__all__ = ["Shaper"]


class Shaper:
    """The units of one evaluation, written in one format's shape. It keeps stacks of its own rather
    than recursing, since units nest several to each level of the instance."""

    def __init__(self) -> None:
        self.pointers: dict[int, str] = {}  # each place's pointer, written once, by the place's id

    def shape(self, root: Unit, format: str) -> dict[str, Any]:  # noqa: A002
        if format == "basic":
            return self._basic(root)
        if format in ("detailed", "verbose"):
            return self._tree(root, verbose=format == "verbose")
        if format == "hierarchical":
            return self._hierarchical(root)
        return {"valid": root.valid, "details": self._listed(root)}

    def _pointer(self, place: Place) -> str:
        pointer = self.pointers.get(id(place))
        if pointer is None:
            pointer = self.pointers[id(place)] = place_pointer(place)
        return pointer

    def _head(self, unit: Unit) -> dict[str, Any]:
        return {
            "valid": unit.valid,
            "keywordLocation": trail_text(unit.evaluation),
            "absoluteKeywordLocation": unit.absolute,
            "instanceLocation": self._pointer(unit.instance),
        }

    # -- 2019-09 and 2020-12 ------------------------------------------------------------------

    def _basic(self, root: Unit) -> dict[str, Any]:
        """The error units below a failing root, depth first (failures inside passing units are
        not), or the annotation units below a passing one (those of failing units are dropped)."""
        head = self._head(root)
        units: list[dict[str, Any]] = []
        pending = [root]
        while pending:
            unit = pending.pop()
            if root.valid:
                if unit.annotation is not NOTHING:
                    units.append({**self._head(unit), "annotation": unit.annotation})
            else:
                units.extend({**self._head(unit), "error": message} for message in unit.errors)
            pending.extend(child for child in reversed(unit.children) if child.valid == root.valid)
        head["annotations" if root.valid else "errors"] = units
        return head

    def _tree(self, root: Unit, verbose: bool) -> dict[str, Any]:
        """Each unit with its children nested; ``detailed`` keeps only what carries the answer (the
        failures of a failing unit, the annotations of a passing one) and collapses single children.
        Children are shaped before their parent: a stack holds each unit entered, whether its
        annotations are kept, the children left to shape and those shaped."""
        stack: list[tuple[Unit, bool, Iterator[Unit], list[dict[str, Any]]]] = []

        def enter(unit: Unit, kept: bool) -> None:
            children = (child for child in unit.children if verbose or child.valid == unit.valid)
            stack.append((unit, kept and unit.valid, children, []))

        enter(root, True)
        while True:
            unit, kept, children, shaped = stack[-1]
            child = next(children, None)
            if child is not None:
                enter(child, kept)
                continue
            stack.pop()
            shaped.extend({**self._head(unit), "error": message} for message in unit.errors)
            joined = self._joined(unit, shaped, kept, not stack, verbose)
            if not stack:
                return joined if joined is not None else self._head(root)
            if joined is not None:
                stack[-1][3].append(joined)

    def _joined(
        self, unit: Unit, below: list[dict[str, Any]], kept: bool, top: bool, verbose: bool
    ) -> dict[str, Any] | None:
        head = self._head(unit)
        if unit.annotation is not NOTHING and kept:
            head["annotation"] = unit.annotation
        if not verbose and not top:
            if unit.valid and "annotation" not in head and not below:
                return None
            if len(below) == 1 and "annotation" not in head:
                return below[0]
        if below:
            head["errors" if not unit.valid else "annotations"] = below
        elif not unit.valid:
            return None
        return head

    # -- the newer proposal ------------------------------------------------------------------

    def _proposal_unit(self, unit: Unit, kept: bool) -> dict[str, Any]:
        """A schema unit of the newer form: its keywords' errors and annotations as objects. Only a
        failing unit holds errors or dropped annotations, as the official output schema says; a passing
        unit holds its annotations where every unit above it passed too (``kept``), and none below a
        failing one, where they are dropped with the rest, as ``verbose`` drops them."""
        head: dict[str, Any] = {
            "valid": unit.valid,
            "evaluationPath": trail_text(unit.evaluation),
            "schemaLocation": unit.absolute,
            "instanceLocation": self._pointer(unit.instance),
        }
        errors = {child.keyword: "; ".join(child.errors) for child in unit.children if child.errors}
        if unit.errors:  # a `false` schema: its one error, named for what it is
            errors["false"] = "; ".join(unit.errors)
        annotations = {
            child.keyword: child.annotation
            for child in unit.children
            if child.annotation is not NOTHING and child.valid
        }
        if errors and not unit.valid:
            head["errors"] = errors
        if annotations and not unit.valid:
            head["droppedAnnotations"] = annotations
        elif annotations and kept:
            head["annotations"] = annotations
        return head

    @staticmethod
    def _schemas_below(unit: Unit) -> list[Unit]:
        return [schema for keyword in unit.children for schema in keyword.children]

    def _hierarchical(self, root: Unit) -> dict[str, Any]:
        """Each schema unit with the schema units below it in ``details``, from a stack."""
        shaped = self._proposal_unit(root, root.valid)
        pending = [(root, root.valid, shaped)]
        while pending:
            unit, kept, head = pending.pop()
            below = self._schemas_below(unit)
            if below:
                details = head["details"] = []
                for child in below:
                    child_kept = kept and child.valid
                    details.append(self._proposal_unit(child, child_kept))
                    pending.append((child, child_kept, details[-1]))
        return shaped

    def _listed(self, root: Unit) -> list[dict[str, Any]]:
        """Every schema unit holding errors or annotations, depth first."""
        listed = []
        pending = [(root, True)]
        while pending:
            unit, kept = pending.pop()
            kept = kept and unit.valid
            head = self._proposal_unit(unit, kept)
            if head.keys() & {"errors", "annotations", "droppedAnnotations"}:
                listed.append(head)
            pending.extend((child, kept) for child in reversed(self._schemas_below(unit)))
        return listed
