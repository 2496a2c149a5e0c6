"""What became of one call, :class:`CallResult`: below both the calling layer, which makes results, and
the providers, which write them as answers in their shapes."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from ._feedback import printable
from ._jsonschema.errors import ValidationError
from ._repair import Repair, repair_note

__all__ = ["CallResult"]


@dataclass(frozen=True)
class CallResult:
    """What became of one call: the handler's ``output`` when ``ok``; else the ``step`` that stopped it
    (``unknown_tool``, ``arguments``, ``busy``, ``timeout``, ``handler`` or ``output``), the ``errors``
    found in the arguments or the output, and ``message``, text a model can act on. ``attempts`` counts
    the handler's runs. At the ``handler`` step, ``detail`` is the exception whole (``Type: message``)
    for the harness's logs, where ``message`` shows the model the message of a
    :class:`~toolreg.ToolError` and only the type of any other exception; ``traceback`` is kept only
    when asked for. ``repairs`` lists the repairs made to the arguments before the handler ran (with
    ``repair=True``), and ``note`` says them to the model."""

    tool: str
    ok: bool
    output: Any = None
    step: str | None = None
    errors: tuple[ValidationError, ...] = ()
    message: str = ""
    attempts: int = 0
    traceback: str | None = field(default=None, repr=False)
    detail: str | None = None
    repairs: tuple[Repair, ...] = ()

    @property
    def note(self) -> str:
        """The repairs made to the arguments, worded for the model so that it sends the right shape
        next time (each provider's answer carries it beside the output); ``""`` when none were made."""
        return repair_note(self.repairs)

    @functools.cached_property
    def text(self) -> str:
        """The output as text (a string as it is, anything else as JSON), or the failure's message.

        A call's output is JSON that can be written, or the call failed at its ``output`` step; for a
        result made otherwise, what cannot be written is described rather than raised."""
        if not self.ok:
            return self.message
        if isinstance(self.output, str):
            return self.output
        try:
            return json.dumps(self.output, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            return f"(a result that is not JSON: {_shown(self.output)})"

    def __repr__(self) -> str:
        # Every part shown safely: a repr of an integer past Python's digit limit would raise.
        parts = [f"tool={self.tool!r}", f"ok={self.ok!r}"]
        if self.ok:
            parts.append(f"output={_shown(self.output)}")
        else:
            where = ", ".join(printable(error.path) or "/" for error in self.errors[:5])
            more = ", …" if len(self.errors) > 5 else ""
            parts += [f"step={self.step!r}", f"message={self.message!r}"]
            parts += [f"detail={self.detail!r}"] if self.detail is not None else []
            parts += [f"errors=<{len(self.errors)} at {where}{more}>"] if self.errors else []
        if self.repairs:
            where = ", ".join(printable(repair.pointer) or "/" for repair in self.repairs[:5])
            parts.append(f"repairs=<{len(self.repairs)} at {where}{', …' if len(self.repairs) > 5 else ''}>")
        return f"CallResult({', '.join([*parts, f'attempts={self.attempts!r}'])})"


def _shown(value: Any) -> str:
    try:
        return repr(value)
    except ValueError:  # an integer with more digits than Python writes
        return f"<a {type(value).__name__} holding an integer too long to write>"
